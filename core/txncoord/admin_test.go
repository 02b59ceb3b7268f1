package txncoord

import (
	"slices"
	"testing"

	"txnlab/core/protocol"
)

// DescribeTransactions, after TransactionCoordinatorTest's
// testDescribeTransactions, testDescribeTransactionsWithEmptyTransactionalId,
// testDescribeTransactionsWithExpiringTransactionalId and
// testDescribeTransactionsWhileCoordinatorLoading (Kafka 3.5.0).
func TestDescribeTransactions(t *testing.T) {
	h := newHarness(t)
	md := meta(protocol.Ongoing, 3, ordersP0, ordersP1)
	h.put(md)
	dead := meta(protocol.Dead, 1)
	dead.TransactionalId = "expiring"
	h.put(dead)
	resp := h.do(&protocol.DescribeTransactionsRequest{TransactionalIds: []string{"t", "", "expiring", "nobody"}}).(*protocol.DescribeTransactionsResponse)
	got := resp.TransactionStates
	if len(got) != 4 {
		t.Fatalf("%d descriptions for 4 ids", len(got))
	}
	want := protocol.TransactionDescription{TransactionalId: "t", TransactionState: "Ongoing", TransactionTimeoutMs: 60000,
		TransactionStartTimeMs: 500, ProducerId: testPid, ProducerEpoch: 3, Partitions: []protocol.TopicPartition{ordersP0, ordersP1}}
	if g := got[0]; g.ErrorCode != protocol.NONE || g.TransactionState != want.TransactionState || g.ProducerId != want.ProducerId ||
		g.ProducerEpoch != want.ProducerEpoch || g.TransactionStartTimeMs != 500 || !slices.Equal(g.Partitions, want.Partitions) {
		t.Errorf("describe t = %+v, want %+v", g, want)
	}
	for i, code := range []protocol.ErrorCode{protocol.INVALID_REQUEST, protocol.TRANSACTIONAL_ID_NOT_FOUND, protocol.TRANSACTIONAL_ID_NOT_FOUND} {
		if got[i+1].ErrorCode != code {
			t.Errorf("describe %q: %s, want %s", got[i+1].TransactionalId, got[i+1].ErrorCode, code)
		}
	}
	h.c.loading[txnPart] = coordEpoch
	loading := h.do(&protocol.DescribeTransactionsRequest{TransactionalIds: []string{"t"}}).(*protocol.DescribeTransactionsResponse)
	if c := loading.TransactionStates[0].ErrorCode; c != protocol.COORDINATOR_LOAD_IN_PROGRESS {
		t.Errorf("while loading: %s, want COORDINATOR_LOAD_IN_PROGRESS", c)
	}
}

// ListTransactions, after TransactionStateManagerTest's
// testListTransactionsFiltering and
// testListTransactionsWithCoordinatorLoadingInProgress (Kafka 3.5.0):
// state and producer id filters, unknown state names returned, Dead ids
// never listed.
func TestListTransactions(t *testing.T) {
	h := newHarness(t)
	for i, st := range []protocol.TransactionState{protocol.Ongoing, protocol.Ongoing, protocol.PrepareCommit, protocol.PrepareAbort,
		protocol.CompleteCommit, protocol.CompleteAbort, protocol.Empty, protocol.PrepareEpochFence, protocol.Dead} {
		md := meta(st, 0)
		md.TransactionalId = "t" + string(rune('0'+i))
		md.ProducerId = int64(i)
		h.put(md)
	}
	list := func(states []string, pids []int64) (ids, unknown []string) {
		t.Helper()
		r := h.do(&protocol.ListTransactionsRequest{StateFilters: states, ProducerIdFilters: pids}).(*protocol.ListTransactionsResponse)
		if r.ErrorCode != protocol.NONE {
			t.Fatalf("ListTransactions: %s", r.ErrorCode)
		}
		for _, s := range r.TransactionStates {
			ids = append(ids, s.TransactionalId)
		}
		return ids, r.UnknownStateFilters
	}
	for _, c := range []struct {
		states  []string
		pids    []int64
		want    []string
		unknown []string
	}{
		{nil, nil, []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7"}, nil},
		{[]string{"Ongoing"}, nil, []string{"t0", "t1"}, nil},
		{[]string{"Ongoing", "UnknownState"}, nil, []string{"t0", "t1"}, []string{"UnknownState"}},
		{[]string{"PrepareCommit", "CompleteCommit"}, nil, []string{"t2", "t4"}, nil},
		{nil, []int64{0, 1, 8}, []string{"t0", "t1"}, nil},
		{[]string{"Ongoing"}, []int64{1, 2}, []string{"t1"}, nil},
		{[]string{"UnknownState"}, nil, nil, []string{"UnknownState"}},
	} {
		ids, unknown := list(c.states, c.pids)
		if !slices.Equal(ids, c.want) || !slices.Equal(unknown, c.unknown) {
			t.Errorf("states %v pids %v: %v (unknown %v), want %v (unknown %v)", c.states, c.pids, ids, unknown, c.want, c.unknown)
		}
	}
	h.c.loading[txnPart+1] = coordEpoch
	if r := h.do(&protocol.ListTransactionsRequest{}).(*protocol.ListTransactionsResponse); r.ErrorCode != protocol.COORDINATOR_LOAD_IN_PROGRESS || len(r.TransactionStates) != 0 {
		t.Errorf("while a partition loads: %s with %d transactions, want COORDINATOR_LOAD_IN_PROGRESS and none", r.ErrorCode, len(r.TransactionStates))
	}
}
