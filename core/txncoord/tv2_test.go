package txncoord

import (
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// Transaction version 2 (KIP-890 part 2) and the verify-only
// AddPartitionsToTxn of part 1, against Kafka 4.0's
// TransactionCoordinator.endTransaction (the TV2 path) and
// handleVerifyPartitionsInTransaction (docs/kafka-fidelity.md, "Kafka 4:
// verification and transaction version 2").

func endTxnV5(epoch int16, commit bool) *protocol.EndTxnRequest {
	r := endTxn(epoch, commit)
	r.Version = protocol.EndTxnTV2Version
	return r
}

// The TV2 EndTxn state table: a request carrying the stored epoch is the
// current transaction's end; one carrying stored-1 is a retry of the end
// that bumped it. The stored epoch is 5 throughout.
func TestEndTxnV2Matrix(t *testing.T) {
	const (
		current = 5
		retry   = 4
	)
	tests := []struct {
		state  protocol.TransactionState
		commit bool
		epoch  int16
		want   protocol.ErrorCode
		writes []string // before the answer
		// respEpoch is the epoch the response hands back (-1 on error)
		respEpoch int16
		final     protocol.TransactionState
		markers   int
	}{
		{Ongoing, true, current, NONE, []string{"PrepareCommit/e6"}, 6, CompleteCommit, 1},
		{Ongoing, false, current, NONE, []string{"PrepareAbort/e6"}, 6, CompleteAbort, 1},
		{Ongoing, true, retry, PF, nil, -1, Ongoing, 0},
		{PrepareCommit, true, retry, CT, nil, -1, PrepareCommit, 0},
		{PrepareCommit, false, retry, ITS, nil, -1, PrepareCommit, 0},
		{PrepareCommit, true, current, PF, nil, -1, PrepareCommit, 0}, // the same epoch is the next transaction's
		{PrepareAbort, false, retry, CT, nil, -1, PrepareAbort, 0},
		{PrepareAbort, true, retry, ITS, nil, -1, PrepareAbort, 0},
		{CompleteCommit, true, retry, NONE, nil, 5, CompleteCommit, 0}, // a retry: the stored pid and epoch
		{CompleteCommit, true, current, ITS, nil, -1, CompleteCommit, 0},
		{CompleteCommit, false, retry, ITS, nil, -1, CompleteCommit, 0},
		// an empty abort: no partitions, so no markers, and it completes at once
		{CompleteCommit, false, current, NONE, []string{"PrepareAbort/e6", "CompleteAbort/e6"}, 6, CompleteAbort, 0},
		{CompleteAbort, false, retry, NONE, nil, 5, CompleteAbort, 0},
		{CompleteAbort, false, current, NONE, []string{"PrepareAbort/e6", "CompleteAbort/e6"}, 6, CompleteAbort, 0},
		{CompleteAbort, true, retry, ITS, nil, -1, CompleteAbort, 0},
		{CompleteAbort, true, current, ITS, nil, -1, CompleteAbort, 0},
		{Empty, false, current, NONE, []string{"PrepareAbort/e6", "CompleteAbort/e6"}, 6, CompleteAbort, 0},
		{Empty, true, current, ITS, nil, -1, Empty, 0},
		{Empty, false, retry, PF, nil, -1, Empty, 0},
		{Empty, false, 6, PF, nil, -1, Empty, 0},
	}
	for _, tc := range tests {
		name := tc.state.String() + "+" + map[bool]string{true: "commit", false: "abort"}[tc.commit] + "@" + map[bool]string{true: "current", false: "retry"}[tc.epoch == current]
		if tc.epoch > current {
			name += "+1"
		}
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			md := h.put(meta(tc.state, 5, partsFor(tc.state)...))
			resp := h.do(endTxnV5(tc.epoch, tc.commit)).(*protocol.EndTxnResponse)
			if resp.ErrorCode != tc.want || resp.ProducerEpoch != tc.respEpoch || resp.Version != protocol.EndTxnTV2Version {
				t.Fatalf("EndTxn v5: %v epoch %d (v%d), want %v epoch %d", resp.ErrorCode, resp.ProducerEpoch, resp.Version, tc.want, tc.respEpoch)
			}
			if tc.respEpoch >= 0 && resp.ProducerId != testPid {
				t.Fatalf("response pid %d", resp.ProducerId)
			}
			if w := h.writtenSince(0); !eq(w, tc.writes) {
				t.Fatalf("written before the answer: %v, want %v", w, tc.writes)
			}
			h.settle()
			wantEpoch := int16(5)
			if len(tc.writes) > 0 {
				wantEpoch = 6
			}
			if md.State != tc.final || md.ProducerEpoch != wantEpoch || md.HasPendingState {
				t.Fatalf("after settling: %v epoch %d pending %v, want %v epoch %d", md.State, md.ProducerEpoch, md.HasPendingState, tc.final, wantEpoch)
			}
			for _, e := range h.w.Trace.All() {
				if e.Kind == sim.KindState && e.Illegal {
					t.Fatalf("an illegal transition: %s", e.Line(h.w.Names()))
				}
			}
			if len(h.leader.markers) != tc.markers {
				t.Fatalf("markers %+v, want %d", h.leader.markers, tc.markers)
			}
			if tc.markers > 0 && h.leader.markers[0].ProducerEpoch != 6 {
				t.Fatalf("the markers carry epoch %d, want the bumped 6", h.leader.markers[0].ProducerEpoch)
			}
		})
	}
}

