package scenario

// Run-time bounds. The parser's bounds (line.go) limit what a script may
// write; these limit what running it may cost, since a short legal script
// can still ask for unbounded work: a producer with zero timeouts and
// backoff resends without time passing, and 5,000 lines of `advance
// 365d` would hold a host for minutes. Each is checked after every event
// and stops the run with an error naming the line, never a panic or a
// silent stop. The defaults depend on the host (limits_native.go,
// limits_wasm.go): a browser tab affords less than the CLI.

import "txnlab/core/sim"

const (
	// NativeMaxEvents is the history bound of the CLI, the explorer and
	// the tests: about 125 bytes an event, 125 MB of trace.
	NativeMaxEvents = 1_000_000
	// BrowserMaxEvents is the history bound in the browser, where a
	// share link can run any script in a visitor's tab: the longest
	// scenario of the library and the lessons is far below it.
	BrowserMaxEvents = 250_000

	// NativeMaxPending bounds the event queue natively. A legal run keeps
	// a few hundred events queued (312 at most in the library, 182 for
	// the largest cluster, 9 brokers and 16 × 64 partitions, during a
	// crash); each costs ~1 KB with its message and what it leads to.
	NativeMaxPending = 50_000
	// BrowserMaxPending is the queue bound in the browser.
	BrowserMaxPending = 20_000

	// NativeMaxWork bounds the events a run dispatches natively, traced
	// or not (idle timers are not traced): 0.2–2 µs each natively, so
	// 2–20 s. The library's longest run dispatches 5,824; a year of an
	// idle 3-broker cluster, 27,378.
	NativeMaxWork = 10_000_000
	// BrowserMaxWork is the work bound in the browser.
	BrowserMaxWork = 2_000_000

	// MaxClock is the latest virtual time a run may reach, on every
	// host: ten years, ten of the longest `advance`. An idle cluster
	// costs ~55 ms of CPU a simulated year natively.
	MaxClock = 10 * 365 * sim.Day
)

// passesClock stops the run with an error when the statement in progress
// would move the clock past MaxClock: to its next event, or to the end of
// its wait when nothing is due before it.
func (s *Session) passesClock(a *wait, next sim.Pending, ok bool) bool {
	if s.MaxClock <= 0 {
		return false
	}
	to := a.limit // where a wait that ends moves the clock (stepActive)
	switch {
	case ok && next.At <= a.limit:
		to = next.At
	case a.isAdvance:
		to = a.advanceTo
	}
	if to <= s.MaxClock {
		return false
	}
	s.Err = s.errorf(a.stmt, "the clock would pass %s (the bound on a script's virtual time) here; advance or run for less time", s.MaxClock.Human())
	s.active = nil
	return true
}
