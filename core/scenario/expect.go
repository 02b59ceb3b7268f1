package scenario

// What every expectation shares: the subjects expect is followed by (one
// table, as the verbs are), the expectation interface, and recording a
// result. Each expectation's type, parsing, canonical text and evaluation
// live in expect_client.go (what a client holds), expect_cluster.go (what
// the brokers hold), expect_trace.go and expect_checker.go.

import (
	"fmt"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// expectation is a statement that checks the state now and changes
// nothing: it reports what it expected, what it found, and whether they
// agree (an error is a script error, such as a node that does not resolve).
type expectation interface {
	Stmt
	evaluate(s *Session) (expected, actual string, ok bool, err *Error)
}

// expectSubject is a word after expect and the function that parses the
// rest of the line.
type expectSubject struct {
	name  string
	parse func(lp *lineParser) Stmt
	// example is a line of the expectation (see verb.example).
	example string
}

// expectSubjects is the one table of what expect may be followed by,
// besides a client's name (expect P ok, …: see clientExpects).
var expectSubjects = []expectSubject{
	{"txn", parseExpectTxn, "expect txn order-txn-1 state=Ongoing epoch=0"},
	{"partition", parseExpectPartition, "expect partition orders/0 hw=2 lso=2"},
	{"log", parseExpectLog, "expect log orders/0 = p1:v1 COMMIT(p1)"},
	{"offsets", parseExpectOffsets, "expect offsets g1 orders/0=1"},
	{"trace", parseExpectTrace, "expect trace EndTxn count=1"},
	{"coordinator", parseExpectCoordinator, "expect coordinator order-txn-1 broker=broker-1"},
	{"group", parseExpectGroup, "expect group g1 state=Stable"},
	{"invariants", parseExpectInvariants, "expect invariants"},
	{"liveness", parseExpectLiveness, "expect liveness"},
	{"violation", parseExpectViolation, "expect violation read-committed"},
	{"admin", parseExpectAdmin, "expect admin ok"},
}

func expectSubjectNames() []string {
	names := make([]string, len(expectSubjects))
	for i, e := range expectSubjects {
		names[i] = e.name
	}
	return names
}

func parseExpect(lp *lineParser, kw token) Stmt {
	subjects := expectSubjectNames()
	t := lp.next("expect needs a subject: a client name, or one of " + strings.Join(subjects, ", "))
	if !t.quoted {
		for _, e := range expectSubjects {
			if e.name == t.raw {
				return e.parse(lp)
			}
		}
		if c, ok := lp.d.Client(t.raw); ok {
			return lp.expectClient(c)
		}
		if validClientName(t.raw) && !lp.nearKeyword(t.raw, subjects) {
			lp.unknownClient(t)
		}
	}
	cands := append([]string(nil), subjects...)
	for _, c := range lp.d.clients {
		cands = append(cands, c.Name)
	}
	lp.failf(t.col, "unknown expectation %q%s: expected a client name or one of %s", t.raw,
		didYouMean(t.text, cands), strings.Join(subjects, ", "))
	return nil
}

// nearKeyword reports whether w looks like a misspelt keyword rather than
// an undeclared name.
func (lp *lineParser) nearKeyword(w string, kws []string) bool {
	return didYouMean(w, kws) != ""
}

// equals consumes the "=" of expect records/log/aborted.
func (lp *lineParser) equals(tp protocol.TopicPartition) {
	e := lp.next(fmt.Sprintf("expected \"=\" after %s (with nothing or none after it for none)", tp))
	if e.raw != "=" {
		lp.failf(e.col, "expected \"=\" after %s, got %q", tp, e.raw)
	}
}

// noneAfterEquals consumes a lone unquoted "none" after the "=" of expect
// records, log and aborted: the other spelling of nothing at all.
func (lp *lineParser) noneAfterEquals() bool {
	if lp.i == len(lp.toks)-1 && lp.toks[lp.i].raw == "none" {
		lp.i++
		return true
	}
	return false
}

// tpEquals splits TOPIC/PART=VALUE.
func (lp *lineParser) tpEquals(t token, form string) (protocol.TopicPartition, string, int) {
	eq := strings.IndexByte(t.raw, '=')
	if eq < 0 || t.quoted {
		lp.failf(t.col, "expected %s, got %q", form, t.raw)
	}
	tp := lp.topicPartition(t.raw[:eq], t.col)
	vcol := runeCol(t.raw, t.col, eq+1)
	val := t.raw[eq+1:]
	if val == "" {
		lp.failf(vcol, "expected %s, got nothing after %q", form, t.raw)
	}
	return tp, val, vcol
}

// expect evaluates an expectation now and records its result; a failed
// expectation does not stop the run.
func (s *Session) expect(st Stmt) *Error {
	r, err := s.evaluate(st)
	if err != nil {
		return err
	}
	s.Results = append(s.Results, r)
	text := "ok " + st.String()
	if !r.OK {
		text = "FAIL " + st.String() + " (actual: " + r.Actual + ")"
	}
	s.Cluster.Record(sim.Event{Kind: sim.KindExpect, Node: s.Cluster.ScriptNode(), Subject: "line " + strconv.Itoa(st.Position().Line), Text: text, Unmet: !r.OK})
	return nil
}

// evaluate checks an expectation on the state now and changes nothing.
func (s *Session) evaluate(st Stmt) (Result, *Error) {
	e, ok := st.(expectation)
	if !ok {
		return Result{}, s.errorf(st, "statement %T is not supported", st)
	}
	expected, actual, ok, err := e.evaluate(s)
	if err != nil {
		return Result{}, err
	}
	return Result{Pos: st.Position(), Line: st.String(), OK: ok, Expected: expected, Actual: actual}, nil
}

// IsExpect tells whether a statement is an expectation.
func IsExpect(st Stmt) bool {
	_, ok := st.(expectation)
	return ok
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
