//go:build wasm

// txnlab: the wasm build's localResourceResolver, without the
// http.Handler that resource_http.go gives it (and LocalDir).

package app

type localResourceResolver struct {
	directory string
}
