package scenario

// The clients' calls: a producer's (init, begin, send, send-offsets,
// commit, abort, close) and a consumer's (assign, poll, seek, commit,
// subscribe: group.go),
// each one call of the Java client, and wait. Their types, parsing,
// canonical text and application live here.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// ProducerOp is a producer action: one call of the Java KafkaProducer.
type ProducerOp uint8

// The producer actions.
const (
	ProducerInit        ProducerOp = iota + 1 // initTransactions()
	ProducerBegin                             // beginTransaction()
	ProducerSend                              // send() per record, then wait for the acks
	ProducerSendOffsets                       // sendOffsetsToTransaction()
	ProducerCommit                            // commitTransaction()
	ProducerAbort                             // abortTransaction()
	ProducerClose                             // close()
)

var producerOpNames = []string{"", "init", "begin", "send", "send-offsets", "commit", "abort", "close"}

// String returns the action's script keyword.
func (o ProducerOp) String() string { return enumString(o, producerOpNames, "ProducerOp") }

// Transactional reports whether the call needs a transactional.id.
func (o ProducerOp) Transactional() bool { return o != ProducerSend && o != ProducerClose }

// ConsumerOp is a consumer action: one call of the Java KafkaConsumer.
type ConsumerOp uint8

// The consumer actions.
const (
	ConsumerAssign      ConsumerOp = iota + 1 // assign()
	ConsumerPoll                              // poll(): one fetch round
	ConsumerSeek                              // seek()
	ConsumerCommit                            // commitSync() of the current positions
	ConsumerSubscribe                         // subscribe(): partitions from the group (group.go)
	ConsumerUnsubscribe                       // unsubscribe(): leave the group (LeaveGroup)
)

var consumerOpNames = []string{"", "assign", "poll", "seek", "commit", "subscribe", "unsubscribe"}

// String returns the action's script keyword.
func (o ConsumerOp) String() string { return enumString(o, consumerOpNames, "ConsumerOp") }

// KV is one record of a send: key and value.
type KV struct{ Key, Value string }

// TPOffset is an offset of one partition (send-offsets).
type TPOffset struct {
	TP     protocol.TopicPartition
	Offset int64
}

// ProducerActionStmt is a call on a declared producer.
type ProducerActionStmt struct {
	Base
	Client     string
	Op         ProducerOp
	TP         protocol.TopicPartition // send
	Records    []KV                    // send: at least one
	Group      string                  // send-offsets
	Consumer   string                  // send-offsets consumer=C: C's groupMetadata() (group.go)
	Offsets    []TPOffset              // send-offsets: at least one
	Background bool                    // trailing &: issue the call and return at once
}

// String renders the statement canonically.
func (s *ProducerActionStmt) String() string {
	b := words(s.Client, s.Op.String())
	switch s.Op {
	case ProducerSend:
		b.add(s.TP.String())
		for _, r := range s.Records {
			b.add(quote(r.Key) + "=" + quote(r.Value))
		}
	case ProducerSendOffsets:
		b.add(s.groupArg())
		for _, o := range s.Offsets {
			b.add(o.TP.String() + "=" + strconv.FormatInt(o.Offset, 10))
		}
	}
	if s.Background {
		b.add("&")
	}
	return b.String()
}

// ConsumerActionStmt is a call on a declared consumer.
type ConsumerActionStmt struct {
	Base
	Client     string
	Op         ConsumerOp
	Partitions []protocol.TopicPartition // assign: at least one, no duplicates
	Topics     []string                  // subscribe: at least one, no duplicates
	TP         protocol.TopicPartition   // seek
	Offset     int64                     // seek
	Background bool                      // trailing &
}

// String renders the statement canonically.
func (s *ConsumerActionStmt) String() string {
	b := words(s.Client, s.Op.String())
	switch s.Op {
	case ConsumerAssign:
		for _, tp := range s.Partitions {
			b.add(tp.String())
		}
	case ConsumerSeek:
		b.add(s.TP.String(), strconv.FormatInt(s.Offset, 10))
	case ConsumerSubscribe:
		b.add(s.Topics...)
	}
	if s.Background {
		b.add("&")
	}
	return b.String()
}

