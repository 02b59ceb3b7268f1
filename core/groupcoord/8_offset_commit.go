package groupcoord

// OffsetCommit (key 8): GroupCoordinator.handleCommitOffsets and
// GroupMetadataManager.storeOffsets, Kafka 3.5.
//
// - NOT_COORDINATOR when this broker does not lead the group's
//   __consumer_offsets partition, COORDINATOR_LOAD_IN_PROGRESS while it
//   loads.
// - The offsets are appended as one plain (non-transactional) batch and
//   are committed, visible to OffsetFetch, once replicated; the newest
//   commit of a partition (by log position) wins.
// - Append errors are mapped as storeOffsets does: NOT_LEADER_OR_FOLLOWER
//   → NOT_COORDINATOR, NOT_ENOUGH_REPLICAS(_AFTER_APPEND) →
//   COORDINATOR_NOT_AVAILABLE; REQUEST_TIMED_OUT passes through.
// - No offsets: answered at once, nothing appended.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleOffsetCommit(w *sim.World, env *sim.Envelope, m *protocol.OffsetCommitRequest) {
	c.commit(w, m.GroupId, m.Offsets, -1, -1, false, func(w *sim.World, rs []protocol.PartitionError) {
		w.Send(c.host.BrokerNode(), env.From, &protocol.OffsetCommitResponse{Results: rs}, env.ID)
	})
}
