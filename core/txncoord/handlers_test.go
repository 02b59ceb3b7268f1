package txncoord

import (
	"reflect"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The handler × state × error matrices of kafka-semantics.md §3.3–3.5
// (TV1, Kafka 3.5), driven through the coordinator's public entry point
// (a request on the simulated network) against metadata set up in each
// state. "writes" lists what reaches __transaction_state before the
// answer; the no-op answers must write nothing.

const (
	NONE = protocol.NONE
	CT   = protocol.CONCURRENT_TRANSACTIONS
	ITS  = protocol.INVALID_TXN_STATE
	PF   = protocol.PRODUCER_FENCED
	IPIM = protocol.INVALID_PRODUCER_ID_MAPPING
)

var (
	Empty          = protocol.Empty
	Ongoing        = protocol.Ongoing
	PrepareCommit  = protocol.PrepareCommit
	PrepareAbort   = protocol.PrepareAbort
	CompleteCommit = protocol.CompleteCommit
	CompleteAbort  = protocol.CompleteAbort
)

func partsFor(s protocol.TransactionState) []protocol.TopicPartition {
	switch s {
	case Ongoing, PrepareCommit, PrepareAbort:
		return []protocol.TopicPartition{ordersP0}
	}
	return nil
}

func TestEndTxnMatrix(t *testing.T) {
	tests := []struct {
		state  protocol.TransactionState
		commit bool
		want   protocol.ErrorCode
		writes []string // before the answer
		final  protocol.TransactionState
	}{
		{Ongoing, true, NONE, []string{"PrepareCommit/e5"}, CompleteCommit},
		{Ongoing, false, NONE, []string{"PrepareAbort/e5"}, CompleteAbort},
		{PrepareCommit, true, CT, nil, PrepareCommit},
		{PrepareCommit, false, ITS, nil, PrepareCommit},
		{PrepareAbort, true, ITS, nil, PrepareAbort},
		{PrepareAbort, false, CT, nil, PrepareAbort},
		{CompleteCommit, true, NONE, nil, CompleteCommit}, // an idempotent retry
		{CompleteCommit, false, ITS, nil, CompleteCommit},
		{CompleteAbort, true, ITS, nil, CompleteAbort},
		{CompleteAbort, false, NONE, nil, CompleteAbort},
		{Empty, true, ITS, nil, Empty},
		{Empty, false, ITS, nil, Empty},
	}
	for _, tc := range tests {
		name := tc.state.String() + "+" + map[bool]string{true: "commit", false: "abort"}[tc.commit]
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			md := h.put(meta(tc.state, 5, partsFor(tc.state)...))
			got := errOf(h.do(endTxn(5, tc.commit)))
			if got != tc.want {
				t.Fatalf("EndTxn: %v, want %v", got, tc.want)
			}
			if w := h.writtenSince(0); !eq(w, tc.writes) {
				t.Fatalf("written before the answer: %v, want %v", w, tc.writes)
			}
			h.settle()
			if md.State != tc.final || md.ProducerEpoch != 5 || md.HasPendingState {
				t.Fatalf("after settling: %v epoch %d pending %v, want %v epoch 5", md.State, md.ProducerEpoch, md.HasPendingState, tc.final)
			}
			if tc.state == Ongoing {
				// one marker to the leader, of the decided type, with the
				// producer's epoch and this coordinator's epoch; then Complete*
				if len(h.leader.markers) != 1 {
					t.Fatalf("markers %+v", h.leader.markers)
				}
				m := h.leader.markers[0]
				if m.ProducerId != testPid || m.ProducerEpoch != 5 || m.CoordinatorEpoch != coordEpoch ||
					m.TransactionResult != tc.commit || !eq(m.Partitions, []protocol.TopicPartition{ordersP0}) {
					t.Fatalf("marker %+v", m)
				}
				if w := h.writtenSince(1); !eq(w, []string{tc.final.String() + "/e5"}) {
					t.Fatalf("after the markers: %v", w)
				}
				if len(md.Partitions) != 0 {
					t.Errorf("partitions left after completion: %v", md.Partitions)
				}
			} else if len(h.leader.markers) != 0 {
				t.Fatalf("markers sent for a no-op: %+v", h.leader.markers)
			}
		})
	}
}

func TestEndTxnErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(h *harness)
		req   *protocol.EndTxnRequest
		want  protocol.ErrorCode
	}{
		{"epoch-1 is fenced", nil, endTxn(4, true), PF},
		{"epoch+1 is fenced", nil, endTxn(6, true), PF},
		{"unknown transactional id", nil, &protocol.EndTxnRequest{TransactionalId: "other", ProducerId: testPid, ProducerEpoch: 5, Committed: true}, IPIM},
		{"producer id mismatch", nil, &protocol.EndTxnRequest{TransactionalId: "t", ProducerId: testPid + 1, ProducerEpoch: 5, Committed: true}, IPIM},
		{"pid mismatch is checked before the epoch", nil, &protocol.EndTxnRequest{TransactionalId: "t", ProducerId: testPid + 1, ProducerEpoch: 9, Committed: true}, IPIM},
		{"empty transactional id", nil, &protocol.EndTxnRequest{ProducerId: testPid, ProducerEpoch: 5, Committed: true}, protocol.INVALID_REQUEST},
		{"a transition in flight", func(h *harness) {
			md := h.get("t")
			md.PendingState, md.HasPendingState = PrepareCommit, true
		}, endTxn(5, true), CT},
		{"not the coordinator", func(h *harness) { delete(h.c.cache, txnPart) }, endTxn(5, true), protocol.NOT_COORDINATOR},
		{"loading", func(h *harness) { h.c.loading[txnPart] = coordEpoch + 1 }, endTxn(5, true), protocol.COORDINATOR_LOAD_IN_PROGRESS},
		{"append fails with NOT_ENOUGH_REPLICAS", func(h *harness) { h.host.appendErr = protocol.NOT_ENOUGH_REPLICAS }, endTxn(5, true), protocol.COORDINATOR_NOT_AVAILABLE},
		{"append fails with NOT_LEADER_OR_FOLLOWER", func(h *harness) { h.host.appendErr = protocol.NOT_LEADER_OR_FOLLOWER }, endTxn(5, true), protocol.NOT_COORDINATOR},
		{"append times out", func(h *harness) { h.host.appendErr = protocol.REQUEST_TIMED_OUT }, endTxn(5, false), protocol.COORDINATOR_NOT_AVAILABLE},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			md := h.put(meta(Ongoing, 5, ordersP0))
			if tc.setup != nil {
				tc.setup(h)
			}
			pending := md.HasPendingState
			if got := errOf(h.do(tc.req)); got != tc.want {
				t.Fatalf("EndTxn: %v, want %v", got, tc.want)
			}
			if len(h.host.writes) != 0 {
				t.Errorf("wrote %v", h.writtenSince(0))
			}
			if md.State != Ongoing || md.ProducerEpoch != 5 || md.HasPendingState != pending {
				t.Errorf("metadata changed: %v epoch %d pending %v", md.State, md.ProducerEpoch, md.HasPendingState)
			}
		})
	}
}

