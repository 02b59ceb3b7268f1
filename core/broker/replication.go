package broker

import (
	"slices"
	"sort"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Replication is Kafka's: followers send Fetch (ReplicaId = their id) to
// the leader; the leader learns each follower's log end offset from the
// fetch offset, advances the high watermark to the smallest among the
// in-sync replicas, and answers with new data and its high watermark.
//
// Fetches run in incremental sessions (KIP-227): a follower's first
// request lists every partition it follows from that leader, later ones
// only the partitions whose offset moved, and the leader answers with only
// the partitions that have news. A fetch with nothing new is parked at the
// leader until something changes (Kafka's long poll, without its 500 ms
// timeout so an idle cluster stays quiet).

type fetchTimeout struct {
	leader int32
	msgID  int64
}

// fetchSession is the follower's side of one session with a leader.
type fetchSession struct {
	leader     int32
	partitions []*followed
	epoch      int32
	// dirty counts the partitions marked dirty: a follower answers every
	// fetch response with the next fetch, and most of those list nothing
	// new, so ensureFetchers need not walk the partitions to learn it.
	dirty int
}

// followed is a partition in a fetch session: its replica log, and
// whether the next incremental fetch must list it (its offset moved).
type followed struct {
	tp      protocol.TopicPartition
	log     *partition.Log
	session *fetchSession
	dirty   bool
}

// markDirty makes the next incremental fetch of f's session list f.
func (f *followed) markDirty() {
	if !f.dirty {
		f.dirty = true
		f.session.dirty++
	}
}

// rebuildSessions recomputes which partitions this broker follows from
// which leader, after the metadata changed: every session starts afresh.
func (b *Broker) rebuildSessions() {
	b.sessions = map[int32]*fetchSession{}
	b.sessionOrder = b.sessionOrder[:0]
	parts := b.Meta.SortedPartitions()
	n := 0
	perLeader := make([]int, b.Meta.NumBrokers)
	for _, p := range parts {
		if p.Leader >= 0 && p.Leader != b.ID && p.IsReplica(b.ID) {
			n++
			if int(p.Leader) < len(perLeader) {
				perLeader[p.Leader]++
			}
		}
	}
	// One allocation for every followed partition, and a table reused:
	// a new cluster's brokers each follow some seventy partitions.
	all := make([]followed, 0, n)
	b.following.Reset() // keeps its slices: no allocation after the first
	for _, p := range parts {
		if p.Leader < 0 || p.Leader == b.ID || !p.IsReplica(b.ID) {
			continue
		}
		s := b.sessions[p.Leader]
		if s == nil {
			s = &fetchSession{leader: p.Leader}
			if int(p.Leader) < len(perLeader) {
				s.partitions = make([]*followed, 0, perLeader[p.Leader])
			}
			b.sessions[p.Leader] = s
			b.sessionOrder = append(b.sessionOrder, s)
		}
		all = append(all, followed{tp: p.TP, log: b.Disk.Log(p.TP), session: s})
		f := &all[len(all)-1]
		s.partitions = append(s.partitions, f)
		b.following.Set(p.TP, f)
	}
	sort.Slice(b.sessionOrder, func(i, j int) bool { return b.sessionOrder[i].leader < b.sessionOrder[j].leader })
	b.sessionsVersion = b.Meta.Version
}

// fetches is the message id of the outstanding fetch per leader id, 0
// for none (message ids start at 1). A slice, not a map: brokers are
// numbered from 0, and the map's assignment at every fetch cost more than
// building the fetch.
type fetches []int64

func (f fetches) of(leader int32) int64 {
	if leader < 0 || int(leader) >= len(f) {
		return 0
	}
	return f[leader]
}

func (f *fetches) set(leader int32, id int64) {
	for int(leader) >= len(*f) {
		*f = append(*f, 0)
	}
	(*f)[leader] = id
}

func (f fetches) clear(leader int32) {
	if leader >= 0 && int(leader) < len(f) {
		f[leader] = 0
	}
}

func (f *fetches) reset() { clear(*f) }

// ensureFetchers sends one Fetch to each leader this broker follows that
// has none outstanding.
func (b *Broker) ensureFetchers(w *sim.World) {
	if b.sessionsVersion != b.Meta.Version {
		b.rebuildSessions()
		b.fetching.reset()
	}
	for _, s := range b.sessionOrder {
		l := s.leader
		if b.fetching.of(l) != 0 || !b.Meta.Alive[l] {
			continue
		}
		n := s.dirty
		if s.epoch == 0 {
			n = len(s.partitions)
		}
		req := b.fetchReqs.New()
		*req = protocol.FetchRequest{ReplicaId: b.ID, SessionEpoch: s.epoch, Partitions: b.fetchParts.Make(n)}
		if s.epoch == 0 || s.dirty > 0 {
			for _, f := range s.partitions {
				if s.epoch == 0 || f.dirty {
					req.Partitions = append(req.Partitions, fetchPartition(f))
				}
				f.dirty = false
			}
			s.dirty = 0
		}
		s.epoch++
		id := w.SendInternal(b.Node, NodeID(l), req, 0)
		b.fetching.set(l, id)
		// A parked fetch may wait for hours on an idle cluster: only
		// when the network can lose messages does the follower give up
		// on one after request.timeout.ms (heal restarts the sessions).
		if w.Net.Lossy() {
			w.AfterBackground(b.Node, b.Cfg.RequestTimeoutMs, "fetch-timeout", fetchTimeout{leader: l, msgID: id})
		}
	}
}

func fetchPartition(f *followed) protocol.FetchPartition {
	last := int32(-1)
	if n := len(f.log.Batches); n > 0 {
		last = f.log.Batches[n-1].PartitionLeaderEpoch
	}
	return protocol.FetchPartition{TopicPartition: f.tp, FetchOffset: f.log.LogEndOffset(), LastFetchedEpoch: last}
}

// markFollowedDirty makes the next fetch list tp, when this broker
// follows it.
func (b *Broker) markFollowedDirty(tp protocol.TopicPartition) {
	if f := b.following.Get(tp); f != nil {
		f.markDirty()
	}
}

// markFollowedDirtyAt is markFollowedDirty with tp's entry at hand, when
// the caller found it (f is nil otherwise).
func (b *Broker) markFollowedDirtyAt(f *followed, tp protocol.TopicPartition) {
	if f != nil {
		f.markDirty()
		return
	}
	b.markFollowedDirty(tp)
}

// ArmFetchTimeouts gives every outstanding fetch a request timeout: the
// network just became able to lose messages (a drop rule or a cut), and a
// lost answer must not leave a follower waiting forever.
func (b *Broker) ArmFetchTimeouts(w *sim.World) {
	for _, s := range b.sessionOrder {
		if id := b.fetching.of(s.leader); id != 0 {
			w.AfterBackground(b.Node, b.Cfg.RequestTimeoutMs, "fetch-timeout", fetchTimeout{leader: s.leader, msgID: id})
		}
	}
}

// RestartFetchers forgets outstanding fetches and opens new sessions with
// every leader: after the network heals, an answer may have been lost.
func (b *Broker) RestartFetchers(w *sim.World) {
	b.fetching.reset()
	for _, s := range b.sessionOrder {
		s.epoch = 0
	}
	b.ensureFetchers(w)
}

// restartSession makes the next fetch to leader a full one (after a lost
// request, the leader may have forgotten the session).
func (b *Broker) restartSession(leader int32) {
	if s := b.sessions[leader]; s != nil {
		s.epoch = 0
	}
}

// addNews records news on tp for follower, once.
func (b *Broker) addNews(follower int32, tp protocol.TopicPartition) {
	news := b.newsOf(follower)
	list := *news
	for _, have := range list {
		if have == tp {
			return
		}
	}
	*news = append(list, tp)
}

// newsOf is the list of partitions with news for follower (a replica
// id, never negative: consumers' fetches carry -1 and go elsewhere).
func (b *Broker) newsOf(follower int32) *[]protocol.TopicPartition {
	for int(follower) >= len(b.news) {
		b.news = append(b.news, nil)
	}
	return &b.news[follower]
}

// markDirty records news on tp for every follower of it.
func (b *Broker) markDirty(tp protocol.TopicPartition) {
	if l := b.led.Get(tp); l != nil {
		b.markLedDirty(l)
	}
}

// markLedDirty is markDirty for a led partition at hand.
func (b *Broker) markLedDirty(l *leadership) {
	for _, f := range l.followers {
		b.addNews(f.id, l.p.TP)
	}
}

// handleReplicaFetch is the leader side of a follower's fetch.
func (b *Broker) handleReplicaFetch(w *sim.World, env *sim.Envelope, m *protocol.FetchRequest) {
	if env.ID < b.latestFetch.of(m.ReplicaId) {
		// A fetch the follower sent before a newer one it already
		// made (a delayed message, then a heal that restarted its
		// sessions). Kafka sees no such reordering on one connection,
		// and a request left on an abandoned connection changes
		// nothing the follower's live session relies on: the leader
		// recomputes each partition from that session's own offsets at
		// its next fetch. Here a follower has one session per leader,
		// so the stale fetch is answered empty and changes nothing;
		// acting on it put the follower's offsets back and spent its
		// news on an answer it ignores, and the follower then waited
		// for ever (issue 25's explorer, seed 1100175977).
		w.SendInternal(b.Node, env.From, &protocol.FetchResponse{}, env.ID)
		return
	}
	b.latestFetch.set(m.ReplicaId, env.ID)
	if m.SessionEpoch == 0 {
		news := b.newsOf(m.ReplicaId)
		*news = (*news)[:0]
	}
	for _, fp := range m.Partitions {
		tp := fp.TopicPartition
		l := b.led.Get(tp)
		if l == nil || l.p.Leader != b.ID {
			if l != nil {
				if f := l.follower(m.ReplicaId); f != nil {
					f.listed = env.ID
				}
			}
			b.addNews(m.ReplicaId, tp) // answered NOT_LEADER_OR_FOLLOWER
			continue
		}
		f := l.follower(m.ReplicaId)
		if f == nil {
			f = &followerState{id: m.ReplicaId, lastCaughtUp: w.Now(), sentHW: -1}
			l.followers = append(l.followers, f)
			b.ledChanged()
		}
		f.listed = env.ID
		if m.SessionEpoch == 0 {
			f.sentHW = -1 // a new session learns the high watermark afresh
		}
		f.fetchOffset, f.lastFetchedEpoch = fp.FetchOffset, fp.LastFetchedEpoch
		if div, _, _ := diverged(l.log, fp.FetchOffset, fp.LastFetchedEpoch); div {
			// A diverged follower's offset says nothing of what it holds
			// of this leader's log: Kafka updates the follower's fetch
			// state only when the read found no divergence
			// (Partition.fetchRecords), so it counts for neither the high
			// watermark nor the ISR. Counting it acknowledged an acks=all
			// record that only the leader had (issue 25's explorer, seed
			// 800233460 under Kafka 4.0's settings).
			b.addNews(m.ReplicaId, tp) // the answer tells it to truncate
			continue
		}
		f.leo = fp.FetchOffset
		b.noteCaughtUp(w, l, f)
		if fp.FetchOffset < l.log.LogEndOffset() || l.log.HighWatermark > f.sentHW {
			b.addNews(m.ReplicaId, tp)
		}
		if fp.FetchOffset < l.log.LogEndOffset() {
			b.scheduleISRCheck(w)
		}
		b.advanceLedHW(w, l)
	}
	if m.SessionEpoch > 0 {
		b.sessionCaughtUp(w, env.ID, m.ReplicaId)
	}
	if old := b.parked[m.ReplicaId]; old != nil && old.ID != env.ID {
		// Superseded. Answer it empty rather than forget it: a fetch
		// delayed on the wire may arrive after the follower's newer one,
		// and the parked one may be the fetch the follower waits for
		// (a follower ignores answers to fetches it gave up on; Kafka
		// answers every fetch, at worst empty after fetch.max.wait.ms).
		delete(b.parked, m.ReplicaId)
		w.SendInternal(b.Node, old.From, &protocol.FetchResponse{}, old.ID)
	}
	if len(*b.newsOf(m.ReplicaId)) > 0 {
		b.answerReplicaFetch(w, env, m.ReplicaId)
		return
	}
	b.parked[m.ReplicaId] = env
}

// sessionCaughtUp: a partition left out of an incremental fetch is still
// in the session, at the offset the follower last sent, and Kafka updates
// the follower's state for it at every fetch too (FetchSession), so an
// idle partition keeps its caught-up followers in the ISR. The scan runs
// at every follower fetch: it first stamps times, then takes the rare
// followers back into the ISR in partition order, by partition, since
// what that completes may re-elect.
func (b *Broker) sessionCaughtUp(w *sim.World, fetch int64, replica int32) {
	var grow []protocol.TopicPartition
	for _, lf := range b.followedBy(replica) {
		l, f := lf.l, lf.f
		if f.listed == fetch || f.leo < l.log.LogEndOffset() {
			continue
		}
		f.lastCaughtUp = w.Now()
		if !l.p.InISR(replica) && b.Meta.Alive[replica] {
			grow = append(grow, l.p.TP)
		}
	}
	for _, tp := range grow {
		if l := b.led.Get(tp); l != nil {
			if f := l.follower(replica); f != nil && b.noteCaughtUp(w, l, f) {
				b.advanceLedHW(w, l)
			}
		}
	}
}

// noteCaughtUp records that a follower whose log reaches the leader's end
// is caught up now, and takes it back into the ISR; it reports whether
// the ISR grew.
func (b *Broker) noteCaughtUp(w *sim.World, l *leadership, f *followerState) bool {
	if f.leo < l.log.LogEndOffset() {
		return false
	}
	p, replica := l.p, f.id
	f.lastCaughtUp = w.Now()
	if p.InISR(replica) || !b.Meta.Alive[replica] {
		return false
	}
	if p.Leader != b.ID || p.LeaderEpoch != l.epoch {
		// A replaced leader that has not heard (a zombie): the
		// controller rejects its AlterPartition (stale leader epoch).
		return false
	}
	p.ISR = append(p.ISR, replica)
	slices.Sort(p.ISR)
	w.Record(sim.Event{Kind: sim.KindNote, Node: b.Node, Subject: p.TP.String(),
		Note: sim.NewNote(sim.NoteISRExpands, "broker-"+itoa(int64(replica))), Internal: isInternalTopic(p.TP.Topic)})
	// The expansion is a partition change like any other: until 3.8 the
	// broker's coordinators reload the partition (OnMetadataChange).
	l.isr = slices.Clone(p.ISR)
	if !b.Cfg.KeepCoordinatorOnPartitionChange {
		b.reloadCoordinators(w, p)
	}
	return true
}

// epochEnd answers OffsetForLeaderEpoch from the leader's log: the
// largest epoch not above epoch that the log holds, and the offset where
// it ends (the first offset of a later epoch, or the log end). With no
// such epoch it returns (-1, the log start).
func epochEnd(l *partition.Log, epoch int32) (int32, int64) {
	// Epochs only grow along a log, so scan back from the end: a follower
	// is almost always at the latest epoch.
	for i := len(l.Batches) - 1; i >= 0; i-- {
		if e := l.Batches[i].PartitionLeaderEpoch; e <= epoch {
			if i == len(l.Batches)-1 {
				return e, l.LogEndOffset()
			}
			return e, l.Batches[i+1].BaseOffset
		}
	}
	if len(l.Batches) > 0 {
		return -1, l.Batches[0].BaseOffset
	}
	return -1, 0
}

// diverged is the leader's check of a follower's position
// (Partition.readRecords with lastFetchedEpoch): the follower's last
// epoch is unknown here, or its log runs past where that epoch ended.
func diverged(l *partition.Log, fetchOffset int64, lastFetchedEpoch int32) (bool, int32, int64) {
	if lastFetchedEpoch < 0 {
		return false, 0, 0
	}
	e, end := epochEnd(l, lastFetchedEpoch)
	if e < lastFetchedEpoch || end < fetchOffset {
		return true, e, end
	}
	return false, 0, 0
}

// answerReplicaFetch answers with every partition that has news for the
// follower.
func (b *Broker) answerReplicaFetch(w *sim.World, env *sim.Envelope, follower int32) {
	news := b.newsOf(follower)
	tps := *news
	slices.SortFunc(tps, protocol.TopicPartition.Compare)
	resp := b.fetchResps.New()
	resp.Responses = b.fetchData.Make(len(tps))
	for _, tp := range tps {
		pd := protocol.FetchPartitionData{TopicPartition: tp, HighWatermark: -1, LastStableOffset: -1}
		var f *followerState
		l := b.led.Get(tp)
		if l != nil {
			f = l.follower(follower)
		}
		if l == nil || l.p.Leader != b.ID || f == nil {
			pd.ErrorCode = protocol.NOT_LEADER_OR_FOLLOWER
			resp.Responses = append(resp.Responses, pd)
			continue
		}
		log := l.log
		if div, e, end := diverged(log, f.fetchOffset, f.lastFetchedEpoch); div {
			pd.Diverging, pd.DivergingEpoch, pd.DivergingEndOffset = true, e, end
		} else {
			pd.Records = log.Read(f.fetchOffset, log.LogEndOffset())
		}
		pd.HighWatermark, pd.LastStableOffset = log.HighWatermark, log.LSO()
		f.sentHW = log.HighWatermark
		resp.Responses = append(resp.Responses, pd)
	}
	*news = tps[:0]
	w.SendInternal(b.Node, env.From, resp, env.ID)
}

// wakeParked answers the parked fetches of followers that now have news,
// and the waiting consumer fetches that can now complete.
func (b *Broker) wakeParked(w *sim.World) {
	b.tryCompleteDelayedFetches(w)
	if len(b.parked) == 0 {
		return
	}
	for _, id := range sortedIDs(b.parked) {
		if len(*b.newsOf(id)) == 0 {
			continue
		}
		env := b.parked[id]
		delete(b.parked, id)
		b.answerReplicaFetch(w, env, id)
	}
}

// handleFetchResponse is the follower side: append, truncate, learn the
// high watermark, fetch again.
func (b *Broker) handleFetchResponse(w *sim.World, env *sim.Envelope, m *protocol.FetchResponse) {
	leader, ok := IDOf(env.From)
	if !ok || b.fetching.of(leader) != env.ReplyTo {
		return // a stale answer to a fetch we gave up on
	}
	b.fetching.clear(leader)
	s := b.sessions[leader]
	for _, pd := range m.Responses {
		if pd.ErrorCode != protocol.NONE {
			continue
		}
		// While the sessions are those of the current metadata, a
		// followed partition has a leader other than this broker and
		// this broker among its replicas, and its replica log at hand:
		// one lookup instead of three.
		var f *followed
		if b.sessionsVersion == b.Meta.Version {
			f = b.following.Get(pd.TopicPartition)
		}
		var log *partition.Log
		if f != nil {
			log = f.log
		} else {
			p := b.Meta.Partition(pd.TopicPartition)
			if p == nil || p.Leader == b.ID || !p.IsReplica(b.ID) {
				continue
			}
			log = b.Disk.Log(pd.TopicPartition)
		}
		if pd.Diverging {
			// Truncate to where the epoch the leader named ends in both
			// logs (AbstractFetcherThread.getOffsetTruncationState).
			to := pd.DivergingEndOffset
			if _, own := epochEnd(log, pd.DivergingEpoch); own < to {
				to = own
			}
			if to < log.LogEndOffset() {
				w.Note(b.Node, pd.TopicPartition.String(), sim.NoteTruncate, itoa(to))
				log.TruncateTo(to)
			}
			if s != nil {
				b.markFollowedDirtyAt(f, pd.TopicPartition)
			}
			continue
		}
		before := log.LogEndOffset()
		log.AppendReplica(pd.Records, int64(w.Now()))
		for _, batch := range pd.Records {
			if batch.BaseOffset >= before {
				b.afterAppend(w, log, batch.BaseOffset, true)
			}
		}
		if log.LogEndOffset() != before && s != nil {
			b.markFollowedDirtyAt(f, pd.TopicPartition)
		}
		hw := pd.HighWatermark
		if end := log.LogEndOffset(); hw > end {
			hw = end
		}
		log.SetHighWatermark(hw)
	}
	b.ensureFetchers(w)
}
