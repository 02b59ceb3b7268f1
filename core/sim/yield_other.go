//go:build !js

package sim

// yieldToCollector does nothing natively: the collector has threads of
// its own and the runtime preempts.
func yieldToCollector() {}