func TestAddPartitionsMatrix(t *testing.T) {
	tests := []struct {
		name       string
		md         *TransactionMetadata // nil: unknown id
		pending    bool
		req        *protocol.AddPartitionsToTxnRequest
		want       protocol.ErrorCode
		writes     []string
		finalParts []protocol.TopicPartition
		startTs    int64 // expected TxnStartTimestamp after (the request arrives at 1001); 0: unchecked
	}{
		{name: "unknown transactional id", req: addParts(5, ordersP0), want: IPIM},
		{name: "producer id mismatch", md: meta(Empty, 5),
			req: &protocol.AddPartitionsToTxnRequest{TransactionalId: "t", ProducerId: 1, ProducerEpoch: 5, Partitions: []protocol.TopicPartition{ordersP0}}, want: IPIM},
		{name: "epoch-1", md: meta(Ongoing, 5, ordersP0), req: addParts(4, ordersP1), want: PF},
		{name: "epoch+1", md: meta(Empty, 5), req: addParts(6, ordersP1), want: PF},
		{name: "the epoch is checked before the state (3.5 order)", md: meta(PrepareCommit, 5, ordersP0), req: addParts(4, ordersP0), want: PF},
		{name: "the epoch is checked before a pending transition (3.5 order)", md: meta(Ongoing, 5, ordersP0), pending: true, req: addParts(4, ordersP1), want: PF},
		{name: "pending transition", md: meta(Ongoing, 5, ordersP0), pending: true, req: addParts(5, ordersP1), want: CT},
		{name: "PrepareCommit", md: meta(PrepareCommit, 5, ordersP0), req: addParts(5, ordersP1), want: CT},
		{name: "PrepareAbort", md: meta(PrepareAbort, 5, ordersP0), req: addParts(5, ordersP0), want: CT},
		{name: "Ongoing with a subset: NONE, no write", md: meta(Ongoing, 5, ordersP0, ordersP1),
			req: addParts(5, ordersP1), want: NONE, finalParts: []protocol.TopicPartition{ordersP0, ordersP1}},
		{name: "Ongoing with a new partition: union", md: meta(Ongoing, 5, ordersP0),
			req: addParts(5, ordersP1), want: NONE, writes: []string{"Ongoing/e5"}, finalParts: []protocol.TopicPartition{ordersP0, ordersP1}, startTs: 500},
		{name: "Empty starts a transaction", md: meta(Empty, 5), req: addParts(5, ordersP1, ordersP0), want: NONE,
			writes: []string{"Ongoing/e5"}, finalParts: []protocol.TopicPartition{ordersP0, ordersP1}, startTs: 1001},
		{name: "CompleteCommit starts a transaction", md: meta(CompleteCommit, 5), req: addParts(5, ordersP0), want: NONE,
			writes: []string{"Ongoing/e5"}, finalParts: []protocol.TopicPartition{ordersP0}, startTs: 1001},
		{name: "CompleteAbort starts a transaction", md: meta(CompleteAbort, 5), req: addParts(5, ordersP0), want: NONE,
			writes: []string{"Ongoing/e5"}, finalParts: []protocol.TopicPartition{ordersP0}, startTs: 1001},
		{name: "empty transactional id", md: meta(Empty, 5),
			req: &protocol.AddPartitionsToTxnRequest{ProducerId: testPid, ProducerEpoch: 5, Partitions: []protocol.TopicPartition{ordersP0}}, want: protocol.INVALID_REQUEST},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			var md *TransactionMetadata
			var before MetadataView
			if tc.md != nil {
				md = h.put(tc.md)
				md.HasPendingState = tc.pending
				if tc.pending {
					md.PendingState = Ongoing
				}
				before = md.View()
			}
			resp := h.do(tc.req).(*protocol.AddPartitionsToTxnResponse)
			if len(resp.Results) != len(tc.req.Partitions) {
				t.Fatalf("%d results for %d partitions", len(resp.Results), len(tc.req.Partitions))
			}
			for _, r := range resp.Results {
				if r.ErrorCode != tc.want {
					t.Fatalf("%v: %v, want %v", r.TopicPartition, r.ErrorCode, tc.want)
				}
			}
			if w := h.writtenSince(0); !eq(w, tc.writes) {
				t.Fatalf("written %v, want %v", w, tc.writes)
			}
			if md != nil && tc.want != NONE && !reflect.DeepEqual(md.View(), before) {
				t.Fatalf("metadata changed on an error:\n got %+v\nwant %+v", md.View(), before)
			}
			if md != nil && tc.want == NONE {
				if md.State != Ongoing || !eq(md.Partitions, tc.finalParts) {
					t.Fatalf("after: %v %v, want Ongoing %v", md.State, md.Partitions, tc.finalParts)
				}
				if tc.startTs != 0 && md.TxnStartTimestamp != tc.startTs {
					t.Errorf("txn start %d, want %d", md.TxnStartTimestamp, tc.startTs)
				}
			}
			if tc.md == nil && h.get("t") != nil {
				t.Error("AddPartitionsToTxn created metadata")
			}
		})
	}
}

