package scenario

// The expectations on what a client holds: the outcome of its last call
// (ok, error, pending), a producer's TransactionManager state, and a
// consumer's records, fetch positions and the aborted list of its last
// fetch answer. Their types, parsing, canonical text and evaluation live
// here; the values come from core/cluster's queries, which the snapshot
// and the lessons' queries read too.

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
)

// ClientState is a state of the Java producer's TransactionManager, by
// its place in core/client's table (cluster.ProducerStates), which names
// them.
type ClientState uint8

var clientStateNames = append([]string{""}, cluster.ProducerStates()...)

// ClientStates lists every client state in TransactionManager's order.
var ClientStates = func() []ClientState {
	out := make([]ClientState, len(clientStateNames)-1)
	for i := range out {
		out[i] = ClientState(i + 1)
	}
	return out
}()

// String returns the Java name of the state.
func (s ClientState) String() string { return enumString(s, clientStateNames, "ClientState") }

// ClientStateByName finds a client state by its Java name.
func ClientStateByName(name string) (ClientState, bool) {
	return enumByName[ClientState](name, clientStateNames)
}

// Outcome is what expect P ok|error|pending checks about a client's call.
type Outcome uint8

// The outcomes.
const (
	OutcomeOK      Outcome = iota + 1 // the last completed call succeeded
	OutcomeError                      // the last completed call failed with a given error
	OutcomePending                    // the last call has not returned
)

var outcomeNames = []string{"", "ok", "error", "pending"}

// String returns the outcome's script keyword.
func (o Outcome) String() string { return enumString(o, outcomeNames, "Outcome") }

// ExpectOutcomeStmt checks a client's last call: expect C ok | error NAME |
// pending.
type ExpectOutcomeStmt struct {
	Base
	Client  string
	Outcome Outcome
	// OutcomeError: the expected error, a broker's code (never NONE) or
	// a client exception (TimeoutException, …); exactly one is set.
	Error     protocol.ErrorCode
	Exception protocol.Exception
}

// Expected is the expected error as a call result.
func (s *ExpectOutcomeStmt) Expected() cluster.CallResult {
	return cluster.CallResult{Code: s.Error, Exception: s.Exception}
}

// String renders the statement canonically.
func (s *ExpectOutcomeStmt) String() string {
	b := words("expect", s.Client, s.Outcome.String())
	if s.Outcome == OutcomeError {
		b.add(s.Expected().String())
	}
	return b.String()
}

// ExpectStateStmt checks a producer's TransactionManager state.
type ExpectStateStmt struct {
	Base
	Client string
	State  ClientState
	Epoch  int16     // epoch=N, when given
	Given  OptionSet // "epoch" when written
}

var expectStateOptions = optTable[ExpectStateStmt]{
	intOpt("epoch", 0, -1, math.MaxInt16, func(st *ExpectStateStmt) *int16 { return &st.Epoch }),
}

// String renders the statement canonically.
func (s *ExpectStateStmt) String() string {
	b := words("expect", s.Client, "state", s.State.String())
	expectStateOptions.render(b, s, s.Given)
	return b.String()
}

// ExpectRecordsStmt checks the values a consumer has received from one
// partition so far, in order.
type ExpectRecordsStmt struct {
	Base
	Client string
	TP     protocol.TopicPartition
	Values []string // nil: none
}

// String renders the statement canonically.
func (s *ExpectRecordsStmt) String() string {
	b := words("expect", s.Client, "records", s.TP.String(), "=")
	if len(s.Values) == 1 && s.Values[0] == "none" {
		b.add(`"none"`) // a lone none unquoted means no records
		return b.String()
	}
	for _, v := range s.Values {
		b.add(quote(v))
	}
	return b.String()
}

// ExpectPositionStmt checks a consumer's fetch positions: the offset of
// the next record it will fetch from each partition, or none before it
// knows one (assigned, offsets not yet fetched).
type ExpectPositionStmt struct {
	Base
	Client    string
	Positions []ExpectedOffset // Kind OffsetCommitted (an offset) or OffsetNone; no partition twice
}

// String renders the statement canonically.
func (s *ExpectPositionStmt) String() string {
	b := words("expect", s.Client, "position")
	for _, p := range s.Positions {
		b.add(p.String())
	}
	return b.String()
}

