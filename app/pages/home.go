package pages

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/site"
	"txnlab/app/uitext"
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
		h.lang = uitext.LangOf(app.Window().URL().Path)
	}
	return h
}

func (h *homePage) OnNav(ctx app.Context) {
	h.lang = uitext.LangOf(ctx.Page().URL().Path)
	site.SetPageIn(ctx, h.lang, "", uitext.Tr(h.lang, "home.lead"))
}

func (h *homePage) Render() app.UI {
	l := h.lang
	return site.ShellIn(l, uitext.InLang(l, site.PathHome), true,
		app.Section().Class("hero").Body(
			app.H1().Text(uitext.Tr(l, "home.title")),
			app.P().Class("lead").Text(uitext.Tr(l, "home.lead")),
			app.Ul().Class("actions").Body(
				app.Li().Body(app.A().Class("button primary").Href(uitext.InLang(l, site.PathLessons)).Text(uitext.Tr(l, "home.start"))),
				app.Li().Body(app.A().Class("button").Href(uitext.InLang(l, site.PathPlayground)).Text(uitext.Tr(l, "home.playground"))),
				app.Li().Body(app.A().Class("button").Href(uitext.InLang(l, site.PathScenarios)).Text(uitext.Tr(l, "home.scenarios"))),
			),
		),
		app.Section().Class("how").Aria("label", uitext.Tr(l, "home.how")).Body(
			app.H2().Text(uitext.Tr(l, "home.how")),
			app.Ul().Body(
				app.Li().Text(uitext.Tr(l, "home.how1")),
				app.Li().Text(uitext.Tr(l, "home.how2")),
				app.Li().Text(uitext.Tr(l, "home.how3")),
			),
		),
	)
}
