package app

import (
	"net/url"

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

func (s *scenariosPage) Render() app.UI {
	list := Library()
	return shell(PathScenarios,
		app.H1().Text("Scenarios"),
		app.P().Text("Each scenario shows one behaviour of Kafka transactions. Open one to step through it."),
		app.Ul().Class("scenario-list").Aria("label", "Scenario library").Body(
			app.Range(list).Slice(func(i int) app.UI {
				sc := list[i]
				return app.Li().Class("scenario").Body(
					app.H2().Text(sc.Title),
					app.P().Text(sc.Purpose),
					app.A().Href(playgroundLink(sc.Slug)).Text("Open in the playground"),
				)
			}),
		),
	)
}

// playgroundLink opens a library scenario in the playground. A query
// parameter rather than a path keeps one playground route, which the static
// export needs (one HTML file per route).
func playgroundLink(slug string) string {
	return PathPlayground + "?scenario=" + url.QueryEscape(slug)
}
