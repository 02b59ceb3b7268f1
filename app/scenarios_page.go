package app

import (
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// scenariosPage lists the example scenarios, each one link away from the
// playground.
type scenariosPage struct {
	app.Compo
}

func (s *scenariosPage) OnNav(ctx app.Context) {
	setPage(ctx, "Scenarios", "Example scenarios of Kafka transactions to run in the playground.")
}

// libraryTopics groups the library by topic, in teaching order: the
// order a learner meets them in the lessons. Every scenario is in exactly
// one topic (TestEveryScenarioHasATopic).
var libraryTopics = []struct {
	Title string
	Slugs []string
}{
	{"One transaction, end to end", []string{"happy-path", "abort", "idempotent-retry", "consume-transform-produce"}},
	{"The chapter's thought questions", []string{"add-offsets", "markers-fail", "coordinator-epoch"}},
	{"Coordinators that fail", []string{"coordinator-crash-before-prepare", "coordinator-crash-during-markers", "acks-and-failover", "transactional-id-expiration"}},
	{"Reading transactions", []string{"read-committed-lso", "hanging-transaction"}},
	{"Zombies and timeouts", []string{"zombie-fencing-init", "zombie-fenced-on-produce", "transaction-timeout"}},
	{"Kafka 4: what KIP-890 fixes (the Jepsen pack)", []string{"transaction-version-2", "jepsen-delayed-produce", "jepsen-delayed-endtxn", "jepsen-aborted-read"}},
	{"A safety mechanism switched off", []string{"broken/add-offsets", "broken/add-partitions", "broken/coordinator-epoch", "broken/coordinator-epoch-off",
		"broken/epoch-fencing", "broken/sequence-check", "broken/lso-bound", "broken/aborted-filter",
		"broken/partition-verification", "broken/epoch-bump"}},
}

func (s *scenariosPage) Render() app.UI {
	return shell(PathScenarios,
		app.H1().Text("Scenarios"),
		app.P().Class("lead").Text("Each scenario shows one behaviour of Kafka transactions. Open one in the playground to step through it, crash a broker halfway, or break a mechanism and watch what it was preventing."),
		app.Range(libraryTopics).Slice(func(t int) app.UI {
			topic := libraryTopics[t]
			var list []Scenario
			for _, slug := range topic.Slugs {
				if sc, ok := scenarioBySlug(slug); ok {
					list = append(list, sc)
				}
			}
			return app.Section().Class("scenario-topic").Body(
				app.H2().Text(topic.Title),
				s.renderList(topic.Title, list),
			)
		}),
	)
}

func (s *scenariosPage) renderList(topic string, list []Scenario) app.UI {
	return app.Ul().Class("scenario-list").Aria("label", topic).Body(
		app.Range(list).Slice(func(i int) app.UI {
			sc := list[i]
			class := "scenario"
			if strings.HasPrefix(sc.Slug, "broken/") {
				class += " broken"
			}
			return app.Li().Class(class).DataSet("slug", sc.Slug).Body(
				app.H3().Body(app.A().Href(playgroundLink(sc.Slug)).Text(sc.Title)),
				app.If(strings.HasPrefix(sc.Slug, "broken/"), func() app.UI {
					return app.P().Class("tag").Text("a mechanism switched off")
				}),
				app.Range(paragraphs(sc.Purpose)).Slice(func(j int) app.UI {
					return app.P().Class("narrative").Text(paragraphs(sc.Purpose)[j])
				}),
				app.A().Class("button").Href(playgroundLink(sc.Slug)).
					Aria("label", "Open “"+sc.Title+"” in the playground").
					Text("Open in the playground"),
			)
		}),
	)
}

// paragraphs splits a narrative on its blank lines and joins the lines of
// each paragraph, as the script's comment wrapped them.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// playgroundLink opens a library scenario in the playground. A query
// parameter rather than a path keeps one playground route, which the static
// export needs (one HTML file per route). The slash of "broken/…" stays
// readable: it is legal in a query.
func playgroundLink(slug string) string {
	return PathPlayground + "?scenario=" + strings.ReplaceAll(url.QueryEscape(slug), "%2F", "/")
}
