package pages

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/playground"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// scenariosPage lists the example scenarios, each one link away from the
// playground.
type scenariosPage struct {
	app.Compo
	lang doc.Lang // of the address: /zh/scenarios is Chinese
}

func (s *scenariosPage) OnNav(ctx app.Context) {
	s.lang = uitext.LangOf(ctx.Page().URL().Path)
	site.SetPageIn(ctx, s.lang, uitext.Tr(s.lang, "scenarios.title"), uitext.Tr(s.lang, "scenarios.description"))
}

func (s *scenariosPage) Render() app.UI {
	l := s.lang
	return site.ShellIn(l, uitext.InLang(l, site.PathScenarios), true,
		app.H1().Text(uitext.Tr(l, "scenarios.title")),
		app.P().Class("lead").Text(uitext.Tr(l, "scenarios.lead")),
		app.Range(playground.LibraryTopics).Slice(func(t int) app.UI {
			topic := playground.LibraryTopics[t]
			var list []playground.Scenario
			for _, slug := range topic.Slugs {
				if sc, ok := playground.ScenarioBySlugIn(l, slug); ok {
					list = append(list, sc)
				}
			}
			return app.Section().Class("scenario-topic").Body(
				app.H2().Text(playground.TopicTitle(l, t)),
				s.renderList(playground.TopicTitle(l, t), list),
			)
		}),
	)
}

func (s *scenariosPage) renderList(topic string, list []playground.Scenario) app.UI {
	l := s.lang
	return app.Ul().Class("scenario-list").Aria("label", topic).Body(
		app.Range(list).Slice(func(i int) app.UI {
			sc := list[i]
			class := "scenario"
			if strings.HasPrefix(sc.Slug, "broken/") {
				class += " broken"
			}
			title, purpose := sc.Title, playground.Paragraphs(sc.Purpose)
			return app.Li().Class(class).DataSet("slug", sc.Slug).Body(
				app.H3().Body(app.A().Href(site.PlaygroundLinkIn(l, sc.Slug)).Text(title)),
				app.If(strings.HasPrefix(sc.Slug, "broken/"), func() app.UI {
					return app.P().Class("tag").Text(uitext.Tr(l, "scenarios.broken"))
				}),
				app.Range(purpose).Slice(func(j int) app.UI {
					return app.P().Class("narrative").Text(purpose[j])
				}),
				app.A().Class("button").Href(site.PlaygroundLinkIn(l, sc.Slug)).
					Aria("label", fmt.Sprintf(uitext.Tr(l, "scenarios.open.label"), title)).
					Text(uitext.Tr(l, "scenarios.open")),
			)
		}),
	)
}
