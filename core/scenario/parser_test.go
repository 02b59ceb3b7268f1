package scenario

import (
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
	"txnlab/internal/badlines"
)

// prelude declares what the line tables use: the bad-lines corpus's
// (testdata/bad-lines.txt, which the pages' tests read too). It is 9
// lines long, so the line under test is line 10. Read when a test first
// asks, not at init, so that go test's cache sees the file.
func prelude() string {
	p, _ := readBadLines()
	return p
}

var readBadLines = sync.OnceValues(func() (string, []badlines.Case) {
	b, err := os.ReadFile("testdata/bad-lines.txt")
	if err != nil {
		panic(err)
	}
	p, cases, err := badlines.Parse(string(b))
	if err != nil {
		panic("testdata/bad-lines.txt: " + err.Error())
	}
	return p, cases
})

const testLine = 10

// parseAfterPrelude parses one line in the prelude's context.
func parseAfterPrelude(t *testing.T, line string) (Stmt, error) {
	t.Helper()
	s, err := Parse("", prelude())
	if err != nil {
		t.Fatalf("prelude: %v", err)
	}
	return ParseLine(line, testLine, s.Decls)
}

// stripBase clears the positions and texts so statements compare by value.
func stripBase(st Stmt) Stmt {
	setBase(st, Base{})
	return st
}

func tp(topic string, p int32) protocol.TopicPartition {
	return protocol.TopicPartition{Topic: topic, Partition: p}
}

