package sim

import "fmt"

// The event queue's order is an assertion, not a mechanism: no lesson
// turns it off, and nothing a script does may break it. Events must leave
// the queue in strictly increasing (time, insertion sequence) order:
// never earlier than the clock, and events due at the same instant in the
// order they were scheduled (the deterministic tie-break every digest
// relies on). A breach is a bug of the simulator; it is recorded rather
// than panicked on, and hosts report it (Fault) as an error.

// orderGuard remembers the last event popped.
type orderGuard struct {
	popped  bool
	lastAt  Time
	lastSeq uint64
	fault   error
}

// observe checks the event popped at clock now against the previous one
// and records the first breach.
func (g *orderGuard) observe(at Time, seq uint64, now Time) {
	if g.fault == nil {
		switch {
		case at < now:
			g.fault = fmt.Errorf("event queue order: an event due at %s was popped at %s, after the clock had passed it", at.Human(), now.Human())
		case g.popped && (at < g.lastAt || at == g.lastAt && seq <= g.lastSeq):
			g.fault = fmt.Errorf("event queue order: event #%d due at %s was popped after #%d due at %s", seq, at.Human(), g.lastSeq, g.lastAt.Human())
		}
	}
	g.popped, g.lastAt, g.lastSeq = true, at, seq
}

// Fault is the first breach of the simulator's own assertions (the event
// queue's order), or nil. Hosts check it after each statement.
func (w *World) Fault() error { return w.guard.fault }
