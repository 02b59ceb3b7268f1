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
//
// With Violation it expects the opposite: the liveness checks find a
// violation (of Invariant, of any when InvAny), on the same healed,
// quiet cluster. That is how a script shows what only the liveness
// checks see (a transaction decided but never completed), which expect
// violation, judging the history so far, forgives while the markers
// may still be on their way.
type ExpectLivenessStmt struct {
	Base
	Violation bool
	Invariant Invariant
}

// String renders the statement canonically.
func (s *ExpectLivenessStmt) String() string {
	switch {
	case !s.Violation:
		return "expect liveness"
	case s.Invariant == InvAny:
		return "expect liveness violation"
	}
	return "expect liveness violation " + s.Invariant.String()
}

func parseExpectLiveness(lp *lineParser) Stmt {
	st := &ExpectLivenessStmt{}
	if lp.more() {
		if t := lp.toks[lp.i]; t.raw != "violation" || t.quoted {
			lp.done(`expect liveness takes nothing or "violation [INVARIANT]"`)
		}
		lp.i++
		st.Violation = true
		st.Invariant = parseInvariantArg(lp, "expect liveness violation")
	}
	return st
}

func (st *ExpectLivenessStmt) apply(s *Session) *Error { return s.expect(st) }

func (st *ExpectLivenessStmt) evaluate(s *Session) (string, string, bool, *Error) {
	want := "a healed, quiet cluster where every invariant holds and every decided transaction completed"
	if st.Violation {
		want = "on a healed, quiet cluster, " + violationWanted(st.Invariant)
	}
	if why := s.unhealed(); why != "" {
		return want, "not healed: " + why, false, nil
	}
	if !s.Cluster.Idle() {
		return want, "work still outstanding (run first)", false, nil
	}
	vs := s.Cluster.Check(true)
	if st.Violation {
		return violationOf(st.Invariant, vs, "on a healed, quiet cluster, ")
	}
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
	return &ExpectViolationStmt{Invariant: parseInvariantArg(lp, "expect violation")}
}

// parseInvariantArg reads the optional invariant that ends the
// statement named stmt (InvAny when there is none).
func parseInvariantArg(lp *lineParser, stmt string) Invariant {
	if !lp.more() {
		return InvAny
	}
	v := lp.next("")
	inv, ok := InvariantByName(v.raw)
	if !ok || v.quoted {
		names := enumNames(invariantNames)
		lp.failf(v.col, "unknown invariant %q%s (invariants: %s)", v.raw, didYouMean(v.text, names), strings.Join(names, ", "))
	}
	lp.done(stmt + " takes at most one invariant")
	return inv
}

func (st *ExpectInvariantsStmt) apply(s *Session) *Error { return s.expect(st) }
func (st *ExpectViolationStmt) apply(s *Session) *Error  { return s.expect(st) }

func (st *ExpectInvariantsStmt) evaluate(s *Session) (string, string, bool, *Error) {
	vs := s.Cluster.Check(false)
	return "every invariant holds", describeViolations(vs), len(vs) == 0, nil
}

func (st *ExpectViolationStmt) evaluate(s *Session) (string, string, bool, *Error) {
	return violationOf(st.Invariant, s.Cluster.Check(false), "")
}

// violationWanted is what an expectation of a violation of inv wants.
func violationWanted(inv Invariant) string {
	if inv == InvAny {
		return "a violation of any invariant"
	}
	return "a violation of " + inv.String()
}

// violationOf judges an expectation of a violation of inv (any when
// InvAny) against the checker's verdict vs; where says on what.
func violationOf(inv Invariant, vs []check.Violation, where string) (string, string, bool, *Error) {
	ok := false
	for _, v := range vs {
		if inv == InvAny || v.Invariant == inv.String() {
			ok = true
		}
	}
	return where + violationWanted(inv), describeViolations(vs), ok, nil
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
