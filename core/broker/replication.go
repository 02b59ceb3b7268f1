package broker

import (
	"sort"

	"txnlab/core/partition"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Replication is Kafka's: followers send Fetch (ReplicaId = their id) to
// the leader; the leader learns each follower's log end offset from the
// fetch offset, advances the high watermark to the smallest among the
// in-sync replicas, and answers with new data and its high watermark. A
// fetch with nothing new is parked at the leader until something changes
// (Kafka's long poll, with no timeout so an idle cluster stays quiet).

type fetchTimeout struct {
	leader int32
	msgID  int64
}

// ensureFetchers sends one Fetch to each leader this broker follows that
// has none outstanding.
func (b *Broker) ensureFetchers(w *sim.World) {
	byLeader := map[int32][]protocol.FetchPartition{}
	for _, p := range b.Meta.SortedPartitions() {
		if p.Leader < 0 || p.Leader == b.ID || !p.IsReplica(b.ID) || !b.Meta.Alive[p.Leader] {
			continue
		}
		log := b.Disk.Log(p.TP)
		last := int32(-1)
		if n := len(log.Batches); n > 0 {
			last = log.Batches[n-1].PartitionLeaderEpoch
		}
		byLeader[p.Leader] = append(byLeader[p.Leader], protocol.FetchPartition{
			TopicPartition: p.TP, FetchOffset: log.LogEndOffset(), LastFetchedEpoch: last})
	}
	leaders := make([]int32, 0, len(byLeader))
	for l := range byLeader {
		leaders = append(leaders, l)
	}
	sort.Slice(leaders, func(i, j int) bool { return leaders[i] < leaders[j] })
	for _, l := range leaders {
		if _, busy := b.fetching[l]; busy {
			continue
		}
		req := &protocol.FetchRequest{ReplicaId: b.ID, Partitions: byLeader[l]}
		id := w.SendInternal(b.Node, NodeID(l), req, 0)
		b.fetching[l] = id
		w.AfterBackground(b.Node, b.Cfg.RequestTimeoutMs, "fetch-timeout", fetchTimeout{leader: l, msgID: id})
	}
}

// handleReplicaFetch is the leader side of a follower's fetch.
func (b *Broker) handleReplicaFetch(w *sim.World, env *sim.Envelope, m *protocol.FetchRequest) {
	for _, fp := range m.Partitions {
		p, ok := b.isLeader(fp.TopicPartition)
		if !ok {
			continue
		}
		log := b.Disk.Log(fp.TopicPartition)
		if fp.FetchOffset > b.endOffsetForEpoch(log, fp.LastFetchedEpoch) {
			continue // diverged: the answer tells it to truncate
		}
		f := b.followers[fp.TopicPartition][m.ReplicaId]
		if f == nil {
			f = &followerState{lastCaughtUp: w.Now()}
			b.followers[fp.TopicPartition][m.ReplicaId] = f
		}
		f.leo = fp.FetchOffset
		if fp.FetchOffset >= log.LogEndOffset() {
			f.lastCaughtUp = w.Now()
			if !p.InISR(m.ReplicaId) && b.Meta.Alive[m.ReplicaId] {
				p.ISR = append(p.ISR, m.ReplicaId)
				sort.Slice(p.ISR, func(i, j int) bool { return p.ISR[i] < p.ISR[j] })
				w.Record(sim.Event{Kind: sim.KindNote, Node: b.Node, Subject: fp.TopicPartition.String(),
					Text: "ISR expands: broker-" + itoa(int64(m.ReplicaId)) + " caught up", Internal: isInternalTopic(fp.TopicPartition.Topic)})
			}
		}
		b.maybeAdvanceHW(w, fp.TopicPartition)
	}
	if b.hasNews(m) {
		b.answerReplicaFetch(w, env, m)
		return
	}
	if old := b.parked[m.ReplicaId]; old != nil && old.ID != env.ID {
		b.answerReplicaFetch(w, old, old.Msg.(*protocol.FetchRequest))
	}
	b.parked[m.ReplicaId] = env
}

// endOffsetForEpoch is the offset where epoch ended in the leader's log:
// the first offset written in a later epoch, or the log end.
func (b *Broker) endOffsetForEpoch(l *partition.Log, epoch int32) int64 {
	// Epochs only grow along a log, so scan back from the end: a follower
	// is almost always at the latest epoch.
	for i := len(l.Batches) - 1; i >= 0; i-- {
		if l.Batches[i].PartitionLeaderEpoch <= epoch {
			if i == len(l.Batches)-1 {
				return l.LogEndOffset()
			}
			return l.Batches[i+1].BaseOffset
		}
	}
	if len(l.Batches) > 0 {
		return l.Batches[0].BaseOffset
	}
	return 0
}

// hasNews reports whether the fetch can be answered with something new:
// data past its offsets, a high watermark it has not seen, a divergence,
// or a partition this broker no longer leads.
func (b *Broker) hasNews(m *protocol.FetchRequest) bool {
	for _, fp := range m.Partitions {
		if _, ok := b.isLeader(fp.TopicPartition); !ok {
			return true
		}
		log := b.Disk.Log(fp.TopicPartition)
		if fp.FetchOffset < log.LogEndOffset() || fp.FetchOffset > b.endOffsetForEpoch(log, fp.LastFetchedEpoch) {
			return true
		}
		if f := b.followers[fp.TopicPartition][m.ReplicaId]; f != nil && log.HighWatermark > f.sentHW {
			return true
		}
	}
	return false
}

func (b *Broker) answerReplicaFetch(w *sim.World, env *sim.Envelope, m *protocol.FetchRequest) {
	resp := &protocol.FetchResponse{}
	for _, fp := range m.Partitions {
		pd := protocol.FetchPartitionData{TopicPartition: fp.TopicPartition, HighWatermark: -1, LastStableOffset: -1}
		if _, ok := b.isLeader(fp.TopicPartition); !ok {
			pd.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			resp.Responses = append(resp.Responses, pd)
			continue
		}
		log := b.Disk.Log(fp.TopicPartition)
		if end := b.endOffsetForEpoch(log, fp.LastFetchedEpoch); fp.FetchOffset > end {
			pd.Diverging, pd.DivergingEndOffset = true, end
		} else {
			pd.Records = log.Read(fp.FetchOffset, log.LogEndOffset())
		}
		pd.HighWatermark = log.HighWatermark
		pd.LastStableOffset = log.LSO()
		if f := b.followers[fp.TopicPartition][m.ReplicaId]; f != nil {
			f.sentHW = log.HighWatermark
		}
		resp.Responses = append(resp.Responses, pd)
	}
	w.SendInternal(b.Node, env.From, resp, env.ID)
}

// wakeParked answers parked follower fetches that include tp.
func (b *Broker) wakeParked(w *sim.World, tp protocol.TopicPartition) {
	for _, id := range sortedIDs(b.parked) {
		env := b.parked[id]
		m := env.Msg.(*protocol.FetchRequest)
		for _, fp := range m.Partitions {
			if fp.TopicPartition == tp {
				delete(b.parked, id)
				b.answerReplicaFetch(w, env, m)
				break
			}
		}
	}
}

// handleFetchResponse is the follower side: append, truncate, learn the
// high watermark, fetch again.
func (b *Broker) handleFetchResponse(w *sim.World, env *sim.Envelope, m *protocol.FetchResponse) {
	leader, ok := IDOf(env.From)
	if !ok || b.fetching[leader] != env.ReplyTo {
		return // a stale answer to a fetch we gave up on
	}
	delete(b.fetching, leader)
	for _, pd := range m.Responses {
		p := b.Meta.Partitions[pd.TopicPartition]
		if pd.ErrorCode != protocol.NONE || p == nil || p.Leader == b.ID || !p.IsReplica(b.ID) {
			continue
		}
		log := b.Disk.Log(pd.TopicPartition)
		if pd.Diverging {
			if pd.DivergingEndOffset < log.LogEndOffset() {
				w.Note(b.Node, pd.TopicPartition.String(), "truncate to offset "+itoa(pd.DivergingEndOffset)+" (diverged from the leader)")
				log.TruncateTo(pd.DivergingEndOffset)
			}
			continue
		}
		before := log.LogEndOffset()
		log.AppendReplica(pd.Records, int64(w.Now()))
		for _, batch := range pd.Records {
			if batch.BaseOffset >= before {
				b.afterAppend(w, pd.TopicPartition, batch.BaseOffset, true)
			}
		}
		hw := pd.HighWatermark
		if end := log.LogEndOffset(); hw > end {
			hw = end
		}
		log.SetHighWatermark(hw)
	}
	b.ensureFetchers(w)
}
