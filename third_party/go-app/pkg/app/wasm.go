//go:build wasm
// +build wasm

package app

// txnlab: GenerateStaticWebsite, which only panicked here, is gone with
// Handler (http.go is not built for wasm).

func wasmExecJS() string {
	return ""
}
