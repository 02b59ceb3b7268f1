package scenario

// The expectations on what the brokers hold: a transactional id's
// metadata at its coordinator (expect txn), a partition's offsets and
// leadership (expect partition), a log (expect log), a group's offsets
// (expect offsets) and where a coordinator is (expect coordinator).
// Their types, option tables, parsing, canonical text and evaluation
// live here; the values come from core/cluster's queries, which the
// snapshot reads too.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/protocol"
)

// ---- expect txn ----

// ExpectTxnStmt checks the coordinator's metadata of a transactional id.
type ExpectTxnStmt struct {
	Base
	TransactionalID string
	Absent          bool                      // expect txn ID absent
	State           protocol.TransactionState // state=STATE, when given
	Epoch           int16                     // epoch=N, when given
	ProducerID      int64                     // pid=N, when given
	Partitions      []protocol.TopicPartition // partitions=T/P,... when given: sorted, a set ("none" for empty)
	Given           OptionSet                 // which of state, epoch, pid, partitions were written
}

var expectTxnOptions = optTable[ExpectTxnStmt]{
	{key: "state",
		read: func(lp *lineParser, st *ExpectTxnStmt, o option) {
			s, ok := protocol.TransactionStateByName(o.raw)
			if !ok {
				names := txnStateNames()
				lp.failf(o.col, "unknown transaction state %q%s (states: %s)", o.raw, didYouMean(o.raw, names), strings.Join(names, ", "))
			}
			st.State = s
		},
		write: func(st *ExpectTxnStmt) string { return st.State.String() }},
	intOpt("epoch", 0, -1, math.MaxInt16, func(st *ExpectTxnStmt) *int16 { return &st.Epoch }),
	intOpt("pid", 0, -1, math.MaxInt64, func(st *ExpectTxnStmt) *int64 { return &st.ProducerID }),
	{key: "partitions", // written with nothing after = for none, too
		read:  func(lp *lineParser, st *ExpectTxnStmt, o option) { st.Partitions = lp.tpSet(o) },
		write: func(st *ExpectTxnStmt) string { return tpList(st.Partitions) }},
}

// String renders the statement canonically.
func (s *ExpectTxnStmt) String() string {
	b := words("expect", "txn", quote(s.TransactionalID))
	if s.Absent {
		b.add("absent")
		return b.String()
	}
	expectTxnOptions.render(b, s, s.Given)
	return b.String()
}

func parseExpectTxn(lp *lineParser) Stmt {
	t := lp.next("expect txn needs a transactional id, e.g. expect txn order-txn-1 state=Ongoing")
	st := &ExpectTxnStmt{TransactionalID: lp.nonEmpty("the transactional id", t.raw, t.col)}
	if lp.more() && lp.toks[lp.i].raw == "absent" {
		lp.i++
		st.Absent = true
		lp.done("expect txn ID absent takes nothing more")
		return st
	}
	st.Given = expectTxnOptions.parse(lp, "expect txn", st, "partitions").given()
	return st
}

// eachItem calls each with every comma-separated item of an option's
// value and the column it starts at, so an error points at the item.
func (lp *lineParser) eachItem(o option, each func(part string, col int)) {
	for off := 0; ; {
		part := o.raw[off:]
		end := strings.IndexByte(part, ',')
		if end >= 0 {
			part = part[:end]
		}
		each(part, runeCol(o.raw, o.vcol, off))
		if end < 0 {
			return
		}
		off += end + 1
	}
}

// tpSet parses "none" or T/P,T/P,... into a sorted set.
func (lp *lineParser) tpSet(o option) []protocol.TopicPartition {
	if o.raw == "none" || o.raw == "" {
		return nil
	}
	var tps []protocol.TopicPartition
	lp.eachItem(o, func(part string, col int) {
		if part == "" {
			lp.failf(col, "expected TOPIC/PARTITION in %s=, got an empty item (for no partitions write %s=none, or %s= with nothing after it)", o.key, o.key, o.key)
		}
		tp := lp.topicPartition(part, col)
		if slices.Contains(tps, tp) {
			lp.failf(col, "%s is given twice", tp)
		}
		tps = append(tps, tp)
	})
	slices.SortFunc(tps, protocol.TopicPartition.Compare)
	return tps
}

