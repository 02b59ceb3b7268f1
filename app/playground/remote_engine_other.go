//go:build !(js && wasm)

package playground

import "txnlab/app/engine"

// workerEngine is nil natively: the engine runs in the process.
func workerEngine() engine.Engine { return nil }

func workerFault() error { return nil }

func workerStarted() bool { return false }