func TestAddPartitionsUnknownTopic(t *testing.T) {
	h := newHarness(t)
	h.put(meta(Empty, 5))
	resp := h.do(addParts(5, ordersP0, unknownP)).(*protocol.AddPartitionsToTxnResponse)
	want := []protocol.PartitionError{{TopicPartition: ordersP0, ErrorCode: protocol.OPERATION_NOT_ATTEMPTED},
		{TopicPartition: unknownP, ErrorCode: protocol.UNKNOWN_TOPIC_OR_PARTITION}}
	if !eq(resp.Results, want) {
		t.Fatalf("results %+v, want %+v", resp.Results, want)
	}
	if len(h.host.writes) != 0 || h.get("t").State != Empty {
		t.Fatal("the coordinator was called")
	}
}

func TestAddOffsetsToTxn(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 5, ordersP0))
	req := &protocol.AddOffsetsToTxnRequest{TransactionalId: "t", ProducerId: testPid, ProducerEpoch: 5, GroupId: "g"}
	if got := errOf(h.do(req)); got != NONE {
		t.Fatalf("AddOffsetsToTxn: %v", got)
	}
	if !eq(md.Partitions, []protocol.TopicPartition{offsetsP, ordersP0}) {
		t.Fatalf("partitions %v: the group's __consumer_offsets partition was not added", md.Partitions)
	}
	n := len(h.host.writes)
	if got := errOf(h.do(req)); got != NONE || len(h.host.writes) != n {
		t.Fatalf("a repeated AddOffsetsToTxn: %v, %d writes", got, len(h.host.writes)-n)
	}
	// the same rules as AddPartitionsToTxn
	req.ProducerEpoch = 4
	if got := errOf(h.do(req)); got != PF {
		t.Fatalf("stale epoch: %v", got)
	}
	// and the marker goes to the offsets partition too
	if got := errOf(h.do(endTxn(5, true))); got != NONE {
		t.Fatal(got)
	}
	h.settle()
	var marked []protocol.TopicPartition
	for _, m := range h.leader.markers {
		marked = append(marked, m.Partitions...)
	}
	if !eq(marked, []protocol.TopicPartition{offsetsP, ordersP0}) {
		t.Fatalf("markers went to %v", marked)
	}
}

