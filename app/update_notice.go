package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// updateNotice says so when a new version of the site has been installed
// in the background (go-app's service worker), and reloads on request:
// otherwise a new version would only show in the console. Every page
// carries one in its header (shellIn).
type updateNotice struct {
	app.Compo
	Lang      doc.Lang
	available bool
}

func (u *updateNotice) OnMount(ctx app.Context) { u.available = ctx.AppUpdateAvailable() }

// OnAppUpdate is go-app's call once a new version is ready.
func (u *updateNotice) OnAppUpdate(ctx app.Context) { u.available = ctx.AppUpdateAvailable() }

func (u *updateNotice) Render() app.UI {
	if !u.available {
		return app.Span().Class("update-notice").Hidden(true)
	}
	return app.Div().Class("update-notice").Role("status").Body(
		app.Span().Text(tr(u.Lang, "update.ready")+" "),
		app.Button().Type("button").Class("button").DataSet("action", "update").
			OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }).Text(tr(u.Lang, "update.reload")),
	)
}