// TestGoodLines parses one line each and checks its canonical rendering
// and, where given, the typed statement.
func TestGoodLines(t *testing.T) {
	tests := []struct {
		line  string
		canon string // "" means the line is canonical already
		want  Stmt   // nil: only the rendering is checked
	}{
		// setup
		{line: "topic t2", want: &TopicStmt{Name: "t2", Partitions: 1, RF: 3}},
		{line: "topic t2 rf=2 partitions=64", canon: "topic t2 partitions=64 rf=2",
			want: &TopicStmt{Name: "t2", Partitions: 64, RF: 2, Given: OptionSet{"partitions", "rf"}}},
		{line: "topic my.topic_A-1", want: &TopicStmt{Name: "my.topic_A-1", Partitions: 1, RF: 3}},
		{line: "config transaction.max.timeout.ms=900000 min.insync.replicas=2",
			canon: "config transaction.max.timeout.ms=15m min.insync.replicas=2",
			want:  &ConfigStmt{Settings: []Setting{{"transaction.max.timeout.ms", 900000}, {"min.insync.replicas", 2}}}},
		{line: "config transactional.id.expiration.ms=7d transaction.abort.timed.out.transaction.cleanup.interval.ms=10s transaction.remove.expired.transaction.cleanup.interval.ms=1h broker.session.timeout.ms=9s request.timeout.ms=30s producer.id.expiration.ms=1d transaction.state.log.min.isr=1"},
		{line: "config request.timeout.ms=1500", canon: "config request.timeout.ms=1500ms"},
		{line: "producer p3", want: &ProducerStmt{MaxBlock: 60 * sim.Second, RetryBackoff: 100, MaxInFlight: 5, Name: "p3", TransactionTimeout: 60 * sim.Second,
			EnableIdempotence: true, Acks: AcksAll, RequestTimeout: 30 * sim.Second, DeliveryTimeout: 120 * sim.Second}},
		{line: `producer p3 delivery.timeout.ms=2m request.timeout.ms=5000 acks=-1 enable.idempotence=true transaction.timeout.ms=10s transactional.id="my id"`,
			canon: `producer p3 transactional.id="my id" transaction.timeout.ms=10s enable.idempotence=true acks=all request.timeout.ms=5s delivery.timeout.ms=2m`,
			want: &ProducerStmt{MaxBlock: 60 * sim.Second, RetryBackoff: 100, MaxInFlight: 5, Name: "p3", TransactionalID: "my id", TransactionTimeout: 10 * sim.Second,
				EnableIdempotence: true, Acks: AcksAll, RequestTimeout: 5 * sim.Second, DeliveryTimeout: 2 * sim.Minute,
				Given: OptionSet{"transactional.id", "transaction.timeout.ms", "enable.idempotence", "acks", "request.timeout.ms", "delivery.timeout.ms"}}},
		{line: "producer p3 acks=1", want: &ProducerStmt{MaxBlock: 60 * sim.Second, RetryBackoff: 100, MaxInFlight: 5, Name: "p3", TransactionTimeout: 60 * sim.Second,
			EnableIdempotence: false, Acks: AcksLeader, RequestTimeout: 30 * sim.Second, DeliveryTimeout: 120 * sim.Second,
			Given: OptionSet{"acks"}}},
		{line: "producer p3 enable.idempotence=false acks=0", canon: "producer p3 enable.idempotence=false acks=0"},
		{line: "producer p3 request.timeout.ms=200s", want: &ProducerStmt{MaxBlock: 60 * sim.Second, RetryBackoff: 100, MaxInFlight: 5, Name: "p3", TransactionTimeout: 60 * sim.Second,
			EnableIdempotence: true, Acks: AcksAll, RequestTimeout: 200 * sim.Second, DeliveryTimeout: 200 * sim.Second,
			Given: OptionSet{"request.timeout.ms"}}},
		{line: "consumer c3", want: &ConsumerStmt{Name: "c3"}},
		{line: "consumer c3 group.id=g2 isolation.level=read_uncommitted", canon: "consumer c3 isolation.level=read_uncommitted group.id=g2",
			want: &ConsumerStmt{Name: "c3", IsolationLevel: ReadUncommitted, GroupID: "g2", Given: OptionSet{"isolation.level", "group.id"}}},
		{line: "producer p_3-x"},
		{line: `producer p3 transactional.id="id \"q\" # x" acks=-1`, canon: `producer p3 transactional.id="id \"q\" # x" acks=all`},
		{line: `consumer c3 group.id="g 1"`, want: &ConsumerStmt{Name: "c3", GroupID: "g 1", Given: OptionSet{"group.id"}}},
		{line: `drop EndTxn from=coordinator("a b") to=group-coordinator("g\\1")`,
			want: &DropStmt{Match: MessageMatch{API: protocol.EndTxn, From: NodeRef{Kind: NodeCoordinator, Name: "a b"},
				To: NodeRef{Kind: NodeGroupCoordinator, Name: `g\1`}}}},

		// producer actions
		{line: "p1 init", want: &ProducerActionStmt{Client: "p1", Op: ProducerInit}},
		{line: "p1 init &", want: &ProducerActionStmt{Client: "p1", Op: ProducerInit, Background: true}},
		{line: "p1\tbegin", canon: "p1 begin"},
		{line: "p1 send orders/1 k1=v1 k2=v2 &", want: &ProducerActionStmt{Client: "p1", Op: ProducerSend,
			TP: tp("orders", 1), Records: []KV{{"k1", "v1"}, {"k2", "v2"}}, Background: true}},
		{line: `p1 send orders/0 "a key"="a # value" ""="" k="x=y" k=a=b k="quo\"te\\"`,
			canon: `p1 send orders/0 "a key"="a # value" ""="" k="x=y" k="a=b" k="quo\"te\\"`,
			want: &ProducerActionStmt{Client: "p1", Op: ProducerSend, TP: tp("orders", 0),
				Records: []KV{{"a key", "a # value"}, {"", ""}, {"k", "x=y"}, {"k", "a=b"}, {"k", `quo"te\`}}}},
		{line: "p1 send orders/0 キー=値", want: &ProducerActionStmt{Client: "p1", Op: ProducerSend, TP: tp("orders", 0),
			Records: []KV{{"キー", "値"}}}},
		{line: "ip send payments/0 k=v", want: &ProducerActionStmt{Client: "ip", Op: ProducerSend, TP: tp("payments", 0),
			Records: []KV{{"k", "v"}}}},
		{line: "ip close"},
		{line: "p1 send-offsets g1 orders/0=5 orders/1=0", want: &ProducerActionStmt{Client: "p1", Op: ProducerSendOffsets,
			Group: "g1", Offsets: []TPOffset{{tp("orders", 0), 5}, {tp("orders", 1), 0}}}},
		{line: `p1 send-offsets "my group" orders/0=5 &`},
		{line: "p1 commit", want: &ProducerActionStmt{Client: "p1", Op: ProducerCommit}},
		{line: "p1 abort"},
		{line: "p1 close &"},

		// consumer actions
		{line: "c1 assign orders/0 orders/1 payments/0", want: &ConsumerActionStmt{Client: "c1", Op: ConsumerAssign,
			Partitions: []protocol.TopicPartition{tp("orders", 0), tp("orders", 1), tp("payments", 0)}}},
		{line: "c1 assign __consumer_offsets/49"},
		{line: "c1 poll", want: &ConsumerActionStmt{Client: "c1", Op: ConsumerPoll}},
		{line: "c1 poll &", want: &ConsumerActionStmt{Client: "c1", Op: ConsumerPoll, Background: true}},
		{line: "c1 seek orders/1 42", want: &ConsumerActionStmt{Client: "c1", Op: ConsumerSeek, TP: tp("orders", 1), Offset: 42}},
		{line: "c1 commit", want: &ConsumerActionStmt{Client: "c1", Op: ConsumerCommit}},
		{line: "c1 commit &"},
		{line: "wait p1", want: &WaitStmt{Client: "p1"}},
		{line: "wait c2"},

		// faults and time
		{line: "crash broker-2", want: &CrashStmt{Node: NodeRef{Kind: NodeBroker, Index: 2}}},
		{line: "crash p1", want: &CrashStmt{Node: NodeRef{Kind: NodeClient, Name: "p1"}}},
		{line: "crash coordinator(order-txn-1)", want: &CrashStmt{Node: NodeRef{Kind: NodeCoordinator, Name: "order-txn-1"}}},
		{line: `crash coordinator("a b,c)")`, want: &CrashStmt{Node: NodeRef{Kind: NodeCoordinator, Name: "a b,c)"}}},
		{line: "crash group-coordinator(g1)", want: &CrashStmt{Node: NodeRef{Kind: NodeGroupCoordinator, Name: "g1"}}},
		{line: "crash leader(orders/1)", want: &CrashStmt{Node: NodeRef{Kind: NodeLeader, TP: tp("orders", 1)}}},
		{line: "restart broker-0", want: &RestartStmt{Node: NodeRef{Kind: NodeBroker, Index: 0}}},
		{line: "restart coordinator(order-txn-1)"},
		{line: "pause p1", want: &PauseStmt{Node: NodeRef{Kind: NodeClient, Name: "p1"}}},
		{line: "pause broker-1", want: &PauseStmt{Node: NodeRef{Kind: NodeBroker, Index: 1}}},
		{line: "resume p1", want: &ResumeStmt{Node: NodeRef{Kind: NodeClient, Name: "p1"}}},
		{line: "isolate leader(orders/0)", want: &IsolateStmt{Node: NodeRef{Kind: NodeLeader, TP: tp("orders", 0)}}},
		{line: "partition broker-0,p1 | broker-1,broker-2", want: &PartitionStmt{Groups: [][]NodeRef{
			{{Kind: NodeBroker, Index: 0}, {Kind: NodeClient, Name: "p1"}},
			{{Kind: NodeBroker, Index: 1}, {Kind: NodeBroker, Index: 2}}}}},
		{line: "partition broker-0|broker-1|coordinator(x),c1", canon: "partition broker-0 | broker-1 | coordinator(x),c1"},
		{line: "partition broker-0 ,p1 |broker-1", canon: "partition broker-0,p1 | broker-1"},
		{line: "heal", want: &HealStmt{}},
		{line: "drop WriteTxnMarkers", want: &DropStmt{Match: MessageMatch{API: protocol.WriteTxnMarkers}}},
		{line: "drop EndTxn.response count=1 to=p1 from=coordinator(order-txn-1)",
			canon: "drop EndTxn.response from=coordinator(order-txn-1) to=p1 count=1",
			want: &DropStmt{Match: MessageMatch{API: protocol.EndTxn, Response: true,
				From: NodeRef{Kind: NodeCoordinator, Name: "order-txn-1"}, To: NodeRef{Kind: NodeClient, Name: "p1"}}, Count: 1}},
		{line: "delay Produce by=250ms", want: &DelayStmt{Match: MessageMatch{API: protocol.Produce}, By: 250}},
		{line: "delay AddPartitionsToTxn.response from=broker-1 by=2000", canon: "delay AddPartitionsToTxn.response by=2s from=broker-1"},
		{line: "run", want: &RunStmt{For: DefaultRunFor}},
		{line: "run for=10s", want: &RunStmt{For: 10 * sim.Second, Given: OptionSet{"for"}}},
		{line: "run for=0", want: &RunStmt{For: 0, Given: OptionSet{"for"}}},
		{line: "run until EndTxn.response", want: &RunUntilStmt{Match: MessageMatch{API: protocol.EndTxn, Response: true}, Nth: 1, For: DefaultRunFor}},
		{line: "run until WriteTxnMarkers to=leader(orders/0) for=1m",
			want: &RunUntilStmt{Match: MessageMatch{API: protocol.WriteTxnMarkers, To: NodeRef{Kind: NodeLeader, TP: tp("orders", 0)}},
				Nth: 1, For: sim.Minute, Given: OptionSet{"for"}}},
		{line: "run until WriteTxnMarkers from=broker-0 nth=3",
			want: &RunUntilStmt{Match: MessageMatch{API: protocol.WriteTxnMarkers, From: NodeRef{Kind: NodeBroker, Index: 0}},
				Nth: 3, For: DefaultRunFor, Given: OptionSet{"nth"}}},
		{line: "advance 7d", want: &AdvanceStmt{By: 7 * sim.Day}},
		{line: "advance 90s", canon: "advance 90s", want: &AdvanceStmt{By: 90 * sim.Second}},
		{line: "advance 120s", canon: "advance 2m"},
		{line: "advance 365d"},
		{line: "break epoch-fencing", want: &BreakStmt{Mechanism: safety.EpochFencing}},
		{line: "restore sequence-check", want: &RestoreStmt{Mechanism: safety.SequenceCheck}},

		// expectations
		{line: "expect p1 ok", want: &ExpectOutcomeStmt{Client: "p1", Outcome: OutcomeOK}},
		{line: "expect c1 ok"},
		{line: "expect p1 pending", want: &ExpectOutcomeStmt{Client: "p1", Outcome: OutcomePending}},
		{line: "expect p1 error PRODUCER_FENCED", want: &ExpectOutcomeStmt{Client: "p1", Outcome: OutcomeError, Error: protocol.PRODUCER_FENCED}},
		{line: "expect p1 error TimeoutException", want: &ExpectOutcomeStmt{Client: "p1", Outcome: OutcomeError, Exception: protocol.TimeoutException}},
		{line: "expect p1 state READY", want: &ExpectStateStmt{Client: "p1", State: state(t, "READY")}},
		{line: "expect p1 state ABORTABLE_ERROR epoch=-1", want: &ExpectStateStmt{Client: "p1", State: state(t, "ABORTABLE_ERROR"), Epoch: -1, Given: OptionSet{"epoch"}}},
		{line: "expect ip state UNINITIALIZED"},
		{line: "expect txn order-txn-1", want: &ExpectTxnStmt{TransactionalID: "order-txn-1"}},
		{line: "expect txn order-txn-1 partitions=payments/0,orders/1,__consumer_offsets/3 epoch=2 state=Ongoing",
			canon: "expect txn order-txn-1 state=Ongoing epoch=2 partitions=__consumer_offsets/3,orders/1,payments/0",
			want: &ExpectTxnStmt{TransactionalID: "order-txn-1", State: protocol.Ongoing, Epoch: 2,
				Partitions: []protocol.TopicPartition{tp("__consumer_offsets", 3), tp("orders", 1), tp("payments", 0)},
				Given:      OptionSet{"state", "epoch", "partitions"}}},
		{line: "expect txn x partitions=none", want: &ExpectTxnStmt{TransactionalID: "x", Given: OptionSet{"partitions"}}},
		{line: "expect txn order-txn-1 absent", want: &ExpectTxnStmt{TransactionalID: "order-txn-1", Absent: true}},
		{line: `expect txn "a b" state=PrepareEpochFence`},
		{line: "expect c1 records orders/0 = v1 v2", want: &ExpectRecordsStmt{Client: "c1", TP: tp("orders", 0), Values: []string{"v1", "v2"}}},
		{line: "expect c1 records orders/0 =", want: &ExpectRecordsStmt{Client: "c1", TP: tp("orders", 0)}},
		{line: `expect c2 records orders/1 = "" "a b" = &`, canon: `expect c2 records orders/1 = "" "a b" "=" "&"`,
			want: &ExpectRecordsStmt{Client: "c2", TP: tp("orders", 1), Values: []string{"", "a b", "=", "&"}}},
		{line: "expect partition orders/0 hw=3 lso=2 log-end=4", want: &ExpectPartitionStmt{TP: tp("orders", 0), HW: 3, LSO: 2, LogEnd: 4,
			Given: OptionSet{"hw", "lso", "log-end"}}},
		{line: "expect partition __transaction_state/49 log-end=0"},
		{line: `expect log orders/0 = p1:v1 ABORT(p1) p2:"a b" p2:x:y COMMIT(p2) ip:""`,
			canon: `expect log orders/0 = p1:v1 ABORT(p1) p2:"a b" p2:"x:y" COMMIT(p2) ip:""`,
			want: &ExpectLogStmt{TP: tp("orders", 0), Entries: []LogEntry{
				{EntryRecord, "p1", "v1", ""}, {EntryAbort, "p1", "", ""}, {EntryRecord, "p2", "a b", ""},
				{EntryRecord, "p2", "x:y", ""}, {EntryCommit, "p2", "", ""}, {EntryRecord, "ip", "", ""}}}},
		{line: "expect log payments/0 =", want: &ExpectLogStmt{TP: tp("payments", 0)}},
		// "none" and nothing are the same empty list
		{line: "expect log payments/0 = none", canon: "expect log payments/0 =", want: &ExpectLogStmt{TP: tp("payments", 0)}},
		{line: "expect c1 records orders/0 = none", canon: "expect c1 records orders/0 =", want: &ExpectRecordsStmt{Client: "c1", TP: tp("orders", 0)}},
		{line: `expect c1 records orders/0 = "none"`, want: &ExpectRecordsStmt{Client: "c1", TP: tp("orders", 0), Values: []string{"none"}}},
		{line: "expect txn x partitions=", canon: "expect txn x partitions=none",
			want: &ExpectTxnStmt{TransactionalID: "x", Given: OptionSet{"partitions"}}},
		{line: "expect txn x pid=7 epoch=3", canon: "expect txn x epoch=3 pid=7",
			want: &ExpectTxnStmt{TransactionalID: "x", Epoch: 3, ProducerID: 7, Given: OptionSet{"epoch", "pid"}}},
		// internal logs
		{line: `expect log __transaction_state/39 = order-txn-1:Empty "a:b":Ongoing`,
			want: &ExpectLogStmt{TP: tp("__transaction_state", 39), Entries: []LogEntry{
				{Kind: EntryKeyed, Key: "order-txn-1", Value: "Empty"}, {Kind: EntryKeyed, Key: "a:b", Value: "Ongoing"}}}},
		{line: "expect log __consumer_offsets/3 = g1/orders/0:007 COMMIT(p1)", canon: "expect log __consumer_offsets/3 = g1/orders/0:7 COMMIT(p1)"},
		// partition facts, consumer facts
		{line: "expect partition orders/1 isr=broker-2,broker-0 leader=none leader-epoch=4 hw=1",
			canon: "expect partition orders/1 hw=1 leader=none leader-epoch=4 isr=broker-0,broker-2",
			want: &ExpectPartitionStmt{TP: tp("orders", 1), HW: 1, Leader: -1, LeaderEpoch: 4, ISR: []int32{0, 2},
				Given: OptionSet{"hw", "leader", "leader-epoch", "isr"}}},
		{line: "expect partition orders/0 leader=broker-1 isr=none"},
		{line: "expect c1 position orders/0=3 orders/1=none", want: &ExpectPositionStmt{Client: "c1",
			Positions: []ExpectedOffset{{tp("orders", 0), OffsetCommitted, 3}, {tp("orders", 1), OffsetNone, 0}}}},
		{line: "expect c1 aborted orders/0 = p1@0 ip@12", want: &ExpectAbortedStmt{Client: "c1", TP: tp("orders", 0),
			Entries: []AbortedEntry{{"p1", 0}, {"ip", 12}}}},
		{line: "expect c2 aborted orders/1 = none", canon: "expect c2 aborted orders/1 ="},
		// message fields
		{line: "expect trace WriteTxnMarkers CoordinatorEpoch=2 TransactionResult=COMMIT from=broker-0 count=1",
			canon: "expect trace WriteTxnMarkers from=broker-0 TransactionResult=COMMIT CoordinatorEpoch=2 count=1",
			want: &ExpectTraceStmt{Match: MessageMatch{API: protocol.WriteTxnMarkers, From: NodeRef{Kind: NodeBroker}},
				Fields: []FieldMatch{{Name: "TransactionResult", Value: protocol.FieldValue{Str: "COMMIT"}, Text: "COMMIT"},
					{Name: "CoordinatorEpoch", Value: protocol.FieldValue{Int: 2}, Text: "2"}},
				Count: 1, Given: OptionSet{"count"}}},
		{line: "expect trace Produce BaseSequence=0 ProducerEpoch=1 IsTransactional=true Partitions=orders/1 TransactionalId=\"a b\"",
			canon: "expect trace Produce TransactionalId=\"a b\" Partitions=orders/1 ProducerEpoch=1 BaseSequence=0 IsTransactional=true"},
		{line: "expect trace Produce.response ErrorCode=DUPLICATE_SEQUENCE_NUMBER BaseOffset=-1 error=NONE"},
		{line: "expect trace Fetch.response to=c1 AbortedProducerId=3"},
		// requests written by hand
		{line: "request EndTxn from=p1 Committed=false", want: &RequestStmt{API: protocol.EndTxn, From: "p1",
			Fields: []FieldSetting{{Name: "Committed"}}}},
		{line: "request EndTxn Committed=true ProducerEpoch=3 from=p1 to=broker-2 &",
			canon: "request EndTxn from=p1 to=broker-2 ProducerEpoch=3 Committed=true &"},
		{line: "request Produce from=ip IsTransactional=false BaseSequence=7 ProducerId=12 orders/1 k=v \"a b\"=c",
			canon: "request Produce from=ip ProducerId=12 BaseSequence=7 IsTransactional=false orders/1 k=v \"a b\"=c",
			want: &RequestStmt{API: protocol.Produce, From: "ip", Fields: []FieldSetting{{Name: "ProducerId", Int: 12},
				{Name: "BaseSequence", Int: 7}, {Name: "IsTransactional"}}, TP: tp("orders", 1), Records: []KV{{"k", "v"}, {"a b", "c"}}}},
		{line: "request AddPartitionsToTxn from=p1 Partitions=orders/1,orders/0", canon: "request AddPartitionsToTxn from=p1 Partitions=orders/0,orders/1"},
		{line: "request AddOffsetsToTxn from=p2 GroupId=g1 TransactionalId=other", canon: "request AddOffsetsToTxn from=p2 TransactionalId=other GroupId=g1"},
		{line: "request InitProducerId from=ip TransactionTimeoutMs=0 ProducerId=-1 ProducerEpoch=-1"},
		{line: "request Produce from=p1 Acks=0 BaseSequence=-1 orders/0 k=v"},
		// txn: an id's starting producer id and epoch
		{line: "txn order-txn-1 epoch=32766 pid=5000", canon: "txn order-txn-1 pid=5000 epoch=32766",
			want: &TxnSeedStmt{TransactionalID: "order-txn-1", ProducerID: 5000, Epoch: 32766}},
		{line: `txn "a b" epoch=0`, want: &TxnSeedStmt{TransactionalID: "a b", ProducerID: -1}},
		// producer options of the Java client
		{line: "producer p3 max.in.flight.requests.per.connection=1 retry.backoff.ms=250 max.block.ms=5s",
			canon: "producer p3 max.block.ms=5s retry.backoff.ms=250ms max.in.flight.requests.per.connection=1"},
		{line: "producer p3 max.in.flight.requests.per.connection=6", want: &ProducerStmt{Name: "p3", TransactionTimeout: 60 * sim.Second,
			Acks: AcksAll, RequestTimeout: 30 * sim.Second, DeliveryTimeout: 120 * sim.Second, MaxBlock: 60 * sim.Second,
			RetryBackoff: 100, MaxInFlight: 6, Given: OptionSet{"max.in.flight.requests.per.connection"}}},
		{line: "expect offsets g1 orders/0=5 orders/1=none payments/0=unstable", want: &ExpectOffsetsStmt{Group: "g1",
			Offsets: []ExpectedOffset{{tp("orders", 0), OffsetCommitted, 5}, {tp("orders", 1), OffsetNone, 0}, {tp("payments", 0), OffsetUnstable, 0}}}},
		{line: "expect trace WriteTxnMarkers", want: &ExpectTraceStmt{Match: MessageMatch{API: protocol.WriteTxnMarkers}, Count: -1}},
		{line: "expect trace Produce.response to=p1 error=NONE count=0 from=leader(orders/0)",
			canon: "expect trace Produce.response from=leader(orders/0) to=p1 error=NONE count=0",
			want: &ExpectTraceStmt{Match: MessageMatch{API: protocol.Produce, Response: true,
				From: NodeRef{Kind: NodeLeader, TP: tp("orders", 0)}, To: NodeRef{Kind: NodeClient, Name: "p1"}},
				Error: protocol.NONE, Count: 0, Given: OptionSet{"error", "count"}}},
		{line: "expect trace EndTxn.response error=CONCURRENT_TRANSACTIONS"},
		{line: "expect coordinator order-txn-1", want: &ExpectCoordinatorStmt{TransactionalID: "order-txn-1"}},
		{line: "expect coordinator order-txn-1 epoch=1 broker=broker-2 partition=49",
			canon: "expect coordinator order-txn-1 partition=49 broker=broker-2 epoch=1",
			want: &ExpectCoordinatorStmt{TransactionalID: "order-txn-1", Partition: 49, Broker: 2, Epoch: 1,
				Given: OptionSet{"partition", "broker", "epoch"}}},
		{line: "expect invariants", want: &ExpectInvariantsStmt{}},
		{line: "expect liveness", want: &ExpectLivenessStmt{}},
		{line: "expect liveness violation", want: &ExpectLivenessStmt{Violation: true}},
		{line: "expect liveness violation atomicity", want: &ExpectLivenessStmt{Violation: true, Invariant: safety.Atomicity}},
		{line: "expect violation", want: &ExpectViolationStmt{}},
		{line: "expect violation read-committed", want: &ExpectViolationStmt{Invariant: safety.ReadCommitted}},
		{line: "expect violation lso"},

		// lexical
		{line: "   p1   commit   # trailing comment", canon: "p1 commit"},
		{line: "p1 commit#comment", canon: "p1 commit"},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			st, err := parseAfterPrelude(t, tc.line)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if st == nil {
				t.Fatal("no statement")
			}
			canon := tc.canon
			if canon == "" {
				canon = tc.line
			}
			if got := st.String(); got != canon {
				t.Errorf("String() = %q, want %q", got, canon)
			}
			if st.Position().Line != testLine || st.Position().Col < 1 {
				t.Errorf("Position() = %v", st.Position())
			}
			if src := st.Source(); strings.Contains(src, "#") && !strings.Contains(src, `"`) {
				t.Errorf("Source() kept the comment: %q", src)
			}
			if tc.want != nil {
				if got := stripBase(st); !reflect.DeepEqual(got, tc.want) {
					t.Errorf("statement\n got %#v\nwant %#v", got, tc.want)
				}
			}
			// The canonical text parses back to the same statement.
			again, err := parseAfterPrelude(t, st.String())
			if err != nil {
				t.Fatalf("re-parse of %q: %v", st.String(), err)
			}
			if !reflect.DeepEqual(stripBase(again), stripBase(st)) {
				t.Errorf("round trip changed the statement:\n got %#v\nwant %#v", again, st)
			}
		})
	}
}

// TestBadLines checks the exact error, with line and column, for lines
// parsed after the prelude (line 10).
func TestBadLines(t *testing.T) {
	// The corpus, and the cases a text file should not hold or that name
	// a computed list.
	_, corpus := readBadLines()
	tests := append([]badlines.Case(nil), corpus...)
	tests = append(tests, []badlines.Case{
		{Line: "break epoch-fencng", Want: `10:7: unknown mechanism "epoch-fencng"; did you mean "epoch-fencing"? (mechanisms: ` + mechanismList + `)`},
		{Line: "restore", Want: `10:9: restore needs a mechanism: ` + mechanismList},
		{Line: "p1 commit\x00", Want: `10:10: unexpected control character U+0000`},
		{Line: "p1 commit \xff", Want: `10:11: invalid UTF-8 byte 0xff`},
		{Line: "p1 send orders/0 k=\"a\tb\" x", Want: `10:26: expected a record KEY=VALUE, got "x"`},
	}...)
	for _, tc := range tests {
		t.Run(tc.Line, func(t *testing.T) {
			st, err := parseAfterPrelude(t, tc.Line)
			if err == nil {
				t.Fatalf("no error; parsed %q", st.String())
			}
			if st != nil {
				t.Errorf("a statement came with the error")
			}
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 {
				t.Fatalf("error is %T %v, want an ErrorList of one", err, err)
			}
			e := list[0]
			if got := e.Pos.String() + ": " + e.Msg; got != tc.Want {
				t.Errorf("error\n got %s\nwant %s", got, tc.Want)
			}
			if want := "script:" + tc.Want; err.Error() != want {
				t.Errorf("Error() = %q, want %q", err.Error(), want)
			}
		})
	}
}

// TestBriefExamples checks the two error texts the design names.
func TestBriefExamples(t *testing.T) {
	_, err := Parse("", "cluster brokers=x\n")
	if err == nil || err.Error() != `script:1:9: brokers must be a positive integer, got "x"` {
		t.Errorf("got %v", err)
	}
	_, err = Parse("lesson.scenario", "cluster\ntopic t\nproducer p transactional.id=t\n  sned t/0 k=v\n")
	if err == nil || err.Error() != `lesson.scenario:4:3: unknown statement "sned"; did you mean "send"?` {
		t.Errorf("got %v", err)
	}
}

func TestClusterStatement(t *testing.T) {
	tests := []struct {
		src  string
		want *ClusterStmt
		err  string
	}{
		{src: "cluster", want: &ClusterStmt{Brokers: 3, RF: 3, TxnPartitions: 50, OffsetsPartitions: 50, Seed: 1, MinLatency: 1, MaxLatency: 5}},
		{src: "cluster brokers=1", want: &ClusterStmt{Brokers: 1, RF: 1, TxnPartitions: 50, OffsetsPartitions: 50, Seed: 1,
			MinLatency: 1, MaxLatency: 5, Given: OptionSet{"brokers"}}},
		{src: "cluster latency=2ms..1s seed=18446744073709551615 offsets-partitions=1 txn-partitions=3 rf=2 brokers=5",
			want: &ClusterStmt{Brokers: 5, RF: 2, TxnPartitions: 3, OffsetsPartitions: 1, Seed: 1<<64 - 1,
				MinLatency: 2, MaxLatency: 1000, Given: OptionSet{"brokers", "rf", "txn-partitions", "offsets-partitions", "seed", "latency"}}},
		{src: "cluster latency=3ms", want: &ClusterStmt{Brokers: 3, RF: 3, TxnPartitions: 50, OffsetsPartitions: 50, Seed: 1,
			MinLatency: 3, MaxLatency: 3, Given: OptionSet{"latency"}}},
		{src: "cluster latency=0..0", want: &ClusterStmt{Brokers: 3, RF: 3, TxnPartitions: 50, OffsetsPartitions: 50, Seed: 1,
			MinLatency: 0, MaxLatency: 0, Given: OptionSet{"latency"}}},
		{src: "cluster brokers=0", err: "1:9: brokers must be between 1 and 9, got 0"},
		{src: "cluster brokers=10", err: "1:9: brokers must be between 1 and 9, got 10"},
		{src: "cluster brokers=2 rf=3", err: "1:19: rf must be between 1 and 2 (the number of brokers), got 3"},
		{src: "cluster txn-partitions=51", err: "1:9: txn-partitions must be between 1 and 50, got 51"},
		{src: "cluster offsets-partitions=0", err: "1:9: offsets-partitions must be between 1 and 50, got 0"},
		{src: "cluster seed=-1", err: `1:9: seed must be a non-negative integer below 2^64, got "-1"`},
		{src: "cluster seed=18446744073709551616", err: `1:9: seed must be a non-negative integer below 2^64, got "18446744073709551616"`},
		{src: "cluster latency=5ms..1ms", err: "1:9: latency minimum 5ms is above the maximum 1ms"},
		{src: "cluster latency=1ms..2h", err: "1:9: latency maximum must be at most 1h, got 2h"},
		{src: "cluster latency=fast", err: `1:9: latency must be a duration like 250ms, 5s, 2m, 3h or 7d, got "fast"`},
		{src: "cluster brokers=3 brokers=4", err: "1:19: option brokers is given twice"},
		{src: "cluster nodes=3", err: "1:9: unknown option \"nodes\" for cluster; options: brokers, rf, txn-partitions, offsets-partitions, seed, latency"},
	}
	for _, tc := range tests {
		s, err := Parse("", tc.src)
		if tc.err != "" {
			var list ErrorList
			if !errors.As(err, &list) || len(list) != 1 || list[0].Pos.String()+": "+list[0].Msg != tc.err {
				t.Errorf("%s: error %v, want %s", tc.src, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.src, err)
			continue
		}
		got := stripBase(s.Statements[0])
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.src, got, tc.want)
		}
		if s.Decls.Cluster != s.Statements[0] {
			t.Errorf("%s: Decls.Cluster is not the statement", tc.src)
		}
	}
}