// ExpectAbortedStmt checks the aborted list of the last Fetch response a
// broker sent the consumer for one partition: the transactions, by
// producer and first offset, whose records a read_committed consumer must
// drop.
type ExpectAbortedStmt struct {
	Base
	Client  string
	TP      protocol.TopicPartition
	Entries []AbortedEntry // nil: an empty list
}

// String renders the statement canonically.
func (s *ExpectAbortedStmt) String() string {
	b := words("expect", s.Client, "aborted", s.TP.String(), "=")
	for _, e := range s.Entries {
		b.add(e.String())
	}
	return b.String()
}

// clientExpect is a word after expect NAME and the function that parses
// the rest of the line.
type clientExpect struct {
	name  string
	parse func(lp *lineParser, c ClientDecl, t token) Stmt
	// example is a line of the expectation (see verb.example).
	example string
}

// clientExpects is the one table of what expect NAME may be followed by.
var clientExpects = []clientExpect{
	{"ok", parseExpectOK, "expect p1 ok"},
	{"error", parseExpectError, "expect p1 error PRODUCER_FENCED"},
	{"pending", parseExpectPending, "expect p1 pending"},
	{"state", parseExpectState, "expect p1 state READY epoch=0"},
	{"records", parseExpectRecords, "expect c1 records orders/0 = v1"},
	{"position", parseExpectPosition, "expect c1 position orders/0=1"},
	{"aborted", parseExpectAborted, "expect c1 aborted orders/0 = p1@0"},
}

// clientWords are clientExpects' names, reserved and suggested.
var clientWords = func() []string {
	names := make([]string, len(clientExpects))
	for i, e := range clientExpects {
		names[i] = e.name
	}
	return names
}()

func (lp *lineParser) expectClient(c ClientDecl) Stmt {
	t := lp.next("expect " + c.Name + " needs ok, error NAME, pending, state STATE, records TOPIC/PART = ..., position TOPIC/PART=N or aborted TOPIC/PART = ...")
	for _, e := range clientExpects {
		if e.name == t.raw {
			return e.parse(lp, c, t)
		}
	}
	lp.failf(t.col, "expected ok, error, pending, state, records, position or aborted after expect %s, got %q%s", c.Name, t.raw,
		didYouMean(t.text, clientWords))
	return nil
}

func parseExpectOK(lp *lineParser, c ClientDecl, t token) Stmt {
	lp.done("expect " + c.Name + " ok takes no arguments")
	return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomeOK}
}

func parseExpectPending(lp *lineParser, c ClientDecl, t token) Stmt {
	lp.done("expect " + c.Name + " pending takes no arguments")
	return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomePending}
}

func parseExpectError(lp *lineParser, c ClientDecl, t token) Stmt {
	e := lp.next("expect " + c.Name + " error needs a Kafka error name, e.g. PRODUCER_FENCED, or a client exception, e.g. TimeoutException")
	if x, ok := protocol.ExceptionByName(e.raw); ok && !e.quoted {
		lp.done("expect error takes one error name")
		return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomeError, Exception: x}
	}
	code := lp.clientErrorName(e.raw, e.col)
	lp.done("expect error takes one error name")
	return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomeError, Error: code}
}

// clientErrorName is errorName for a call's outcome, which may also be
// a client exception: an unknown name is matched against both.
func (lp *lineParser) clientErrorName(raw string, col int) protocol.ErrorCode {
	if _, ok := protocol.ErrorByName(raw); !ok {
		var names []string
		for _, e := range protocol.Errors {
			names = append(names, e.Name)
		}
		for _, x := range protocol.Exceptions {
			names = append(names, x.String())
		}
		lp.failf(col, "unknown Kafka error or client exception %q%s", raw, didYouMean(raw, names))
	}
	return lp.errorName(raw, col)
}

// errorName parses an expected client error: a Kafka error name, not NONE.
func (lp *lineParser) errorName(raw string, col int) protocol.ErrorCode {
	code := lp.errorNameAny(raw, col)
	if code == protocol.NONE {
		lp.failf(col, "NONE is success: write expect NAME ok")
	}
	return code
}

