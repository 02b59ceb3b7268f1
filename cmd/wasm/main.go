// Command wasm is the browser half of txnlab, built into web/app.wasm by
// `make wasm`. It imports the UI and nothing of the server, which keeps the
// download to half the size of one binary doing both.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	txnapp "txnlab/app"
)

func main() {
	txnapp.Register()
	txnapp.ListenForPanics()
	app.RunWhenOnBrowser()
}
