package txncoord

// AddPartitionsToTxn (key 24, client versions 0-3):
// TransactionCoordinator.handleAddPartitionsToTransaction, Kafka 3.5,
// checks in Kafka's order (pid and epoch before the pending check; 4.0
// moved the pending check first). Partitions unknown to the cluster get
// UNKNOWN_TOPIC_OR_PARTITION and their siblings OPERATION_NOT_ATTEMPTED,
// without calling the coordinator (KafkaApis). AddOffsetsToTxn (key 25)
// reuses this with the group's __consumer_offsets partition.
//
// With `break epoch-fencing`, a request carrying an older epoch passes
// the epoch check.

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

func (c *Coordinator) handleAddPartitionsToTxn(w *sim.World, env *sim.Envelope, m *protocol.AddPartitionsToTxnRequest) {
	if m.Version >= protocol.AddPartitionsToTxnBrokerVersion && m.VerifyOnly {
		c.handleVerifyPartitionsInTransaction(w, env, m)
		return
	}
	results := func(err protocol.ErrorCode) *protocol.AddPartitionsToTxnResponse {
		r := &protocol.AddPartitionsToTxnResponse{}
		for _, tp := range m.Partitions {
			r.Results = append(r.Results, protocol.PartitionError{TopicPartition: tp, ErrorCode: err})
		}
		return r
	}
	var unknown bool
	for _, tp := range m.Partitions {
		if !c.host.PartitionExists(tp) {
			unknown = true
		}
	}
	if unknown {
		r := &protocol.AddPartitionsToTxnResponse{}
		for _, tp := range m.Partitions {
			e := protocol.OPERATION_NOT_ATTEMPTED
			if !c.host.PartitionExists(tp) {
				e = protocol.UNKNOWN_TOPIC_OR_PARTITION
			}
			r.Results = append(r.Results, protocol.PartitionError{TopicPartition: tp, ErrorCode: e})
		}
		c.reply(w, env, r)
		return
	}
	c.addPartitions(w, m.TransactionalId, m.ProducerId, m.ProducerEpoch, m.Partitions, func(w *sim.World, err protocol.ErrorCode) {
		c.reply(w, env, results(err))
	})
}

// addPartitions is the shared body of AddPartitionsToTxn and
// AddOffsetsToTxn.
func (c *Coordinator) addPartitions(w *sim.World, id string, pid int64, epoch int16, tps []protocol.TopicPartition, done func(w *sim.World, err protocol.ErrorCode)) {
	if id == "" {
		done(w, protocol.INVALID_REQUEST)
		return
	}
	entry, md, err := c.lookup(id)
	switch {
	case err != protocol.NONE:
		done(w, err)
	case md == nil, md.ProducerId != pid:
		done(w, protocol.INVALID_PRODUCER_ID_MAPPING)
	case !c.epochMatches(w, md, epoch):
		done(w, protocol.PRODUCER_FENCED)
	case md.HasPendingState, md.State == protocol.PrepareCommit, md.State == protocol.PrepareAbort:
		done(w, protocol.CONCURRENT_TRANSACTIONS)
	case md.State == protocol.Ongoing && md.hasPartitions(tps):
		done(w, protocol.NONE)
	default:
		target := md.prepareAddPartitions(tps, w.Now())
		c.appendTransactionToLog(w, id, entry.coordinatorEpoch, md, target, done)
	}
}

// handleVerifyPartitionsInTransaction answers a partition leader's
// VerifyOnly request (KIP-890 part 1, Kafka 3.6+): nothing is written.
// The pending transition is not checked (the leader's append is the
// final check). A partition not in the transaction is
// TRANSACTION_ABORTABLE from version 5 (Kafka 3.8+), INVALID_TXN_STATE
// before (3.6.0).
func (c *Coordinator) handleVerifyPartitionsInTransaction(w *sim.World, env *sim.Envelope, m *protocol.AddPartitionsToTxnRequest) {
	all := func(err protocol.ErrorCode) {
		r := &protocol.AddPartitionsToTxnResponse{}
		for _, tp := range m.Partitions {
			r.Results = append(r.Results, protocol.PartitionError{TopicPartition: tp, ErrorCode: err})
		}
		c.reply(w, env, r)
	}
	if m.TransactionalId == "" {
		all(protocol.INVALID_REQUEST)
		return
	}
	_, md, err := c.lookup(m.TransactionalId)
	switch {
	case err != protocol.NONE:
		all(err)
	case md == nil, md.ProducerId != m.ProducerId:
		all(protocol.INVALID_PRODUCER_ID_MAPPING)
	case !c.epochMatches(w, md, m.ProducerEpoch):
		all(protocol.PRODUCER_FENCED)
	case md.State == protocol.PrepareCommit || md.State == protocol.PrepareAbort:
		all(protocol.CONCURRENT_TRANSACTIONS)
	default:
		missing := protocol.INVALID_TXN_STATE
		if m.Version >= protocol.AddPartitionsToTxnAbortableVersion {
			missing = protocol.TRANSACTION_ABORTABLE
		}
		r := &protocol.AddPartitionsToTxnResponse{}
		for _, tp := range m.Partitions {
			e := protocol.NONE
			if !md.hasPartitions([]protocol.TopicPartition{tp}) {
				e = missing
			}
			r.Results = append(r.Results, protocol.PartitionError{TopicPartition: tp, ErrorCode: e})
		}
		c.reply(w, env, r)
	}
}

// epochMatches is the client epoch check: equal, or with epoch fencing
// broken, anything not newer.
func (c *Coordinator) epochMatches(w *sim.World, md *TransactionMetadata, epoch int16) bool {
	if w.Broken(safety.EpochFencing) {
		return epoch <= md.ProducerEpoch
	}
	return epoch == md.ProducerEpoch
}
