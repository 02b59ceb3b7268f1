package check

import (
	"strings"
	"testing"

	"txnlab/core/client"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

var orders0 = protocol.TopicPartition{Topic: "orders", Partition: 0}

// logOf builds a partition log from batches appended in order, with no
// safety check (the tests write the histories a broken mechanism leaves).
func logOf(batches ...protocol.RecordBatch) *partition.Log {
	l := partition.NewLog(orders0)
	for i, b := range batches {
		if b.IsControl {
			l.AppendMarker(b.ProducerId, b.ProducerEpoch, b.ControlType, 0, 0, int64(i), partition.Checks{})
			continue
		}
		l.AppendAsLeader(b, 0, int64(i+1)*10, partition.Checks{})
	}
	return l
}

func data(pid int64, epoch int16, seq int32, txn bool, value string) protocol.RecordBatch {
	return protocol.RecordBatch{ProducerId: pid, ProducerEpoch: epoch, BaseSequence: seq, IsTransactional: txn,
		Records: []protocol.Record{{Key: "k", Value: value}}}
}

func marker(pid int64, epoch int16, ct protocol.ControlType) protocol.RecordBatch {
	return protocol.RecordBatch{ProducerId: pid, ProducerEpoch: epoch, IsControl: true, ControlType: ct}
}

func sent(pid int64, epoch int16, seq int32, value string, acked bool, offset int64, txn int) client.SentRecord {
	return client.SentRecord{TP: orders0, Key: "k", Value: value, ProducerId: pid, ProducerEpoch: epoch, Sequence: seq,
		Txn: txn, Acked: acked, Offset: offset}
}

func violations(in *Input, inv string) []string {
	if in.Trace == nil {
		in.Trace = &sim.Trace{}
	}
	var out []string
	for _, v := range Check(in) {
		if v.Invariant == inv {
			out = append(out, v.Message)
		}
	}
	return out
}

// TestCheckerTable pins what each invariant decides from a history, each
// row a history the checker once judged wrongly (issue 11, §2.3 and §3).
func TestCheckerTable(t *testing.T) {
	for _, c := range []struct {
		name string
		in   *Input
		inv  string
		want string // a phrase of the violation; "" for none
	}{
		{
			// A transactional id expired; its next producer got a new
			// producer id at epoch 0 and committed. Not fenced.
			name: "fencing: a new producer id at epoch 0 is not older",
			in: &Input{
				Producers: []Producer{
					{Name: "a", TransactionalId: "tx", Grants: []client.Grant{{ProducerId: 0, ProducerEpoch: 3, At: 1}}},
					{Name: "b", TransactionalId: "tx", Grants: []client.Grant{{ProducerId: 1, ProducerEpoch: 0, At: 5}},
						Sends: []client.SentRecord{sent(1, 0, 0, "v", true, 0, 1)},
						Txns:  []client.TxnRecord{{Txn: 1, ProducerId: 1, Outcome: "committed", CommitSent: true}}},
				},
				Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(1, 0, 0, true, "v"), marker(1, 0, protocol.ControlCommit))},
			},
			inv: safety.Fencing.Name,
		},
		{
			// The same producer id: an older epoch committed after a newer
			// one was granted is fenced.
			name: "fencing: an older epoch of the same producer id",
			in: &Input{
				Producers: []Producer{
					{Name: "a", TransactionalId: "tx", Grants: []client.Grant{{ProducerId: 0, ProducerEpoch: 0, At: 0}, {ProducerId: 0, ProducerEpoch: 1, At: 5}},
						Sends: []client.SentRecord{sent(0, 0, 0, "v", true, 0, 1)},
						Txns:  []client.TxnRecord{{Txn: 1, ProducerId: 0, Outcome: "committed", CommitSent: true}}},
				},
				Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(0, 0, 0, true, "v"), marker(0, 0, protocol.ControlCommit))},
			},
			inv: safety.Fencing.Name, want: "after epoch 1 of tx was granted",
		},
		{
			// Never acknowledged, in the log twice: still a duplicate.
			name: "no-duplicates: an unacknowledged record twice",
			in: &Input{
				Producers: []Producer{{Name: "p", Idempotent: true, Acks: -1,
					Sends: []client.SentRecord{sent(0, 0, 0, "v", false, -1, 0)}}},
				Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(0, 0, 0, false, "v"), data(0, 0, 0, false, "v"))},
			},
			inv: safety.NoDuplicates.Name, want: "is in orders/0 2 times",
		},
		{
			// Acknowledged at offset 1, but the log holds it at 0.
			name: "durability: acknowledged at another offset",
			in: &Input{
				Producers: []Producer{{Name: "p", Idempotent: true, Acks: -1,
					Sends: []client.SentRecord{sent(0, 0, 0, "v", true, 1, 0)}}},
				Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(0, 0, 0, false, "v"))},
			},
			inv: safety.Durability.Name, want: "was acknowledged at orders/0@1 but the log holds it at offset 0",
		},
		{
			name: "durability: acknowledged where the log holds it",
			in: &Input{
				Producers: []Producer{{Name: "p", Idempotent: true, Acks: -1,
					Sends: []client.SentRecord{sent(0, 0, 0, "v", true, 0, 0)}}},
				Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(0, 0, 0, false, "v"))},
			},
			inv: safety.Durability.Name,
		},
		{
			// The producer's commit failed (outcome unknown to it); the
			// log closes the record with ABORT; a read_committed
			// consumer returned it.
			name: "read-committed: the log proves the abort the producer never learnt",
			in: &Input{
				Producers: []Producer{{Name: "p", TransactionalId: "tx", Idempotent: true, Acks: -1,
					Sends: []client.SentRecord{sent(0, 0, 0, "v", true, 0, 1)},
					Txns:  []client.TxnRecord{{Txn: 1, ProducerId: 0, Outcome: "unknown", CommitSent: true, CommitSentAt: 1}}}},
				Consumers: []Consumer{{Name: "c", ReadCommitted: true, Received: map[protocol.TopicPartition][]client.ReceivedRecord{
					orders0: {{Offset: 0, Value: "v", ProducerId: 0, ProducerEpoch: 0, Sequence: 0, At: 9}}}}},
				Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(0, 0, 0, true, "v"), marker(0, 1, protocol.ControlAbort))},
			},
			inv: safety.ReadCommitted.Name, want: "which aborted",
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := violations(c.in, c.inv)
			switch {
			case c.want == "" && len(got) > 0:
				t.Errorf("%s: want none, got %q", c.inv, got)
			case c.want != "" && (len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want)):
				t.Errorf("%s: want a violation saying %q, got %q", c.inv, c.want, got)
			}
		})
	}
}

