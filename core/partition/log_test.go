package partition_test

import (
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
)

var tp0 = protocol.TopicPartition{Topic: "orders", Partition: 0}

// batch is a data batch of n records from (pid, epoch) starting at seq.
func batch(pid int64, epoch int16, seq int32, n int, txn bool) protocol.RecordBatch {
	b := protocol.RecordBatch{ProducerId: pid, ProducerEpoch: epoch, BaseSequence: seq, IsTransactional: txn}
	for i := 0; i < n; i++ {
		b.Records = append(b.Records, protocol.Record{Key: "k", Value: "v"})
	}
	return b
}

// plain is a batch with no producer id (acks without idempotence).
func plain(n int) protocol.RecordBatch {
	return batch(protocol.NoProducerId, protocol.NoProducerEpoch, protocol.NoSequence, n, false)
}

// op is one step of a table case: an append or a marker, with the
// outcome it must have.
type op struct {
	data    *protocol.RecordBatch
	marker  *markerOp
	checks  *partition.Checks // nil: all on
	wantErr protocol.ErrorCode
	wantOff int64 // base offset (data) or marker offset; -2: don't check
	wantDup bool
}

type markerOp struct {
	pid              int64
	epoch            int16
	commit           bool
	coordinatorEpoch int32
}

func d(b protocol.RecordBatch, err protocol.ErrorCode, off int64) op {
	return op{data: &b, wantErr: err, wantOff: off}
}

func dup(b protocol.RecordBatch, off int64) op {
	return op{data: &b, wantOff: off, wantDup: true}
}

func mk(pid int64, epoch int16, commit bool, ce int32, err protocol.ErrorCode, off int64) op {
	return op{marker: &markerOp{pid, epoch, commit, ce}, wantErr: err, wantOff: off}
}

func with(c partition.Checks, o op) op { o.checks = &c; return o }

const (
	none = protocol.NONE
	ooo  = protocol.OUT_OF_ORDER_SEQUENCE_NUMBER
	ipe  = protocol.INVALID_PRODUCER_EPOCH
	its  = protocol.INVALID_TXN_STATE
	tcf  = protocol.TRANSACTION_COORDINATOR_FENCED
	skip = int64(-2)
	rej  = int64(-1)
)

