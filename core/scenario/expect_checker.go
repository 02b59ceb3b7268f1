package scenario

// expect invariants, expect violation and expect liveness: what the
// checker (core/check) finds in the history so far. Their types, parsing, canonical text and
// evaluation live here.

import (
	"strconv"
	"strings"

	"txnlab/core/check"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// Invariant names a property the checker verifies over the history: an
// entry of core/safety's table.
type Invariant = *safety.Invariant

// InvAny (nil) is "any invariant" in expect violation.
var InvAny Invariant

// Invariants lists every invariant in documentation order.
var Invariants = safety.Invariants

// InvariantByName finds an invariant by its script name.
func InvariantByName(name string) (Invariant, bool) { return safety.InvariantByName(name) }

// invariantNames is the table's names in the shape of the language's
// other enums (enumNames): index 0 is no value.
var invariantNames = append([]string{""}, safety.InvariantNames()...)

// ExpectInvariantsStmt checks that every invariant holds so far.
type ExpectInvariantsStmt struct{ Base }

// String renders the statement canonically.
func (s *ExpectInvariantsStmt) String() string { return "expect invariants" }

// ExpectViolationStmt checks that the checker finds a violation (of one
// invariant, or of any when Invariant is InvAny).
type ExpectViolationStmt struct {
	Base
	Invariant Invariant
}

// String renders the statement canonically.
func (s *ExpectViolationStmt) String() string {
	if s.Invariant == InvAny {
		return "expect violation"
	}
	return "expect violation " + s.Invariant.String()
}

// ExpectLivenessStmt checks every invariant with the liveness checks on,
// as the explorer does after its liveness phase: on a healed cluster with
// nothing left to do, every decided transaction must be complete (all its
// markers written, its offsets materialised). It changes nothing: the
// script heals, restarts, runs and advances past the coordinator's
// timeouts itself, and the expectation fails, saying what is missing,
// when the cluster is not healed or still has work outstanding.
type ExpectLivenessStmt struct{ Base }

// String renders the statement canonically.
func (s *ExpectLivenessStmt) String() string { return "expect liveness" }

func parseExpectLiveness(lp *lineParser) Stmt {
	lp.done("expect liveness takes no arguments")
	return &ExpectLivenessStmt{}
}

func (st *ExpectLivenessStmt) apply(s *Session) *Error { return s.expect(st) }

func (st *ExpectLivenessStmt) evaluate(s *Session) (string, string, bool, *Error) {
	const want = "a healed, quiet cluster where every invariant holds and every decided transaction completed"
	if why := s.unhealed(); why != "" {
		return want, "not healed: " + why, false, nil
	}
	if !s.Cluster.Idle() {
		return want, "work still outstanding (run first)", false, nil
	}
	vs := s.Cluster.Check(true)
	return want, describeViolations(vs), len(vs) == 0, nil
}

// unhealed says what keeps the cluster from being healed ("" when it
// is): a crashed or paused broker, a cut, a drop or delay rule.
func (s *Session) unhealed() string {
	var why []string
	w := s.Cluster
	for i, b := range s.Cluster.Brokers {
		if b == nil {
			why = append(why, "broker-"+strconv.Itoa(i)+" is crashed")
		} else if w.StatusOf(b.Node) != sim.Up {
			why = append(why, w.Name(b.Node)+" is paused")
		}
	}
	if w.Lossy() {
		why = append(why, "the network has a cut, drop or delay rule (heal)")
	}
	return strings.Join(why, "; ")
}

func parseExpectInvariants(lp *lineParser) Stmt {
	lp.done("expect invariants takes no arguments")
	return &ExpectInvariantsStmt{}
}

func parseExpectViolation(lp *lineParser) Stmt {
	st := &ExpectViolationStmt{}
	if lp.more() {
		v := lp.next("")
		inv, ok := InvariantByName(v.raw)
		if !ok || v.quoted {
			names := enumNames(invariantNames)
			lp.failf(v.col, "unknown invariant %q%s (invariants: %s)", v.raw, didYouMean(v.text, names), strings.Join(names, ", "))
		}
		st.Invariant = inv
		lp.done("expect violation takes at most one invariant")
	}
	return st
}

func (st *ExpectInvariantsStmt) apply(s *Session) *Error { return s.expect(st) }
func (st *ExpectViolationStmt) apply(s *Session) *Error  { return s.expect(st) }

func (st *ExpectInvariantsStmt) evaluate(s *Session) (string, string, bool, *Error) {
	vs := s.Cluster.Check(false)
	return "every invariant holds", describeViolations(vs), len(vs) == 0, nil
}

func (st *ExpectViolationStmt) evaluate(s *Session) (string, string, bool, *Error) {
	vs := s.Cluster.Check(false)
	want := "any invariant"
	if st.Invariant != InvAny {
		want = st.Invariant.String()
	}
	ok := false
	for _, v := range vs {
		if st.Invariant == InvAny || v.Invariant == st.Invariant.String() {
			ok = true
		}
	}
	return "a violation of " + want, describeViolations(vs), ok, nil
}

func describeViolations(vs []check.Violation) string {
	if len(vs) == 0 {
		return "no violation"
	}
	parts := make([]string, 0, len(vs))
	for _, v := range vs {
		parts = append(parts, v.String())
	}
	return strings.Join(parts, "; ")
}
