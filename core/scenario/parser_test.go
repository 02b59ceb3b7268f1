package scenario

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// prelude declares what the line tables use. It is 9 lines long, so the
// line under test is line 10.
const prelude = `cluster brokers=3
topic orders partitions=2
topic payments
producer p1 transactional.id=order-txn-1
producer p2 transactional.id=order-txn-1
producer ip
consumer c1 isolation.level=read_committed group.id=g1
consumer c2
# the line under test follows
`

const testLine = 10

// parseAfterPrelude parses one line in the prelude's context.
func parseAfterPrelude(t *testing.T, line string) (Stmt, error) {
	t.Helper()
	s, err := Parse("", prelude)
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
	tests := []struct{ line, want string }{
		// statements and clients
		{"sned orders/0 k=v", `10:1: unknown statement "sned"; did you mean "send"?`},
		{"send orders/0 k=v", `10:1: "send" needs a client first: write "NAME send ..." with a declared producer or consumer`},
		{"p1 sned orders/0 k=v", `10:4: unknown producer action "sned"; did you mean "send"? (a producer can init, begin, send, send-offsets, commit, abort, close)`},
		{"p9 init", `10:1: unknown client "p9": declare it with producer or consumer first; did you mean "p1"?`},
		{"zz9 init", `10:1: unknown client "zz9": declare it with producer or consumer first`},
		{"p1", `10:4: p1 is a producer: say what it does (init, begin, send, send-offsets, commit, abort, close)`},
		{"c1 poll now", `10:9: unexpected "now": poll takes no arguments (a trailing & is allowed)`},
		{"c1 init", `10:4: unknown consumer action "init" (a consumer can assign, poll, seek, commit, subscribe, unsubscribe); c1 is a consumer`},
		{"c2 commit", `10:4: c2 has no group.id: commit needs one; declare the consumer with group.id=GROUP`},
		{"ip init", `10:4: ip has no transactional.id: init is a transactional call; declare the producer with transactional.id=ID`},
		{"ip send-offsets g orders/0=1", `10:4: ip has no transactional.id: send-offsets is a transactional call; declare the producer with transactional.id=ID`},
		{"p1 commit & &", `10:11: unexpected "&": commit takes no arguments (a trailing & is allowed)`},
		{`"expect" invariants`, `10:1: unknown statement "\"expect\""; did you mean "expect"?`},

		// declarations
		{"producer p1", `10:10: client "p1" is already declared on line 4: a crashed or closed client stays declared; declare a new name`},
		{"consumer txn", `10:10: client name "txn" is a keyword of the language: choose another name`},
		{"producer partition", `10:10: client name "partition" is a keyword of the language: choose another name`},
		{"producer send", `10:10: client name "send" is a keyword of the language: choose another name`},
		{"producer broker-1", `10:10: client name "broker-1" looks like a broker: choose another name`},
		{"producer P1", `10:10: client name "P1" must start with a lowercase letter and hold only a-z, 0-9, '_' and '-'`},
		{"producer 1p", `10:10: client name "1p" must start with a lowercase letter and hold only a-z, 0-9, '_' and '-'`},
		{"producer", `10:10: producer needs a name, e.g. producer p1`},
		{"producer p3 transactional.id", `10:13: expected an option KEY=VALUE (transactional.id, transaction.timeout.ms, enable.idempotence, acks, request.timeout.ms, delivery.timeout.ms, max.block.ms, retry.backoff.ms, max.in.flight.requests.per.connection), got "transactional.id"`},
		{"producer p3 transactional.id=", `10:13: transactional.id needs a value: write transactional.id=...`},
		{`producer p3 transactional.id=""`, `10:30: transactional.id must not be empty`},
		{"producer p3 transactonal.id=x", `10:13: unknown option "transactonal.id" for producer; did you mean "transactional.id"?`},
		{"producer p3 foo=1", `10:13: unknown option "foo" for producer; options: transactional.id, transaction.timeout.ms, enable.idempotence, acks, request.timeout.ms, delivery.timeout.ms, max.block.ms, retry.backoff.ms, max.in.flight.requests.per.connection`},
		{"producer p3 acks=2", `10:13: acks must be all, -1, 1 or 0, got "2"`},
		{"producer p3 acks=1 acks=1", `10:20: option acks is given twice`},
		{"producer p3 enable.idempotence=yes", `10:13: enable.idempotence must be true or false, got "yes"`},
		{"producer p3 acks=1 enable.idempotence=true", `10:20: enable.idempotence=true needs acks=all, as in Kafka`},
		{"producer p3 transactional.id=t enable.idempotence=false", `10:13: a transactional producer needs idempotence: drop enable.idempotence=false and keep acks=all, as in Kafka`},
		{"producer p3 transactional.id=t acks=1", `10:13: a transactional producer needs idempotence: drop enable.idempotence=false and keep acks=all, as in Kafka`},
		{"producer p3 transaction.timeout.ms=30d", `10:13: transaction.timeout.ms must be at most 2147483647ms, got 30d`},
		{"producer p3 transaction.timeout.ms=soon", `10:13: transaction.timeout.ms must be a duration like 250ms, 5s, 2m, 3h or 7d, got "soon"`},
		{"producer p3 delivery.timeout.ms=10s", `10:13: delivery.timeout.ms must be at least request.timeout.ms (30s), as in Kafka`},
		{"consumer c3 isolation.level=read_comitted", `10:13: isolation.level must be read_committed or read_uncommitted, got "read_comitted"; did you mean "read_committed"?`},
		{"consumer c3 group.id", `10:13: expected an option KEY=VALUE (isolation.level, group.id, session.timeout.ms, heartbeat.interval.ms, max.poll.interval.ms, group.instance.id, partition.assignment.strategy, fetch.max.wait.ms, fetch.min.bytes), got "group.id"`},
		{"topic orders", `10:7: topic "orders" is already declared on line 2`},
		{"topic", `10:7: topic needs a name, e.g. topic orders partitions=2`},
		{"topic or/ders", `10:7: topic name "or/ders" may only hold letters, digits, '.', '_' and '-' (at most 249)`},
		{"topic __mine", `10:7: topic names starting with __ are reserved for Kafka's internal topics`},
		{"topic ..", `10:7: topic name ".." is not allowed`},
		{"topic t partitions=0", `10:9: partitions must be between 1 and 64, got 0`},
		{"topic t partitions=65", `10:9: partitions must be between 1 and 64, got 65`},
		{"topic t rf=4", `10:9: rf must be between 1 and 3 (the number of brokers), got 4`},
		{"topic t partitions=-1", `10:9: partitions must be a positive integer, got "-1"`},
		{"cluster brokers=3", `10:1: the cluster was already created on line 1: a script has one cluster statement`},
		{"config", `10:8: config needs at least one KEY=VALUE, e.g. config transaction.max.timeout.ms=15m`},
		{"config transaction.max.timeout=15m", `10:8: unknown option "transaction.max.timeout" for config; did you mean "transaction.max.timeout.ms"?`},
		{"config foo=1", `10:8: unknown option "foo" for config; options: transaction.max.timeout.ms, transactional.id.expiration.ms, transaction.abort.timed.out.transaction.cleanup.interval.ms, transaction.remove.expired.transaction.cleanup.interval.ms, broker.session.timeout.ms, request.timeout.ms, producer.id.expiration.ms, producer.id.expiration.check.interval.ms, min.insync.replicas, transaction.state.log.min.isr, transaction.partition.verification.enable, transaction.version, leader.epoch.bump.on.isr.shrink, coordinator.reload.on.partition.change, group.initial.rebalance.delay.ms, group.min.session.timeout.ms, group.max.session.timeout.ms`},
		{"config request.timeout.ms=0", `10:8: request.timeout.ms must be at least 1ms, got 0`},
		{"config min.insync.replicas=10", `10:8: min.insync.replicas must be between 1 and 9, got 10`},
		{"config min.insync.replicas=2s", `10:8: min.insync.replicas must be a positive integer, got "2s"`},

		// partitions and values
		{"p1 send orders/2 k=v", `10:16: partition 2 does not exist: topic orders has partitions 0 to 1`},
		{"p1 send payments/1 k=v", `10:18: partition 1 does not exist: topic payments has one partition, 0`},
		{"p1 send ordrs/0 k=v", `10:9: unknown topic "ordrs": declare it with topic first; did you mean "orders"?`},
		{"p1 send orders k=v", `10:9: expected TOPIC/PARTITION like orders/0, got "orders"`},
		{"p1 send orders/x k=v", `10:16: the partition must be a non-negative integer, got "x"`},
		{"p1 send orders/99999999999 k=v", `10:16: the partition must be between 0 and 2147483647, got 99999999999`},
		{"p1 send orders/0", `10:18: send needs at least one record KEY=VALUE after orders/0`},
		{"p1 send", `10:9: send needs a partition and records, e.g. p1 send orders/0 k1=v1`},
		{"p1 send orders/0 kv", `10:18: expected a record KEY=VALUE, got "kv"`},
		{"p1 send orders/0 k=", `10:20: record value is empty: write KEY="" for an empty value`},
		{"p1 send orders/0 =v", `10:18: record key is empty: write ""=VALUE for an empty key`},
		{`p1 send orders/0 k=a"b"`, `10:21: a quote must enclose the whole value`},
		{`p1 send orders/0 k="b"c`, `10:23: unexpected text after the closing quote`},
		{`p1 send orders/0 k="unterminated`, `10:20: unterminated quote: add a closing "`},
		{`p1 send orders/0 k="bad\n"`, `10:24: unknown escape "\\n" in quotes: only \" and \\ are allowed`},
		{"p1 send __transaction_state/0 k=v", `10:9: cannot send to the internal topic __transaction_state`},
		{"p1 send-offsets g1", `10:20: send-offsets needs at least one TOPIC/PARTITION=OFFSET after the group`},
		{"p1 send-offsets g1 orders/0", `10:20: expected TOPIC/PARTITION=OFFSET, got "orders/0"`},
		{"p1 send-offsets g1 orders/0=-1", `10:29: the offset must be a non-negative integer, got "-1"`},
		{"p1 send-offsets g1 orders/0=1 orders/0=2", `10:31: orders/0 is given twice`},
		{"c1 assign", `10:11: assign needs at least one TOPIC/PARTITION, e.g. c1 assign orders/0`},
		{"c1 assign orders/0 orders/0", `10:20: orders/0 is given twice`},
		{"c1 seek orders/0", `10:18: seek needs an offset after orders/0`},
		{"c1 seek orders/0 x", `10:18: the offset must be a non-negative integer, got "x"`},
		{"c1 seek orders/0 1 2", `10:20: unexpected "2": seek takes a partition and an offset`},
		{"wait p9", `10:6: unknown client "p9": declare it with producer or consumer first; did you mean "p1"?`},
		{"wait", `10:6: wait needs a client name`},

		// faults
		{"crash broker-3", `10:7: broker-3 does not exist: the cluster has broker-0 to broker-2`},
		{"crash broker", `10:7: unknown client "broker": declare it with producer or consumer first`},
		{"crash Broker-1", `10:7: expected a node (broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)), got "Broker-1"`},
		{"crash", `10:7: crash needs a node: broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)`},
		{"crash broker-1 broker-2", `10:16: unexpected "broker-2": crash takes one node`},
		{"crash coordinator(x", `10:7: missing ")" at the end of "coordinator(x"`},
		{"crash coordinator()", `10:19: the transactional id must not be empty`},
		{"crash leader(orders/5)", `10:21: partition 5 does not exist: topic orders has partitions 0 to 1`},
		{"restart p1", `10:9: a crashed client cannot be restarted: declare a new one`},
		{"pause p9", `10:7: unknown client "p9": declare it with producer or consumer first; did you mean "p1"?`},
		{"partition broker-0", `10:11: partition needs at least two groups separated by '|' (use isolate to cut off one node)`},
		{"partition", `10:11: partition needs groups of nodes, e.g. partition broker-0,p1 | broker-1,broker-2`},
		{"partition broker-0 | broker-0", `10:22: broker-0 is named twice`},
		{"partition broker-0 || broker-1", `10:21: expected a node before "|"`},
		{"partition broker-0, | broker-1", `10:21: expected a node before "|"`},
		{"partition broker-0 | broker-1,", `10:30: expected a node after the last separator`},
		{"partition broker-0 broker-1 | broker-2", `10:20: expected ',' or '|' before "broker-1"`},
		{"heal now", `10:6: unexpected "now": heal takes no arguments`},
		{"drop Produse", `10:6: unknown API "Produse"; did you mean "Produce"?`},
		{"drop produce", `10:6: unknown API "produce"; did you mean "Produce"?`},
		{"drop ApiVersions", `10:6: unknown API "ApiVersions" (APIs: Produce, Fetch, ListOffsets, Metadata, OffsetCommit, OffsetFetch, FindCoordinator, JoinGroup, Heartbeat, LeaveGroup, SyncGroup, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, WriteTxnMarkers, TxnOffsetCommit, DescribeProducers, DescribeTransactions, ListTransactions)`},
		{"drop EndTxn.request", `10:12: unknown suffix ".request": write EndTxn for requests or EndTxn.response for responses`},
		{"drop EndTxn count=0", `10:13: count must be between 1 and 2147483647, got 0`},
		{"drop EndTxn from=p9", `10:18: unknown client "p9": declare it with producer or consumer first; did you mean "p1"?`},
		{`drop EndTxn from=coordinator("a"b)`, `10:33: unexpected text after the closing quote`},
		{`drop EndTxn from=leader(orders/7)`, `10:32: partition 7 does not exist: topic orders has partitions 0 to 1`},
		{`producer p3 transactional.id=a"b"`, `10:31: a quote must enclose the whole value`},
		{"drop EndTxn by=1s", `10:13: unknown option "by" for drop; options: from, to, count`},
		{"drop", `10:6: drop needs an API, e.g. drop WriteTxnMarkers count=1`},
		{"delay EndTxn", `10:14: delay needs by=DURATION, e.g. by=2s`},
		{"delay EndTxn by=-1s", `10:14: by must be a duration like 250ms, 5s, 2m, 3h or 7d, got "-1s"`},
		{"delay EndTxn by=1w", `10:14: by must be a duration like 250ms, 5s, 2m, 3h or 7d, got "1w"`},
		{"run for=366d", `10:5: for must be at most 365d, got 366d`},
		{"run for=99999999999999999999ms", `10:5: for must be at most 365d, got 99999999999999999999ms`},
		{"run 5s", `10:5: expected an option KEY=VALUE (for), got "5s"`},
		{"run until", `10:11: run until needs an API, e.g. run until EndTxn.response`},
		{"run until EndTxn count=1", `10:18: unknown option "count" for run until; options: from, to, nth, for`},
		{"advance", `10:9: advance needs a duration, e.g. advance 10s`},
		{"advance 1.5s", `10:9: advance must be a duration like 250ms, 5s, 2m, 3h or 7d, got "1.5s"`},
		{"advance 1s 2s", `10:12: unexpected "2s": advance takes one duration`},
		{"break epoch-fencng", `10:7: unknown mechanism "epoch-fencng"; did you mean "epoch-fencing"? (mechanisms: ` + mechanismList + `)`},
		{"restore", `10:9: restore needs a mechanism: ` + mechanismList},

		// expectations
		{"expect", `10:8: expect needs a subject: a client name, or one of txn, partition, log, offsets, trace, coordinator, group, invariants, liveness, violation, admin`},
		{"expect tnx x", `10:8: unknown expectation "tnx"; did you mean "txn"?: expected a client name or one of txn, partition, log, offsets, trace, coordinator, group, invariants, liveness, violation, admin`},
		{"expect p9 ok", `10:8: unknown client "p9": declare it with producer or consumer first; did you mean "p1"?`},
		{"expect p1 okay", `10:11: expected ok, error, pending, state, records, position or aborted after expect p1, got "okay"`},
		{"expect p1 ok now", `10:14: unexpected "now": expect p1 ok takes no arguments`},
		{"expect p1 error", `10:17: expect p1 error needs a Kafka error name, e.g. PRODUCER_FENCED, or a client exception, e.g. TimeoutException`},
		{"expect p1 error PRODUCER_FENCE", `10:17: unknown Kafka error or client exception "PRODUCER_FENCE"; did you mean "PRODUCER_FENCED"?`},
		{"expect p1 error TimeoutExceptio", `10:17: unknown Kafka error or client exception "TimeoutExceptio"; did you mean "TimeoutException"?`},
		{"expect p1 error REQUEST_TIMEDOUT", `10:17: unknown Kafka error or client exception "REQUEST_TIMEDOUT"; did you mean "REQUEST_TIMED_OUT"?`},
		{"expect p1 error NONE", `10:17: NONE is success: write expect NAME ok`},
		{"expect p1 state Ready", `10:17: unknown client state "Ready"; did you mean "READY"? (states: UNINITIALIZED, INITIALIZING, READY, IN_TRANSACTION, COMMITTING_TRANSACTION, ABORTING_TRANSACTION, ABORTABLE_ERROR, FATAL_ERROR)`},
		{"expect c1 state READY", `10:11: c1 is a consumer: state applies to producers`},
		{"expect p1 state READY epoch=40000", `10:23: epoch must be between -1 and 32767, got 40000`},
		{"expect p1 records orders/0 =", `10:11: p1 is a producer: records applies to consumers`},
		{"expect c1 records orders/0 v1", `10:28: expected "=" after orders/0, got "v1"`},
		{"expect c1 records orders/0", `10:28: expected "=" after orders/0 (with nothing or none after it for none)`},
		{"expect txn", `10:12: expect txn needs a transactional id, e.g. expect txn order-txn-1 state=Ongoing`},
		{"expect txn x state=ongoing", `10:14: unknown transaction state "ongoing"; did you mean "Ongoing"? (states: Empty, Ongoing, PrepareCommit, PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence)`},
		{"expect txn x absent state=Empty", `10:21: unexpected "state=Empty": expect txn ID absent takes nothing more`},
		{"expect txn x partitions=orders/0,,orders/1", `10:34: expected TOPIC/PARTITION in partitions=, got an empty item (for no partitions write partitions=none, or partitions= with nothing after it)`},
		{"expect txn x partitions=orders/0,orders/0", `10:34: orders/0 is given twice`},
		// requests written by hand
		{"request EndTxn Committed=false", `10:9: request needs from=PRODUCER: the producer whose connection sends it`},
		{"request EndTxn from=p1", `10:24: request EndTxn needs Committed=…: true to commit, false to abort`},
		{"request EndTxn from=c1 Committed=true", `10:21: c1 is a consumer: request is sent from a producer`},
		{"request EndTxn.response from=p1", `10:9: request sends requests: write EndTxn without .response`},
		{"request Fetch from=p1", `10:9: request cannot send Fetch: it sends Produce, ListOffsets, Metadata, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn`},
		{"request EndTxn from=p1 Comitted=true", `10:24: unknown option "Comitted" for request EndTxn; did you mean "Committed"?`},
		{"request EndTxn from=p1 Committed=yes", `10:24: Committed must be true or false, got "yes"`},
		{"request EndTxn from=p1 Committed=true ProducerEpoch=32768", `10:53: ProducerEpoch must be between -1 and 32767, got 32768`},
		{"request EndTxn from=p1 Committed=true orders/0", `10:39: unexpected "orders/0": request EndTxn takes only FIELD=VALUE options (from, to, Version, TransactionalId, ProducerId, ProducerEpoch, Committed)`},
		{"request Produce from=p1 orders/0 k=v", `10:38: request Produce needs BaseSequence=…: the batch's first sequence number (-1 for none)`},
		{"request Produce from=p1 BaseSequence=0 orders/0", `10:49: request Produce needs at least one record KEY=VALUE after orders/0`},
		{"request Produce from=p1 BaseSequence=0 Acks=2 orders/0 k=v", `10:45: Acks must be between -1 and 1, got 2`},
		{"request Produce from=p1 BaseSequence=0 __consumer_offsets/0 k=v", `10:40: cannot send to the internal topic __consumer_offsets`},
		{"request AddPartitionsToTxn from=p1 Partitions=none", `10:36: Partitions needs at least one TOPIC/PARTITION`},
		// txn
		{"txn t1", `10:8: txn needs epoch=N (0 to 32767): the epoch the transactional id starts at`},
		{"txn t1 epoch=-1", `10:8: epoch must be a non-negative integer, got "-1"`},
		{"txn t1 epoch=1 pid=1000000000", `10:16: pid must be between 0 and 999999999, got 1000000000`},
		// message fields, partition and consumer facts
		{"expect trace EndTxn Committed=maybe", `10:21: Committed must be true or false, got "maybe"`},
		{"expect trace WriteTxnMarkers TransactionResult=commit", `10:48: TransactionResult must be ABORT or COMMIT, got "commit"; did you mean "COMMIT"?`},
		{"expect trace EndTxn seq=0", `10:21: unknown option "seq" for expect trace EndTxn; options: from, to, error, count, Version, TransactionalId, ProducerId, ProducerEpoch, Committed`},
		{"expect trace Produce.response BaseSequence=0", `10:31: unknown option "BaseSequence" for expect trace Produce.response; options: from, to, error, count, Partitions, ErrorCode, BaseOffset`},
		{"expect trace Produce.response ErrorCode=NOPE", `10:41: unknown Kafka error "NOPE"; did you mean "NONE"?`},
		{"expect partition orders/0 leader=broker-7", `10:34: broker-7 does not exist: the cluster has broker-0 to broker-2`},
		{"expect partition orders/0 isr=broker-0,,broker-1", `10:40: expected a broker in isr=, got an empty item (for no brokers write isr=none)`},
		{"expect partition orders/0 isr=broker-1,broker-1", `10:40: broker-1 is given twice`},
		{"expect p1 position orders/0=1", `10:11: p1 is a producer: position applies to consumers`},
		{"expect c1 position", `10:20: expect position needs at least one TOPIC/PARTITION=N|none, e.g. expect c1 position orders/0=3`},
		{"expect c1 position orders/0=x", `10:29: expected an offset or none after orders/0=, got "x"`},
		{"expect c1 aborted orders/0 = p1", `10:30: expected an aborted transaction P@FIRST_OFFSET (a producer and the offset its transaction began at), got "p1"`},
		{"expect c1 aborted orders/0 = c2@0", `10:30: c2 is a consumer: log entries name the producer that wrote them`},
		{"expect log __transaction_state/1 = t1:Ongong", `10:39: unknown transaction state "Ongong"; did you mean "Ongoing"? (a __transaction_state record holds one)`},
		{"expect log __transaction_state/1 = p1:v1 none", `10:39: unknown transaction state "v1" (a __transaction_state record holds one)`},
		{"expect log __consumer_offsets/1 = g1/orders/0:x", `10:47: the offset must be a non-negative integer, got "x"`},
		// producer options
		{"producer p3 enable.idempotence=true max.in.flight.requests.per.connection=6", `10:37: max.in.flight.requests.per.connection must be at most 5 to use the idempotent producer, as in Kafka`},
		{"producer p3 transactional.id=t max.in.flight.requests.per.connection=6", `10:13: a transactional producer needs idempotence: max.in.flight.requests.per.connection above 5 turns it off; write at most 5, as in Kafka`},
		{"producer p3 max.in.flight.requests.per.connection=0", `10:13: max.in.flight.requests.per.connection must be between 1 and 2147483647, got 0`},
		{"producer p3 max.block.ms=1.5s", `10:13: max.block.ms must be a duration like 250ms, 5s, 2m, 3h or 7d, got "1.5s"`},
		{"expect partition orders/0", `10:27: expect partition needs at least one of hw=N, lso=N, log-end=N, leader=BROKER, leader-epoch=N, isr=BROKER,...`},
		{"expect partition orders/0 hw=-1", `10:27: hw must be a non-negative integer, got "-1"`},
		{"expect log orders/0 = v1", `10:23: expected a log entry P:VALUE, COMMIT(P) or ABORT(P), got "v1"`},
		{"expect log orders/0 = c1:v1", `10:23: c1 is a consumer: log entries name the producer that wrote them`},
		{"expect log orders/0 = COMMIT(p9)", `10:30: unknown client "p9": declare it with producer or consumer first; did you mean "p1"?`},
		{"expect log orders/0 = COMMIT(p1", `10:23: missing ")" in "COMMIT(p1"`},
		{"expect log orders/0 = p1:", `10:26: the value is empty: write p1:"" for an empty value`},
		{"expect offsets g1", `10:19: expect offsets needs at least one TOPIC/PARTITION=N|none|unstable`},
		{"expect offsets g1 orders/0=stable", `10:28: expected an offset, none or unstable after orders/0=, got "stable"`},
		{"expect trace Produce error=PRODUCER_FENCED", `10:22: error= applies to responses: write Produce.response`},
		{"expect trace Produce.response error=FENCED", `10:31: unknown Kafka error "FENCED"`},
		{"expect trace Produce count=-1", `10:22: count must be a non-negative integer, got "-1"`},
		{"expect coordinator x partition=50", `10:22: partition must be between 0 and 49 (txn-partitions is 50), got 50`},
		{"expect coordinator x broker=p1", `10:22: broker= needs a broker, broker-0 to broker-2, got "p1"`},
		{"expect coordinator x broker=broker-3", `10:29: broker-3 does not exist: the cluster has broker-0 to broker-2`},
		{"expect invariants now", `10:19: unexpected "now": expect invariants takes no arguments`},
		{"expect liveness now", `10:17: unexpected "now": expect liveness takes nothing or "violation [INVARIANT]"`},
		{`expect liveness "violation"`, `10:17: unexpected "\"violation\"": expect liveness takes nothing or "violation [INVARIANT]"`},
		{"expect liveness violation atomic", `10:27: unknown invariant "atomic" (invariants: read-committed, atomicity, no-duplicates, durability, fencing, offsets-atomicity, marker-consistency, transitions, lso)`},
		{"expect liveness violation lso fencing", `10:31: unexpected "fencing": expect liveness violation takes at most one invariant`},
		{"expect violation atomic", `10:18: unknown invariant "atomic" (invariants: read-committed, atomicity, no-duplicates, durability, fencing, offsets-atomicity, marker-consistency, transitions, lso)`},
		{"expect violation lso fencing", `10:22: unexpected "fencing": expect violation takes at most one invariant`},

		// lexical
		{"p1 commit\x00", `10:10: unexpected control character U+0000`},
		{"p1 commit \xff", `10:11: invalid UTF-8 byte 0xff`},
		{"é crash broker-9", `10:1: unknown statement "é"`},
		{"p1 send orders/0 ключ=значение garbage", `10:32: expected a record KEY=VALUE, got "garbage"`},
		{"p1 send orders/0 k=\"a\tb\" x", `10:26: expected a record KEY=VALUE, got "x"`},
		{"cluster", `10:1: the cluster was already created on line 1: a script has one cluster statement`},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			st, err := parseAfterPrelude(t, tc.line)
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
			if got := e.Pos.String() + ": " + e.Msg; got != tc.want {
				t.Errorf("error\n got %s\nwant %s", got, tc.want)
			}
			if want := "script:" + tc.want; err.Error() != want {
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