// A late EndTxn of the previous transaction cannot end the next one:
// the KIP-890 motivation, at the coordinator.
func TestEndTxnV2LateRequestOfThePreviousTransaction(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 5, ordersP0))
	if r := h.do(endTxnV5(5, true)).(*protocol.EndTxnResponse); r.ErrorCode != NONE || r.ProducerEpoch != 6 {
		t.Fatalf("commit: %+v", r)
	}
	h.settle()
	if errOf(h.do(&protocol.AddPartitionsToTxnRequest{Version: protocol.AddPartitionsToTxnAbortableVersion, TransactionalId: "t",
		ProducerId: testPid, ProducerEpoch: 6, Partitions: []protocol.TopicPartition{ordersP1}})) != NONE {
		t.Fatal("the next transaction's implicit add failed")
	}
	if r := h.do(endTxnV5(5, true)); errOf(r) != PF {
		t.Fatalf("the late EndTxn of epoch 5: %v, want PRODUCER_FENCED", errOf(r))
	}
	if md.State != Ongoing || md.ProducerEpoch != 6 {
		t.Fatalf("the next transaction was touched: %v epoch %d", md.State, md.ProducerEpoch)
	}
}

// The same late EndTxn under the classic protocol (v3) commits the next
// transaction: what the Jepsen pack shows end to end.
func TestEndTxnV3LateRequestEndsTheNextTransaction(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 5, ordersP0))
	if errOf(h.do(endTxn(5, true))) != NONE {
		t.Fatal("commit")
	}
	h.settle()
	if errOf(h.do(addParts(5, ordersP1))) != NONE {
		t.Fatal("add")
	}
	if errOf(h.do(endTxn(5, true))) != NONE || md.State != PrepareCommit && md.State != CompleteCommit {
		t.Fatalf("the late classic EndTxn did not commit the next transaction: %v", md.State)
	}
}

// Epoch exhaustion under TV2: the end at 32766 bumps to 32767 for the
// markers, and the transaction completes on a new producer id at epoch
// 0, which the response hands the client; its retry is recognised as
// retryOnOverflow.
func TestEndTxnV2EpochExhaustion(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, MaxProducerEpoch-1, ordersP0))
	r := h.do(endTxnV5(MaxProducerEpoch-1, true)).(*protocol.EndTxnResponse)
	if r.ErrorCode != NONE || r.ProducerId != 5000 || r.ProducerEpoch != 0 {
		t.Fatalf("exhausted commit: %+v, want pid 5000 epoch 0", r)
	}
	h.settle()
	if len(h.leader.markers) != 1 || h.leader.markers[0].ProducerEpoch != MaxProducerEpoch || h.leader.markers[0].ProducerId != testPid {
		t.Fatalf("markers %+v, want the old pid at 32767", h.leader.markers)
	}
	if md.ProducerId != 5000 || md.ProducerEpoch != 0 || md.PrevProducerId != testPid || md.State != CompleteCommit {
		t.Fatalf("after completion: %+v", md.View())
	}
	retry := endTxnV5(MaxProducerEpoch-1, true)
	if r := h.do(retry).(*protocol.EndTxnResponse); r.ErrorCode != NONE || r.ProducerId != 5000 || r.ProducerEpoch != 0 {
		t.Fatalf("retry on overflow: %+v", r)
	}
}