// ---- expect partition ----

// ExpectPartitionStmt checks the leader's offsets of a partition and the
// controller's view of it.
type ExpectPartitionStmt struct {
	Base
	TP          protocol.TopicPartition
	HW          int64     // hw=N
	LSO         int64     // lso=N
	LogEnd      int64     // log-end=N
	Leader      int32     // leader=broker-N, -1 for leader=none
	LeaderEpoch int32     // leader-epoch=N
	ISR         []int32   // isr=broker-0,broker-1 (sorted, a set), nil for isr=none
	Given       OptionSet // which of hw, lso, log-end, leader, leader-epoch, isr were written (at least one)
}

var expectPartitionOptions = optTable[ExpectPartitionStmt]{
	intOpt("hw", 0, 0, math.MaxInt64, func(st *ExpectPartitionStmt) *int64 { return &st.HW }),
	intOpt("lso", 0, 0, math.MaxInt64, func(st *ExpectPartitionStmt) *int64 { return &st.LSO }),
	intOpt("log-end", 0, 0, math.MaxInt64, func(st *ExpectPartitionStmt) *int64 { return &st.LogEnd }),
	{key: "leader",
		read: func(lp *lineParser, st *ExpectPartitionStmt, o option) {
			st.Leader = lp.brokerOrNone(o.key, o.raw, o.vcol)
		},
		write: func(st *ExpectPartitionStmt) string { return brokerName(st.Leader) }},
	intOpt("leader-epoch", 0, 0, math.MaxInt32, func(st *ExpectPartitionStmt) *int32 { return &st.LeaderEpoch }),
	{key: "isr",
		read:  func(lp *lineParser, st *ExpectPartitionStmt, o option) { st.ISR = lp.parseBrokerSet(o) },
		write: func(st *ExpectPartitionStmt) string { return brokerSet(st.ISR) }},
}

// String renders the statement canonically.
func (s *ExpectPartitionStmt) String() string {
	b := words("expect", "partition", s.TP.String())
	expectPartitionOptions.render(b, s, s.Given)
	return b.String()
}

func parseExpectPartition(lp *lineParser) Stmt {
	t := lp.next("expect partition needs a partition, e.g. expect partition orders/0 hw=3 lso=3")
	st := &ExpectPartitionStmt{TP: lp.topicPartition(t.raw, t.col)}
	opts := expectPartitionOptions.parse(lp, "expect partition", st)
	if len(opts.list) == 0 {
		lp.failf(lp.endCol(), "expect partition needs at least one of hw=N, lso=N, log-end=N, leader=BROKER, leader-epoch=N, isr=BROKER,...")
	}
	st.Given = opts.given()
	return st
}

// ---- expect log ----

// LogEntryKind tells records from control markers in expect log.
type LogEntryKind uint8

// The log entry kinds.
const (
	EntryRecord LogEntryKind = iota + 1 // P:VALUE
	EntryCommit                         // COMMIT(P)
	EntryAbort                          // ABORT(P)
	EntryKeyed                          // KEY:VALUE, a record of an internal topic
)

// LogEntry is one expected entry of a partition log: a record written with
// the producer id Producer holds, or a control marker of that producer id.
type LogEntry struct {
	Kind     LogEntryKind
	Producer string
	Value    string // EntryRecord: the value; EntryKeyed: the state (__transaction_state) or offset (__consumer_offsets)
	Key      string // EntryKeyed only: the record's key
}

// String renders the entry as a script writes it.
func (e LogEntry) String() string {
	switch e.Kind {
	case EntryCommit:
		return "COMMIT(" + e.Producer + ")"
	case EntryAbort:
		return "ABORT(" + e.Producer + ")"
	case EntryKeyed:
		// A __consumer_offsets key (GROUP/TOPIC/PARTITION) keeps its
		// slashes unquoted.
		key := quote(e.Key)
		if e.Key != "" && plain(strings.ReplaceAll(e.Key, "/", "")) {
			key = e.Key
		}
		return key + ":" + quote(e.Value)
	}
	return e.Producer + ":" + quote(e.Value)
}

