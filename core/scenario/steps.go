package scenario

import (
	"fmt"
	"math"
	"strings"

	"txnlab/core/sim"
)

// StepVisible advances to the next moment a learner can pause at: the end
// of a statement, or, inside a statement that waits, the instant before
// the next message between clients and brokers is delivered (replication
// traffic is skipped). It reports whether anything happened.
func (s *Session) StepVisible() bool {
	if s.Done() {
		return false
	}
	s.StepVisibleSome(math.MaxInt)
	return true
}

// StepVisibleSome does StepVisible's work at most max events at a time,
// for a host that must not block longer than that (a browser tab between
// two frames). It reports whether the visible step is complete; until it
// is, the caller calls it again to go on with the same step. A step taken
// this way ends where StepVisible would have ended it.
func (s *Session) StepVisibleSome(max int) bool {
	if s.Done() {
		s.midStep = false
		return true
	}
	if !s.midStep && s.active == nil {
		s.Step() // start the next statement; instant ones finish here
		if s.active == nil || s.atVisibleDelivery() {
			return true
		}
	}
	for n := 0; s.active != nil && s.Err == nil; n++ {
		if n >= max {
			s.midStep = true
			return false
		}
		s.Step()
		if s.atVisibleDelivery() {
			s.midStep = false
			return true
		}
	}
	s.midStep = false
	return true
}

func (s *Session) atVisibleDelivery() bool {
	if s.active == nil || s.Cluster == nil {
		return false
	}
	next, ok := s.Cluster.Peek()
	return ok && next.Env != nil && !next.Env.Internal && next.At <= s.active.limit
}

// InsertNow returns the script rewritten so that stmt runs at the current
// moment, and the 1-based line stmt lands on. At a statement boundary the
// line goes in before the next statement. Inside a statement that waits,
// that statement is split around the moment: a client call goes to the
// background (&) and is waited for after stmt; the wait up to this moment
// becomes `run until` the message about to be delivered (with nth= when
// earlier such messages went by); a `run` or `advance` resumes afterwards.
// Every other line of the script is kept as written, comments included.
func (s *Session) InsertNow(src, stmt string) (string, int, error) {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if s.active == nil {
		at := len(lines) // after the last line once everything ran
		if s.pc < len(s.Script.Statements) {
			at = s.Script.Statements[s.pc].Position().Line - 1
		}
		return joinLines(lines[:at], []string{stmt}, lines[at:]), at + 1, nil
	}
	next, ok := s.Cluster.Peek()
	if !ok || next.Env == nil {
		return "", 0, fmt.Errorf("the simulation is between two events of line %d; step to a message first", s.Line())
	}
	a := s.active
	env := next.Env
	until := "run until " + env.Msg.APIKey().String()
	if env.Msg.IsResponse() {
		until += ".response"
	}
	until += " from=" + s.Cluster.Name(env.From) + " to=" + s.Cluster.Name(env.To)
	if n := a.deliveredLike(env); n > 0 {
		until += fmt.Sprintf(" nth=%d", n+1)
	}
	lineIdx := a.stmt.Position().Line - 1
	indent := leadingSpace(lines[lineIdx])
	var before, after []string
	switch st := a.stmt.(type) {
	case *ProducerActionStmt:
		bg := *st
		bg.Background = true
		before = []string{indent + bg.String() + "   # split here by the playground", indent + until}
		after = []string{indent + "wait " + st.Client}
	case *ConsumerActionStmt:
		bg := *st
		bg.Background = true
		before = []string{indent + bg.String() + "   # split here by the playground", indent + until}
		after = []string{indent + "wait " + st.Client}
	case *AdvanceStmt:
		before = []string{indent + until}
		if rest := a.advanceTo - s.Cluster.Now(); rest > 0 {
			after = []string{indent + "advance " + FormatDuration(rest)}
		}
	case *RunUntilStmt:
		before = []string{indent + until}
		rest := *st
		if st.Nth > 1 && a.untilSeen != nil {
			rest.Nth = st.Nth - *a.untilSeen
		}
		after = []string{indent + rest.String()}
	default: // run, wait
		before = []string{indent + until}
		after = []string{lines[lineIdx]}
	}
	at := lineIdx + len(before)
	out := joinLines(lines[:lineIdx], before, []string{indent + stmt}, after, lines[lineIdx+1:])
	return out, at + 1, nil
}

func leadingSpace(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

func joinLines(parts ...[]string) string {
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	return strings.Join(all, "\n") + "\n"
}

// Now is the virtual time of the session (0 before the cluster exists).
func (s *Session) Now() sim.Time {
	if s.Cluster == nil {
		return 0
	}
	return s.Cluster.Now()
}