// TestBrokerBound checks that broker references follow the cluster size.
func TestBrokerBound(t *testing.T) {
	if _, err := Parse("", "cluster brokers=9\ncrash broker-8\n"); err != nil {
		t.Error(err)
	}
	_, err := Parse("", "cluster brokers=1\ncrash broker-1\n")
	if err == nil || err.Error() != "script:2:7: broker-1 does not exist: the cluster has broker-0 to broker-0" {
		t.Errorf("got %v", err)
	}
	_, err = Parse("", "cluster txn-partitions=3\nexpect coordinator x partition=3\n")
	if err == nil || !strings.Contains(err.Error(), "2:22: partition must be between 0 and 2 (txn-partitions is 3), got 3") {
		t.Errorf("got %v", err)
	}
	_, err = Parse("", "cluster offsets-partitions=2\nexpect partition __consumer_offsets/2 hw=0\n")
	if err == nil || !strings.Contains(err.Error(), "2:37: partition 2 does not exist: topic __consumer_offsets has partitions 0 to 1") {
		t.Errorf("got %v", err)
	}
}

// TestScriptErrors covers errors that depend on more than one line.
func TestScriptErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // "line:col: msg"
	}{
		{"no cluster", "topic t\nproducer p\np init\n", []string{
			`1:1: the script must start with a cluster statement, e.g. "cluster brokers=3"`,
			`3:3: p has no transactional.id: init is a transactional call; declare the producer with transactional.id=ID`}},
		{"cluster later", "# hi\n\n  topic t\ncluster\n", []string{
			`3:3: the script must start with a cluster statement, e.g. "cluster brokers=3"`,
			`4:1: cluster must be the first statement`}},
		{"bad declaration still declares", "cluster\nproducer p acks=7\np send t/0 k=v\ntopic t partitions=x\np send t/0 k=v\n", []string{
			`2:12: acks must be all, -1, 1 or 0, got "7"`,
			`3:8: unknown topic "t": declare it with topic first`,
			`4:9: partitions must be a positive integer, got "x"`}},
		{"use before declaration", "cluster\np1 init\nproducer p1 transactional.id=x\np1 init\n", []string{
			`2:1: unknown client "p1": declare it with producer or consumer first`}},
		{"duplicate", "cluster\nconsumer c\nproducer c\n", []string{
			`3:10: client "c" is already declared on line 2: a crashed or closed client stays declared; declare a new name`}},
		{"errors on many lines", "cluster\nfoo\nbar\n\n# x\nbaz\n", []string{
			`2:1: unknown statement "foo"`, `3:1: unknown statement "bar"`, `6:1: unknown statement "baz"`}},
		{"crlf and bom", "\uFEFFcluster\r\ntopic t\r\nfoo\r\n", []string{`3:1: unknown statement "foo"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("", tc.src)
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Pos.String()+": "+e.Msg)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("errors\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString("cluster\n")
	for i := 0; i < MaxClients; i++ {
		b.WriteString("consumer c" + itoa(i) + "\n")
	}
	b.WriteString("consumer straw\n")
	_, err := Parse("", b.String())
	if err == nil || err.Error() != "script:34:10: too many clients: at most 32" {
		t.Errorf("clients: %v", err)
	}

	b.Reset()
	b.WriteString("cluster\n")
	for i := 0; i < MaxTopics; i++ {
		b.WriteString("topic t" + itoa(i) + "\n")
	}
	b.WriteString("topic straw\n")
	_, err = Parse("", b.String())
	if err == nil || err.Error() != "script:34:7: too many topics: at most 32" {
		t.Errorf("topics: %v", err)
	}

	// Exactly MaxLines lines is fine, with or without a final newline.
	full := "cluster\n" + strings.Repeat("\n", MaxLines-2) + "run"
	if _, err := Parse("", full); err != nil {
		t.Errorf("%d lines: %v", MaxLines, err)
	}
	if _, err := Parse("", full+"\n"); err != nil {
		t.Errorf("%d lines and a newline: %v", MaxLines, err)
	}
	_, err = Parse("", full+"\nrun\n")
	if err == nil || err.Error() != "script:5001:1: script too long: at most 5000 lines" {
		t.Errorf("lines: %v", err)
	}
	if _, err := ParseLine("run", MaxLines+1, nil); err == nil || err.Error() != "script:5001:1: script too long: at most 5000 lines" {
		t.Errorf("ParseLine lines: %v", err)
	}

	long := "cluster\n# " + strings.Repeat("é", MaxLineLength-2) + "\n"
	if _, err := Parse("", long); err != nil {
		t.Errorf("line of %d: %v", MaxLineLength, err)
	}
	_, err = Parse("", "cluster\n# "+strings.Repeat("é", MaxLineLength-1)+"\n")
	if err == nil || err.Error() != "script:2:1001: line too long: at most 1000 characters" {
		t.Errorf("long line: %v", err)
	}
}

func itoa(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }

// TestParseLine checks the one-line entry point a UI uses.
func TestParseLine(t *testing.T) {
	d := NewDecls()
	if st, err := ParseLine("   # just a comment", 1, d); st != nil || err != nil {
		t.Fatalf("comment line: %v %v", st, err)
	}
	if _, err := ParseLine("topic t", 1, d); err == nil || err.Error() != `script:1:1: the script must start with a cluster statement, e.g. "cluster brokers=3"` {
		t.Fatalf("no cluster: %v", err)
	}
	if d.Cluster != nil {
		t.Fatal("a failed line changed the table")
	}
	if _, err := ParseLine("cluster brokers=x", 1, d); err == nil || d.Cluster != nil {
		t.Fatalf("failed cluster line: %v, cluster %v", err, d.Cluster)
	}
	mustLine := func(line string, n int) Stmt {
		t.Helper()
		st, err := ParseLine(line, n, d)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		return st
	}
	mustLine("cluster brokers=2", 1)
	mustLine("topic t", 2)
	if _, err := ParseLine("producer p acks=9", 3, d); err == nil {
		t.Fatal("bad producer accepted")
	}
	if _, ok := d.Client("p"); ok {
		t.Fatal("a failed declaration was kept by ParseLine")
	}
	trial := d.Clone()
	if _, err := ParseLine("producer p transactional.id=x", 3, trial); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Client("p"); ok {
		t.Fatal("Clone shares clients")
	}
	mustLine("producer p transactional.id=x", 3)
	st := mustLine("p commit", 4)
	if a, ok := st.(*ProducerActionStmt); !ok || a.Op != ProducerCommit {
		t.Fatalf("p commit = %#v", st)
	}
	mustLine("consumer c group.id=g", 5)
	st = mustLine("c commit", 6)
	if a, ok := st.(*ConsumerActionStmt); !ok || a.Op != ConsumerCommit {
		t.Fatalf("c commit = %#v", st)
	}
	cs := d.Clients()
	if len(cs) != 2 || cs[0] != (ClientDecl{Name: "p", Kind: KindProducer, Line: 3, TransactionalID: "x"}) ||
		cs[1] != (ClientDecl{Name: "c", Kind: KindConsumer, Line: 5, GroupID: "g"}) {
		t.Errorf("Clients() = %+v", cs)
	}
	if ts := d.Topics(); len(ts) != 1 || ts[0] != (TopicDecl{Name: "t", Partitions: 1, RF: 2, Line: 2}) {
		t.Errorf("Topics() = %+v", ts)
	}
	if td, ok := d.Topic("__transaction_state"); !ok || td.Partitions != 50 || !td.Internal {
		t.Errorf("internal topic: %+v", td)
	}
	if _, err := ParseLine("p commit\nrun", 7, d); err == nil || err.Error() != "script:7:9: unexpected control character U+000A" {
		t.Errorf("two lines: %v", err)
	}
	if st, err := ParseLine("run", 0, nil); err == nil || st != nil {
		t.Errorf("nil decls: %v %v", st, err)
	}
}

func TestLexer(t *testing.T) {
	ll, err := lexLine(`  a "b c" k="x # y" d\e  # comment "`, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range ll.toks {
		got = append(got, tk.raw+"|"+tk.text+"|"+strconv.Itoa(tk.col)+"|"+strconv.FormatBool(tk.quoted))
	}
	want := []string{`a|a|3|false`, `"b c"|b c|5|true`, `k="x # y"|k="x # y"|11|false`, `d\e|d\e|21|false`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tokens\n got %q\nwant %q", got, want)
	}
	if ll.source != `a "b c" k="x # y" d\e` {
		t.Errorf("source %q", ll.source)
	}
	// Columns count runes.
	ll, _ = lexLine("ключ значение", 1)
	if ll.toks[1].col != 6 {
		t.Errorf("rune column = %d", ll.toks[1].col)
	}
	if _, err := lexLine(`x "a\`, 3); err == nil || err.Error() != `script:3:5: unknown escape end of line in quotes: only \" and \\ are allowed` {
		t.Errorf("escape at end: %v", err)
	}
	if _, err := lexLine(`x  "abc`, 3); err == nil || err.Error() != `script:3:4: unterminated quote: add a closing "` {
		t.Errorf("unterminated: %v", err)
	}
}

func TestDidYouMean(t *testing.T) {
	tests := []struct {
		word string
		want string
	}{
		{"sned", `; did you mean "send"?`},
		{"comit", `; did you mean "commit"?`},
		{"expcet", `; did you mean "expect"?`},
		{"x", ""},
		{"zzzzzz", ""},
	}
	cands := append(append([]string(nil), statementVerbs...), producerOpNames[1:]...)
	for _, tc := range tests {
		if got := didYouMean(tc.word, cands); got != tc.want {
			t.Errorf("didYouMean(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
	if d := editDistance([]rune("ab"), []rune("ba")); d != 1 {
		t.Errorf("transposition = %d", d)
	}
	if d := editDistance([]rune("kitten"), []rune("sitting")); d != 3 {
		t.Errorf("kitten/sitting = %d", d)
	}
}

func TestErrorFormatting(t *testing.T) {
	e := &Error{Pos: Pos{3, 7}, Msg: "boom"}
	if e.Error() != "script:3:7: boom" {
		t.Error(e.Error())
	}
	e.File = "a.scenario"
	if e.Error() != "a.scenario:3:7: boom" {
		t.Error(e.Error())
	}
	l := ErrorList{e, {Pos: Pos{4, 1}, Msg: "bang"}}
	if l.Error() != "a.scenario:3:7: boom\nscript:4:1: bang" {
		t.Error(l.Error())
	}
	var target *Error
	if !errors.As(l.Err(), &target) || target != e {
		t.Error("errors.As did not find the first *Error")
	}
	if (ErrorList{}).Err() != nil {
		t.Error("empty list is not nil")
	}
	unsorted := ErrorList{{Pos: Pos{2, 5}}, {Pos: Pos{1, 9}}, {Pos: Pos{2, 1}}}
	sortErrors(unsorted)
	if unsorted[0].Pos != (Pos{1, 9}) || unsorted[1].Pos != (Pos{2, 1}) || unsorted[2].Pos != (Pos{2, 5}) {
		t.Errorf("sorted: %v %v %v", unsorted[0].Pos, unsorted[1].Pos, unsorted[2].Pos)
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[sim.Time]string{0: "0", 1: "1ms", 999: "999ms", 1000: "1s", 1500: "1500ms",
		60000: "1m", 90000: "90s", 3600000: "1h", 86400000: "1d", 365 * sim.Day: "365d", 36 * sim.Hour: "36h"} {
		if got := FormatDuration(d); got != want {
			t.Errorf("FormatDuration(%d) = %q, want %q", d, got, want)
		}
	}
}

func TestEnums(t *testing.T) {
	for _, m := range Mechanisms {
		if back, ok := MechanismByName(m.String()); !ok || back != m {
			t.Errorf("mechanism %v", m)
		}
	}
	for _, i := range Invariants {
		if back, ok := InvariantByName(i.String()); !ok || back != i {
			t.Errorf("invariant %v", i)
		}
	}
	for _, s := range ClientStates {
		if back, ok := ClientStateByName(s.String()); !ok || back != s {
			t.Errorf("state %v", s)
		}
	}
	// The Java client's states are Kafka's, fixed; the mechanisms and
	// invariants grow with core/safety's table, which its own tests and
	// TestEveryMechanismMatters hold to account.
	if len(ClientStates) != 8 {
		t.Error("the client states changed")
	}
	if InvAny.String() != "any" {
		t.Error("fallback names")
	}
	if _, ok := MechanismByName(""); ok {
		t.Error("empty mechanism name accepted")
	}
	for _, k := range ConfigKeys {
		if k.Default < k.Min || k.Default > k.Max {
			t.Errorf("config %s default out of its own range", k.Name)
		}
	}
}

// TestReservedNames checks every keyword is refused as a client name.
func TestReservedNames(t *testing.T) {
	for w := range reserved {
		if !validClientName(w) {
			continue
		}
		_, err := Parse("", "cluster\nproducer "+w+"\n")
		if err == nil || !strings.Contains(err.Error(), "is a keyword of the language") {
			t.Errorf("client %q: %v", w, err)
		}
	}
	for _, w := range []string{"txn", "partition", "log", "offsets", "trace", "coordinator", "invariants",
		"violation", "expect", "run", "heal", "commit", "ok", "leader", "group-coordinator"} {
		if !reserved[w] {
			t.Errorf("%q is not reserved", w)
		}
	}
}

// TestBuiltInCode renders statements built without the parser, as a UI
// does before appending them to a script.
func TestBuiltInCode(t *testing.T) {
	for st, want := range map[Stmt]string{
		&ProducerActionStmt{Client: "p1", Op: ProducerCommit}:                                                 "p1 commit",
		&ProducerActionStmt{Client: "p1", Op: ProducerSend, TP: tp("orders", 1), Records: []KV{{"k", "v w"}}}: `p1 send orders/1 k="v w"`,
		&ConsumerActionStmt{Client: "c1", Op: ConsumerPoll, Background: true}:                                 "c1 poll &",
		&DropStmt{Match: MessageMatch{API: protocol.EndTxn}}:                                                  "drop EndTxn",
		&ExpectTraceStmt{Match: MessageMatch{API: protocol.EndTxn}, Count: -1}:                                "expect trace EndTxn",
		&ExpectTraceStmt{Match: MessageMatch{API: protocol.EndTxn}, Count: 0, Given: OptionSet{"count"}}:      "expect trace EndTxn count=0",
		&CrashStmt{Node: NodeRef{Kind: NodeCoordinator, Name: "order txn"}}:                                   `crash coordinator("order txn")`,
		&ProducerStmt{Name: "p3", TransactionalID: "x", Given: OptionSet{"transactional.id"}}:                 "producer p3 transactional.id=x",
		&BreakStmt{Mechanism: safety.LSOBound}:                                                                "break lso-bound",
		&AdvanceStmt{By: 61 * sim.Second}:                                                                     "advance 61s",
	} {
		if got := st.String(); got != want {
			t.Errorf("%T: %q, want %q", st, got, want)
		}
		if _, err := parseAfterPrelude(t, st.String()); err != nil {
			t.Errorf("%q does not parse: %v", want, err)
		}
	}
}

// state finds a client state by name, for the tables of expected
// statements.
func state(t *testing.T, name string) ClientState {
	s, ok := ClientStateByName(name)
	if !ok {
		t.Fatalf("no client state %s", name)
	}
	return s
}

// mechanismList is how errors list core/safety's mechanisms: read from the
// table, so a new mechanism changes no expected message here.
var mechanismList = strings.Join(safety.MechanismNames(), ", ")