// OffsetKind is what expect offsets expects of one partition.
type OffsetKind uint8

// The expected offset kinds.
const (
	OffsetCommitted OffsetKind = iota + 1 // a committed offset, N
	OffsetNone                            // no committed offset
	OffsetUnstable                        // a transactional commit is pending (UNSTABLE_OFFSET_COMMIT)
)

// ExpectedOffset is the expectation for one partition in expect offsets.
type ExpectedOffset struct {
	TP     protocol.TopicPartition
	Kind   OffsetKind
	Offset int64 // OffsetCommitted only
}

// String renders "TOPIC/PART=N|none|unstable".
func (o ExpectedOffset) String() string {
	switch o.Kind {
	case OffsetNone:
		return o.TP.String() + "=none"
	case OffsetUnstable:
		return o.TP.String() + "=unstable"
	}
	return o.TP.String() + "=" + strconv.FormatInt(o.Offset, 10)
}

// ExpectLogStmt checks a partition's log, one entry per record or marker.
type ExpectLogStmt struct {
	Base
	TP      protocol.TopicPartition
	Entries []LogEntry // nil: the log is empty
}

// String renders the statement canonically.
func (s *ExpectLogStmt) String() string {
	b := words("expect", "log", s.TP.String(), "=")
	for _, e := range s.Entries {
		b.add(e.String())
	}
	return b.String()
}

func parseExpectLog(lp *lineParser) Stmt {
	t := lp.next("expect log needs a partition, e.g. expect log orders/0 = p1:v1 COMMIT(p1)")
	st := &ExpectLogStmt{TP: lp.topicPartition(t.raw, t.col)}
	lp.equals(st.TP)
	if lp.noneAfterEquals() {
		return st
	}
	for lp.more() {
		e := lp.next("")
		if strings.HasPrefix(st.TP.Topic, "__") {
			st.Entries = append(st.Entries, lp.internalLogEntry(st.TP, e))
			continue
		}
		st.Entries = append(st.Entries, lp.logEntry(e))
	}
	return st
}

func (lp *lineParser) logEntry(t token) LogEntry {
	const form = "expected a log entry P:VALUE, COMMIT(P) or ABORT(P), got %q"
	if t.quoted {
		lp.failf(t.col, form, t.raw)
	}
	for _, m := range []struct {
		prefix string
		kind   LogEntryKind
	}{{"COMMIT(", EntryCommit}, {"ABORT(", EntryAbort}} {
		if strings.HasPrefix(t.raw, m.prefix) {
			if !strings.HasSuffix(t.raw, ")") {
				lp.failf(t.col, "missing \")\" in %q", t.raw)
			}
			name := t.raw[len(m.prefix) : len(t.raw)-1]
			lp.producerRef(name, t.col+len(m.prefix))
			return LogEntry{Kind: m.kind, Producer: name}
		}
	}
	colon := indexOutside(t.raw, ":", false)
	if colon < 0 {
		lp.failf(t.col, form, t.raw)
	}
	name := t.raw[:colon]
	lp.producerRef(name, t.col)
	vcol := runeCol(t.raw, t.col, colon+1)
	v, q := lp.value(t.raw[colon+1:], vcol)
	if v == "" && !q {
		lp.failf(vcol, `the value is empty: write %s:"" for an empty value`, name)
	}
	return LogEntry{Kind: EntryRecord, Producer: name, Value: v}
}

// producerRef checks that name is a declared producer.
func (lp *lineParser) producerRef(name string, col int) {
	c := lp.clientName(name, col)
	if c.Kind != KindProducer {
		lp.failf(col, "%s is a consumer: log entries name the producer that wrote them", name)
	}
}

// ---- expect offsets ----

// ExpectOffsetsStmt checks what a require_stable OffsetFetch returns for a
// group.
type ExpectOffsetsStmt struct {
	Base
	Group   string
	Offsets []ExpectedOffset // at least one, no partition twice
}

// String renders the statement canonically.
func (s *ExpectOffsetsStmt) String() string {
	b := words("expect", "offsets", quote(s.Group))
	for _, o := range s.Offsets {
		b.add(o.String())
	}
	return b.String()
}

