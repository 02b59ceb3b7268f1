package broker

// DescribeProducers (key 61, KIP-664): KafkaApis.handleDescribeProducersRequest,
// ReplicaManager.activeProducerState and Partition.activeProducerState,
// Kafka 3.5.
//
// - Per partition: unknown → UNKNOWN_TOPIC_OR_PARTITION; no replica here →
//   NOT_LEADER_OR_FOLLOWER; otherwise every producer id this broker's
//   replica holds state for (a follower answers from its own log:
//   Partition.activeProducerState reads the local log, which is how
//   find-hanging --broker-id looks at one broker's replicas), with its epoch, the last sequence and timestamp of
//   its last batch, the coordinator epoch of the last marker applied and
//   the first offset of its open transaction (−1 when none).
// - It is how kafka-transactions.sh finds a hanging transaction (an open
//   transaction older than transaction.max.timeout.ms) and what its abort
//   reads the producer id, epoch and coordinator epoch from.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// handleDescribeProducers answers with each partition's active producers.
func (b *Broker) handleDescribeProducers(w *sim.World, env *sim.Envelope, m *protocol.DescribeProducersRequest) {
	resp := &protocol.DescribeProducersResponse{Partitions: make([]protocol.DescribeProducersPartition, len(m.Partitions))}
	for i, tp := range m.Partitions {
		r := &resp.Partitions[i]
		r.TopicPartition = tp
		p := b.Meta.Partition(tp)
		if p == nil {
			r.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			continue
		}
		if !p.IsReplica(b.ID) {
			r.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			continue
		}
		log := b.Disk.Log(tp)
		for _, pid := range log.ProducerIds() {
			e := log.Producers[pid]
			st := protocol.ProducerState{ProducerId: pid, ProducerEpoch: int32(e.ProducerEpoch), LastSequence: -1,
				LastTimestamp: e.LastTimestamp, CoordinatorEpoch: e.CoordinatorEpoch, CurrentTxnStartOffset: e.CurrentTxnFirstOffset}
			if n := len(e.Batches); n > 0 {
				st.LastSequence = e.Batches[n-1].LastSeq
			}
			r.ActiveProducers = append(r.ActiveProducers, st)
		}
	}
	b.reply(w, env, resp)
}
