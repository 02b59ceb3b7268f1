package site

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// UpdateNotice says so when a new version of the site has been installed
// in the background (go-app's service worker), and reloads on request:
// otherwise a new version would only show in the console. Every page
// carries one in its header (shellIn).
type UpdateNotice struct {
	app.Compo
	Lang      doc.Lang // of the page it is in
	available bool     // set by go-app's calls only: a parent's render must not reset it
}

// OnMount reads whether a version came while the page was away.
func (u *UpdateNotice) OnMount(ctx app.Context) { u.available = ctx.AppUpdateAvailable() }

// OnAppUpdate is go-app's call once a new version is ready.
func (u *UpdateNotice) OnAppUpdate(ctx app.Context) { u.available = ctx.AppUpdateAvailable() }

// Render is the notice with its reload button, or nothing.
func (u *UpdateNotice) Render() app.UI {
	if !u.available {
		return app.Span().Class("update-notice").Hidden(true)
	}
	return app.Div().Class("update-notice").Role("status").Body(
		app.Span().Text(uitext.Tr(u.Lang, "update.ready")+" "),
		app.Button().Type("button").Class("button").DataSet("action", "update").
			OnClick(func(ctx app.Context, e app.Event) { ctx.Reload() }).Text(uitext.Tr(u.Lang, "update.reload")),
	)
}
