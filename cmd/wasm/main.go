// Command wasm is the browser half of txnlab, built into web/app.wasm by
// `make wasm`. It imports the UI and nothing of the server, which keeps the
// download to half the size of one binary doing both.
//
// The same binary has a second role: started in a Web Worker
// (web/engine-worker.js), where there is no document, it runs the
// playgrounds' engines for the page that started it (issue 13) instead of
// the UI.
package main

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/engine"
	"txnlab/app/pages"
	"txnlab/app/playground"
	"txnlab/app/site"
)

func main() {
	if engine.InWorker() {
		engine.ServeWorker(playground.Warm())
		return
	}
	pages.Register()
	site.ListenForPanics()
	dropFinalSlash()
	playground.StartFirstRun()
	browser.CollectWhenIdle()
	app.RunWhenOnBrowser()
}

// dropFinalSlash takes the final slash off the address before go-app
// routes it: the static export (txnlab serve --static) keeps each page
// as a directory's index.html, which a static host serves at /playground/,
// while the routes, the links and what the pages keep are at /playground.
// The query and the fragment (a share link's #s=…) stay. /zh/ is a route
// of its own.
func dropFinalSlash() {
	loc := app.Window().Get("location")
	path := loc.Get("pathname").String()
	if len(path) <= 1 || !strings.HasSuffix(path, "/") || path == "/zh/" {
		return
	}
	app.Window().Get("history").Call("replaceState", nil, "",
		strings.TrimRight(path, "/")+loc.Get("search").String()+loc.Get("hash").String())
}