func (lp *lineParser) errorNameAny(raw string, col int) protocol.ErrorCode {
	code, ok := protocol.ErrorByName(raw)
	if !ok {
		names := make([]string, len(protocol.Errors))
		for i, e := range protocol.Errors {
			names[i] = e.Name
		}
		lp.failf(col, "unknown Kafka error %q%s", raw, didYouMean(raw, names))
	}
	return code
}

func parseExpectState(lp *lineParser, c ClientDecl, t token) Stmt {
	if c.Kind != KindProducer {
		lp.failf(t.col, "%s is a consumer: state applies to producers", c.Name)
	}
	s := lp.next("expect " + c.Name + " state needs a state, e.g. READY")
	state, ok := ClientStateByName(s.raw)
	if !ok || s.quoted {
		names := enumNames(clientStateNames)
		lp.failf(s.col, "unknown client state %q%s (states: %s)", s.raw, didYouMean(s.text, names), strings.Join(names, ", "))
	}
	st := &ExpectStateStmt{Client: c.Name, State: state}
	st.Given = expectStateOptions.parse(lp, "expect state", st).given()
	return st
}

func parseExpectRecords(lp *lineParser, c ClientDecl, t token) Stmt {
	if c.Kind != KindConsumer {
		lp.failf(t.col, "%s is a producer: records applies to consumers", c.Name)
	}
	tpT := lp.next("expect records needs a partition, e.g. expect " + c.Name + " records orders/0 = v1 v2")
	st := &ExpectRecordsStmt{Client: c.Name, TP: lp.topicPartition(tpT.raw, tpT.col)}
	lp.equals(st.TP)
	if lp.noneAfterEquals() {
		return st
	}
	for lp.more() {
		v := lp.next("")
		val, _ := lp.value(v.raw, v.col)
		st.Values = append(st.Values, val)
	}
	return st
}

func (st *ExpectOutcomeStmt) apply(s *Session) *Error  { return s.expect(st) }
func (st *ExpectStateStmt) apply(s *Session) *Error    { return s.expect(st) }
func (st *ExpectRecordsStmt) apply(s *Session) *Error  { return s.expect(st) }
func (st *ExpectPositionStmt) apply(s *Session) *Error { return s.expect(st) }
func (st *ExpectAbortedStmt) apply(s *Session) *Error  { return s.expect(st) }

func (st *ExpectOutcomeStmt) evaluate(s *Session) (string, string, bool, *Error) {
	if st.Outcome == OutcomePending {
		c := s.Cluster.LastCall(st.Client)
		if c == nil {
			return "pending", "no call made", false, nil
		}
		if c.Done {
			return "pending", string(c.Kind) + " returned " + c.Result.String(), false, nil
		}
		return "pending", string(c.Kind) + " pending", true, nil
	}
	last := s.Cluster.LastCompleted(st.Client)
	if last == nil {
		return st.Outcome.String(), "no call has returned", false, nil
	}
	actual := string(last.Kind) + " returned " + last.Result.String()
	if st.Outcome == OutcomeOK {
		return "ok", actual, last.Result.OK(), nil
	}
	return "error " + st.Expected().String(), actual, last.Result == st.Expected(), nil
}

func (st *ExpectStateStmt) evaluate(s *Session) (string, string, bool, *Error) {
	p, ok := s.Cluster.Producer(st.Client)
	if !ok {
		return "", "", false, s.errorf(st, "%s is not a producer", st.Client)
	}
	expected, actual := st.State.String(), p.State
	ok = expected == actual
	if st.Given.Has("epoch") {
		expected += " epoch=" + strconv.Itoa(int(st.Epoch))
		actual += " epoch=" + strconv.Itoa(int(p.ProducerEpoch))
		ok = ok && st.Epoch == p.ProducerEpoch
	}
	return expected, actual, ok, nil
}

func (st *ExpectRecordsStmt) evaluate(s *Session) (string, string, bool, *Error) {
	got, ok := s.Cluster.Received(st.Client, st.TP)
	if !ok {
		return "", "", false, s.errorf(st, "%s is not a consumer", st.Client)
	}
	expected, actual := strings.Join(st.Values, " "), strings.Join(got, " ")
	return orNone(expected), orNone(actual), slices.Equal(st.Values, got), nil
}