func TestInitProducerIdMatrix(t *testing.T) {
	type want struct {
		err       protocol.ErrorCode
		pid       int64
		epoch     int16
		writes    []string
		lastEpoch int16 // of the metadata afterwards
	}
	newPid := int64(5000) // the fake host's first allocation
	tests := []struct {
		name string
		md   *TransactionMetadata
		req  *protocol.InitProducerIdRequest
		want want
	}{
		{"a new transactional id gets epoch 0", nil, initPid(-1, -1),
			want{NONE, newPid, 0, []string{"Empty/e0"}, -1}},
		{"Empty: epoch+1", meta(Empty, 5), initPid(-1, -1), want{NONE, testPid, 6, []string{"Empty/e6"}, -1}},
		{"CompleteCommit: epoch+1", meta(CompleteCommit, 5), initPid(-1, -1), want{NONE, testPid, 6, []string{"Empty/e6"}, -1}},
		{"CompleteAbort: epoch+1", meta(CompleteAbort, 5), initPid(-1, -1), want{NONE, testPid, 6, []string{"Empty/e6"}, -1}},
		{"PrepareCommit: CONCURRENT_TRANSACTIONS, nothing changes", meta(PrepareCommit, 5, ordersP0), initPid(-1, -1),
			want{CT, -1, -1, nil, -1}},
		{"PrepareAbort: CONCURRENT_TRANSACTIONS, nothing changes", meta(PrepareAbort, 5, ordersP0), initPid(-1, -1),
			want{CT, -1, -1, nil, -1}},
		{"exhausted epoch 32766 rotates the producer id to epoch 0", meta(Empty, 32766), initPid(-1, -1),
			want{NONE, newPid, 0, []string{"Empty/e0"}, -1}},
		{"exhausted epoch with the current epoch expected: rotate, remember it", meta(CompleteCommit, 32766), initPid(testPid, 32766),
			want{NONE, newPid, 0, []string{"Empty/e0"}, 32766}},
		{"KIP-360: the current epoch expected bumps it", meta(CompleteAbort, 5), initPid(testPid, 5),
			want{NONE, testPid, 6, []string{"Empty/e6"}, 5}},
		{"KIP-360: a stale epoch is fenced", meta(Empty, 5), initPid(testPid, 3), want{PF, -1, -1, nil, -1}},
		{"KIP-360: another producer id is fenced", meta(Empty, 5), initPid(77, 5), want{PF, -1, -1, nil, -1}},
		{"KIP-360: fenced is checked before Prepare*", meta(PrepareCommit, 5, ordersP0), initPid(77, 5), want{PF, -1, -1, nil, -1}},
		{"KIP-360: unknown id with an expected pid gets a new pid", nil, initPid(77, 5),
			want{NONE, newPid, 0, []string{"Empty/e0"}, -1}},
		{"timeout 0", meta(Empty, 5), &protocol.InitProducerIdRequest{TransactionalId: "t", TransactionTimeoutMs: 0, ProducerId: -1, ProducerEpoch: -1},
			want{protocol.INVALID_TRANSACTION_TIMEOUT, -1, -1, nil, -1}},
		{"timeout above transaction.max.timeout.ms", meta(Empty, 5), &protocol.InitProducerIdRequest{TransactionalId: "t", TransactionTimeoutMs: 900001, ProducerId: -1, ProducerEpoch: -1},
			want{protocol.INVALID_TRANSACTION_TIMEOUT, -1, -1, nil, -1}},
		{"only the producer id given", meta(Empty, 5), initPid(testPid, -1), want{protocol.INVALID_REQUEST, -1, -1, nil, -1}},
		{"only the epoch given", meta(Empty, 5), initPid(-1, 5), want{protocol.INVALID_REQUEST, -1, -1, nil, -1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			var before MetadataView
			if tc.md != nil {
				before = h.put(tc.md).View()
			}
			resp := h.do(tc.req).(*protocol.InitProducerIdResponse)
			if resp.ErrorCode != tc.want.err || resp.ProducerId != tc.want.pid || resp.ProducerEpoch != tc.want.epoch {
				t.Fatalf("InitProducerId: (%v, pid %d, epoch %d), want (%v, pid %d, epoch %d)",
					resp.ErrorCode, resp.ProducerId, resp.ProducerEpoch, tc.want.err, tc.want.pid, tc.want.epoch)
			}
			if w := h.writtenSince(0); !eq(w, tc.want.writes) {
				t.Fatalf("written %v, want %v", w, tc.want.writes)
			}
			md := h.get("t")
			if tc.want.err == NONE {
				if md.State != Empty || md.ProducerId != tc.want.pid || md.ProducerEpoch != tc.want.epoch ||
					md.LastProducerEpoch != tc.want.lastEpoch || md.HasPendingState || len(md.Partitions) != 0 || md.TxnStartTimestamp != -1 {
					t.Fatalf("metadata after: %+v", md.View())
				}
			} else if tc.md != nil && !reflect.DeepEqual(md.View(), before) {
				t.Fatalf("metadata changed on an error:\n got %+v\nwant %+v", md.View(), before)
			}
		})
	}
}

func TestInitProducerIdNullTransactionalId(t *testing.T) {
	h := newHarness(t)
	var pids []int64
	for i := 0; i < 3; i++ {
		resp := h.do(&protocol.InitProducerIdRequest{TransactionTimeoutMs: 60000, ProducerId: -1, ProducerEpoch: -1}).(*protocol.InitProducerIdResponse)
		if resp.ErrorCode != NONE || resp.ProducerEpoch != 0 {
			t.Fatalf("idempotent init: %+v", resp)
		}
		pids = append(pids, resp.ProducerId)
	}
	if pids[0] == pids[1] || pids[1] == pids[2] {
		t.Fatalf("producer ids %v are not fresh", pids)
	}
	if len(h.host.writes) != 0 || len(h.c.cache[txnPart].txns) != 0 {
		t.Fatal("an idempotent producer's InitProducerId wrote coordinator state")
	}
}

