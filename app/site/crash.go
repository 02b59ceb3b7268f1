package site

import (
	"fmt"
	"txnlab/app/uitext"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A panic anywhere in the page (a handler, a render, a callback) is
// caught (go-app's OnPanic, a txnlab patch) and shown over the page, in
// its language, with a way back: the scripts and the progress are kept in
// the browser as they change (keep.go, app/progress), so a reload loses
// nothing. Without it the page would stay on screen and answer nothing.

// crashNoticeID is the notice's element.
const crashNoticeID = "crash-notice"

// ListenForPanics installs the notice; the browser entry calls it.
func ListenForPanics() {
	app.OnPanic = showCrashNotice
	// A self-test the browser tests call, so the notice is proven on a
	// real page without shipping a defect to trigger it.
	app.Window().Set("txnlabSelfTestPanic", app.FuncOf(func(this app.Value, args []app.Value) any {
		panic("self-test: a deliberate panic")
	}))
}

// showCrashNotice draws the notice with the DOM directly: go-app's tree
// may be what failed.
func showCrashNotice(v any) {
	app.Log(fmt.Sprintf("txnlab: caught a panic: %v", v))
	doc := app.Window().Get("document")
	if el := doc.Call("getElementById", crashNoticeID); el.Truthy() {
		return // one notice is enough
	}
	lang := uitext.LangOf(app.Window().URL().Path)
	box := doc.Call("createElement", "div")
	box.Set("id", crashNoticeID)
	box.Call("setAttribute", "role", "alert")
	title := doc.Call("createElement", "strong")
	title.Set("textContent", uitext.Tr(lang, "crash.title"))
	text := doc.Call("createElement", "p")
	text.Set("textContent", uitext.Tr(lang, "crash.text")+" ("+fmt.Sprint(v)+")")
	reload := doc.Call("createElement", "button")
	reload.Set("type", "button")
	reload.Set("textContent", uitext.Tr(lang, "crash.reload"))
	reload.Call("addEventListener", "click", app.FuncOf(func(this app.Value, args []app.Value) any {
		app.Window().Get("location").Call("reload")
		return nil
	}))
	dismiss := doc.Call("createElement", "button")
	dismiss.Set("type", "button")
	dismiss.Set("textContent", uitext.Tr(lang, "crash.dismiss"))
	dismiss.Call("addEventListener", "click", app.FuncOf(func(this app.Value, args []app.Value) any {
		box.Call("remove")
		return nil
	}))
	box.Call("append", title, text, reload, " ", dismiss)
	doc.Get("body").Call("prepend", box)
	reload.Call("focus")
}
