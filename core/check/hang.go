package check

import (
	"fmt"
	"sort"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// KafkaHang names why a healed cluster cannot go quiet when the reason is
// Kafka's own (safety.UnreplicatedTxnState), and returns "" otherwise:
// a transaction stuck behind a lost epoch (lostEpochHang) or a group's
// offsets left pending by a transaction its coordinator forgot
// (pendingOffsetsHang).
func KafkaHang(in *Input) string {
	if msg := lostEpochHang(in); msg != "" {
		return msg
	}
	return pendingOffsetsHang(in)
}

// lostEpochHang: a coordinator
// holds a transaction in PrepareCommit or PrepareAbort at an epoch below
// one a marker on its partition already carries. Whoever wrote that
// marker acted on __transaction_state records its successor never had
// (a coordinator loads its partition up to the log end, unreplicated
// records included); the successor's markers at the older epoch are
// refused INVALID_PRODUCER_EPOCH, on which Kafka stops sending them
// (TransactionMarkerRequestCompletionHandler: "this txn can now be
// ignored"), the transaction never leaves its Prepare state (the
// coordinator times out only Ongoing ones: TransactionStateManager
// timedOutTransactions) and the producer's InitProducerId is answered
// CONCURRENT_TRANSACTIONS for ever, its completion left pending
// (explorer seed 1400604758). It returns the message, or "" when no
// transaction is stuck so.
func lostEpochHang(in *Input) string {
	ids := make([]string, 0, len(in.Coordinators))
	for id := range in.Coordinators {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		cs := in.Coordinators[id]
		if !cs.Known || (cs.State != protocol.PrepareCommit && cs.State != protocol.PrepareAbort) {
			continue
		}
		for _, tp := range cs.partitions(id) {
			log := in.Logs[tp]
			if log == nil {
				continue
			}
			for i := range log.Batches {
				b := &log.Batches[i]
				if b.IsControl && b.ProducerId == cs.ProducerId && b.ProducerEpoch > cs.ProducerEpoch && markerRefused(in, cs.ProducerId, tp) {
					return fmt.Sprintf("%s is stuck in %s at producer epoch %d: %s@%d already holds a marker of producer id %d at epoch %d, written by a coordinator that acted on __transaction_state records its successor never had; the successor's markers are refused INVALID_PRODUCER_EPOCH, Kafka stops sending them, and the transaction never completes",
						id, cs.State, cs.ProducerEpoch, tp, b.BaseOffset, b.ProducerId, b.ProducerEpoch)
				}
			}
		}
	}
	return ""
}

// partitions are the partitions the coordinator's log last lists for the
// id's transaction: those its markers go to.
func (cs CoordinatorState) partitions(id string) []protocol.TopicPartition {
	if cs.Log == nil {
		return nil
	}
	var last []protocol.TopicPartition
	for _, v := range txnRecords(cs.Log, id, cs.ProducerId) {
		if v.ProducerEpoch == cs.ProducerEpoch && len(v.TransactionPartitions) > 0 {
			last = v.TransactionPartitions
		}
	}
	return last
}

// markerRefused reports whether the trace shows a marker of producer id
// pid refused INVALID_PRODUCER_EPOCH on tp: Kafka's reason to stop
// sending it. Without it the transaction is not stuck for Kafka's
// reason, and the hang stays unnamed.
func markerRefused(in *Input, pid int64, tp protocol.TopicPartition) bool {
	if in.Trace == nil {
		return false
	}
	for _, e := range in.Trace.All() {
		r, ok := e.Msg.(*protocol.WriteTxnMarkersResponse)
		if !ok || e.Kind != sim.KindSend {
			continue
		}
		for _, m := range r.Markers {
			if m.ProducerId != pid {
				continue
			}
			for _, p := range m.Partitions {
				if p.TopicPartition == tp && p.ErrorCode == protocol.INVALID_PRODUCER_EPOCH {
					return true
				}
			}
		}
	}
	return false
}

// pendingOffsetsHang: a group's transactional offsets stay pending for
// ever, and a consumer that asks for stable offsets (require_stable, as
// read_committed consumers do) is answered UNSTABLE_OFFSET_COMMIT for
// ever, when the transaction that wrote them was registered only in
// __transaction_state records lost in a failover: a coordinator answered
// AddOffsetsToTxn NONE (from records it had reloaded up to the log end),
// the producer wrote the offsets, and the id's coordinator now has no
// record of the offsets partition in any transaction of the producer id,
// so neither a marker nor its timeout will ever end them (explorer seed
// 1400965929).
func pendingOffsetsHang(in *Input) string {
	for _, o := range in.Offsets {
		if !o.Pending {
			continue
		}
		for _, p := range in.Producers {
			cs, ok := in.Coordinators[p.TransactionalId]
			if p.TransactionalId == "" || !ok || !cs.Known || cs.ProducerId != o.ProducerId || !wrote(p, o.ProducerId) {
				continue
			}
			if offsetsRegistered(cs.Log, p.TransactionalId, o.ProducerId) || !addOffsetsAnsweredElsewhere(in, p.Name, cs.Node) {
				continue
			}
			return fmt.Sprintf("group %s's offset %d of %s stays pending for ever: %s's transaction wrote it after a coordinator answered AddOffsetsToTxn from __transaction_state records its successor never had; the successor has no record of the offsets partition in any transaction of producer id %d, so no marker and no timeout will end it, and a consumer asking for stable offsets is answered UNSTABLE_OFFSET_COMMIT for ever",
				o.Group, o.Offset, o.Partition, p.Name, o.ProducerId)
		}
	}
	return ""
}

// wrote reports whether the producer ran a transaction as producer id pid.
func wrote(p Producer, pid int64) bool {
	for _, t := range p.Txns {
		if t.ProducerId == pid {
			return true
		}
	}
	return false
}

// offsetsRegistered reports whether the log's last word on the id's
// transaction at producer id pid is an open or deciding one that lists
// a __consumer_offsets partition.
func offsetsRegistered(log *partition.Log, id string, pid int64) bool {
	if log == nil {
		return true // nothing to judge by: not named
	}
	known := false
	for _, v := range txnRecords(log, id, pid) {
		known = false
		if v.TransactionStatus == protocol.Ongoing || v.TransactionStatus == protocol.PrepareCommit || v.TransactionStatus == protocol.PrepareAbort {
			for _, tp := range v.TransactionPartitions {
				known = known || tp.Topic == protocol.ConsumerOffsetsTopic
			}
		}
	}
	return known
}

// addOffsetsAnsweredElsewhere reports whether a broker other than node
// answered the producer's AddOffsetsToTxn NONE.
func addOffsetsAnsweredElsewhere(in *Input, producer string, node sim.NodeID) bool {
	if in.Trace == nil {
		return false
	}
	to, ok := in.Trace.Names().Lookup(producer)
	if !ok {
		return false
	}
	for _, e := range in.Trace.All() {
		if r, isAdd := e.Msg.(*protocol.AddOffsetsToTxnResponse); isAdd && e.Kind == sim.KindSend && e.Peer == to && e.Node != node && r.ErrorCode == protocol.NONE {
			return true
		}
	}
	return false
}