// TestInitProducerIdKIP360Retry: a bump whose answer was lost is retried
// with the same expected epoch and gets the same epoch back.
func TestInitProducerIdKIP360Retry(t *testing.T) {
	h := newHarness(t)
	h.put(meta(CompleteAbort, 5))
	first := h.do(initPid(testPid, 5)).(*protocol.InitProducerIdResponse)
	retry := h.do(initPid(testPid, 5)).(*protocol.InitProducerIdResponse)
	if first.ErrorCode != NONE || first.ProducerEpoch != 6 || retry.ErrorCode != NONE || retry.ProducerEpoch != 6 || retry.ProducerId != testPid {
		t.Fatalf("first %+v, retry %+v: the retry must get the same epoch 6", first, retry)
	}
	// a third call with the epoch it now holds bumps again
	if r := h.do(initPid(testPid, 6)).(*protocol.InitProducerIdResponse); r.ProducerEpoch != 7 {
		t.Fatalf("bump from 6: %+v", r)
	}
	// and the old one is now stale
	if r := h.do(initPid(testPid, 5)).(*protocol.InitProducerIdResponse); r.ErrorCode != PF {
		t.Fatalf("stale retry: %+v", r)
	}
}

// TestInitProducerIdRetryAfterRotation: a producer at the exhausted epoch
// whose rotation answer was lost retries with its old pid and gets the
// new pid again.
func TestInitProducerIdRetryAfterRotation(t *testing.T) {
	h := newHarness(t)
	h.put(meta(Empty, 32766))
	first := h.do(initPid(testPid, 32766)).(*protocol.InitProducerIdResponse)
	retry := h.do(initPid(testPid, 32766)).(*protocol.InitProducerIdResponse)
	if first.ErrorCode != NONE || first.ProducerId == testPid || first.ProducerEpoch != 0 {
		t.Fatalf("rotation %+v", first)
	}
	if retry.ErrorCode != NONE || retry.ProducerId != first.ProducerId || retry.ProducerEpoch != 0 {
		t.Fatalf("retry %+v, want pid %d epoch 0", retry, first.ProducerId)
	}
}

// TestInitProducerIdFencesOngoing: from Ongoing the coordinator bumps the
// epoch, aborts with it and answers CONCURRENT_TRANSACTIONS; the retry
// bumps again.
func TestInitProducerIdFencesOngoing(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 5, ordersP0))
	r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse)
	if r.ErrorCode != CT || r.ProducerEpoch != -1 {
		t.Fatalf("fence answer %+v, want CONCURRENT_TRANSACTIONS and no epoch", r)
	}
	if w := h.writtenSince(0); !eq(w, []string{"PrepareAbort/e6"}) {
		t.Fatalf("written %v", w)
	}
	if md.LastProducerEpoch != -1 {
		t.Errorf("lastProducerEpoch %d after a fence, want -1", md.LastProducerEpoch)
	}
	// while the abort is in flight the retry is told to wait
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != CT {
		t.Fatalf("retry during the abort: %+v", r)
	}
	h.settle()
	if len(h.leader.markers) != 1 || h.leader.markers[0].ProducerEpoch != 6 || h.leader.markers[0].TransactionResult {
		t.Fatalf("markers %+v: want one ABORT with the fenced epoch 6", h.leader.markers)
	}
	if md.State != CompleteAbort {
		t.Fatalf("state %v", md.State)
	}
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != NONE || r.ProducerEpoch != 7 {
		t.Fatalf("the retry after the abort: %+v, want epoch 7", r)
	}
	// the old producer (epoch 5) is fenced everywhere
	if got := errOf(h.do(endTxn(5, true))); got != PF {
		t.Errorf("old EndTxn: %v", got)
	}
	if got := errOf(h.do(addParts(5, ordersP0))); got != PF {
		t.Errorf("old AddPartitions: %v", got)
	}
}

