//go:build !(js && wasm)

package app

// workerEngine is nil natively: the engine runs in the process.
func workerEngine() Engine { return nil }

func workerFault() error { return nil }

func workerStarted() bool { return false }
