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
// - Group metadata (validateOffsetCommit, group.go): an unknown group
//   takes a commit without a generation (a simple group, created Empty)
//   and answers one with a generation ILLEGAL_GENERATION; a known group
//   checks member, instance and generation (UNKNOWN_MEMBER_ID,
//   FENCED_INSTANCE_ID, ILLEGAL_GENERATION), a non-Empty group refuses a
//   commit without a member (UNKNOWN_MEMBER_ID), CompletingRebalance
//   answers REBALANCE_IN_PROGRESS, and a member's commit renews its
//   session.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleOffsetCommit(w *sim.World, env *sim.Envelope, m *protocol.OffsetCommitRequest) {
	c.commit(w, m.GroupId, m.Offsets, -1, -1, false, func(w *sim.World, op *offsetsPartition, p int32) protocol.ErrorCode {
		g := op.groupOf(m.GroupId, false)
		if g == nil {
			if m.GenerationId >= 0 {
				return protocol.ILLEGAL_GENERATION
			}
			g = op.groupOf(m.GroupId, true)
		}
		if err := g.validateOffsetCommit(m.GenerationId, m.MemberId, m.GroupInstanceId, false); err != protocol.NONE {
			return err
		}
		switch g.state {
		case CompletingRebalance:
			return protocol.REBALANCE_IN_PROGRESS
		case Stable, PreparingRebalance:
			if mem := g.members[m.MemberId]; mem != nil {
				c.scheduleExpiration(w, p, g, mem, mem.sessionTimeout)
			}
		}
		return protocol.NONE
	}, func(w *sim.World, rs []protocol.PartitionError) {
		w.Send(c.host.BrokerNode(), env.From, &protocol.OffsetCommitResponse{Results: rs}, env.ID)
	})
}