func parseExpectOffsets(lp *lineParser) Stmt {
	t := lp.next("expect offsets needs a group, e.g. expect offsets g1 orders/0=5")
	st := &ExpectOffsetsStmt{Group: lp.nonEmpty("the group", t.raw, t.col)}
	if !lp.more() {
		lp.failf(lp.endCol(), "expect offsets needs at least one TOPIC/PARTITION=N|none|unstable")
	}
	seen := map[protocol.TopicPartition]bool{}
	for lp.more() {
		e := lp.next("")
		tp, val, vcol := lp.tpEquals(e, "TOPIC/PARTITION=N|none|unstable")
		if seen[tp] {
			lp.failf(e.col, "%s is given twice", tp)
		}
		seen[tp] = true
		o := ExpectedOffset{TP: tp}
		switch val {
		case "none":
			o.Kind = OffsetNone
		case "unstable":
			o.Kind = OffsetUnstable
		default:
			if !allDigits(val) {
				lp.failf(vcol, "expected an offset, none or unstable after %s=, got %q", tp, val)
			}
			o.Kind = OffsetCommitted
			o.Offset = lp.integer("the offset", val, vcol, 0, math.MaxInt64)
		}
		st.Offsets = append(st.Offsets, o)
	}
	return st
}

// ---- expect coordinator ----

// ExpectCoordinatorStmt checks where a transactional id's coordinator is.
type ExpectCoordinatorStmt struct {
	Base
	TransactionalID string
	Partition       int32     // partition=N: its __transaction_state partition
	Broker          int       // broker=broker-N: the broker leading that partition now
	Epoch           int32     // epoch=N: the coordinator epoch
	Given           OptionSet // which of partition, broker, epoch were written
}

var expectCoordinatorOptions = optTable[ExpectCoordinatorStmt]{
	{key: "partition",
		read: func(lp *lineParser, st *ExpectCoordinatorStmt, o option) {
			n := int64(lp.d.Cluster.TxnPartitions)
			st.Partition = int32(lp.integerWhy(o.key, o.raw, o.col, 0, n-1, " (txn-partitions is "+strconv.FormatInt(n, 10)+")"))
		},
		write: func(st *ExpectCoordinatorStmt) string { return strconv.Itoa(int(st.Partition)) }},
	{key: "broker",
		read: func(lp *lineParser, st *ExpectCoordinatorStmt, o option) {
			n := lp.nodeRef(o.raw, o.vcol)
			if n.Kind != NodeBroker {
				lp.failf(o.col, "broker= needs a broker, broker-0 to broker-%d, got %q", lp.d.brokers()-1, o.raw)
			}
			st.Broker = n.Index
		},
		write: func(st *ExpectCoordinatorStmt) string { return "broker-" + strconv.Itoa(st.Broker) }},
	intOpt("epoch", 0, 0, math.MaxInt32, func(st *ExpectCoordinatorStmt) *int32 { return &st.Epoch }),
}

// String renders the statement canonically.
func (s *ExpectCoordinatorStmt) String() string {
	b := words("expect", "coordinator", quote(s.TransactionalID))
	expectCoordinatorOptions.render(b, s, s.Given)
	return b.String()
}

func parseExpectCoordinator(lp *lineParser) Stmt {
	t := lp.next("expect coordinator needs a transactional id, e.g. expect coordinator order-txn-1 broker=broker-1")
	st := &ExpectCoordinatorStmt{TransactionalID: lp.nonEmpty("the transactional id", t.raw, t.col)}
	st.Given = expectCoordinatorOptions.parse(lp, "expect coordinator", st).given()
	return st
}

// ---- values of expect partition and expect log ----

// brokerOrNone parses broker-N or none (-1).
func (lp *lineParser) brokerOrNone(key, raw string, col int) int32 {
	if raw == "none" {
		return -1
	}
	i, ok := brokerIndex(raw)
	if !ok {
		lp.failf(col, "%s must be a broker (broker-0 to broker-%d) or none, got %q", key, lp.d.brokers()-1, raw)
	}
	if i >= lp.d.brokers() {
		lp.failf(col, "%s does not exist: the cluster has broker-0 to broker-%d", raw, lp.d.brokers()-1)
	}
	return int32(i)
}

