package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/broker"
	"txnlab/core/check"
	"txnlab/core/cluster"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

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
	s.Cluster.World.Record(sim.Event{Kind: sim.KindExpect, Node: "script", Subject: "line " + strconv.Itoa(st.Position().Line), Text: text})
	return nil
}

// evaluate checks an expectation on the state now and changes nothing.
func (s *Session) evaluate(st Stmt) (Result, *Error) {
	var expected, actual string
	var ok bool
	var err *Error
	switch st := st.(type) {
	case *ExpectOutcomeStmt:
		expected, actual, ok, err = s.expectOutcome(st)
	case *ExpectStateStmt:
		expected, actual, ok, err = s.expectState(st)
	case *ExpectTxnStmt:
		expected, actual, ok = s.expectTxn(st)
	case *ExpectRecordsStmt:
		c := s.Cluster.Consumers[st.Client]
		if c == nil {
			return Result{}, s.errorf(st, "%s is not a consumer", st.Client)
		}
		var got []string
		for _, r := range c.Received[st.TP] {
			got = append(got, r.Value)
		}
		expected, actual = strings.Join(st.Values, " "), strings.Join(got, " ")
		ok = slices.Equal(st.Values, got)
		expected, actual = orNone(expected), orNone(actual)
	case *ExpectPartitionStmt:
		expected, actual, ok, err = s.expectPartition(st)
	case *ExpectLogStmt:
		expected, actual, ok, err = s.expectLog(st)
	case *ExpectOffsetsStmt:
		expected, actual, ok = s.expectOffsets(st)
	case *ExpectTraceStmt:
		expected, actual, ok, err = s.expectTrace(st)
	case *ExpectCoordinatorStmt:
		expected, actual, ok = s.expectCoordinator(st)
	case *ExpectGroupStmt:
		expected, actual, ok = s.expectGroup(st)
	case *ExpectPositionStmt:
		expected, actual, ok, err = s.expectPosition(st)
	case *ExpectAbortedStmt:
		expected, actual, ok = s.expectAborted(st)
	case *ExpectInvariantsStmt:
		vs := s.Cluster.Check(false)
		expected, actual, ok = "every invariant holds", describeViolations(vs), len(vs) == 0
	case *ExpectViolationStmt:
		vs := s.Cluster.Check(false)
		want := "any invariant"
		if st.Invariant != InvAny {
			want = st.Invariant.String()
		}
		expected, actual = "a violation of "+want, describeViolations(vs)
		for _, v := range vs {
			if st.Invariant == InvAny || v.Invariant == st.Invariant.String() {
				ok = true
			}
		}
	default:
		return Result{}, s.errorf(st, "statement %T is not supported", st)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Pos: st.Position(), Line: st.String(), OK: ok, Expected: expected, Actual: actual}, nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
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

func (s *Session) expectOutcome(st *ExpectOutcomeStmt) (string, string, bool, *Error) {
	var last *lastCall
	if l := s.lastCompleted(st.Client); l != nil {
		last = l
	}
	if st.Outcome == OutcomePending {
		c := s.lastCall(st.Client)
		if c == nil {
			return "pending", "no call made", false, nil
		}
		if c.Done {
			return "pending", string(c.Kind) + " returned " + c.Result.String(), false, nil
		}
		return "pending", string(c.Kind) + " pending", true, nil
	}
	if last == nil {
		return st.Outcome.String(), "no call has returned", false, nil
	}
	actual := last.kind + " returned " + last.result.String()
	if st.Outcome == OutcomeOK {
		return "ok", actual, last.result == protocol.NONE, nil
	}
	return "error " + st.Error.String(), actual, last.result == st.Error, nil
}

type lastCall struct {
	kind   string
	result protocol.ErrorCode
}

func (s *Session) lastCompleted(name string) *lastCall {
	if p := s.Cluster.Producers[name]; p != nil {
		if c := p.LastCompleted(); c != nil {
			return &lastCall{string(c.Kind), c.Result}
		}
	}
	if c := s.Cluster.Consumers[name]; c != nil {
		if call := c.LastCompleted(); call != nil {
			return &lastCall{string(call.Kind), call.Result}
		}
	}
	return nil
}

func (s *Session) expectState(st *ExpectStateStmt) (string, string, bool, *Error) {
	p := s.Cluster.Producers[st.Client]
	if p == nil {
		return "", "", false, s.errorf(st, "%s is not a producer", st.Client)
	}
	expected, actual := st.State.String(), string(p.State)
	ok := expected == actual
	if st.Given.Has("epoch") {
		expected += " epoch=" + strconv.Itoa(int(st.Epoch))
		actual += " epoch=" + strconv.Itoa(int(p.ProducerEpoch))
		ok = ok && st.Epoch == p.ProducerEpoch
	}
	return expected, actual, ok, nil
}

func (s *Session) expectTxn(st *ExpectTxnStmt) (string, string, bool) {
	leader, p := s.Cluster.CoordinatorOf(st.TransactionalID)
	b := s.Cluster.Broker(leader)
	if b == nil {
		return "the coordinator's metadata", fmt.Sprintf("no live coordinator for __transaction_state/%d", p), false
	}
	md, _, known := b.Txn.Lookup(st.TransactionalID)
	if st.Absent {
		if known {
			return "absent", "state=" + md.State, false
		}
		return "absent", "absent", true
	}
	if !known {
		return st.String()[len("expect txn "):], "absent", false
	}
	var exp, act []string
	ok := true
	if st.Given.Has("state") {
		exp, act = append(exp, "state="+st.State.String()), append(act, "state="+md.State)
		ok = ok && st.State.String() == md.State
	}
	if st.Given.Has("epoch") {
		exp, act = append(exp, "epoch="+strconv.Itoa(int(st.Epoch))), append(act, "epoch="+strconv.Itoa(int(md.ProducerEpoch)))
		ok = ok && st.Epoch == md.ProducerEpoch
	}
	if st.Given.Has("pid") {
		exp, act = append(exp, "pid="+strconv.FormatInt(st.ProducerID, 10)), append(act, "pid="+strconv.FormatInt(md.ProducerId, 10))
		ok = ok && st.ProducerID == md.ProducerId
	}
	if st.Given.Has("partitions") {
		exp, act = append(exp, "partitions="+tpsString(st.Partitions)), append(act, "partitions="+tpsString(md.Partitions))
		ok = ok && slices.Equal(st.Partitions, md.Partitions)
	}
	return strings.Join(exp, " "), strings.Join(act, " "), ok
}

func tpsString(tps []protocol.TopicPartition) string {
	if len(tps) == 0 {
		return "none"
	}
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return strings.Join(parts, ",")
}

func (s *Session) leaderLog(st Stmt, tp protocol.TopicPartition) (*cluster.Cluster, int32, *Error) {
	if err := s.checkTP(st, tp); err != nil {
		return nil, 0, err
	}
	p := s.Cluster.Meta.Partitions[tp]
	holder := p.Leader
	if holder < 0 {
		holder = p.Replicas[0]
	}
	return s.Cluster, holder, nil
}

func (s *Session) expectPartition(st *ExpectPartitionStmt) (string, string, bool, *Error) {
	if err := s.checkTP(st, st.TP); err != nil {
		return "", "", false, err
	}
	f, _ := s.partitionFacts(st.TP)
	var exp, act []string
	ok := true
	add := func(key, want, got string) {
		exp, act = append(exp, key+"="+want), append(act, key+"="+got)
		ok = ok && want == got
	}
	num := func(n int64) string { return strconv.FormatInt(n, 10) }
	if st.Given.Has("hw") {
		add("hw", num(st.HW), num(f.HW))
	}
	if st.Given.Has("lso") {
		add("lso", num(st.LSO), num(f.LSO))
	}
	if st.Given.Has("log-end") {
		add("log-end", num(st.LogEnd), num(f.LogEnd))
	}
	if st.Given.Has("leader") {
		add("leader", brokerName(st.Leader), brokerName(f.Leader))
	}
	if st.Given.Has("leader-epoch") {
		add("leader-epoch", num(int64(st.LeaderEpoch)), num(int64(f.LeaderEpoch)))
	}
	if st.Given.Has("isr") {
		add("isr", brokerSet(st.ISR), brokerSet(f.ISR))
	}
	return strings.Join(exp, " "), strings.Join(act, " "), ok, nil
}

// holders maps each producer id to the declared producers that held it.
func (s *Session) holders() map[int64][]string {
	m := map[int64][]string{}
	for _, name := range s.Cluster.ClientOrder {
		p := s.Cluster.Producers[name]
		if p == nil {
			continue
		}
		seen := map[int64]bool{}
		for _, g := range p.Grants {
			seen[g.ProducerId] = true
		}
		for _, snd := range p.Sends {
			seen[snd.ProducerId] = true
		}
		if p.ProducerId >= 0 {
			seen[p.ProducerId] = true
		}
		for pid := range seen {
			m[pid] = append(m[pid], name)
		}
	}
	return m
}

func (s *Session) expectLog(st *ExpectLogStmt) (string, string, bool, *Error) {
	c, holder, err := s.leaderLog(st, st.TP)
	if err != nil {
		return "", "", false, err
	}
	if strings.HasPrefix(st.TP.Topic, "__") {
		exp, act, ok := s.expectInternalLog(st, c.Disks[holder].Log(st.TP))
		return exp, act, ok, nil
	}
	holders := s.holders()
	entries := cluster.LogEntries(c.Disks[holder].Log(st.TP), nil)
	var exp, act []string
	for _, e := range st.Entries {
		exp = append(exp, e.String())
	}
	ok := len(entries) == len(st.Entries)
	for i, e := range entries {
		names := holders[e.ProducerId]
		name := "?"
		if len(names) > 0 {
			name = names[0]
		}
		var text string
		if e.Marker != "" {
			text = e.Marker + "(" + name + ")"
		} else {
			text = name + ":" + quote(e.Value)
		}
		act = append(act, text)
		if i >= len(st.Entries) {
			continue
		}
		want := st.Entries[i]
		switch {
		case !slices.Contains(names, want.Producer):
			ok = false
		case want.Kind == EntryRecord && (e.Marker != "" || e.Value != want.Value):
			ok = false
		case want.Kind == EntryCommit && e.Marker != "COMMIT", want.Kind == EntryAbort && e.Marker != "ABORT":
			ok = false
		}
	}
	return orNone(strings.Join(exp, " ")), orNone(strings.Join(act, " ")), ok, nil
}

func (s *Session) expectOffsets(st *ExpectOffsetsStmt) (string, string, bool) {
	leader, p := s.Cluster.GroupCoordinatorOf(st.Group)
	b := s.Cluster.Broker(leader)
	var exp []string
	for _, o := range st.Offsets {
		exp = append(exp, o.String())
	}
	if b == nil {
		return strings.Join(exp, " "), fmt.Sprintf("no live group coordinator for __consumer_offsets/%d", p), false
	}
	req := &protocol.OffsetFetchRequest{GroupId: st.Group, RequireStable: true}
	for _, o := range st.Offsets {
		req.Partitions = append(req.Partitions, o.TP)
	}
	resp := b.Group.Fetch(req)
	if resp.ErrorCode != protocol.NONE {
		return strings.Join(exp, " "), resp.ErrorCode.String(), false
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
	return strings.Join(exp, " "), strings.Join(act, " "), ok
}

func (s *Session) expectTrace(st *ExpectTraceStmt) (string, string, bool, *Error) {
	m, err := s.match(st, st.Match)
	if err != nil {
		return "", "", false, err
	}
	var want map[string]protocol.FieldValue
	if len(st.Fields) > 0 {
		want = map[string]protocol.FieldValue{}
		for _, f := range st.Fields {
			want[f.Name] = f.Value
		}
	}
	n := 0
	for _, e := range s.Cluster.World.Trace.All() {
		if e.Kind != sim.KindSend || e.Internal || e.Msg == nil || e.Msg.APIKey() != m.API || e.Resp != m.Response {
			continue
		}
		if (m.From != "" && e.Node != m.From) || (m.To != "" && e.Peer != m.To) {
			continue
		}
		if st.Given.Has("error") && protocol.Error(e.Msg) != st.Error {
			continue
		}
		if len(want) > 0 && !protocol.FieldEquals(e.Msg, want) {
			continue
		}
		n++
	}
	desc := st.Match.String()
	for _, f := range st.Fields {
		desc += " " + f.Name + "=" + f.Text
	}
	if st.Given.Has("error") {
		desc += " error=" + st.Error.String()
	}
	if st.Count >= 0 {
		return fmt.Sprintf("%d × %s", st.Count, desc), fmt.Sprintf("%d", n), n == st.Count, nil
	}
	return "at least one " + desc, fmt.Sprintf("%d", n), n > 0, nil
}

func (s *Session) expectCoordinator(st *ExpectCoordinatorStmt) (string, string, bool) {
	leader, p := s.Cluster.CoordinatorOf(st.TransactionalID)
	var exp, act []string
	ok := true
	if st.Given.Has("partition") {
		exp, act = append(exp, "partition="+strconv.Itoa(int(st.Partition))), append(act, "partition="+strconv.Itoa(int(p)))
		ok = ok && st.Partition == p
	}
	if st.Given.Has("broker") {
		got := "none"
		if leader >= 0 {
			got = string(broker.NodeID(leader))
		}
		exp, act = append(exp, "broker=broker-"+strconv.Itoa(st.Broker)), append(act, "broker="+got)
		ok = ok && int32(st.Broker) == leader
	}
	if st.Given.Has("epoch") {
		ps := s.Cluster.Meta.Partitions[protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: p}]
		exp, act = append(exp, "epoch="+strconv.Itoa(int(st.Epoch))), append(act, "epoch="+strconv.Itoa(int(ps.LeaderEpoch)))
		ok = ok && st.Epoch == ps.LeaderEpoch
	}
	return strings.Join(exp, " "), strings.Join(act, " "), ok
}

// expectInternalLog checks the log of __transaction_state or
// __consumer_offsets: each record as KEY:STATE or KEY:OFFSET, each marker
// as COMMIT(P) or ABORT(P).
func (s *Session) expectInternalLog(st *ExpectLogStmt, log *partition.Log) (string, string, bool) {
	holders := s.holders()
	var exp, act []string
	for _, e := range st.Entries {
		exp = append(exp, e.String())
	}
	var got []LogEntry
	var gotNames [][]string
	for i := range log.Batches {
		b := &log.Batches[i]
		for _, r := range b.Records {
			var e LogEntry
			var names []string
			switch {
			case b.IsControl:
				names = holders[b.ProducerId]
				name := "?"
				if len(names) > 0 {
					name = names[0]
				}
				e = LogEntry{Kind: EntryCommit, Producer: name}
				if b.ControlType == protocol.ControlAbort {
					e.Kind = EntryAbort
				}
			case r.Tombstone:
				e = LogEntry{Kind: EntryKeyed, Key: r.Key, Value: protocol.Dead.String()}
			case r.TxnLog != nil:
				e = LogEntry{Kind: EntryKeyed, Key: r.Key, Value: r.TxnLog.TransactionStatus.String()}
			case r.Offset != nil:
				e = LogEntry{Kind: EntryKeyed, Key: r.Key, Value: strconv.FormatInt(r.Offset.CommittedOffset, 10)}
			default:
				e = LogEntry{Kind: EntryKeyed, Key: r.Key, Value: r.Value}
			}
			got, gotNames = append(got, e), append(gotNames, names)
			act = append(act, e.String())
		}
	}
	ok := len(got) == len(st.Entries)
	for i := 0; ok && i < len(got); i++ {
		want, have := st.Entries[i], got[i]
		if have.Kind == EntryKeyed {
			ok = want == have
		} else {
			ok = want.Kind == have.Kind && slices.Contains(gotNames[i], want.Producer)
		}
	}
	return orNone(strings.Join(exp, " ")), orNone(strings.Join(act, " ")), ok
}
