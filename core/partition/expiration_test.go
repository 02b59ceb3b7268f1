package partition_test

import (
	"slices"
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
)

// ProducerStateManagerTest.testPidExpirationTimeout: once a producer's
// state has expired, its next batch is accepted whatever its sequence,
// and a retry of a batch already written is no longer recognised.
func TestExpiredProducerStateAcceptsAnySequence(t *testing.T) {
	l := partition.NewLog(tp0)
	if r := l.AppendAsLeader(batch(7, 5, 37, 1, false), 0, 1, partition.AllChecks); r.Err != protocol.NONE {
		t.Fatal(r.Err)
	}
	if r := l.AppendAsLeader(batch(7, 5, 37, 1, false), 0, 2, partition.AllChecks); !r.Duplicate || r.BaseOffset != 0 {
		t.Fatalf("retry before expiry: %+v, want the duplicate of offset 0", r)
	}
	if gone := l.RemoveExpiredProducers(1+999, 1000); len(gone) != 0 {
		t.Fatalf("expired %v one millisecond early", gone)
	}
	if gone := l.RemoveExpiredProducers(1+1000, 1000); !slices.Equal(gone, []int64{7}) {
		t.Fatalf("expired %v, want [7]", gone)
	}
	if r := l.AppendAsLeader(batch(7, 5, 37, 1, false), 0, 3000, partition.AllChecks); r.Duplicate || r.Err != protocol.NONE || r.BaseOffset != 1 {
		t.Fatalf("retry after expiry: %+v, want a second copy at offset 1", r)
	}
	if r := l.AppendAsLeader(batch(7, 5, 40, 1, false), 0, 3001, partition.AllChecks); r.Err != protocol.OUT_OF_ORDER_SEQUENCE_NUMBER {
		t.Fatalf("a gap after the state came back: %v, want OUT_OF_ORDER_SEQUENCE_NUMBER", r.Err)
	}
}

// testProducersWithOngoingTransactionsDontExpire, and a marker counts as
// a write: the producer expires only expirationMs after it.
func TestOpenTransactionsDoNotExpire(t *testing.T) {
	l := partition.NewLog(tp0)
	l.AppendAsLeader(batch(9, 0, 0, 1, true), 0, 10, partition.AllChecks)
	if gone := l.RemoveExpiredProducers(1_000_000, 1000); len(gone) != 0 {
		t.Fatalf("a producer with an open transaction expired: %v", gone)
	}
	l.AppendMarker(9, 0, protocol.ControlCommit, 0, 0, 2000, partition.AllChecks)
	if gone := l.RemoveExpiredProducers(2999, 1000); len(gone) != 0 {
		t.Fatalf("expired %v before expirationMs after the marker", gone)
	}
	if gone := l.RemoveExpiredProducers(3000, 1000); !slices.Equal(gone, []int64{9}) {
		t.Fatalf("expired %v, want [9]", gone)
	}
}

// A follower and a replay after a restart stamp the leader's time, so
// every replica expires a producer at the same moment.
func TestReplicaAndReplayKeepTheLeadersTimestamp(t *testing.T) {
	leader := partition.NewLog(tp0)
	leader.AppendAsLeader(batch(3, 0, 0, 1, false), 0, 500, partition.AllChecks)
	follower := partition.NewLog(tp0)
	follower.AppendReplica(leader.Batches, 9000)
	follower.Rebuild()
	for _, l := range []*partition.Log{leader, follower} {
		if got := l.Producers[3].LastTimestamp; got != 500 {
			t.Errorf("LastTimestamp %d, want the leader's 500", got)
		}
	}
}
