package browser

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// CopyToClipboard asks the browser to put text on the clipboard and
// reports whether it has one to ask. The browser may still refuse (no
// focus, no permission): the promise is settled either way, or the
// refusal is an uncaught error in the console.
func CopyToClipboard(text string) bool {
	clip := app.Window().Get("navigator").Get("clipboard")
	if !clip.Truthy() {
		return false
	}
	var settle app.Func
	settle = app.FuncOf(func(this app.Value, args []app.Value) any {
		settle.Release()
		return nil
	})
	clip.Call("writeText", text).Call("then", settle, settle)
	return true
}
