//go:build !(js && wasm)

package engine

// InWorker is false outside the browser: there is no Web Worker.
func InWorker() bool { return false }

// ServeWorker is the worker's loop, which exists only in the browser.
func ServeWorker(warm Warm) { panic("session: ServeWorker runs only in a Web Worker") }
