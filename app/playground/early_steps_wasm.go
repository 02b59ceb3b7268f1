//go:build js && wasm

package playground

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// renderEarlySteps is nothing in the browser: the early steps are the
// server's (early_steps_server.go), and their code stays out of the wasm.
func (p *playground) renderEarlySteps() app.UI { return nil }
