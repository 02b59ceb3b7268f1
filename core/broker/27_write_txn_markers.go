package broker

// WriteTxnMarkers (key 27), the partition leader's side:
// KafkaApis.handleWriteTxnMarkersRequest, Kafka 3.5. The coordinator's
// side (who sends them, retries, completion) is
// txncoord/27_write_txn_markers.go.
//
// - Per partition: unknown → UNKNOWN_TOPIC_OR_PARTITION; not the leader →
//   NOT_LEADER_OR_FOLLOWER; fewer in-sync replicas than
//   min.insync.replicas → NOT_ENOUGH_REPLICAS; otherwise one control batch
//   (COMMIT or ABORT) is appended with the coordinator epoch, which the log
//   checks (TRANSACTION_COORDINATOR_FENCED, INVALID_PRODUCER_EPOCH).
// - Each append waits for acks=all within request.timeout.ms; on
//   __consumer_offsets the group coordinator then materialises or drops
//   the transaction's pending offsets.
//
// One response per request, when every partition is done.

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// handleWriteTxnMarkers appends one control batch per partition
// (KafkaApis.handleWriteTxnMarkersRequest) with acks=-1 and
// request.timeout.ms, and answers when every append has completed. On
// __consumer_offsets partitions the group coordinator then materialises or
// drops the transaction's pending offsets.
func (b *Broker) handleWriteTxnMarkers(w *sim.World, env *sim.Envelope, m *protocol.WriteTxnMarkersRequest) {
	mc := &markering{b: b, env: env, looping: true}
	resp := &mc.resp
	if len(m.Markers) == 1 {
		resp.Markers = mc.one[:]
	} else {
		resp.Markers = make([]protocol.WritableTxnMarkerResult, len(m.Markers))
	}
	for i, mk := range m.Markers {
		resp.Markers[i] = protocol.WritableTxnMarkerResult{ProducerId: mk.ProducerId, Partitions: make([]protocol.PartitionError, len(mk.Partitions))}
		ct := protocol.ControlAbort
		if mk.TransactionResult {
			ct = protocol.ControlCommit
		}
		for j, tp := range mk.Partitions {
			r := &resp.Markers[i].Partitions[j]
			r.TopicPartition = tp
			p, ok := b.isLeader(tp)
			if b.Meta.Partition(tp) == nil {
				r.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
				continue
			}
			if !ok {
				r.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
				continue
			}
			if len(p.ISR) < p.MinISR {
				r.ErrorCode = protocol.NOT_ENOUGH_REPLICAS
				continue
			}
			log := b.Disk.Log(tp)
			chk := checks(w)
			// The cluster's finalized transaction.version stands for
			// WriteTxnMarkers v2's per-marker TransactionVersion: every
			// txnlab client follows the finalized version. Breaking
			// epoch-bump takes the check with the bump it relies on.
			chk.StrictMarkerEpoch = b.Cfg.TransactionVersion >= 2 && !w.Broken(safety.EpochBump)
			res := log.AppendMarker(mk.ProducerId, mk.ProducerEpoch, ct, mk.CoordinatorEpoch, p.LeaderEpoch, int64(w.Now()), chk)
			if res.Err != protocol.NONE {
				r.ErrorCode = res.Err
				continue
			}
			b.afterAppend(w, log, res.Offset, false)
			mc.waiting++
			pid, commit := mk.ProducerId, mk.TransactionResult
			b.awaitHW(w, log, res.Offset+1, b.Cfg.RequestTimeoutMs, func(w *sim.World, err protocol.ErrorCode) {
				r.ErrorCode = err
				if err == protocol.NONE && tp.Topic == protocol.ConsumerOffsetsTopic {
					b.Group.OnMarker(w, tp.Partition, pid, commit)
				}
				mc.waiting--
				mc.finish(w)
			})
		}
	}
	mc.looping = false
	mc.finish(w)
}

// markering is one WriteTxnMarkers request's answer while its appends
// complete: one allocation where the response, its one marker (the
// common case), the two counters and the closure that answers were
// five.
type markering struct {
	b    *Broker
	env  *sim.Envelope
	resp protocol.WriteTxnMarkersResponse
	one  [1]protocol.WritableTxnMarkerResult
	// waiting counts the appends still awaiting replication; looping
	// keeps a write that completes synchronously (already replicated)
	// from answering before the other partitions are done.
	waiting int
	looping bool
}

// finish answers once no append is pending.
func (mc *markering) finish(w *sim.World) {
	if mc.waiting == 0 && !mc.looping {
		mc.b.reply(w, mc.env, &mc.resp)
	}
}