// TestInitProducerIdFenceAtExhaustedEpoch: at 32766 in Ongoing the fence
// uses 32767 and the retry rotates the producer id.
func TestInitProducerIdFenceAtExhaustedEpoch(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 32766, ordersP0))
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != CT {
		t.Fatalf("fence %+v", r)
	}
	h.settle()
	if len(h.leader.markers) != 1 || h.leader.markers[0].ProducerEpoch != 32767 {
		t.Fatalf("markers %+v: want the fence at 32767", h.leader.markers)
	}
	r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse)
	if r.ErrorCode != NONE || r.ProducerId == testPid || r.ProducerEpoch != 0 || md.ProducerId != r.ProducerId {
		t.Fatalf("retry %+v: want a new producer id at epoch 0", r)
	}
}

// TestFailedFenceDoesNotBumpTwice is KAFKA-9666: two fence attempts whose
// abort cannot be written leave the epoch at e+1, not e+2.
func TestFailedFenceDoesNotBumpTwice(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 5, ordersP0))
	h.host.appendErr = protocol.NOT_ENOUGH_REPLICAS
	for i := 0; i < 2; i++ {
		if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != protocol.COORDINATOR_NOT_AVAILABLE {
			t.Fatalf("attempt %d: %+v", i, r)
		}
	}
	if md.State != Ongoing || md.ProducerEpoch != 6 || md.HasPendingState {
		t.Fatalf("after two failed fences: %v epoch %d pending %v", md.State, md.ProducerEpoch, md.HasPendingState)
	}
	h.host.appendErr = NONE
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ErrorCode != CT {
		t.Fatalf("third attempt %+v", r)
	}
	if w := h.writtenSince(0); !eq(w, []string{"PrepareAbort/e6"}) {
		t.Fatalf("written %v, want the abort at e+1 = 6", w)
	}
}

// TestSuccessfulFenceClearsTheFailedFenceFlag: once a fenced abort is
// written, the next fence bumps the epoch again (Kafka clears
// hasFailedEpochFence in prepareComplete). Otherwise a later fence would
// abort with the producer's own epoch and leave that producer unfenced.
func TestSuccessfulFenceClearsTheFailedFenceFlag(t *testing.T) {
	h := newHarness(t)
	md := h.put(meta(Ongoing, 5, ordersP0))
	h.host.appendErr = protocol.NOT_ENOUGH_REPLICAS
	h.do(initPid(-1, -1)) // fails: epoch 6 in memory, flag set
	h.host.appendErr = NONE
	h.do(initPid(-1, -1)) // fences at 6: PrepareAbort/e6
	h.settle()
	if r := h.do(initPid(-1, -1)).(*protocol.InitProducerIdResponse); r.ProducerEpoch != 7 {
		t.Fatalf("new producer %+v", r)
	}
	// The producer at epoch 7 opens a transaction and stalls; a new
	// instance comes up with the same transactional id.
	if got := errOf(h.do(addParts(7, ordersP0))); got != NONE {
		t.Fatal(got)
	}
	n := len(h.host.writes)
	h.do(initPid(-1, -1))
	if w := h.writtenSince(n); !eq(w, []string{"PrepareAbort/e8"}) {
		t.Fatalf("the second fence wrote %v, want PrepareAbort/e8: the producer at epoch 7 is not fenced", w)
	}
	h.settle()
	if got := errOf(h.do(addParts(7, ordersP1))); got != PF {
		t.Fatalf("the stalled producer (epoch 7) adds a partition after the fence: %v, want PRODUCER_FENCED", got)
	}
	_ = md
}