func TestProducerStateChecks(t *testing.T) {
	noSeq := partition.Checks{EpochFencing: true, CoordinatorEpoch: true}
	noFence := partition.Checks{CoordinatorEpoch: true, SequenceCheck: true}
	noCE := partition.Checks{EpochFencing: true, SequenceCheck: true}
	off := partition.Checks{}
	tests := []struct {
		name    string
		ops     []op
		wantLEO int64
	}{
		{"in-order batches are appended", []op{
			d(batch(1, 0, 0, 3, false), none, 0),
			d(batch(1, 0, 3, 2, false), none, 3),
			d(batch(1, 0, 5, 1, false), none, 5),
		}, 6},
		{"a retried batch gets its original offset and Duplicate, nothing appended", []op{
			d(batch(1, 0, 0, 3, false), none, 0),
			d(batch(1, 0, 3, 2, false), none, 3),
			dup(batch(1, 0, 0, 3, false), 0),
			dup(batch(1, 0, 3, 2, false), 3),
		}, 5},
		{"a duplicate must match the whole sequence range", []op{
			d(batch(1, 0, 0, 3, false), none, 0),
			d(batch(1, 0, 0, 2, false), ooo, rej),
		}, 3},
		{"the five most recent batches are remembered, the sixth back is not", []op{
			d(batch(1, 0, 0, 1, false), none, 0),
			d(batch(1, 0, 1, 1, false), none, 1),
			d(batch(1, 0, 2, 1, false), none, 2),
			d(batch(1, 0, 3, 1, false), none, 3),
			d(batch(1, 0, 4, 1, false), none, 4),
			d(batch(1, 0, 5, 1, false), none, 5),
			dup(batch(1, 0, 1, 1, false), 1),
			d(batch(1, 0, 0, 1, false), ooo, rej),
		}, 6},
		{"a retry under another epoch is not a duplicate", []op{
			d(batch(1, 0, 0, 1, false), none, 0),
			d(batch(1, 1, 0, 1, false), none, 1),
			d(batch(1, 0, 0, 1, false), ipe, rej),
		}, 2},
		{"an older epoch is fenced with INVALID_PRODUCER_EPOCH", []op{
			d(batch(1, 3, 0, 1, false), none, 0),
			d(batch(1, 2, 1, 1, false), ipe, rej),
			d(batch(1, 2, 0, 1, false), ipe, rej),
		}, 1},
		{"a new epoch must start at sequence 0", []op{
			d(batch(1, 0, 0, 2, false), none, 0),
			d(batch(1, 1, 2, 1, false), ooo, rej),
			d(batch(1, 1, 1, 1, false), ooo, rej),
			d(batch(1, 1, 0, 1, false), none, 2),
			d(batch(1, 1, 1, 1, false), none, 3),
		}, 4},
		{"a gap in sequence is OUT_OF_ORDER_SEQUENCE_NUMBER", []op{
			d(batch(1, 0, 0, 3, false), none, 0),
			d(batch(1, 0, 4, 1, false), ooo, rej),
			d(batch(1, 0, 2, 1, false), ooo, rej), // overlaps, not a whole duplicate
			d(batch(1, 0, 3, 1, false), none, 3),
		}, 4},
		{"an unknown producer id is accepted at any sequence (KIP-360)", []op{
			d(batch(7, 4, 17, 2, false), none, 0),
			d(batch(8, 0, 1<<30, 1, false), none, 2),
			d(batch(7, 4, 19, 1, false), none, 3),
			d(batch(7, 4, 17, 1, false), ooo, rej),
		}, 4},
		{"sequences wrap after Integer.MAX_VALUE", []op{
			d(batch(1, 0, 1<<31-1, 1, false), none, 0),
			d(batch(1, 0, 0, 1, false), none, 1),
		}, 2},
		{"a non-transactional write while this producer's transaction is open is INVALID_TXN_STATE", []op{
			d(batch(1, 0, 0, 1, true), none, 0),
			d(batch(1, 0, 1, 1, false), its, rej),
			d(plain(1), none, 1), // other writers are unaffected
			d(batch(2, 0, 0, 1, false), none, 2),
			mk(1, 0, true, 0, none, 3),
			d(batch(1, 0, 1, 1, false), none, 4), // closed now
		}, 5},
		{"a marker with an older producer epoch is INVALID_PRODUCER_EPOCH", []op{
			d(batch(1, 2, 0, 1, true), none, 0),
			mk(1, 1, false, 0, ipe, rej),
			mk(1, 3, false, 0, none, 1), // a higher epoch is fine (a fence)
			d(batch(1, 2, 1, 1, true), ipe, rej),
		}, 2},
		{"a marker from an older coordinator epoch is TRANSACTION_COORDINATOR_FENCED", []op{
			d(batch(1, 0, 0, 1, true), none, 0),
			mk(1, 0, true, 5, none, 1),
			d(batch(1, 0, 1, 1, true), none, 2),
			mk(1, 0, true, 4, tcf, rej),
			mk(1, 0, true, 5, none, 3), // equal is accepted
		}, 4},
		{"a marker with no open transaction is written and changes nothing", []op{
			mk(1, 0, true, 0, none, 0),
			mk(1, 0, false, 0, none, 1),
			d(batch(1, 0, 0, 1, false), none, 2), // no transaction open
		}, 3},
		{"sequence-check off: retries and gaps are appended", []op{
			d(batch(1, 0, 0, 1, false), none, 0),
			with(noSeq, d(batch(1, 0, 0, 1, false), none, 1)),
			with(noSeq, d(batch(1, 0, 9, 1, false), none, 2)),
		}, 3},
		{"sequence-check off: epoch fencing still applies", []op{
			d(batch(1, 1, 0, 1, false), none, 0),
			with(noSeq, d(batch(1, 0, 5, 1, false), ipe, rej)),
		}, 1},
		{"epoch-fencing off: older epochs pass, for data and markers", []op{
			d(batch(1, 3, 0, 1, true), none, 0),
			with(noFence, d(batch(1, 2, 0, 1, true), none, 1)),
			with(noFence, mk(1, 1, false, 0, none, 2)),
		}, 3},
		{"coordinator-epoch off: an older coordinator's marker passes", []op{
			d(batch(1, 0, 0, 1, true), none, 0),
			mk(1, 0, true, 5, none, 1),
			d(batch(1, 0, 1, 1, true), none, 2),
			with(noCE, mk(1, 0, false, 3, none, 3)),
		}, 4},
		{"every check off", []op{
			d(batch(1, 5, 0, 1, true), none, 0),
			mk(1, 5, true, 9, none, 1),
			with(off, d(batch(1, 4, 7, 1, true), none, 2)),
			with(off, mk(1, 1, false, 0, none, 3)),
		}, 4},
		{"writes without a sequence (coordinator origin) skip the sequence checks", []op{
			d(batch(1, 0, protocol.NoSequence, 1, true), none, 0),
			d(batch(1, 0, protocol.NoSequence, 1, true), none, 1),
			d(batch(1, 0, 0, 1, true), none, 2),
		}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := partition.NewLog(tp0)
			for i, o := range tc.ops {
				checks := partition.AllChecks
				if o.checks != nil {
					checks = *o.checks
				}
				before := l.LogEndOffset()
				var gotErr protocol.ErrorCode
				var gotOff int64
				var gotDup bool
				if o.data != nil {
					r := l.AppendAsLeader(*o.data, 0, int64(i), checks)
					gotErr, gotOff, gotDup = r.Err, r.BaseOffset, r.Duplicate
				} else {
					m := o.marker
					ct := protocol.ControlAbort
					if m.commit {
						ct = protocol.ControlCommit
					}
					r := l.AppendMarker(m.pid, m.epoch, ct, m.coordinatorEpoch, 0, int64(i), checks)
					gotErr, gotOff = r.Err, r.Offset
				}
				if gotErr != o.wantErr || (o.wantOff != skip && gotOff != o.wantOff) || gotDup != o.wantDup {
					t.Fatalf("op %d: got (%v, offset %d, dup %v), want (%v, offset %d, dup %v)",
						i, gotErr, gotOff, gotDup, o.wantErr, o.wantOff, o.wantDup)
				}
				appended := l.LogEndOffset() != before
				if appended != (gotErr == protocol.NONE && !gotDup) {
					t.Fatalf("op %d: appended=%v with result %v dup=%v", i, appended, gotErr, gotDup)
				}
			}
			if l.LogEndOffset() != tc.wantLEO {
				t.Fatalf("log end offset %d, want %d", l.LogEndOffset(), tc.wantLEO)
			}
		})
	}
}

