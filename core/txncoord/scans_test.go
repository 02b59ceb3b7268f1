package txncoord

import (
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The periodic scans (§3.7, §3.8) and loading on election (§4.4).

func TestTimeoutAbortsOnlyExpiredOngoing(t *testing.T) {
	h := newHarness(t)
	h.c.Start(h.w)
	ongoing := h.put(meta(Ongoing, 5, ordersP0)) // started at 500, timeout 60 s
	md2 := meta(Ongoing, 2, ordersP1)
	md2.TransactionalId, md2.ProducerId, md2.TxnStartTimestamp = "fresh", 2000, 50000
	fresh := h.put(md2)
	md3 := meta(CompleteCommit, 1)
	md3.TransactionalId, md3.TxnStartTimestamp = "done", 0
	done := h.put(md3)

	// The scan runs every 10 s; at 60 500 the comparison is strict, so
	// "ongoing" times out at the first scan after 60 500: 70 000.
	h.w.AdvanceTo(60*sim.Second, 100000)
	if ongoing.State != Ongoing {
		t.Fatalf("aborted before its timeout: %v", ongoing.State)
	}
	h.w.AdvanceTo(70*sim.Second+100, 100000)
	h.settle()
	if ongoing.State != CompleteAbort || ongoing.ProducerEpoch != 6 || ongoing.LastProducerEpoch != -1 {
		t.Fatalf("timed out: %+v, want CompleteAbort at epoch 6", ongoing.View())
	}
	if len(h.leader.markers) != 1 || h.leader.markers[0].ProducerEpoch != 6 || h.leader.markers[0].TransactionResult {
		t.Fatalf("markers %+v", h.leader.markers)
	}
	if fresh.State != Ongoing || done.State != CompleteCommit {
		t.Fatalf("scan touched others: fresh %v, done %v", fresh.State, done.State)
	}
	// the timed-out producer is fenced (TV1)
	if got := errOf(h.do(endTxn(5, true))); got != PF {
		t.Errorf("EndTxn of the timed-out producer: %v", got)
	}
	if got := errOf(h.do(addParts(5, ordersP0))); got != PF {
		t.Errorf("AddPartitions of the timed-out producer: %v", got)
	}
	// KIP-588 resume is not in TV1: lastProducerEpoch was reset by the fence
	if r := h.do(initPid(testPid, 5)).(*protocol.InitProducerIdResponse); r.ErrorCode != PF {
		t.Errorf("InitProducerId(pid, 5) after the timeout: %+v", r)
	}
	// "fresh" (started at 50 000) times out at the scan after 110 000
	h.w.AdvanceTo(120*sim.Second+100, 100000)
	h.settle()
	if fresh.State != CompleteAbort {
		t.Errorf("fresh: %v", fresh.State)
	}
}

func TestExpiration(t *testing.T) {
	h := newHarness(t)
	h.c.Start(h.w)
	old := h.put(meta(CompleteCommit, 5)) // last update at 500
	md := meta(Ongoing, 1, ordersP0)
	md.TransactionalId, md.TxnStartTimestamp, md.TxnTimeoutMs = "open", 500, 1<<30
	h.put(md)
	md2 := meta(Empty, 1)
	md2.TransactionalId = "recent"
	recent := h.put(md2)
	h.w.AdvanceTo(3*sim.Day, 10000000)
	recent.TxnLastUpdateTimestamp = int64(h.w.Now()) // touched recently
	h.w.AdvanceTo(7*sim.Day+2*sim.Hour, 10000000)
	h.settle()
	if h.get("t") != nil {
		t.Fatalf("expired id kept: %+v", old.View())
	}
	if h.get("open") == nil || h.get("recent") == nil {
		t.Fatal("an Ongoing or recently used id expired")
	}
	tomb := 0
	for _, v := range h.host.writes {
		if v == nil {
			tomb++
		}
	}
	if tomb != 1 {
		t.Fatalf("%d tombstones, want 1", tomb)
	}
	// a later InitProducerId gets a new producer id at epoch 0
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != NONE || r.ProducerId == testPid || r.ProducerEpoch != 0 {
		t.Fatalf("after expiration: %+v", r)
	}
}

// TestLoadResendsMarkersAndForgetsLastEpoch: a new coordinator loads the
// partition from its log, last value per key, tombstones removing keys;
// lastProducerEpoch is not persisted; Prepare* transactions get their
// markers again with the new coordinator epoch.
func TestLoadResendsMarkersAndForgetsLastEpoch(t *testing.T) {
	h := newHarness(t)
	// The previous coordinator's records.
	write := func(id string, v *protocol.TransactionLogValue) {
		rec := protocol.Record{Key: id, TxnLog: v, Tombstone: v == nil}
		h.host.log.AppendAsLeader(protocol.RecordBatch{ProducerId: -1, ProducerEpoch: -1, BaseSequence: -1, Records: []protocol.Record{rec}}, 0, 0, partition.AllChecks)
	}
	write("t", &protocol.TransactionLogValue{ProducerId: testPid, ProducerEpoch: 4, TransactionTimeoutMs: 60000, TransactionStatus: Empty})
	write("t", &protocol.TransactionLogValue{ProducerId: testPid, ProducerEpoch: 4, TransactionTimeoutMs: 60000, TransactionStatus: Ongoing,
		TransactionPartitions: []protocol.TopicPartition{ordersP0}, TransactionStartTimestampMs: 700})
	write("t", &protocol.TransactionLogValue{ProducerId: testPid, ProducerEpoch: 4, TransactionTimeoutMs: 60000, TransactionStatus: PrepareCommit,
		TransactionPartitions: []protocol.TopicPartition{ordersP0}, TransactionStartTimestampMs: 700})
	write("gone", &protocol.TransactionLogValue{ProducerId: 3, ProducerEpoch: 0, TransactionTimeoutMs: 60000, TransactionStatus: Empty})
	write("gone", nil)
	delete(h.c.cache, txnPart)

	h.c.OnElection(h.w, txnPart, coordEpoch)
	if got := errOf(h.do(endTxn(4, true))); got != protocol.COORDINATOR_LOAD_IN_PROGRESS {
		t.Fatalf("during the load: %v", got)
	}
	h.settle()
	md := h.get("t")
	if md == nil || md.State != CompleteCommit || md.ProducerEpoch != 4 || md.LastProducerEpoch != -1 || md.TxnStartTimestamp != 700 {
		t.Fatalf("loaded: %+v", md)
	}
	if h.get("gone") != nil {
		t.Fatal("a tombstoned id was loaded")
	}
	if len(h.leader.markers) != 1 || h.leader.markers[0].CoordinatorEpoch != coordEpoch || !h.leader.markers[0].TransactionResult || h.leader.markers[0].ProducerEpoch != 4 {
		t.Fatalf("resent markers %+v", h.leader.markers)
	}
	// Resignation forgets everything.
	h.c.OnResignation(h.w, txnPart)
	if got := errOf(h.do(endTxn(4, true))); got != protocol.NOT_COORDINATOR {
		t.Fatalf("after resigning: %v", got)
	}
}

// TestTimeoutScanBumpsAgainAfterAFailedFenceIsCleared: the timeout scan's
// own fence fails (hasFailedEpochFence set), its retry at the next scan
// writes the abort at the epoch already bumped, and that success clears
// the flag (Kafka: TM prepareComplete). So when the next producer's
// transaction times out, the scan fences it with epoch+1 again; a flag
// left set would write PrepareAbort at the producer's own epoch and leave
// that producer unfenced (§11 D1 of docs/kafka-fidelity.md).
func TestTimeoutScanBumpsAgainAfterAFailedFenceIsCleared(t *testing.T) {
	h := newHarness(t)
	h.c.Start(h.w)
	md := h.put(meta(Ongoing, 5, ordersP0)) // started at 500, timeout 60 s

	// The scan at 70 s fences (epoch 6 in memory), but the abort's
	// append fails: the flag is set, the transaction stays Ongoing.
	h.host.appendErr = protocol.NOT_ENOUGH_REPLICAS
	h.w.AdvanceTo(70*sim.Second+100, 100000)
	if md.State != Ongoing || md.ProducerEpoch != 6 || !md.HasFailedEpochFence {
		t.Fatalf("after the failed fence: %v epoch %d flag %v, want Ongoing at epoch 6 with the flag set",
			md.State, md.ProducerEpoch, md.HasFailedEpochFence)
	}
	// The scan at 80 s retries without a second bump, and succeeds.
	h.host.appendErr = NONE
	n := len(h.host.writes)
	h.w.AdvanceTo(80*sim.Second+100, 100000)
	h.settle()
	if w := h.writtenSince(n); !eq(w, []string{"PrepareAbort/e6", "CompleteAbort/e6"}) {
		t.Fatalf("the retried fence wrote %v, want PrepareAbort/e6 then CompleteAbort/e6", w)
	}

	// A new producer instance: epoch 7; its transaction stalls.
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != NONE || r.ProducerEpoch != 7 {
		t.Fatalf("new producer %+v", r)
	}
	if got := errOf(h.do(addParts(7, ordersP0))); got != NONE {
		t.Fatal(got)
	}
	started := md.TxnStartTimestamp
	n = len(h.host.writes)
	// The first scan after start + 60 s fences it: epoch 8.
	h.w.AdvanceTo(sim.Time(started)+70*sim.Second, 100000)
	h.settle()
	if w := h.writtenSince(n); !eq(w, []string{"PrepareAbort/e8", "CompleteAbort/e8"}) {
		t.Fatalf("the scan wrote %v, want PrepareAbort/e8 then CompleteAbort/e8: the producer at epoch 7 is not fenced", w)
	}
	if got := errOf(h.do(endTxn(7, true))); got != PF {
		t.Errorf("EndTxn of the timed-out producer at epoch 7: %v, want PRODUCER_FENCED", got)
	}
}