// TestPrevProducerIdIsThePidBeforeTheLastTransition: in Kafka 3.5 every
// transition records the current producer id as prevProducerId
// (TxnTransitMetadata(newProducerId, producerId, ...)), so the "retry
// after a rotation" leniency of isValidProducerId lasts until the next
// transition. A producer still on the old id with the exhausted epoch is
// fenced once the new producer has moved on; it must not be handed the
// new producer's id and epoch, nor fence its transaction.
func TestPrevProducerIdIsThePidBeforeTheLastTransition(t *testing.T) {
	h := newHarness(t)
	h.put(meta(Empty, 32766))
	rot := h.do(initPid(testPid, 32766)).(*protocol.InitProducerIdResponse)
	if rot.ErrorCode != NONE || rot.ProducerEpoch != 0 {
		t.Fatalf("rotation %+v", rot)
	}
	// the new producer starts a transaction
	req := &protocol.AddPartitionsToTxnRequest{TransactionalId: "t", ProducerId: rot.ProducerId, ProducerEpoch: 0, Partitions: []protocol.TopicPartition{ordersP0}}
	if got := errOf(h.do(req)); got != NONE {
		t.Fatal(got)
	}
	md := h.get("t")
	if md.PrevProducerId != rot.ProducerId {
		t.Errorf("prevProducerId %d after AddPartitions, want the current id %d", md.PrevProducerId, rot.ProducerId)
	}
	// a stale instance that never saw the rotation answer retries now
	r := h.do(initPid(testPid, 32766)).(*protocol.InitProducerIdResponse)
	if r.ErrorCode != PF {
		t.Fatalf("stale retry on the old producer id: %+v, want PRODUCER_FENCED", r)
	}
	if md.State != Ongoing || md.ProducerEpoch != 0 {
		t.Fatalf("the new producer's transaction was disturbed: %v epoch %d", md.State, md.ProducerEpoch)
	}
}

// TestMarkerErrorsAndRetries: retriable marker errors are retried until
// they succeed; a fenced answer stops this coordinator's work and leaves
// the transaction in Prepare*.
func TestMarkerErrorsAndRetries(t *testing.T) {
	t.Run("retriable", func(t *testing.T) {
		h := newHarness(t)
		md := h.put(meta(Ongoing, 5, ordersP0))
		h.leader.markerErr = protocol.NOT_ENOUGH_REPLICAS
		if got := errOf(h.do(endTxn(5, true))); got != NONE {
			t.Fatal(got)
		}
		for i := 0; i < 2000 && len(h.leader.markers) < 5; i++ {
			h.w.Step()
		}
		if md.State != PrepareCommit || !h.c.Busy() {
			t.Fatalf("state %v busy %v while markers fail", md.State, h.c.Busy())
		}
		if got := errOf(h.do(initPid(-1, -1))); got != CT {
			t.Errorf("InitProducerId while markers fail: %v", got)
		}
		if got := errOf(h.do(addParts(5, ordersP1))); got != CT {
			t.Errorf("AddPartitions while markers fail: %v", got)
		}
		h.leader.markerErr = NONE
		h.settle()
		if md.State != CompleteCommit {
			t.Fatalf("state %v after healing", md.State)
		}
	})
	for _, e := range []protocol.ErrorCode{protocol.INVALID_PRODUCER_EPOCH, protocol.TRANSACTION_COORDINATOR_FENCED} {
		t.Run(e.String(), func(t *testing.T) {
			h := newHarness(t)
			md := h.put(meta(Ongoing, 5, ordersP0))
			h.leader.markerErr = e
			h.do(endTxn(5, false))
			h.settle()
			if len(h.leader.markers) != 1 || md.State != PrepareAbort || h.c.Busy() {
				t.Fatalf("%d markers, state %v, busy %v: want one attempt, then stop in PrepareAbort", len(h.leader.markers), md.State, h.c.Busy())
			}
		})
	}
	t.Run("no answer within request.timeout.ms", func(t *testing.T) {
		h := newHarness(t)
		md := h.put(meta(Ongoing, 5, ordersP0))
		h.leader.silent = true
		h.do(endTxn(5, true))
		start := h.w.Now()
		h.w.AdvanceTo(start+h.c.cfg.RequestTimeoutMs+sim.Second, 100000)
		if len(h.leader.markers) != 0 { // silent: it records nothing
			t.Fatal("silent leader recorded markers")
		}
		h.leader.silent = false
		h.settle()
		if md.State != CompleteCommit {
			t.Fatalf("state %v: the marker was not sent again after the timeout", md.State)
		}
	})
}
