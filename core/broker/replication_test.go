package broker

import (
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
)

// TestDivergedIsKafkas: the leader's check of a follower's fetch
// position, on the log of Kafka 3.5's PartitionTest
// testLastFetchedOffsetValidation (epochs 0, 3, 3, 4, 7, 9 starting at
// offsets 0, 2, 5, 8, 13, 14; log end 17). A fetch diverges when the
// largest epoch <= the follower's last fetched epoch is smaller than it,
// or ends below the fetch offset (docs/kafka-fidelity.md §11 D9).
//
// The test's rows that name epoch 10 are left out: there 10 is the
// leader's current epoch, which Kafka's leader-epoch cache holds from the
// election on, while txnlab's log knows an epoch only once a batch
// carries it; a follower can only have fetched an epoch some leader
// wrote, so they differ only for positions no follower can be in.
func TestDivergedIsKafkas(t *testing.T) {
	log := partition.NewLog(protocol.TopicPartition{Topic: "t", Partition: 0})
	for _, b := range []struct {
		epoch int32
		count int
	}{{0, 2}, {3, 3}, {3, 3}, {4, 5}, {7, 1}, {9, 3}} {
		batch := protocol.RecordBatch{ProducerId: -1, ProducerEpoch: -1, BaseSequence: -1}
		for i := 0; i < b.count; i++ {
			batch.Records = append(batch.Records, protocol.Record{Key: "k", Value: "v"})
		}
		log.AppendAsLeader(batch, b.epoch, 0, partition.AllChecks)
	}
	if log.LogEndOffset() != 17 {
		t.Fatalf("log end %d, want 17", log.LogEndOffset())
	}
	tests := []struct {
		lastFetchedEpoch int32
		fetchOffset      int64
		diverging        bool
		epoch            int32
		end              int64
	}{
		{2, 5, true, 0, 2},
		{0, 4, true, 0, 2},
		{6, 6, true, 4, 13}, // below the epoch's end, but the epoch is not the leader's
		{5, 9, true, 4, 13},
		{0, 2, false, 0, 0},
		{7, 14, false, 0, 0},
		{9, 17, false, 0, 0},
	}
	for _, tc := range tests {
		div, e, end := diverged(log, tc.fetchOffset, tc.lastFetchedEpoch)
		if div != tc.diverging || e != tc.epoch || end != tc.end {
			t.Errorf("fetch offset %d, last fetched epoch %d: diverging=%v (%d, %d), Kafka: diverging=%v (%d, %d)",
				tc.fetchOffset, tc.lastFetchedEpoch, div, e, end, tc.diverging, tc.epoch, tc.end)
		}
	}
}
