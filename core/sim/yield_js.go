//go:build js

package sim

import "runtime"

// yieldToCollector lets the collector's background worker run. Under
// WebAssembly there is one thread and no preemption (no sysmon), so a
// goroutine that computes without blocking never gives the worker a
// turn, and a cycle started during a run is marked only by the
// allocations' assists: on the heavy benchmark one cycle began at 6 MB
// (a 7 MB goal) and ended at 72 MB, and the heap reached 156 MB. Growing
// the module's memory, and V8's collections of the old buffers, were a
// third of a wasm run's time (node --cpu-prof). With a yield every
// yieldEvery events the cycles end near their goal (31 MB at most).
// Gosched runs only goroutines already runnable (the collector's worker,
// a woken timer), never a JavaScript callback, and decides nothing in the
// simulation: the trace is the same either way.
func yieldToCollector() { runtime.Gosched() }
