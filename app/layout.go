package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// siteName is the name in titles and the header.
const siteName = "txnlab"

// shell wraps a page's content in the header and footer every page shares.
// current is the page's path, so its link can say so to screen readers.
func shell(current string, content ...app.UI) app.UI {
	return app.Div().Class("site").Body(
		app.A().Class("skip-link").Href("#main").Text("Skip to content"),
		app.Header().Class("site-header").Body(
			app.A().Class("brand").Href(PathHome).Text(siteName),
			app.Nav().Aria("label", "Main").Body(
				navLink(PathHome, "Home", current),
				navLink(PathPlayground, "Playground", current),
				navLink(PathScenarios, "Scenarios", current),
			),
		),
		app.Main().ID("main").Body(content...),
		app.Footer().Class("site-footer").Body(
			app.Text("Everything runs in your browser: a deterministic simulation of Kafka, compiled to WebAssembly."),
		),
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
}
