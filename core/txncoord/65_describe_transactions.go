package txncoord

// DescribeTransactions (key 65, KIP-664): KafkaApis.handleDescribeTransactionsRequest
// and TransactionCoordinator.handleDescribeTransactions, Kafka 3.5.
//
// - Per transactional id: an empty one → INVALID_REQUEST; not this
//   broker's → NOT_COORDINATOR; its partition loading →
//   COORDINATOR_LOAD_IN_PROGRESS; no metadata (or Dead, being expired) →
//   TRANSACTIONAL_ID_NOT_FOUND; otherwise the coordinator's metadata: the
//   state's name, producer id and epoch, timeout, start time and the
//   partitions in the transaction.
// - Read only: nothing is written, no state changes. What the UI relies
//   on: the answer is the coordinator's memory, which a learner can set
//   beside the partition leaders' DescribeProducers.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleDescribeTransactions(w *sim.World, env *sim.Envelope, m *protocol.DescribeTransactionsRequest) {
	resp := &protocol.DescribeTransactionsResponse{TransactionStates: make([]protocol.TransactionDescription, len(m.TransactionalIds))}
	for i, id := range m.TransactionalIds {
		d := &resp.TransactionStates[i]
		d.TransactionalId = id
		if id == "" {
			d.ErrorCode = protocol.INVALID_REQUEST
			continue
		}
		_, md, code := c.lookup(id)
		switch {
		case code != protocol.NONE:
			d.ErrorCode = code
		case md == nil || md.State == protocol.Dead:
			d.ErrorCode = protocol.TRANSACTIONAL_ID_NOT_FOUND
		default:
			d.TransactionState = md.State.String()
			d.ProducerId, d.ProducerEpoch = md.ProducerId, md.ProducerEpoch
			d.TransactionTimeoutMs = md.TxnTimeoutMs
			d.TransactionStartTimeMs = md.TxnStartTimestamp
			d.Partitions = append([]protocol.TopicPartition(nil), md.Partitions...)
		}
	}
	c.reply(w, env, resp)
}
