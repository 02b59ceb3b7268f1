package broker

// Produce (key 0), the partition leader's side: KafkaApis.handleProduceRequest,
// ReplicaManager.appendRecords and Partition.appendRecordsToLeader, Kafka 3.5.
//
// - Per partition: unknown → UNKNOWN_TOPIC_OR_PARTITION; not the leader →
//   NOT_LEADER_OR_FOLLOWER; acks=all with fewer in-sync replicas than
//   min.insync.replicas → NOT_ENOUGH_REPLICAS; otherwise the log validates
//   the batch (producer state: epoch, sequence, duplicates; partition
//   package) and appends it.
// - A duplicate of one of the producer's retained batches is answered with
//   its original offset and not appended again.
// - acks=1 answers after the leader's append, acks=all once the high
//   watermark covers the batch, or REQUEST_TIMED_OUT after the request's
//   timeout.
// - acks=0 gets no response at all: the producer does not wait for one.
//   When a partition failed, Kafka closes the connection instead, so the
//   client refreshes its metadata; here a note says so (the producer has
//   no connection state a close would change: its next request opens one).
// - With KIP-890 verification (verify.go) the append waits for the
//   coordinator's answer; a partition that failed it answers the mapped
//   error.
//
// One response per request, sent when every partition is done.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// handleProduce validates and appends each partition's batch as its leader
// (UnifiedLog.appendAsLeader) and answers once every partition is done:
// at once for acks=1, after replication to the in-sync replicas for
// acks=all, never for acks=0.
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
	pc := &producing{b: b, env: env, acks: m.Acks, looping: true}
	resp := &pc.resp
	if len(m.Partitions) == 1 {
		resp.Responses = pc.one[:]
	} else {
		resp.Responses = make([]protocol.ProducePartitionResponse, len(m.Partitions))
	}
	for i, pd := range m.Partitions {
		r := &resp.Responses[i]
		r.TopicPartition, r.BaseOffset = pd.TopicPartition, -1
		p, ok := b.isLeader(pd.TopicPartition)
		switch {
		case b.Meta.Partition(pd.TopicPartition) == nil:
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
			w.Note(b.Node, pd.TopicPartition.String(), sim.NoteDuplicateBatch, itoa(int64(pd.Records.BaseSequence)), itoa(res.BaseOffset))
		} else {
			b.afterAppend(w, log, res.BaseOffset, false)
		}
		if m.Acks != -1 {
			continue
		}
		need := res.BaseOffset + int64(len(pd.Records.Records))
		pc.waiting++
		b.awaitHW(w, log, need, sim.Time(m.TimeoutMs), func(w *sim.World, err protocol.ErrorCode) {
			if err != protocol.NONE {
				r.ErrorCode = err
			}
			pc.waiting--
			pc.finish(w)
		})
	}
	pc.looping = false
	pc.finish(w)
}

// producing is one produce request's answer while its writes complete:
// one allocation where the response, its one partition (the common
// case), the two counters and the closure that answers were five.
type producing struct {
	b    *Broker
	env  *sim.Envelope
	resp protocol.ProduceResponse
	one  [1]protocol.ProducePartitionResponse
	acks int16
	// waiting counts the writes still awaiting replication; looping
	// keeps a write that completes synchronously (already replicated)
	// from answering before the other partitions are done.
	waiting int
	looping bool
}

// finish answers once no write is pending.
func (pc *producing) finish(w *sim.World) {
	if pc.waiting == 0 && !pc.looping {
		if pc.acks == 0 {
			pc.b.noProduceResponse(w, pc.env, &pc.resp)
			return
		}
		pc.b.reply(w, pc.env, &pc.resp)
	}
}

// noProduceResponse ends an acks=0 request, which gets no response
// (KafkaApis.handleProduceRequest, sendNoOpResponseExemptThrottle); a
// partition that failed makes Kafka close the connection
// (closeConnection) so the client learns something went wrong.
func (b *Broker) noProduceResponse(w *sim.World, env *sim.Envelope, resp *protocol.ProduceResponse) {
	for _, r := range resp.Responses {
		if r.ErrorCode != protocol.NONE {
			w.Note(b.Node, r.TopicPartition.String(), sim.NoteAcks0Failed, r.ErrorCode.String(), w.Name(env.From))
		}
	}
}
