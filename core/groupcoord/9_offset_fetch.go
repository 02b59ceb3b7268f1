package groupcoord

// OffsetFetch (key 9): GroupCoordinator.handleFetchOffsets and
// GroupMetadataManager.getOffsets, Kafka 3.5.
//
// - NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS as a top-level error.
// - Each partition gets its committed offset, or -1 when none.
// - With RequireStable (a read_committed consumer), a partition that has
//   a pending transactional offset answers UNSTABLE_OFFSET_COMMIT, which
//   the consumer retries until the transaction's marker has landed.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleOffsetFetch(w *sim.World, env *sim.Envelope, m *protocol.OffsetFetchRequest) {
	w.Send(c.host.BrokerNode(), env.From, c.fetch(m), env.ID)
}

// Fetch answers an OffsetFetch locally, for expectations that read what a
// require_stable OffsetFetch would return.
func (c *Coordinator) Fetch(m *protocol.OffsetFetchRequest) *protocol.OffsetFetchResponse {
	return c.fetch(m)
}

func (c *Coordinator) fetch(m *protocol.OffsetFetchRequest) *protocol.OffsetFetchResponse {
	resp := &protocol.OffsetFetchResponse{}
	op, _, err := c.partitionOf(m.GroupId)
	if err != protocol.NONE {
		resp.ErrorCode = err
		return resp
	}
	for _, tp := range m.Partitions {
		r := protocol.OffsetFetchResult{TopicPartition: tp, CommittedOffset: -1}
		k := offsetKey{m.GroupId, tp}
		if m.RequireStable && op.hasPending(k) {
			r.ErrorCode = protocol.UNSTABLE_OFFSET_COMMIT
		} else if v, ok := op.committed[k]; ok {
			r.CommittedOffset = v.offset
		}
		resp.Results = append(resp.Results, r)
	}
	return resp
}

func (op *offsetsPartition) hasPending(k offsetKey) bool {
	for _, m := range op.pending {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}
