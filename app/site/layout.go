package site

import (
	"net/url"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// siteName is the name in titles and the header.
const siteName = "txnlab"

// ShellIn wraps a page's content in the header and footer every page
// shares, in lang. current is the page's path, so its link can say so
// to screen readers. bilingual pages (those that exist in both
// languages) offer the language control, which leads to the same page in
// the other language.
func ShellIn(lang doc.Lang, current string, bilingual bool, content ...app.UI) app.UI {
	twin := ""
	if !bilingual {
		twin = "-"
	}
	return ShellTwin(lang, current, twin, content...)
}

// ShellTwin is shellIn for a bilingual page whose address carries more
// than its path: twin ("?scenario=…#s=…") goes after the other language's
// path, so switching keeps the scenario and the shared script ("-": no
// language control).
func ShellTwin(lang doc.Lang, current, twin string, content ...app.UI) app.UI {
	home := uitext.InLang(lang, PathHome)
	lessons := uitext.InLang(lang, PathLessons)
	return app.Div().Class("site").Body(
		app.A().Class("skip-link").Href("#main").Text(uitext.Tr(lang, "skip")),
		app.Header().Class("site-header").Body(
			app.A().Class("brand").Href(home).Text(siteName),
			app.Nav().Aria("label", uitext.Tr(lang, "nav.main")).Body(
				navLink(home, uitext.Tr(lang, "nav.home"), current),
				navLink(lessons, uitext.Tr(lang, "nav.lessons"), current),
				navLink(uitext.InLang(lang, PathPlayground), uitext.Tr(lang, "nav.playground"), current),
				navLink(uitext.InLang(lang, PathScenarios), uitext.Tr(lang, "nav.scenarios"), current),
			),
			app.If(twin != "-", func() app.UI { return languageControl(lang, current, twin) }),
		),
		&UpdateNotice{Lang: lang},
		app.Main().ID("main").Body(content...),
		app.Footer().Class("site-footer").Body(app.Text(uitext.Tr(lang, "footer"))),
	)
}

// languageControl links the page to its twin in the other language. Each
// language is named in itself, as language menus do.
func languageControl(lang doc.Lang, current, twin string) app.UI {
	link := func(l doc.Lang, name string) app.UI {
		// current is a decoded path: a damaged address's "%" must be
		// escaped again, or the link is one go-app cannot follow.
		a := app.A().Href((&url.URL{Path: uitext.InLang(l, current)}).EscapedPath()+twin).Lang(l.HTMLLang()).Attr("hreflang", l.HTMLLang()).
			Attr("data-lang", string(l)).Text(name)
		if l == lang {
			a = a.Aria("current", "true")
		}
		return a
	}
	return app.Div().Class("lang-switch").Role("group").Aria("label", uitext.Tr(lang, "lang.label")).Body(
		app.Span().Class("lang-label").Aria("hidden", "true").Text(uitext.Tr(lang, "lang.label")),
		link(doc.English, "English"),
		link(doc.Chinese, "中文"),
	)
}

func navLink(path, label, current string) app.UI {
	a := app.A().Href(path).Text(label)
	if path == current {
		a = a.Aria("current", "page")
	}
	return a
}

// setPage sets the document title and description, on the server (for the
// pre-rendered page and link previews) and in the browser alike.
func setPage(ctx app.Context, title, description string) {
	if title == "" {
		ctx.Page().SetTitle("%s — Kafka transactions, step by step", siteName)
	} else {
		ctx.Page().SetTitle("%s · %s", title, siteName)
	}
	ctx.Page().SetDescription("%s", description)
	ctx.Page().SetLang("en")
}

// SetPageIn is setPage for a page in lang: it also sets <html lang>, which
// the server writes into the pre-rendered page.
func SetPageIn(ctx app.Context, lang doc.Lang, title, description string) {
	setPage(ctx, title, description)
	if lang == doc.Chinese && title == "" {
		ctx.Page().SetTitle("%s — 一步一步看懂 Kafka 事务", siteName)
	}
	ctx.Page().SetLang(lang.HTMLLang())
}