// parseBrokerSet parses none, nothing, or broker-N,broker-M,... into a
// sorted set.
func (lp *lineParser) parseBrokerSet(o option) []int32 {
	if o.raw == "none" {
		return nil
	}
	var ids []int32
	lp.eachItem(o, func(part string, col int) {
		if part == "" || part == "none" {
			lp.failf(col, "expected a broker in %s=, got an empty item (for no brokers write %s=none)", o.key, o.key)
		}
		id := lp.brokerOrNone(o.key, part, col)
		if slices.Contains(ids, id) {
			lp.failf(col, "%s is given twice", part)
		}
		ids = append(ids, id)
	})
	slices.Sort(ids)
	return ids
}

// internalLogEntry parses an entry of an internal topic's log: KEY:STATE
// for a __transaction_state record (the transactional id and the state
// it records; an expired id's tombstone records Dead), KEY:OFFSET for a
// __consumer_offsets record (KEY is GROUP/TOPIC/PARTITION), and
// COMMIT(P)/ABORT(P) for the markers of __consumer_offsets.
func (lp *lineParser) internalLogEntry(tp protocol.TopicPartition, t token) LogEntry {
	if tp.Topic == protocol.ConsumerOffsetsTopic && !t.quoted &&
		(strings.HasPrefix(t.raw, "COMMIT(") || strings.HasPrefix(t.raw, "ABORT(")) {
		return lp.logEntry(t)
	}
	form := "TRANSACTIONAL_ID:STATE, e.g. order-txn-1:Ongoing"
	if tp.Topic == protocol.ConsumerOffsetsTopic {
		form = "GROUP/TOPIC/PARTITION:OFFSET, COMMIT(P) or ABORT(P)"
	}
	colon := indexOutside(t.raw, ":", true)
	if colon <= 0 || t.quoted {
		lp.failf(t.col, "expected a %s entry %s, got %q", tp.Topic, form, t.raw)
	}
	key := lp.nonEmpty("the key", t.raw[:colon], t.col)
	vcol := runeCol(t.raw, t.col, colon+1)
	val := t.raw[colon+1:]
	if tp.Topic == protocol.TransactionStateTopic {
		if _, ok := protocol.TransactionStateByName(val); !ok {
			lp.failf(vcol, "unknown transaction state %q%s (a __transaction_state record holds one)", val, didYouMean(val, txnStateNames()))
		}
	} else {
		val = strconv.FormatInt(lp.integer("the offset", val, vcol, 0, math.MaxInt64), 10)
	}
	return LogEntry{Kind: EntryKeyed, Key: key, Value: val}
}

func txnStateNames() []string {
	var names []string
	for i := protocol.TransactionState(0); ; i++ {
		n := i.String()
		if _, ok := protocol.TransactionStateByName(n); !ok {
			return names
		}
		names = append(names, n)
	}
}
func (st *ExpectTxnStmt) apply(s *Session) *Error         { return s.expect(st) }
func (st *ExpectPartitionStmt) apply(s *Session) *Error   { return s.expect(st) }
func (st *ExpectLogStmt) apply(s *Session) *Error         { return s.expect(st) }
func (st *ExpectOffsetsStmt) apply(s *Session) *Error     { return s.expect(st) }
func (st *ExpectCoordinatorStmt) apply(s *Session) *Error { return s.expect(st) }

func (st *ExpectTxnStmt) evaluate(s *Session) (string, string, bool, *Error) {
	t := s.Cluster.Transaction(st.TransactionalID)
	if !t.Live {
		return "the coordinator's metadata", fmt.Sprintf("no live coordinator for __transaction_state/%d", t.Coordinator.Partition), false, nil
	}
	md := t.Metadata
	if st.Absent {
		if t.Known {
			return "absent", "state=" + md.State, false, nil
		}
		return "absent", "absent", true, nil
	}
	if !t.Known {
		return st.String()[len("expect txn "):], "absent", false, nil
	}
	exp, act, ok := txnFacts.check(&t, st.Given, func(key string) string { return expectTxnOptions.text(st, key) })
	return exp, act, ok, nil
}

