package pages

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// notFoundPage is every address no page has: it says so in the address's
// language and offers the way back, where go-app alone would answer a
// bare "404 page not found". The server sends it with status 404.
type notFoundPage struct {
	app.Compo
	lang doc.Lang
	path string
}

func newNotFoundPage() *notFoundPage {
	p := &notFoundPage{}
	if app.IsClient {
		p.path = app.Window().URL().Path
		p.lang = uitext.LangOf(p.path)
	}
	return p
}

func (p *notFoundPage) OnNav(ctx app.Context) {
	p.path = ctx.Page().URL().Path
	p.lang = uitext.LangOf(p.path)
	site.SetPageIn(ctx, p.lang, uitext.Tr(p.lang, "notfound.title"), uitext.Tr(p.lang, "notfound.title"))
}

func (p *notFoundPage) Render() app.UI {
	l := p.lang
	return site.ShellIn(l, p.path, false,
		app.Section().Class("not-found").Body(
			app.H1().Text(uitext.Tr(l, "notfound.title")),
			app.P().Text(uitext.Tr(l, "notfound.text")),
			app.Ul().Class("actions").Body(
				app.Li().Body(app.A().Class("button primary").Href(uitext.InLang(l, site.PathLessons)).Text(uitext.Tr(l, "nav.lessons"))),
				app.Li().Body(app.A().Class("button").Href(uitext.InLang(l, site.PathHome)).Text(uitext.Tr(l, "nav.home"))),
				app.Li().Body(app.A().Class("button").Href(uitext.InLang(l, site.PathPlayground)).Text(uitext.Tr(l, "nav.playground"))),
			),
		),
	)
}
