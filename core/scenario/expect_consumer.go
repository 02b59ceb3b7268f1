package scenario

// Two expectations on what a consumer holds: its fetch positions, and
// the aborted list of the last fetch answer it was sent. Their types,
// parsing, canonical text and evaluation live here; the values come from
// facts.go, which the queries read too.

import (
	"math"
	"strconv"
	"strings"

	"txnlab/core/protocol"
)

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

func (lp *lineParser) expectPosition(c ClientDecl, kw token) Stmt {
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

func (lp *lineParser) expectAborted(c ClientDecl, kw token) Stmt {
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

// noneAfterEquals consumes a lone unquoted "none" after the "=" of expect
// records, log and aborted: the other spelling of nothing at all.
func (lp *lineParser) noneAfterEquals() bool {
	if lp.i == len(lp.toks)-1 && lp.toks[lp.i].raw == "none" {
		lp.i++
		return true
	}
	return false
}

func (s *Session) expectPosition(st *ExpectPositionStmt) (string, string, bool, *Error) {
	var exp, act []string
	ok := true
	for _, want := range st.Positions {
		pos, known := s.position(st.Client, want.TP)
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

func (s *Session) expectAborted(st *ExpectAbortedStmt) (string, string, bool) {
	var exp []string
	for _, e := range st.Entries {
		exp = append(exp, e.String())
	}
	list, found := s.lastAborted(st.Client, st.TP)
	if !found {
		return orNone(strings.Join(exp, " ")), "no fetch answer for " + st.TP.String() + " sent to " + st.Client, false
	}
	act, ok := s.abortedText(list, st.Entries)
	return orNone(strings.Join(exp, " ")), orNone(act), ok
}

// positionValue is the position query's value.
func (s *Session) positionValue(client string, tp protocol.TopicPartition) string {
	pos, known := s.position(client, tp)
	if !known || pos < 0 {
		return noValue
	}
	return strconv.FormatInt(pos, 10)
}

// abortedValue is the aborted query's value.
func (s *Session) abortedValue(client string, tp protocol.TopicPartition) string {
	if s.Cluster.Consumers[client] == nil {
		return noValue
	}
	list, found := s.lastAborted(client, tp)
	if !found {
		return noValue
	}
	text, _ := s.abortedText(list, nil)
	return orMark(text)
}