func parseExpectPosition(lp *lineParser, c ClientDecl, kw token) Stmt {
	if c.Kind != KindConsumer {
		lp.failf(kw.col, "%s is a producer: position applies to consumers", c.Name)
	}
	st := &ExpectPositionStmt{Client: c.Name}
	if !lp.more() {
		lp.failf(lp.endCol(), "expect position needs at least one TOPIC/PARTITION=N|none, e.g. expect %s position orders/0=3", c.Name)
	}
	seen := map[protocol.TopicPartition]bool{}
	for lp.more() {
		t := lp.next("")
		tp, val, vcol := lp.tpEquals(t, "TOPIC/PARTITION=N|none")
		if seen[tp] {
			lp.failf(t.col, "%s is given twice", tp)
		}
		seen[tp] = true
		o := ExpectedOffset{TP: tp, Kind: OffsetNone}
		if val != "none" {
			if !allDigits(val) {
				lp.failf(vcol, "expected an offset or none after %s=, got %q", tp, val)
			}
			o.Kind, o.Offset = OffsetCommitted, lp.integer("the position", val, vcol, 0, math.MaxInt64)
		}
		st.Positions = append(st.Positions, o)
	}
	return st
}

func parseExpectAborted(lp *lineParser, c ClientDecl, kw token) Stmt {
	if c.Kind != KindConsumer {
		lp.failf(kw.col, "%s is a producer: aborted applies to consumers", c.Name)
	}
	tpT := lp.next("expect aborted needs a partition, e.g. expect " + c.Name + " aborted orders/0 = p1@0")
	st := &ExpectAbortedStmt{Client: c.Name, TP: lp.topicPartition(tpT.raw, tpT.col)}
	lp.equals(st.TP)
	if lp.noneAfterEquals() {
		return st
	}
	for lp.more() {
		t := lp.next("")
		at := strings.LastIndexByte(t.raw, '@')
		if at <= 0 || t.quoted {
			lp.failf(t.col, "expected an aborted transaction P@FIRST_OFFSET (a producer and the offset its transaction began at), got %q", t.raw)
		}
		lp.producerRef(t.raw[:at], t.col)
		ocol := runeCol(t.raw, t.col, at+1)
		off := lp.integer("the first offset", t.raw[at+1:], ocol, 0, math.MaxInt64)
		st.Entries = append(st.Entries, AbortedEntry{Producer: t.raw[:at], FirstOffset: off})
	}
	return st
}

func (st *ExpectPositionStmt) evaluate(s *Session) (string, string, bool, *Error) {
	var exp, act []string
	ok := true
	for _, want := range st.Positions {
		pos, known := s.Cluster.Position(st.Client, want.TP)
		if !known {
			return "", "", false, s.errorf(st, "%s is not a consumer", st.Client)
		}
		got := ExpectedOffset{TP: want.TP, Kind: OffsetNone}
		if pos >= 0 {
			got.Kind, got.Offset = OffsetCommitted, pos
		}
		exp, act = append(exp, want.String()), append(act, got.String())
		ok = ok && got == want
	}
	return strings.Join(exp, " "), strings.Join(act, " "), ok, nil
}

func (st *ExpectAbortedStmt) evaluate(s *Session) (string, string, bool, *Error) {
	var exp []string
	for _, e := range st.Entries {
		exp = append(exp, e.String())
	}
	list, found := s.lastAborted(st.Client, st.TP)
	if !found {
		return orNone(strings.Join(exp, " ")), "no fetch answer for " + st.TP.String() + " sent to " + st.Client, false, nil
	}
	act, ok := s.abortedText(list, st.Entries)
	return orNone(strings.Join(exp, " ")), orNone(act), ok, nil
}

// positionValue is the position query's value.
func (s *Session) positionValue(client string, tp protocol.TopicPartition) string {
	pos, known := s.Cluster.Position(client, tp)
	if !known || pos < 0 {
		return noValue
	}
	return strconv.FormatInt(pos, 10)
}

// abortedValue is the aborted query's value.
func (s *Session) abortedValue(client string, tp protocol.TopicPartition) string {
	if !s.Cluster.IsConsumer(client) {
		return noValue
	}
	list, found := s.lastAborted(client, tp)
	if !found {
		return noValue
	}
	text, _ := s.abortedText(list, nil)
	return orMark(text)
}
