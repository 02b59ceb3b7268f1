package groupcoord

// TxnOffsetCommit (key 28): GroupCoordinator.handleTxnCommitOffsets,
// GroupMetadataManager.storeOffsets (transactional branch) and
// handleTxnCompletion, Kafka 3.5.
//
// - First the group metadata (KIP-447, TxnOffsetCommit v3+:
//   GenerationId, MemberId, GroupInstanceId) is checked as
//   validateOffsetCommit does (group.go): a zombie whose member was
//   removed gets UNKNOWN_MEMBER_ID, one replaced by a newer static member
//   FENCED_INSTANCE_ID, one from an older generation ILLEGAL_GENERATION;
//   the producer must abort. A commit without metadata (generation -1, no
//   member: the deprecated sendOffsetsToTransaction(offsets, groupId)) is
//   not checked against the membership at all. An unknown group is
//   created Empty.
// - The offsets are appended as a transactional batch carrying the
//   producer id and epoch, so a fenced producer is rejected by the log's
//   epoch check (INVALID_PRODUCER_EPOCH).
// - Once replicated they are pending for that producer id: invisible to
//   OffsetFetch, and UNSTABLE_OFFSET_COMMIT to a require_stable fetch.
// - The transaction's marker reaching the offsets partition materialises
//   them on COMMIT (unless a newer commit exists, compared by log
//   position) and drops them on ABORT (OnMarker).

import (
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleTxnOffsetCommit(w *sim.World, env *sim.Envelope, m *protocol.TxnOffsetCommitRequest) {
	c.commit(w, m.GroupId, m.Offsets, m.ProducerId, m.ProducerEpoch, true, func(w *sim.World, op *offsetsPartition, _ int32) protocol.ErrorCode {
		return op.groupOf(m.GroupId, true).validateOffsetCommit(m.GenerationId, m.MemberId, m.GroupInstanceId, true)
	}, func(w *sim.World, rs []protocol.PartitionError) {
		w.Send(c.host.BrokerNode(), env.From, &protocol.TxnOffsetCommitResponse{Results: rs}, env.ID)
	})
}

// completeTransaction is replayEndTransactionMarker: on COMMIT each pending
// offset is copied unless a newer commit exists; on ABORT it is dropped.
func (op *offsetsPartition) completeTransaction(pid int64, commit bool) {
	pend := op.pending[pid]
	delete(op.pending, pid)
	if !commit {
		return
	}
	for k, v := range pend {
		if cur, ok := op.committed[k]; !ok || cur.position < v.position {
			op.committed[k] = v
		}
	}
}

// OnMarker applies a marker written to an offsets partition.
func (c *Coordinator) OnMarker(w *sim.World, p int32, pid int64, commit bool) {
	if op := c.parts[p]; op != nil {
		n := len(op.pending[pid])
		op.completeTransaction(pid, commit)
		if n > 0 {
			code := sim.NotePendingOffsetsDropped
			if commit {
				code = sim.NotePendingOffsetsMaterialised
			}
			w.Note(c.host.BrokerNode(), offsetsTP(p).String(), code, strconv.Itoa(n), strconv.FormatInt(pid, 10))
		}
	}
}
