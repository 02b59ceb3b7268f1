package scenario

import (
	"slices"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// A Query names one value of a session's state: a lesson's evidence
// sentence and an embedded playground's facts are made of them
// (docs/lessons.md lists the forms). Values are identifiers and numbers,
// never prose, so a sentence in any language can quote them. Evaluating a
// query, like an expectation checked with Holds, reads the state and
// changes nothing.
type Query struct {
	// Src is the query as written.
	Src     string
	kind    string // the first word
	subject string // a client, a transactional id
	field   string
	tp      protocol.TopicPartition
	trace   *ExpectTraceStmt // count: the expectation whose count it reads
	api     protocol.APIKey  // apikey
}

// queryFields are the forms of each query kind: after the kind, the
// subject's role, then the fields it offers. The kinds an expectation
// also checks read their fields from its fact table (facts.go), the one
// home of both forms.
var queryFields = map[string][]string{
	"producer":    {"state", "pid", "epoch", "result", "call"},
	"consumer":    {"records", "position", "aborted"},
	"txn":         txnFacts.keys(),
	"partition":   partitionFacts.keys(),
	"coordinator": coordinatorFacts.keys(),
	"group":       groupFacts.keys(),
	"admin":       {"found", "result"},
}

// queryKinds lists every kind, for "did you mean".
var queryKinds = []string{"clock", "producer", "consumer", "txn", "partition", "coordinator", "group", "count", "apikey", "violations", "admin"}

// noValue is what a query answers for an empty list or a missing value:
// a mark rather than a word, so no language is imposed on the sentence.
const noValue = "—"

// ParseQuery parses a query in the context of a script's declarations
// (its topics and clients must exist). Errors are *Error values whose
// column counts from 1 at the query's first character, on line 1.
func ParseQuery(src string, decls *Decls) (q *Query, err error) {
	if decls == nil {
		decls = NewDecls()
	}
	ll, lerr := lexLine(src, 1)
	if lerr != nil {
		return nil, lerr
	}
	if len(ll.toks) == 0 {
		return nil, &Error{Pos: Pos{1, 1}, Msg: "empty query: expected one of " + strings.Join(queryKinds, ", ")}
	}
	lp := &lineParser{d: decls, line: 1, toks: ll.toks}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			q, err = nil, b.err
		}
	}()
	return lp.query(src), nil
}

func (lp *lineParser) query(src string) *Query {
	kw := lp.next("")
	q := &Query{Src: src, kind: kw.raw}
	switch kw.raw {
	case "clock", "violations":
		lp.done(kw.raw + " takes nothing after it")
		return q
	case "count":
		// The rest is what expect trace takes: reuse its parser, so the
		// two read a message match the same way.
		rest := lp.toks[lp.i:]
		line := &lineParser{d: lp.d, line: lp.line, toks: rest}
		if len(rest) == 0 {
			lp.failf(lp.endCol(), "count needs an API, e.g. count WriteTxnMarkers.response")
		}
		st := parseExpectTrace(line).(*ExpectTraceStmt)
		if st.Given.Has("count") {
			lp.failf(kw.col, "count takes no count= option")
		}
		q.trace = st
		return q
	case "apikey":
		t := lp.next("apikey needs an API, e.g. apikey InitProducerId")
		m := lp.match(t)
		if m.Response {
			lp.failf(t.col, "apikey takes an API's name, without .response")
		}
		q.api = m.API
		lp.done("apikey takes one API")
		return q
	case "producer", "consumer":
		t := lp.next(kw.raw + " needs a client name")
		c := lp.clientName(t.raw, t.col)
		if (kw.raw == "producer") != (c.Kind == KindProducer) {
			lp.failf(t.col, "%s is not a %s", t.raw, kw.raw)
		}
		q.subject = t.raw
	case "txn", "coordinator":
		t := lp.next(kw.raw + " needs a transactional id")
		q.subject = t.text
	case "group":
		t := lp.next("group needs a group id, e.g. group etl generation")
		q.subject = t.text
	case "partition":
		t := lp.next("partition needs TOPIC/PARTITION, e.g. orders/0")
		q.tp = lp.topicPartition(t.raw, t.col)
	case "admin":
	default:
		lp.failf(kw.col, "unknown query %q: expected one of %s%s", kw.raw, strings.Join(queryKinds, ", "), didYouMean(kw.raw, queryKinds))
	}
	fields := queryFields[kw.raw]
	f := lp.next(kw.raw + " needs one of " + strings.Join(fields, ", "))
	if !slices.Contains(fields, f.raw) {
		lp.failf(f.col, "%s has no %q: expected one of %s%s", kw.raw, f.raw, strings.Join(fields, ", "), didYouMean(f.raw, fields))
	}
	q.field = f.raw
	if kw.raw == "consumer" {
		t := lp.next(f.raw + " needs TOPIC/PARTITION, e.g. orders/0")
		q.tp = lp.topicPartition(t.raw, t.col)
	}
	lp.done("the query is complete")
	return q
}

