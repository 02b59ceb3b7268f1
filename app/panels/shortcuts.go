package panels

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// The keyboard shortcuts' help: `?` opens it, a modal <dialog>, so the
// browser traps the focus in it and Escape closes it (the dialog's own
// cancel). While it is open the transport's keys are not taken.

// ShortcutKeys are the shortcuts the help lists: the keys, then what
// they do (a catalogue key).
var ShortcutKeys = []struct{ Keys, What string }{
	{"Space", "keys.play"},
	{"→", "keys.step"},
	{"←", "keys.back"},
	{"Home", "keys.home"},
	{"End", "keys.end"},
	{"Tab", "keys.tab"},
	{"Enter / Space", "keys.arrow"},
	{"← →", "keys.tabs"},
	{"?", "keys.help"},
	{"Esc", "keys.close"},
	{"P", "keys.present"},
	{"PageDown / PageUp", "keys.pager"},
	{"B", "keys.blank"},
	{"Esc", "keys.unpresent"},
}

// onHelpClose follows the dialog closing, by its button or by Escape.
func (v *ShortcutsView) onHelpClose(ctx app.Context, e app.Event) {
	v.Open = false
	v.closed()
}

func (v *ShortcutsView) onHelpCloseButton(ctx app.Context, e app.Event) {
	v.onHelpClose(ctx, e)
	if d := app.Window().GetElementByID("shortcuts"); d.Truthy() && d.Get("open").Truthy() {
		d.Call("close")
	}
}

// onHelpKey keeps the focus inside the dialog on Tab: its one control
// is the close button (showModal makes the page behind it inert, but Tab
// could still leave for the browser's own controls).
func (v *ShortcutsView) onHelpKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Tab" {
		e.PreventDefault()
		if c := app.Window().GetElementByID("shortcuts-close"); c.Truthy() {
			c.Call("focus")
		}
	}
	ctx.PreventUpdate()
}

// ShortcutsView is the keys' help: a component whose fields change only
// when it opens or closes, so a move does not redraw and compare it. It
// reports its closing through closed, never through its parent.
type ShortcutsView struct {
	app.Compo
	Lang   string
	Open   bool
	closed func()
}

// NewShortcuts is the help in lang, open or not, reporting its closing
// through closed (kept from the first render).
func NewShortcuts(lang string, open bool, closed func()) *ShortcutsView {
	return &ShortcutsView{Lang: lang, Open: open, closed: closed}
}

func (v *ShortcutsView) Render() app.UI {
	l := v.Lang
	rows := make([]app.UI, len(ShortcutKeys))
	for i, k := range ShortcutKeys {
		rows[i] = app.Tr().Body(app.Th().Scope("row").Body(app.Elem("kbd").Text(k.Keys)), app.Td().Text(tr(l, k.What)))
	}
	// app.Elem: go-app's element types each link their own methods
	// into the wasm.
	return app.Elem("dialog").ID("shortcuts").Class("shortcuts").
		Aria("labelledby", "shortcuts-title").
		DataSet("open", v.Open).
		On("close", v.onHelpClose).
		OnKeyDown(v.onHelpKey).
		Body(
			app.Div().Class("panel-head").Body(
				app.H2().ID("shortcuts-title").Text(tr(l, "keys.title")),
				app.Button().Type("button").ID("shortcuts-close").Class("tool close").
					Aria("label", tr(l, "keys.closebutton")).OnClick(v.onHelpCloseButton).Text("✕"),
			),
			app.Table().Class("keys").Body(app.TBody().Body(rows...)),
		)
}
