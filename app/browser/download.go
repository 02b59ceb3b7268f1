package browser

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Download saves text as a file through a blob URL and a throwaway link.
func Download(ctx app.Context, name, mime, content string) {
	if !app.IsClient {
		return
	}
	w := app.Window()
	blob := w.Get("Blob").New([]any{content}, map[string]any{"type": mime})
	url := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Call("click")
	// Revoking at once can cancel the download in some browsers.
	ctx.After(2*time.Second, func(ctx app.Context) { w.Get("URL").Call("revokeObjectURL", url) })
}