func TestEpochChangeClearsRememberedBatches(t *testing.T) {
	l := partition.NewLog(tp0)
	l.AppendAsLeader(batch(1, 0, 0, 2, true), 0, 0, partition.AllChecks)
	l.AppendMarker(1, 1, protocol.ControlAbort, 0, 0, 0, partition.AllChecks) // a fence at epoch 1
	e := l.Producers[1]
	if e.ProducerEpoch != 1 || len(e.Batches) != 0 || e.CurrentTxnFirstOffset != -1 {
		t.Fatalf("after the fencing marker: %+v", *e)
	}
	// the epoch the marker raised continues at sequence 0
	if r := l.AppendAsLeader(batch(1, 1, 1, 1, false), 0, 0, partition.AllChecks); r.Err != ooo {
		t.Fatalf("seq 1 at the marker's epoch: %v", r.Err)
	}
	if r := l.AppendAsLeader(batch(1, 1, 0, 1, false), 0, 0, partition.AllChecks); r.Err != none {
		t.Fatalf("seq 0 at the marker's epoch: %v", r.Err)
	}
}

func TestLSOAndAbortedIndexByHand(t *testing.T) {
	l := partition.NewLog(tp0)
	all := partition.AllChecks
	l.AppendAsLeader(batch(1, 0, 0, 2, true), 0, 0, all) // A: 0-1
	l.AppendAsLeader(plain(1), 0, 0, all)                // 2
	l.AppendAsLeader(batch(2, 0, 0, 1, true), 0, 0, all) // B: 3
	l.SetHighWatermark(4)
	if l.LSO() != 0 {
		t.Fatalf("LSO with A open = %d, want 0 (A's first offset)", l.LSO())
	}
	res := l.AppendMarker(1, 0, protocol.ControlAbort, 0, 0, 0, all) // 4
	if res.Completed == nil || *res.Completed != (partition.TxnRange{ProducerId: 1, FirstOffset: 0, LastOffset: 4, Aborted: true}) {
		t.Fatalf("completed %+v", res.Completed)
	}
	if l.LSO() != 0 {
		t.Fatalf("LSO = %d: A's marker is not below the HW yet, so A is still unstable", l.LSO())
	}
	l.SetHighWatermark(5)
	if l.LSO() != 3 {
		t.Fatalf("LSO = %d, want 3 (B's first offset)", l.LSO())
	}
	want := partition.AbortedTxn{ProducerId: 1, FirstOffset: 0, LastOffset: 4, LastStableOffset: 3}
	if len(l.AbortedIndex) != 1 || l.AbortedIndex[0] != want {
		t.Fatalf("aborted index %+v, want %+v", l.AbortedIndex, want)
	}
	l.AppendMarker(2, 0, protocol.ControlCommit, 0, 0, 0, all) // 5
	l.SetHighWatermark(6)
	if l.LSO() != 6 || len(l.AbortedIndex) != 1 {
		t.Fatalf("LSO %d aborted %+v", l.LSO(), l.AbortedIndex)
	}
	if got := l.AbortedTransactions(0, 6); len(got) != 1 || got[0] != (protocol.AbortedTransaction{ProducerId: 1, FirstOffset: 0}) {
		t.Fatalf("aborted list %+v", got)
	}
	if got := l.AbortedTransactions(5, 6); len(got) != 0 {
		t.Fatalf("aborted list past A's marker %+v", got)
	}
	// HW never moves backwards and never passes the log end.
	l.SetHighWatermark(2)
	l.SetHighWatermark(100)
	if l.HighWatermark != 6 {
		t.Fatalf("HW %d", l.HighWatermark)
	}
	// Read returns whole batches: offset 1 is inside A's first batch.
	got := l.Read(1, 4)
	if len(got) != 3 || got[0].BaseOffset != 0 || got[2].BaseOffset != 3 {
		t.Fatalf("Read(1,4) %+v", got)
	}
	if got := l.Read(0, 1); len(got) != 0 {
		t.Fatalf("Read(0,1) returned a batch that crosses the limit: %+v", got)
	}
}

