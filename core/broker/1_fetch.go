package broker

// Fetch (key 1), a consumer's side: KafkaApis.handleFetchRequest,
// ReplicaManager.fetchMessages, Partition.fetchRecords and DelayedFetch,
// Kafka 3.5.
//
// - Not the leader → NOT_LEADER_OR_FOLLOWER (UNKNOWN_TOPIC_OR_PARTITION for
//   a partition that does not exist).
// - read_uncommitted reads up to the high watermark, read_committed up to
//   the last stable offset, with the aborted transactions of the range
//   (the transaction index). Nothing is filtered out: the consumer drops
//   aborted batches and control records (CompletedFetch).
// - The answer is at once when MaxWaitMs ≤ 0, when a partition has an
//   error, or when at least MinBytes can be returned (fetchMessages).
//   Otherwise the fetch waits (DelayedFetch): it completes as soon as the
//   bytes between each partition's fetch offset and its end (the high
//   watermark, or the LSO for read_committed) reach MinBytes, or when
//   the broker stops leading one of its partitions or its end moved
//   below the fetch offset (a truncation), and in any case after
//   MaxWaitMs; it then reads again and answers. A crashed broker loses
//   its waiting fetches, as Kafka's purgatory dies with its process.
//
// Simplified: no per-partition or per-request maxBytes (a fetch returns
// everything up to its end); sizes are SizeInBytes' uncompressed v2
// batches.
//
// A follower's Fetch (ReplicaId ≥ 0) is replication: replication.go.

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// timerDelayedFetch expires a waiting consumer fetch (fetch.max.wait.ms).
const timerDelayedFetch = "delayed-fetch"

// delayedFetch is a consumer's fetch waiting at the leader.
type delayedFetch struct {
	env *sim.Envelope
	req *protocol.FetchRequest
}

// handleConsumerFetch answers a consumer's fetch, at once or, when it
// asks to wait for more than there is, once there is enough or its wait
// is over.
func (b *Broker) handleConsumerFetch(w *sim.World, env *sim.Envelope, m *protocol.FetchRequest) {
	resp, bytes, errored := b.readForConsumer(w, m)
	if m.MaxWaitMs <= 0 || len(m.Partitions) == 0 || bytes >= int(m.MinBytes) || errored {
		b.reply(w, env, resp)
		return
	}
	b.delayed = append(b.delayed, &delayedFetch{env: env, req: m})
	w.After(b.Node, sim.Time(m.MaxWaitMs), timerDelayedFetch, env.ID)
}

// readForConsumer reads a consumer's fetch: up to the high watermark
// (read_uncommitted) or the last stable offset (read_committed), with
// the aborted transactions of the range for read_committed. It reports
// the bytes read and whether a partition answered an error. The broker
// filters nothing out: aborted batches and markers go to the consumer,
// which drops them (CompletedFetch).
func (b *Broker) readForConsumer(w *sim.World, m *protocol.FetchRequest) (*protocol.FetchResponse, int, bool) {
	resp := b.fetchResps.New()
	resp.Responses = b.fetchData.Make(len(m.Partitions))
	bytes, errored := 0, false
	for _, fp := range m.Partitions {
		pd := protocol.FetchPartitionData{TopicPartition: fp.TopicPartition, HighWatermark: -1, LastStableOffset: -1}
		if _, ok := b.isLeader(fp.TopicPartition); !ok {
			pd.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			if b.Meta.Partition(fp.TopicPartition) == nil {
				pd.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			}
			resp.Responses = append(resp.Responses, pd)
			errored = true
			continue
		}
		log := b.Disk.Log(fp.TopicPartition)
		pd.HighWatermark, pd.LastStableOffset = log.HighWatermark, log.LSO()
		limit := b.consumerEnd(w, log.HighWatermark, pd.LastStableOffset, m.IsolationLevel)
		pd.Records = log.Read(fp.FetchOffset, limit)
		for i := range pd.Records {
			bytes += pd.Records[i].SizeInBytes()
		}
		if m.IsolationLevel == protocol.ReadCommitted {
			upper := limit
			if n := len(pd.Records); n > 0 {
				upper = pd.Records[n-1].NextOffset()
			}
			pd.AbortedTransactions = log.AbortedTransactions(fp.FetchOffset, upper)
		}
		resp.Responses = append(resp.Responses, pd)
	}
	return resp, bytes, errored
}

// consumerEnd is the offset a consumer may read up to: the high
// watermark, or the last stable offset for read_committed.
func (b *Broker) consumerEnd(w *sim.World, hw, lso int64, isolation int8) int64 {
	if isolation == protocol.ReadCommitted && !w.Broken(safety.LSOBound) {
		return lso
	}
	return hw
}

// tryCompleteDelayedFetches is DelayedFetch.tryComplete for every
// waiting fetch, in arrival order: Kafka checks them when a leader's
// high watermark moves or its leadership changes, which is when the
// broker wakes its parked follower fetches too (wakeParked).
func (b *Broker) tryCompleteDelayedFetches(w *sim.World) {
	if len(b.delayed) == 0 {
		return
	}
	kept := b.delayed[:0]
	var done []*delayedFetch
	for _, d := range b.delayed {
		if b.delayedFetchReady(w, d.req) {
			done = append(done, d)
		} else {
			kept = append(kept, d)
		}
	}
	clear(b.delayed[len(kept):])
	b.delayed = kept
	for _, d := range done {
		resp, _, _ := b.readForConsumer(w, d.req)
		b.reply(w, d.env, resp)
	}
}

// delayedFetchReady: one of the fetch's partitions lost its leader here
// or its end moved below the fetch offset (cases A-C, F), or the bytes
// past the fetch offsets reach MinBytes (case G).
func (b *Broker) delayedFetchReady(w *sim.World, m *protocol.FetchRequest) bool {
	acc := 0
	for _, fp := range m.Partitions {
		if _, ok := b.isLeader(fp.TopicPartition); !ok {
			return true
		}
		log := b.Disk.Log(fp.TopicPartition)
		end := b.consumerEnd(w, log.HighWatermark, log.LSO(), m.IsolationLevel)
		switch {
		case end < fp.FetchOffset:
			return true
		case end > fp.FetchOffset:
			for _, bt := range log.Read(fp.FetchOffset, end) {
				acc += bt.SizeInBytes()
			}
		}
	}
	return acc >= int(m.MinBytes)
}

// delayedFetchExpired answers a waiting fetch whose fetch.max.wait.ms is
// over with what there is now (DelayedFetch.onExpiration, onComplete).
func (b *Broker) delayedFetchExpired(w *sim.World, id int64) {
	for i, d := range b.delayed {
		if d.env.ID == id {
			b.delayed = append(b.delayed[:i], b.delayed[i+1:]...)
			resp, _, _ := b.readForConsumer(w, d.req)
			b.reply(w, d.env, resp)
			return
		}
	}
}