// WaitStmt runs the simulation until the client's pending call returns.
type WaitStmt struct {
	Base
	Client string
}

// String renders the statement canonically.
func (s *WaitStmt) String() string { return "wait " + s.Client }

// background consumes a trailing unquoted "&".
func (lp *lineParser) background() bool {
	last := lp.toks[len(lp.toks)-1]
	if len(lp.toks) > lp.i && last.raw == "&" {
		lp.toks = lp.toks[:len(lp.toks)-1]
		return true
	}
	return false
}

func (lp *lineParser) producerAction(c ClientDecl) Stmt {
	bg := lp.background()
	opT := lp.next(fmt.Sprintf("%s is a producer: say what it does (%s)", c.Name, strings.Join(producerOpNames[1:], ", ")))
	op, ok := enumByName[ProducerOp](opT.raw, producerOpNames)
	if !ok || opT.quoted {
		lp.failf(opT.col, "unknown producer action %q%s (a producer can %s)", opT.raw,
			didYouMean(opT.text, producerOpNames[1:]), strings.Join(producerOpNames[1:], ", "))
	}
	if op.Transactional() && c.TransactionalID == "" {
		lp.failf(opT.col, "%s has no transactional.id: %s is a transactional call; declare the producer with transactional.id=ID", c.Name, op)
	}
	st := &ProducerActionStmt{Client: c.Name, Op: op, Background: bg}
	switch op {
	case ProducerSend:
		t := lp.next("send needs a partition and records, e.g. " + c.Name + " send orders/0 k1=v1")
		st.TP = lp.topicPartition(t.raw, t.col)
		if strings.HasPrefix(st.TP.Topic, "__") {
			lp.failf(t.col, "cannot send to the internal topic %s", st.TP.Topic)
		}
		if !lp.more() {
			lp.failf(lp.endCol(), "send needs at least one record KEY=VALUE after %s", st.TP)
		}
		for lp.more() {
			st.Records = append(st.Records, lp.record(lp.next("")))
		}
	case ProducerSendOffsets:
		g := lp.next("send-offsets needs a group and offsets, e.g. " + c.Name + " send-offsets g1 orders/0=5")
		if !lp.sendOffsetsConsumer(st, g) {
			st.Group = lp.nonEmpty("the group", g.raw, g.col)
		}
		if !lp.more() {
			lp.failf(lp.endCol(), "send-offsets needs at least one TOPIC/PARTITION=OFFSET after the group")
		}
		seen := map[protocol.TopicPartition]bool{}
		for lp.more() {
			t := lp.next("")
			tp, val, vcol := lp.tpEquals(t, "TOPIC/PARTITION=OFFSET")
			if seen[tp] {
				lp.failf(t.col, "%s is given twice", tp)
			}
			seen[tp] = true
			st.Offsets = append(st.Offsets, TPOffset{TP: tp, Offset: lp.integer("the offset", val, vcol, 0, math.MaxInt64)})
		}
	default:
		lp.done(fmt.Sprintf("%s takes no arguments (a trailing & is allowed)", op))
	}
	return st
}

// record parses KEY=VALUE; either side may be quoted, and must be to be
// empty.
func (lp *lineParser) record(t token) KV {
	eq := indexOutside(t.raw, "=", false)
	if eq < 0 || t.quoted {
		lp.failf(t.col, "expected a record KEY=VALUE, got %q", t.raw)
	}
	k, kq := lp.value(t.raw[:eq], t.col)
	if k == "" && !kq {
		lp.failf(t.col, `record key is empty: write ""=VALUE for an empty key`)
	}
	vcol := runeCol(t.raw, t.col, eq+1)
	v, vq := lp.value(t.raw[eq+1:], vcol)
	if v == "" && !vq {
		lp.failf(vcol, `record value is empty: write KEY="" for an empty value`)
	}
	return KV{Key: k, Value: v}
}

