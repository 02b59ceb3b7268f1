package broker

import (
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// handleProduce validates and appends each partition's batch as its leader
// (UnifiedLog.appendAsLeader) and answers once every partition is done:
// at once for acks=0/1, after replication to the in-sync replicas for
// acks=all.
func (b *Broker) handleProduce(w *sim.World, env *sim.Envelope, m *protocol.ProduceRequest) {
	if b.startProduceVerification(w, env, m) {
		return // produceAppend runs when the coordinator answers (verify.go)
	}
	b.produceAppend(w, env, m, nil)
}

// produceAppend is the append half of a produce request, after the
// KIP-890 verification v (nil when there was none): a partition whose
// verification failed answers its mapped error, the others append with
// their guard.
func (b *Broker) produceAppend(w *sim.World, env *sim.Envelope, m *protocol.ProduceRequest, v *verification) {
	ch := checks(w)
	ch.Verification = m.TransactionalId != "" && b.verifies(w, protocol.VersionOf(m) >= protocol.ProduceTV2Version)
	resp := &protocol.ProduceResponse{Responses: make([]protocol.ProducePartitionResponse, len(m.Partitions))}
	// looping keeps a write that completes synchronously (already
	// replicated) from answering before the other partitions are done.
	waiting, looping := 0, true
	finish := func(w *sim.World) {
		if waiting == 0 && !looping {
			b.reply(w, env, resp)
		}
	}
	for i, pd := range m.Partitions {
		r := &resp.Responses[i]
		r.TopicPartition, r.BaseOffset = pd.TopicPartition, -1
		p, ok := b.isLeader(pd.TopicPartition)
		switch {
		case b.Meta.Partitions[pd.TopicPartition] == nil:
			r.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
			continue
		case !ok:
			r.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			continue
		case m.Acks == -1 && len(p.ISR) < p.MinISR:
			r.ErrorCode = protocol.NOT_ENOUGH_REPLICAS
			continue
		}
		var guard int64
		if v != nil {
			if err := v.errs[pd.TopicPartition]; err != protocol.NONE {
				r.ErrorCode = err
				continue
			}
			guard = v.guards[pd.TopicPartition]
		}
		log := b.Disk.Log(pd.TopicPartition)
		res := log.AppendAsLeaderVerified(pd.Records, p.LeaderEpoch, int64(w.Now()), ch, guard)
		r.ErrorCode, r.BaseOffset = res.Err, res.BaseOffset
		if res.Err != protocol.NONE {
			continue
		}
		if res.Duplicate {
			w.Note(b.Node, pd.TopicPartition.String(), "duplicate batch (seq "+itoa(int64(pd.Records.BaseSequence))+") answered with its original offset "+itoa(res.BaseOffset))
		} else {
			b.afterAppend(w, log, res.BaseOffset, false)
		}
		if m.Acks != -1 {
			continue
		}
		need := res.BaseOffset + int64(len(pd.Records.Records))
		waiting++
		b.awaitHW(w, log, need, sim.Time(m.TimeoutMs), func(w *sim.World, err protocol.ErrorCode) {
			if err != protocol.NONE {
				r.ErrorCode = err
			}
			waiting--
			finish(w)
		})
	}
	looping = false
	finish(w)
}

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
			if b.Meta.Partitions[fp.TopicPartition] == nil {
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

// handleWriteTxnMarkers appends one control batch per partition
// (KafkaApis.handleWriteTxnMarkersRequest) with acks=-1 and
// request.timeout.ms, and answers when every append has completed. On
// __consumer_offsets partitions the group coordinator then materialises or
// drops the transaction's pending offsets.
func (b *Broker) handleWriteTxnMarkers(w *sim.World, env *sim.Envelope, m *protocol.WriteTxnMarkersRequest) {
	resp := &protocol.WriteTxnMarkersResponse{Markers: make([]protocol.WritableTxnMarkerResult, len(m.Markers))}
	// looping keeps a write that completes synchronously (already
	// replicated) from answering before the other partitions are done.
	waiting, looping := 0, true
	finish := func(w *sim.World) {
		if waiting == 0 && !looping {
			b.reply(w, env, resp)
		}
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
			if b.Meta.Partitions[tp] == nil {
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
			res := log.AppendMarker(mk.ProducerId, mk.ProducerEpoch, ct, mk.CoordinatorEpoch, p.LeaderEpoch, int64(w.Now()), checks(w))
			if res.Err != protocol.NONE {
				r.ErrorCode = res.Err
				continue
			}
			b.afterAppend(w, log, res.Offset, false)
			waiting++
			pid, commit := mk.ProducerId, mk.TransactionResult
			b.awaitHW(w, log, res.Offset+1, b.Cfg.RequestTimeoutMs, func(w *sim.World, err protocol.ErrorCode) {
				r.ErrorCode = err
				if err == protocol.NONE && tp.Topic == protocol.ConsumerOffsetsTopic {
					b.Group.OnMarker(w, tp.Partition, pid, commit)
				}
				waiting--
				finish(w)
			})
		}
	}
	looping = false
	finish(w)
}