// TestReadAnswerNeverChanges: a fetch answer shares the log's batches
// instead of copying them, and the trace keeps every answer. Appending
// after the read, truncating below it and appending again must leave
// what the answer holds as it was, or the inspector would show a past
// fetch returning records it never returned.
func TestReadAnswerNeverChanges(t *testing.T) {
	all := partition.Checks{EpochFencing: true, CoordinatorEpoch: true, SequenceCheck: true}
	l := partition.NewLog(tp0)
	// Five appends leave spare capacity in the log's array, which is
	// what a truncation followed by appends could write over.
	for i := 0; i < 5; i++ {
		b := plain(1)
		b.Records[0].Value = "first"
		l.AppendAsLeader(b, 0, 0, all)
	}
	answer := l.Read(1, 4)
	if len(answer) != 3 {
		t.Fatalf("read %d batches, want 3", len(answer))
	}
	if got := l.Read(9, 12); got != nil {
		t.Fatalf("a read past the end answered %v, want nil", got)
	}
	before := append([]protocol.RecordBatch(nil), answer...)
	grown := append(answer, plain(1)) // a reader appending to its answer
	_ = grown
	l.TruncateTo(2)
	for i := 0; i < 5; i++ {
		b := plain(1)
		b.Records[0].Value = "second"
		l.AppendAsLeader(b, 1, 0, all)
	}
	for i := range answer {
		if answer[i].BaseOffset != before[i].BaseOffset || answer[i].Records[0].Value != "first" {
			t.Fatalf("the answer changed after the log moved on: %+v", answer[i])
		}
	}
	if l.Batches[3].Records[0].Value != "second" || l.LogEndOffset() != 7 {
		t.Fatalf("the log is not what was appended: end %d", l.LogEndOffset())
	}
}