func (st *ExpectPartitionStmt) evaluate(s *Session) (string, string, bool, *Error) {
	if err := s.checkTP(st, st.TP); err != nil {
		return "", "", false, err
	}
	f, _ := s.Cluster.PartitionFacts(st.TP)
	exp, act, ok := partitionFacts.check(&f, st.Given, func(key string) string { return expectPartitionOptions.text(st, key) })
	return exp, act, ok, nil
}

// holderName is the first declared producer that held a producer id, "?"
// for none.
func holderName(names []string) string {
	if len(names) > 0 {
		return names[0]
	}
	return "?"
}

// evaluate checks a partition's log; an internal topic's records as
// KEY:STATE or KEY:OFFSET, each marker as COMMIT(P) or ABORT(P).
func (st *ExpectLogStmt) evaluate(s *Session) (string, string, bool, *Error) {
	if err := s.checkTP(st, st.TP); err != nil {
		return "", "", false, err
	}
	entries, _ := s.Cluster.Log(st.TP)
	internal := strings.HasPrefix(st.TP.Topic, "__")
	holders := s.Cluster.ProducerHolders()
	var exp, act []string
	for _, e := range st.Entries {
		exp = append(exp, e.String())
	}
	ok := len(entries) == len(st.Entries)
	for i, e := range entries {
		names := holders[e.ProducerId]
		var have LogEntry
		switch {
		case e.Marker == "COMMIT":
			have = LogEntry{Kind: EntryCommit, Producer: holderName(names)}
		case e.Marker != "":
			have = LogEntry{Kind: EntryAbort, Producer: holderName(names)}
		case internal:
			have = LogEntry{Kind: EntryKeyed, Key: e.Key, Value: e.Value}
		default:
			have = LogEntry{Kind: EntryRecord, Producer: holderName(names), Value: e.Value}
		}
		act = append(act, have.String())
		if i >= len(st.Entries) {
			continue
		}
		want := st.Entries[i]
		switch {
		case have.Kind == EntryKeyed:
			ok = ok && want == have
		case !slices.Contains(names, want.Producer):
			ok = false
		case want.Kind != have.Kind, want.Kind == EntryRecord && e.Value != want.Value:
			ok = false
		}
	}
	return orNone(strings.Join(exp, " ")), orNone(strings.Join(act, " ")), ok, nil
}

func (st *ExpectOffsetsStmt) evaluate(s *Session) (string, string, bool, *Error) {
	var exp []string
	var tps []protocol.TopicPartition
	for _, o := range st.Offsets {
		exp = append(exp, o.String())
		tps = append(tps, o.TP)
	}
	resp, p, live := s.Cluster.GroupOffsets(st.Group, tps)
	if !live {
		return strings.Join(exp, " "), fmt.Sprintf("no live group coordinator for __consumer_offsets/%d", p), false, nil
	}
	if resp.ErrorCode != protocol.NONE {
		return strings.Join(exp, " "), resp.ErrorCode.String(), false, nil
	}
	var act []string
	ok := true
	for i, r := range resp.Results {
		var got ExpectedOffset
		got.TP = r.TopicPartition
		switch {
		case r.ErrorCode == protocol.UNSTABLE_OFFSET_COMMIT:
			got.Kind = OffsetUnstable
		case r.CommittedOffset < 0:
			got.Kind = OffsetNone
		default:
			got.Kind, got.Offset = OffsetCommitted, r.CommittedOffset
		}
		act = append(act, got.String())
		if got != st.Offsets[i] {
			ok = false
		}
	}
	return strings.Join(exp, " "), strings.Join(act, " "), ok, nil
}

// evaluate reads cluster.Coordinator, the query the snapshot's
// transactions read too.
func (st *ExpectCoordinatorStmt) evaluate(s *Session) (string, string, bool, *Error) {
	co := s.Cluster.Coordinator(st.TransactionalID)
	exp, act, ok := coordinatorFacts.check(&co, st.Given, func(key string) string { return expectCoordinatorOptions.text(st, key) })
	return exp, act, ok, nil
}
