package broker

// Fetch (key 1), a consumer's side: KafkaApis.handleFetchRequest,
// ReplicaManager.fetchMessages and Partition.fetchRecords, Kafka 3.5.
//
// - Not the leader → NOT_LEADER_OR_FOLLOWER (UNKNOWN_TOPIC_OR_PARTITION for
//   a partition that does not exist).
// - read_uncommitted reads up to the high watermark, read_committed up to
//   the last stable offset, with the aborted transactions of the range
//   (the transaction index). Nothing is filtered out: the consumer drops
//   aborted batches and control records (CompletedFetch).
// - The answer is at once (no fetch.min.bytes wait).
//
// A follower's Fetch (ReplicaId ≥ 0) is replication: replication.go.

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// handleConsumerFetch answers a consumer's fetch at once: up to the high
// watermark (read_uncommitted) or the last stable offset (read_committed),
// with the aborted transactions of the range for read_committed. The
// broker filters nothing out: aborted batches and markers go to the
// consumer, which drops them (CompletedFetch).
func (b *Broker) handleConsumerFetch(w *sim.World, env *sim.Envelope, m *protocol.FetchRequest) {
	resp := b.fetchResps.New()
	resp.Responses = b.fetchData.Make(len(m.Partitions))
	for _, fp := range m.Partitions {
		pd := protocol.FetchPartitionData{TopicPartition: fp.TopicPartition, HighWatermark: -1, LastStableOffset: -1}
		if _, ok := b.isLeader(fp.TopicPartition); !ok {
			pd.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			if b.Meta.Partition(fp.TopicPartition) == nil {
				pd.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			}
			resp.Responses = append(resp.Responses, pd)
			continue
		}
		log := b.Disk.Log(fp.TopicPartition)
		pd.HighWatermark, pd.LastStableOffset = log.HighWatermark, log.LSO()
		limit := log.HighWatermark
		if m.IsolationLevel == protocol.ReadCommitted && !w.Broken(safety.LSOBound) {
			limit = pd.LastStableOffset
		}
		pd.Records = log.Read(fp.FetchOffset, limit)
		if m.IsolationLevel == protocol.ReadCommitted {
			upper := limit
			if n := len(pd.Records); n > 0 {
				upper = pd.Records[n-1].NextOffset()
			}
			pd.AbortedTransactions = log.AbortedTransactions(fp.FetchOffset, upper)
		}
		resp.Responses = append(resp.Responses, pd)
	}
	b.reply(w, env, resp)
}
