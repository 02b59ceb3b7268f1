package check

import (
	"fmt"
	"sort"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// LostEpochHang names why a healed cluster cannot go quiet when the
// reason is Kafka's own (safety.UnreplicatedTxnState): a coordinator
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
func LostEpochHang(in *Input) string {
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
	for i := range cs.Log.Batches {
		for _, r := range cs.Log.Batches[i].Records {
			if v := r.TxnLog; v != nil && r.Key == id && v.ProducerId == cs.ProducerId && v.ProducerEpoch == cs.ProducerEpoch && len(v.TransactionPartitions) > 0 {
				last = v.TransactionPartitions
			}
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