// Query evaluates src, parsed against the session's script, on the state
// now.
func (s *Session) Query(src string) (string, error) {
	q, err := ParseQuery(src, s.Script.Decls)
	if err != nil {
		return "", err
	}
	return s.Eval(q), nil
}

// Eval evaluates a parsed query on the state now. Before the cluster
// exists every value is noValue.
func (s *Session) Eval(q *Query) string {
	c := s.Cluster
	if c == nil {
		return noValue
	}
	switch q.kind {
	case "clock":
		return FormatClock(int64(c.Now()))
	case "violations":
		var names []string
		for _, v := range c.Check(false) {
			if !slices.Contains(names, v.Invariant) {
				names = append(names, v.Invariant)
			}
		}
		return orMark(strings.Join(names, ", "))
	case "count":
		_, actual, _, err := q.trace.evaluate(s)
		if err != nil {
			return noValue // a node reference that does not resolve now
		}
		return actual
	case "apikey":
		// Read off the messages the run sent, not the table they come
		// from: the number on the wire is what a lesson can show.
		for _, e := range c.Trace().All() {
			if e.Kind == sim.KindSend && e.Msg != nil && !e.Resp && e.Msg.APIKey() == q.api {
				return strconv.Itoa(int(e.Msg.APIKey()))
			}
		}
		return noValue
	case "producer":
		return s.producerValue(q)
	case "consumer":
		vals, ok := c.Received(q.subject, q.tp)
		if !ok {
			return noValue // declared further down the script
		}
		switch q.field {
		case "position":
			return s.positionValue(q.subject, q.tp)
		case "aborted":
			return s.abortedValue(q.subject, q.tp)
		}
		return orMark(strings.Join(vals, " "))
	case "txn":
		return s.txnValue(q)
	case "admin":
		return s.adminValue(q)
	case "partition":
		return s.partitionValue(q)
	case "group":
		return s.groupValue(q)
	case "coordinator":
		co := c.Coordinator(q.subject)
		return coordinatorFacts.value(&co, q.field)
	}
	return noValue
}

func (s *Session) producerValue(q *Query) string {
	p, ok := s.Cluster.Producer(q.subject)
	if !ok {
		return noValue // declared further down the script
	}
	switch q.field {
	case "state":
		return p.State
	case "pid":
		return strconv.FormatInt(p.ProducerId, 10)
	case "epoch":
		return strconv.Itoa(int(p.ProducerEpoch))
	}
	last := s.Cluster.LastCompleted(q.subject)
	if last == nil {
		return noValue
	}
	if q.field == "call" {
		return string(last.Kind)
	}
	return last.Result.String()
}

func (s *Session) txnValue(q *Query) string {
	t := s.Cluster.Transaction(q.subject)
	if !t.Known {
		return noValue
	}
	return txnFacts.value(&t, q.field)
}

// groupValue reads a consumer group's membership as its coordinator holds
// it: members and leader as client names, the way scripts name them.
func (s *Session) groupValue(q *Query) string {
	g, ok := s.Cluster.Group(q.subject)
	if !ok {
		return noValue // no live coordinator, or nobody has joined yet
	}
	return groupFacts.value(&g, q.field)
}

func (s *Session) partitionValue(q *Query) string {
	f, ok := s.Cluster.PartitionFacts(q.tp)
	if !ok {
		return noValue // the topic is created further down the script
	}
	return partitionFacts.value(&f, q.field)
}

func orMark(s string) string {
	if s == "" {
		return noValue
	}
	return s
}

// FormatClock renders a virtual time in milliseconds as seconds with the
// milliseconds kept when there are any ("118.204s", "2s", "0s"): the
// clock a lesson quotes, in a form every language reads.
func FormatClock(ms int64) string {
	sec, frac := ms/1000, ms%1000
	if frac == 0 {
		return strconv.FormatInt(sec, 10) + "s"
	}
	f := strings.TrimRight(strconv.FormatInt(1000+frac, 10)[1:], "0")
	return strconv.FormatInt(sec, 10) + "." + f + "s"
}

// Holds evaluates one expect statement of the scenario language on the
// state now, without recording it or changing anything: a question's
// choice is what happened exactly when its expectations hold at the
// question's stop point. src is parsed against the session's script.
func (s *Session) Holds(src string) (Result, error) {
	st, err := ParseExpect(src, s.Script.Decls)
	if err != nil {
		return Result{}, err
	}
	if s.Cluster == nil {
		return Result{}, &Error{Pos: Pos{1, 1}, Msg: "the cluster does not exist yet: stop after the cluster statement"}
	}
	r, serr := s.evaluate(st)
	if serr != nil {
		return r, serr
	}
	return r, nil
}

// ParseExpect parses src as one expect statement in the context of a
// script's declarations; any other statement is an error.
func ParseExpect(src string, decls *Decls) (Stmt, error) {
	if decls == nil {
		decls = NewDecls()
	}
	st, err := ParseLine(src, 1, decls.Clone())
	if err != nil {
		return nil, err
	}
	if st == nil || !IsExpect(st) {
		return nil, &Error{Pos: Pos{1, 1}, Msg: "expected an expect statement, e.g. expect txn order-txn-1 state=CompleteCommit"}
	}
	return st, nil
}
