package app

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/safety"
	"txnlab/lessons/doc"
)

// scenariosPage lists the example scenarios, each one link away from the
// playground.
type scenariosPage struct {
	app.Compo
	lang doc.Lang // of the address: /zh/scenarios is Chinese
}

func (s *scenariosPage) OnNav(ctx app.Context) {
	s.lang = langOf(ctx.Page().URL().Path)
	setPageIn(ctx, s.lang, tr(s.lang, "scenarios.title"), tr(s.lang, "scenarios.description"))
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
	{"Reading transactions", []string{"read-committed-lso", "hanging-transaction", "hanging-after-reload", "find-and-abort-hanging"}},
	{"Zombies and timeouts", []string{"zombie-fencing-init", "zombie-fenced-on-produce", "zombie-fenced-by-group", "transaction-timeout"}},
	{"Kafka 4: what KIP-890 fixes (the Jepsen pack)", []string{"transaction-version-2", "jepsen-delayed-produce", "jepsen-delayed-endtxn", "jepsen-aborted-read", "late-marker"}},
	{"A safety mechanism switched off", brokenSlugs()},
}

// brokenSlugs are the library's examples of a broken mechanism: one per
// mechanism of core/safety's table, in its order, named broken/NAME
// (core/explore's TestBrokenLibrary holds the library to that), and the
// third thought question run with its check off next to its mechanism.
func brokenSlugs() []string {
	var out []string
	for _, m := range safety.Mechanisms {
		out = append(out, "broken/"+m.Name)
		if m == safety.CoordinatorEpoch {
			out = append(out, "broken/coordinator-epoch-off")
		}
	}
	return out
}

func (s *scenariosPage) Render() app.UI {
	l := s.lang
	return shellIn(l, inLang(l, PathScenarios), true,
		app.H1().Text(tr(l, "scenarios.title")),
		app.P().Class("lead").Text(tr(l, "scenarios.lead")),
		app.Range(libraryTopics).Slice(func(t int) app.UI {
			topic := libraryTopics[t]
			var list []Scenario
			for _, slug := range topic.Slugs {
				if sc, ok := scenarioBySlugIn(l, slug); ok {
					list = append(list, sc)
				}
			}
			return app.Section().Class("scenario-topic").Body(
				app.H2().Text(topicTitle(l, t)),
				s.renderList(topicTitle(l, t), list),
			)
		}),
	)
}

func (s *scenariosPage) renderList(topic string, list []Scenario) app.UI {
	l := s.lang
	return app.Ul().Class("scenario-list").Aria("label", topic).Body(
		app.Range(list).Slice(func(i int) app.UI {
			sc := list[i]
			class := "scenario"
			if strings.HasPrefix(sc.Slug, "broken/") {
				class += " broken"
			}
			title, purpose := sc.Title, paragraphs(sc.Purpose)
			return app.Li().Class(class).DataSet("slug", sc.Slug).Body(
				app.H3().Body(app.A().Href(playgroundLinkIn(l, sc.Slug)).Text(title)),
				app.If(strings.HasPrefix(sc.Slug, "broken/"), func() app.UI {
					return app.P().Class("tag").Text(tr(l, "scenarios.broken"))
				}),
				app.Range(purpose).Slice(func(j int) app.UI {
					return app.P().Class("narrative").Text(purpose[j])
				}),
				app.A().Class("button").Href(playgroundLinkIn(l, sc.Slug)).
					Aria("label", fmt.Sprintf(tr(l, "scenarios.open.label"), title)).
					Text(tr(l, "scenarios.open")),
			)
		}),
	)
}

// paragraphs splits a narrative on its blank lines and joins the lines of
// each paragraph, as the script's comment wrapped them.
func paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		if p = unwrap(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// playgroundLink opens a library scenario in the playground. A query
// parameter rather than a path keeps one playground route, which the static
// export needs (one HTML file per route). The slash of "broken/…" stays
// readable: it is legal in a query.
func playgroundLink(slug string) string { return playgroundLinkIn(doc.English, slug) }

// playgroundLinkIn is playgroundLink on the playground in lang.
func playgroundLinkIn[L ~string](lang L, slug string) string {
	return inLang(doc.Lang(lang), PathPlayground) + "?scenario=" + strings.ReplaceAll(url.QueryEscape(slug), "%2F", "/")
}
