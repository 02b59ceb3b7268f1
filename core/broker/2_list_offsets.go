package broker

// ListOffsets (key 2): KafkaApis.handleListOffsetRequestV1AndAbove,
// ReplicaManager.fetchOffsetForTimestamp, Partition.fetchOffsetForTimestamp
// and UnifiedLog.fetchOffsetByTimestamp, Kafka 3.5 (ListOffsets v7).
//
// - Not the leader: NOT_LEADER_OR_FOLLOWER (UNKNOWN_TOPIC_OR_PARTITION for
//   a partition that does not exist). A CurrentLeaderEpoch older than the
//   leader's: FENCED_LEADER_EPOCH; newer: UNKNOWN_LEADER_EPOCH.
// - The last fetchable offset is the high watermark for
//   read_uncommitted, the last stable offset for read_committed.
// - -1 (latest): that offset, timestamp -1, the current leader epoch.
// - -2 (earliest): the log start offset (0: logs are never trimmed).
// - -3 (max timestamp) and a timestamp T: the first batch whose
//   timestamp is the largest (every batch's timestamp is its append
//   time, so the last batch) or at least T, if its offset is below the
//   last fetchable one; else offset -1, timestamp -1.
//
// Not modelled: OFFSET_NOT_AVAILABLE, which a new leader answers while
// its high watermark lags behind the start offset of its epoch.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (b *Broker) handleListOffsets(w *sim.World, env *sim.Envelope, m *protocol.ListOffsetsRequest) {
	resp := &protocol.ListOffsetsResponse{}
	for _, lp := range m.Partitions {
		resp.Partitions = append(resp.Partitions, b.listOffset(lp, m.IsolationLevel))
	}
	b.reply(w, env, resp)
}

func (b *Broker) listOffset(lp protocol.ListOffsetsPartition, isolation int8) protocol.ListOffsetsPartitionResponse {
	r := protocol.ListOffsetsPartitionResponse{TopicPartition: lp.TopicPartition, Timestamp: -1, Offset: -1, LeaderEpoch: -1}
	ps, ok := b.isLeader(lp.TopicPartition)
	switch {
	case ps == nil:
		r.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
		return r
	case !ok:
		r.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
		return r
	case lp.CurrentLeaderEpoch >= 0 && lp.CurrentLeaderEpoch < ps.LeaderEpoch:
		r.ErrorCode = protocol.FENCED_LEADER_EPOCH
		return r
	case lp.CurrentLeaderEpoch > ps.LeaderEpoch:
		r.ErrorCode = protocol.UNKNOWN_LEADER_EPOCH
		return r
	}
	log := b.Disk.Log(lp.TopicPartition)
	fetchable := log.HighWatermark
	if isolation == protocol.ReadCommitted {
		fetchable = log.LSO()
	}
	switch lp.Timestamp {
	case protocol.LatestTimestamp:
		r.Offset, r.LeaderEpoch = fetchable, ps.LeaderEpoch
		return r
	case protocol.EarliestTimestamp:
		r.Offset, r.LeaderEpoch = 0, ps.LeaderEpoch
		if len(log.Batches) > 0 {
			r.Offset, r.LeaderEpoch = log.Batches[0].BaseOffset, log.Batches[0].PartitionLeaderEpoch
		}
		return r
	}
	var found *protocol.RecordBatch
	if lp.Timestamp == protocol.MaxTimestamp {
		if n := len(log.Batches); n > 0 {
			found = &log.Batches[n-1]
		}
	} else {
		for i := range log.Batches {
			if log.Batches[i].Timestamp >= lp.Timestamp {
				found = &log.Batches[i]
				break
			}
		}
	}
	if found != nil && found.BaseOffset < fetchable {
		r.Timestamp, r.Offset, r.LeaderEpoch = found.Timestamp, found.BaseOffset, found.PartitionLeaderEpoch
	}
	return r
}
