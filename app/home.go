package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/site"
	"txnlab/lessons/doc"
)

// Description is the site's one-sentence summary: the home page's
// description and the default one the server gives every page.
const Description = "A playground that teaches Apache Kafka transactions by running them: " +
	"a simulated cluster in your browser that you can step through, break and replay."

// homePage says what txnlab is and leads into the lessons first.
type homePage struct {
	app.Compo
	lang doc.Lang
}

// newHomePage draws its first render in the page's language already.
func newHomePage() *homePage {
	h := &homePage{}
	if app.IsClient {
		h.lang = langOf(app.Window().URL().Path)
	}
	return h
}

func (h *homePage) OnNav(ctx app.Context) {
	h.lang = langOf(ctx.Page().URL().Path)
	site.SetPageIn(ctx, h.lang, "", tr(h.lang, "home.lead"))
}

func (h *homePage) Render() app.UI {
	l := h.lang
	return site.ShellIn(l, inLang(l, site.PathHome), true,
		app.Section().Class("hero").Body(
			app.H1().Text(tr(l, "home.title")),
			app.P().Class("lead").Text(tr(l, "home.lead")),
			app.Ul().Class("actions").Body(
				app.Li().Body(app.A().Class("button primary").Href(inLang(l, site.PathLessons)).Text(tr(l, "home.start"))),
				app.Li().Body(app.A().Class("button").Href(inLang(l, site.PathPlayground)).Text(tr(l, "home.playground"))),
				app.Li().Body(app.A().Class("button").Href(inLang(l, site.PathScenarios)).Text(tr(l, "home.scenarios"))),
			),
		),
		app.Section().Class("how").Aria("label", tr(l, "home.how")).Body(
			app.H2().Text(tr(l, "home.how")),
			app.Ul().Body(
				app.Li().Text(tr(l, "home.how1")),
				app.Li().Text(tr(l, "home.how2")),
				app.Li().Text(tr(l, "home.how3")),
			),
		),
	)
}