// TestTransitionsReadTheTypedFlag: the transitions invariant reports the
// state changes the simulation marked Illegal, and only those: a note
// whose text happens to end in ILLEGAL is not one.
func TestTransitionsReadTheTypedFlag(t *testing.T) {
	w := sim.NewWorld(1)
	w.Record(sim.Event{Kind: sim.KindState, Node: w.Node("broker-0"), Subject: "txn t", From: w.Label("Empty"), To: w.Label("PrepareCommit"), Text: "pid=0 epoch=0", Illegal: true})
	w.Record(sim.Event{Kind: sim.KindState, Node: w.Node("p1"), Subject: "producer p1", From: w.Label("READY"), To: w.Label("IN_TRANSACTION"), Text: "ILLEGAL"})
	got := violations(&Input{Trace: &w.Trace}, safety.Transitions.Name)
	if len(got) != 1 || !strings.Contains(got[0], "txn t moved Empty -> PrepareCommit") {
		t.Errorf("transitions violations %q, want the one marked Illegal", got)
	}
}

// offsetRecord is a __consumer_offsets batch holding one offset of group
// g for orders/0 (transactional when pid >= 0).
func offsetRecord(pid int64, value int64) protocol.RecordBatch {
	return protocol.RecordBatch{ProducerId: pid, BaseSequence: -1, IsTransactional: pid >= 0,
		Records: []protocol.Record{{Key: "g/orders/0", Offset: &protocol.OffsetCommitValue{Group: "g", Partition: orders0, CommittedOffset: value}}}}
}

// TestLostCommittedOffsets: a committed transaction's offset that its
// __consumer_offsets log holds, closed by COMMIT and superseded by
// nothing later, must be what the group's coordinator answers (issue 25,
// §2.1: a coordinator that forgot pending offsets on load passed).
func TestLostCommittedOffsets(t *testing.T) {
	gp := GroupPartition{Group: "g", Partition: orders0}
	producer := Producer{Name: "p", TransactionalId: "tx", Idempotent: true, Acks: -1,
		Txns: []client.TxnRecord{{Txn: 1, ProducerId: 0, Outcome: "committed", CommitSent: true, Group: "g",
			Offsets: []protocol.OffsetEntry{{TopicPartition: orders0, CommittedOffset: 5}}}}}
	for _, c := range []struct {
		name      string
		log       *partition.Log
		committed map[GroupPartition]int64
		want      bool
	}{
		{"the coordinator answers nothing", logOf(offsetRecord(0, 5), marker(0, 0, protocol.ControlCommit)), nil, true},
		{"the coordinator answers an older value", logOf(offsetRecord(-1, 3), offsetRecord(0, 5), marker(0, 0, protocol.ControlCommit)), map[GroupPartition]int64{gp: 3}, true},
		{"the coordinator answers it", logOf(offsetRecord(0, 5), marker(0, 0, protocol.ControlCommit)), map[GroupPartition]int64{gp: 5}, false},
		{"a later plain commit superseded it", logOf(offsetRecord(0, 5), marker(0, 0, protocol.ControlCommit), offsetRecord(-1, 7)), map[GroupPartition]int64{gp: 7}, false},
		{"a plain commit written after it, before its marker, supersedes it", logOf(offsetRecord(0, 5), offsetRecord(-1, 7), marker(0, 0, protocol.ControlCommit)), map[GroupPartition]int64{gp: 7}, false},
		{"still pending: no marker yet", logOf(offsetRecord(0, 5)), nil, false},
		{"aborted", logOf(offsetRecord(0, 5), marker(0, 0, protocol.ControlAbort)), nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := &Input{Producers: []Producer{producer}, OffsetsLogs: []OffsetsLog{{Log: c.log, Committed: c.committed}}}
			got := violations(in, safety.OffsetsAtomicity.Name)
			if lost := len(got) > 0 && strings.Contains(strings.Join(got, "\n"), "is lost"); lost != c.want || len(got) > 1 {
				t.Errorf("violations %q, want a lost offset: %v", got, c.want)
			}
		})
	}
}