func (lp *lineParser) consumerAction(c ClientDecl) Stmt {
	bg := lp.background()
	opT := lp.next(fmt.Sprintf("%s is a consumer: say what it does (%s)", c.Name, strings.Join(consumerOpNames[1:], ", ")))
	op, ok := enumByName[ConsumerOp](opT.raw, consumerOpNames)
	if !ok || opT.quoted {
		extra := ""
		if _, isP := enumByName[ProducerOp](opT.raw, producerOpNames); isP {
			extra = "; " + c.Name + " is a consumer"
		}
		lp.failf(opT.col, "unknown consumer action %q%s (a consumer can %s)%s", opT.raw,
			didYouMean(opT.text, consumerOpNames[1:]), strings.Join(consumerOpNames[1:], ", "), extra)
	}
	st := &ConsumerActionStmt{Client: c.Name, Op: op, Background: bg}
	switch op {
	case ConsumerAssign:
		if !lp.more() {
			lp.failf(lp.endCol(), "assign needs at least one TOPIC/PARTITION, e.g. %s assign orders/0", c.Name)
		}
		for lp.more() {
			t := lp.next("")
			tp := lp.topicPartition(t.raw, t.col)
			for _, p := range st.Partitions {
				if p == tp {
					lp.failf(t.col, "%s is given twice", tp)
				}
			}
			st.Partitions = append(st.Partitions, tp)
		}
	case ConsumerSeek:
		t := lp.next("seek needs a partition and an offset, e.g. " + c.Name + " seek orders/0 0")
		st.TP = lp.topicPartition(t.raw, t.col)
		o := lp.next("seek needs an offset after " + st.TP.String())
		st.Offset = lp.integer("the offset", o.raw, o.col, 0, math.MaxInt64)
		lp.done("seek takes a partition and an offset")
	case ConsumerCommit:
		if c.GroupID == "" {
			lp.failf(opT.col, "%s has no group.id: commit needs one; declare the consumer with group.id=GROUP", c.Name)
		}
		lp.done("commit takes no arguments (a trailing & is allowed)")
	case ConsumerSubscribe:
		lp.subscribe(c, st, opT)
	default:
		lp.done(fmt.Sprintf("%s takes no arguments (a trailing & is allowed)", op))
	}
	return st
}

func parseWait(lp *lineParser, kw token) Stmt { return &WaitStmt{Client: lp.clientArg("wait").Name} }

func (st *WaitStmt) apply(s *Session) *Error {
	last := s.Cluster.LastCall(st.Client)
	if last == nil {
		return s.errorf(st, "%s has made no call to wait for", st.Client)
	}
	pending := s.Cluster.PendingCalls(st.Client) // every overlapping send too
	s.waitFor(st, func() bool {
		for _, c := range pending {
			if !c.Done {
				return false
			}
		}
		return true
	}, 10*sim.Minute, sim.NewNote(sim.NoteWaitNoReturn, st.Client))
	return nil
}

func (s *Session) clientUsable(st Stmt, name string) *Error {
	id, _ := s.Cluster.Node(name)
	switch s.Cluster.StatusOf(id) {
	case sim.Crashed:
		return s.errorf(st, "%s has crashed: a crashed client cannot act; declare a new one", name)
	case sim.Paused:
		return s.errorf(st, "%s is paused: resume it first", name)
	}
	if last := s.Cluster.LastCall(name); last != nil && !last.Done && !(overlapsSends(st) && s.onlySendsPending(name)) {
		return s.errorf(st, "%s is still in its %s call: wait for it first (wait %s)", name, last.Kind, name)
	}
	return nil
}