// With the epoch bump broken the decision keeps the epoch, and a late
// EndTxn is indistinguishable from the next transaction's again.
func TestEndTxnV2BrokenEpochBump(t *testing.T) {
	h := newHarness(t)
	h.w.SetBroken(safety.EpochBump, true)
	md := h.put(meta(Ongoing, 5, ordersP0))
	if r := h.do(endTxnV5(5, true)).(*protocol.EndTxnResponse); r.ErrorCode != NONE || r.ProducerEpoch != 5 {
		t.Fatalf("commit: %+v", r)
	}
	h.settle()
	if md.ProducerEpoch != 5 || h.leader.markers[0].ProducerEpoch != 5 {
		t.Fatalf("the epoch moved: %d, marker %d", md.ProducerEpoch, h.leader.markers[0].ProducerEpoch)
	}
}

func verify(version int16, epoch int16, tps ...protocol.TopicPartition) *protocol.AddPartitionsToTxnRequest {
	return &protocol.AddPartitionsToTxnRequest{Version: version, TransactionalId: "t", ProducerId: testPid,
		ProducerEpoch: epoch, VerifyOnly: true, Partitions: tps}
}

// handleVerifyPartitionsInTransaction: nothing is ever written; a
// partition outside the transaction is INVALID_TXN_STATE for v4 (3.6.0)
// and TRANSACTION_ABORTABLE from v5.
func TestVerifyPartitions(t *testing.T) {
	tests := []struct {
		name    string
		state   protocol.TransactionState
		req     *protocol.AddPartitionsToTxnRequest
		pending bool
		want    []protocol.ErrorCode
	}{
		{"in the transaction", Ongoing, verify(4, 5, ordersP0), false, []protocol.ErrorCode{NONE}},
		{"one in, one out (v4)", Ongoing, verify(4, 5, ordersP0, ordersP1), false, []protocol.ErrorCode{NONE, ITS}},
		{"one in, one out (v5)", Ongoing, verify(5, 5, ordersP0, ordersP1), false, []protocol.ErrorCode{NONE, protocol.TRANSACTION_ABORTABLE}},
		{"after the commit", CompleteCommit, verify(5, 5, ordersP0), false, []protocol.ErrorCode{protocol.TRANSACTION_ABORTABLE}},
		{"an older epoch", Ongoing, verify(4, 4, ordersP0), false, []protocol.ErrorCode{PF}},
		{"a newer epoch", Ongoing, verify(4, 6, ordersP0), false, []protocol.ErrorCode{PF}},
		{"while deciding", PrepareCommit, verify(4, 5, ordersP0), false, []protocol.ErrorCode{CT}},
		{"a pending transition is not checked", Ongoing, verify(4, 5, ordersP0), true, []protocol.ErrorCode{NONE}},
		{"another producer id", Ongoing, &protocol.AddPartitionsToTxnRequest{Version: 4, TransactionalId: "t", ProducerId: testPid + 1, ProducerEpoch: 5, VerifyOnly: true, Partitions: []protocol.TopicPartition{ordersP0}}, false, []protocol.ErrorCode{IPIM}},
		{"an unknown id", Ongoing, &protocol.AddPartitionsToTxnRequest{Version: 4, TransactionalId: "other", ProducerId: testPid, ProducerEpoch: 5, VerifyOnly: true, Partitions: []protocol.TopicPartition{ordersP0}}, false, []protocol.ErrorCode{IPIM}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			md := h.put(meta(tc.state, 5, partsFor(tc.state)...))
			md.HasPendingState = tc.pending
			r := h.do(tc.req).(*protocol.AddPartitionsToTxnResponse)
			var got []protocol.ErrorCode
			for _, p := range r.Results {
				got = append(got, p.ErrorCode)
			}
			if !eq(got, tc.want) {
				t.Fatalf("results %v, want %v", got, tc.want)
			}
			if len(h.host.writes) != 0 {
				t.Fatalf("a verification wrote %v", h.writtenSince(0))
			}
		})
	}
}

// A transaction version 2 leader's AddPartitionsToTxn (v5, not
// VerifyOnly) adds the partition as the client's request would, and
// starts the transaction from a completed state.
func TestImplicitAddFromTheLeader(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(CompleteCommit, 6))
	req := &protocol.AddPartitionsToTxnRequest{Version: 5, TransactionalId: "t", ProducerId: testPid, ProducerEpoch: 6, Partitions: []protocol.TopicPartition{ordersP0}}
	if errOf(h.do(req)) != NONE || md.State != Ongoing || !eq(md.Partitions, []protocol.TopicPartition{ordersP0}) {
		t.Fatalf("implicit add: %v %v", md.State, md.Partitions)
	}
	req.ProducerEpoch = 5
	if errOf(h.do(req)) != PF {
		t.Fatal("an add with the previous transaction's epoch was not fenced")
	}
}