// TestDuplicatesAcrossAnEpochBump: an idempotent producer that bumped its
// epoch after OUT_OF_ORDER_SEQUENCE_NUMBER re-sends its batches from
// sequence 0 (issue 25, §2.2). When the leader refused a retry of a
// record it held (answered OUT_OF_ORDER to v1 although v1 was in its
// log), the log v1 v2 v1 v2 holds each send twice: a bug. When no broker
// refused a copy it held (their answers were lost), the client
// re-sequenced them without knowing they were written: Kafka's own
// anomaly, reported under its name (safety.ResequencedInFlight).
func TestDuplicatesAcrossAnEpochBump(t *testing.T) {
	resent := func(seq int32, value string) client.SentRecord {
		s := sent(0, 1, seq, value, true, int64(2+seq), 0)
		s.Earlier = []client.SentAs{{ProducerId: 0, ProducerEpoch: 0, Sequence: seq}}
		return s
	}
	input := func(refused bool) *Input {
		w := sim.NewWorld(1)
		p, b := w.Node("p"), w.Node("broker-0")
		retry := &protocol.ProduceRequest{Partitions: []protocol.ProducePartitionData{{TopicPartition: orders0, Records: data(0, 0, 0, false, "v1")}}}
		w.Record(sim.Event{Kind: sim.KindSend, Node: p, Peer: b, MsgID: 7, Msg: retry})
		if refused {
			w.Record(sim.Event{Kind: sim.KindSend, Node: b, Peer: p, MsgID: 8, ReplyTo: 7, Msg: &protocol.ProduceResponse{
				Responses: []protocol.ProducePartitionResponse{{TopicPartition: orders0, ErrorCode: protocol.OUT_OF_ORDER_SEQUENCE_NUMBER, BaseOffset: -1}}}})
		}
		return &Input{
			Producers: []Producer{{Name: "p", Idempotent: true, Acks: -1, Sends: []client.SentRecord{resent(0, "v1"), resent(1, "v2")}}},
			Logs: map[protocol.TopicPartition]*partition.Log{orders0: logOf(data(0, 0, 0, false, "v1"), data(0, 0, 1, false, "v2"),
				data(0, 1, 0, false, "v1"), data(0, 1, 1, false, "v2"))},
			Trace: &w.Trace,
		}
	}
	// Refused: v1's copies are a bug; v2, re-sequenced as a bystander of
	// v1's gap with its answer lost, is the anomaly.
	vs := Check(input(true))
	if len(vs) != 2 || vs[0].Anomaly != "" || !strings.Contains(vs[0].Message, `"v1"`) || !strings.Contains(vs[0].Message, "2 times") ||
		!strings.Contains(vs[0].Message, "re-sequenced from producer 0 epoch 0 sequence 0") || vs[1].Anomaly != safety.ResequencedInFlight.Name {
		t.Errorf("no-duplicates violations %v, want v1's two copies as a bug and v2's as the anomaly", vs)
	}
	vs = Check(input(false))
	if len(vs) != 2 || vs[0].Anomaly != safety.ResequencedInFlight.Name || vs[1].Anomaly != safety.ResequencedInFlight.Name {
		t.Errorf("with no refusal, violations %v, want v1's and v2's copies named %s", vs, safety.ResequencedInFlight)
	}
	// Without the earlier identity the checker cannot see the copies.
	in := input(true)
	for i := range in.Producers[0].Sends {
		in.Producers[0].Sends[i].Earlier = nil
	}
	if got := violations(in, safety.NoDuplicates.Name); len(got) != 0 {
		t.Errorf("without re-sequencing, violations %q", got)
	}
}