// overlapsSends tells the producer calls that may start while earlier
// sends (`send … &`) wait for their acks: Java's send() is asynchronous,
// so another send; commitTransaction, which flushes them first; and
// abortTransaction, which fails those not yet sent.
func overlapsSends(st Stmt) bool {
	a, ok := st.(*ProducerActionStmt)
	return ok && (a.Op == ProducerSend || a.Op == ProducerCommit || a.Op == ProducerAbort)
}

// onlySendsPending reports whether every pending call of producer name
// is a send.
func (s *Session) onlySendsPending(name string) bool {
	if _, ok := s.Cluster.Producer(name); !ok {
		return false
	}
	for _, c := range s.Cluster.PendingCalls(name) {
		if c.Kind != cluster.CallSend {
			return false
		}
	}
	return true
}

func (st *ProducerActionStmt) apply(s *Session) *Error {
	c := s.Cluster
	if _, ok := c.Producer(st.Client); !ok {
		return s.errorf(st, "%s is not a producer", st.Client)
	}
	if err := s.clientUsable(st, st.Client); err != nil {
		return err
	}
	var call *cluster.Call
	var err error
	switch st.Op {
	case ProducerInit:
		call, err = c.InitTransactions(st.Client)
	case ProducerBegin:
		call, err = c.BeginTransaction(st.Client)
	case ProducerSend:
		if err := s.checkTP(st, st.TP); err != nil {
			return err
		}
		recs := make([]protocol.Record, len(st.Records))
		for i, kv := range st.Records {
			recs[i] = protocol.Record{Key: kv.Key, Value: kv.Value}
		}
		call, err = c.Send(st.Client, st.TP, recs)
	case ProducerSendOffsets:
		var offs []protocol.OffsetEntry
		for _, o := range st.Offsets {
			offs = append(offs, protocol.OffsetEntry{TopicPartition: o.TP, CommittedOffset: o.Offset})
		}
		if st.Consumer != "" {
			call, err = c.SendOffsetsWithGroupMetadata(st.Client, st.Consumer, offs)
		} else {
			call, err = c.SendOffsetsToTransaction(st.Client, st.Group, offs)
		}
	case ProducerCommit:
		call, err = c.CommitTransaction(st.Client)
	case ProducerAbort:
		call, err = c.AbortTransaction(st.Client)
	case ProducerClose:
		call, err = c.CloseProducer(st.Client)
	}
	return s.awaitCall(st, st.Client, st.Op.String(), st.Background, call, err)
}

func (st *ConsumerActionStmt) apply(s *Session) *Error {
	c := s.Cluster
	if !c.IsConsumer(st.Client) {
		return s.errorf(st, "%s is not a consumer", st.Client)
	}
	if err := s.clientUsable(st, st.Client); err != nil {
		return err
	}
	var call *cluster.Call
	var err error
	switch st.Op {
	case ConsumerAssign:
		for _, tp := range st.Partitions {
			if err := s.checkTP(st, tp); err != nil {
				return err
			}
		}
		call, err = c.Assign(st.Client, st.Partitions)
	case ConsumerPoll:
		call, err = c.Poll(st.Client)
	case ConsumerSeek:
		if err := s.checkTP(st, st.TP); err != nil {
			return err
		}
		call, err = c.Seek(st.Client, st.TP, st.Offset)
	case ConsumerCommit:
		call, err = c.CommitSync(st.Client)
	case ConsumerSubscribe:
		call, err = c.Subscribe(st.Client, st.Topics)
	case ConsumerUnsubscribe:
		call, err = c.Unsubscribe(st.Client)
	}
	return s.awaitCall(st, st.Client, st.Op.String(), st.Background, call, err)
}

// awaitCall waits for a call started by a client action, unless the
// action ends with &.
func (s *Session) awaitCall(st Stmt, client, op string, background bool, call *cluster.Call, err error) *Error {
	if err != nil {
		return s.errorf(st, "%v", err)
	}
	if !background {
		s.waitFor(st, func() bool { return call.Done }, 10*sim.Minute, sim.NewNote(sim.NoteCallNoReturn, client, op))
	}
	return nil
}
