package broker

// FindCoordinator (key 10): KafkaApis.handleFindCoordinatorRequest and
// getCoordinator, Kafka 3.5.
//
// - The key's internal partition: __transaction_state for a transactional
//   id, __consumer_offsets for a group, Utils.abs(hashCode) % partitions.
// - Its current leader is the coordinator; no live leader →
//   COORDINATOR_NOT_AVAILABLE. Loading is not checked here: the client
//   learns it from COORDINATOR_LOAD_IN_PROGRESS.
// - An empty key → INVALID_REQUEST (Kafka 3.5 hashes it; no script can send
//   one).

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// handleFindCoordinator answers with the leader of the key's internal
// partition (KafkaApis.getCoordinator).
func (b *Broker) handleFindCoordinator(w *sim.World, env *sim.Envelope, m *protocol.FindCoordinatorRequest) {
	resp := &protocol.FindCoordinatorResponse{Key: m.Key, NodeId: -1}
	var tp protocol.TopicPartition
	if m.KeyType == protocol.KeyTypeTransaction {
		tp = protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: b.Meta.TxnPartitionFor(m.Key)}
	} else {
		tp = protocol.TopicPartition{Topic: protocol.ConsumerOffsetsTopic, Partition: b.Meta.GroupPartitionFor(m.Key)}
	}
	if m.Key == "" {
		resp.ErrorCode = protocol.INVALID_REQUEST
	} else if leader := b.Meta.Leader(tp); leader < 0 {
		resp.ErrorCode = protocol.COORDINATOR_NOT_AVAILABLE
	} else {
		resp.NodeId = leader
	}
	b.reply(w, env, resp)
}
