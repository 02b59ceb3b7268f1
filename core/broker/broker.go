// Package broker is the broker node: it hosts partition replicas, handles
// Produce, Fetch, FindCoordinator and WriteTxnMarkers, replicates by
// follower Fetch, and carries the transaction and group coordinator
// modules for the internal partitions it leads. A crash loses everything
// here except the logs (the Disk); a restart rebuilds from them.
//
// Each API the broker answers itself is in a file named after its key
// (0_produce.go, 1_fetch.go, 10_find_coordinator.go,
// 27_write_txn_markers.go), with a header saying what it does.
package broker

import (
	"slices"
	"sort"
	"strconv"
	"txnlab/core/internal/slab"

	"txnlab/core/groupcoord"
	"txnlab/core/internal/tptable"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
	"txnlab/core/txncoord"
)

// Config is the broker configuration, with Kafka's defaults.
type Config struct {
	Txn   txncoord.Config
	Group groupcoord.Config
	// RequestTimeoutMs is request.timeout.ms: how long an acks=all write
	// (and a marker append) waits for replication.
	RequestTimeoutMs sim.Time
	// ReplicaLagTimeMaxMs is replica.lag.time.max.ms: a follower that has
	// not caught up for this long leaves the ISR.
	ReplicaLagTimeMaxMs sim.Time
	// SessionTimeoutMs is broker.session.timeout.ms: how long the
	// controller waits before fencing a silent broker.
	SessionTimeoutMs sim.Time
	// MinInsyncReplicas is the broker's min.insync.replicas: the default
	// of every topic without its own (a topic created after a change
	// gets the new value). Internal topics keep theirs.
	MinInsyncReplicas int
	// TransactionPartitionVerificationEnable is
	// transaction.partition.verification.enable (KIP-890 part 1, Kafka
	// 3.6+, where it defaults to true; false here, Kafka 3.5's
	// behaviour): a partition leader asks the coordinator before the
	// first transactional write of a producer's transaction.
	TransactionPartitionVerificationEnable bool
	// TransactionVersion is the finalized transaction.version feature
	// (0 and 1 classic, 2 = KIP-890 part 2, Kafka 4.0's default). The
	// clients read it at beginTransaction, as the Java client reads the
	// finalized features from ApiVersions.
	TransactionVersion int16
	// KeepLeaderEpochOnISRShrink is a release's behaviour, not a Kafka
	// setting: KRaft bumps the leader epoch on every ISR shrink with the
	// same leader until metadata.version 3.6-IV0 (KAFKA-15021); set for
	// 3.6 and later (config leader.epoch.bump.on.isr.shrink=false).
	KeepLeaderEpochOnISRShrink bool
	// KeepCoordinatorOnPartitionChange is a release's behaviour too: until
	// 3.8 a broker reloads the coordinator partitions it leads on every
	// change of such a partition, an ISR change with the same leader
	// included (BrokerMetadataPublisher's updateCoordinator); 3.8
	// reloads only when a leader is elected (KAFKA-15468). Set for 3.8
	// and later (config coordinator.reload.on.partition.change=false).
	KeepCoordinatorOnPartitionChange bool
	// ProducerIdExpirationMs is producer.id.expiration.ms, and
	// ProducerIdExpirationCheckIntervalMs how often it is applied
	// (expiration.go).
	ProducerIdExpirationMs              sim.Time
	ProducerIdExpirationCheckIntervalMs sim.Time
}

// DefaultConfig is Kafka 3.5's defaults.
func DefaultConfig() Config {
	return Config{
		Txn:                 txncoord.DefaultConfig(),
		Group:               groupcoord.DefaultConfig(),
		RequestTimeoutMs:    30 * sim.Second,
		ReplicaLagTimeMaxMs: 30 * sim.Second,
		SessionTimeoutMs:    9 * sim.Second,
		MinInsyncReplicas:   1,
		// KafkaConfig's Defaults.ProducerIdExpirationMs and
		// ProducerIdExpirationCheckIntervalMs
		ProducerIdExpirationMs:              24 * sim.Hour,
		ProducerIdExpirationCheckIntervalMs: 10 * sim.Minute,
	}
}

// Disk is what survives a broker crash: its partition logs.
type Disk struct {
	Logs map[protocol.TopicPartition]*partition.Log

	// replicas holds Logs' values in creation order, for Replicas.
	replicas []*partition.Log
	// spare is where Log puts the next logs: allocated a block at a time,
	// since every broker of a new cluster creates a hundred at once.
	spare []partition.Log
	// changes lists the logs changed since the last Changed, for the
	// assertions after every statement.
	changes partition.Watch
	// index is Logs for Log's lookups, without hashing the partition's
	// name (a tenth of a heavy run's map work). Logs stays the map that
	// other packages read; entries are only ever added to it, so an
	// entry in the index is the map's.
	index tptable.Table[*partition.Log]
}

// logBlock is how many logs one of Disk's allocations holds.
// Small, since the explorer's clusters mostly have a few internal
// partitions: a larger block would cost more bytes than it saves calls.
const logBlock = 16

// NewDisk returns an empty disk.
func NewDisk() *Disk { return &Disk{Logs: map[protocol.TopicPartition]*partition.Log{}} }

// Log returns the replica log of tp, creating it empty.
func (d *Disk) Log(tp protocol.TopicPartition) *partition.Log {
	if l := d.index.Get(tp); l != nil {
		return l
	}
	l := d.Logs[tp]
	if l == nil {
		if len(d.spare) == 0 {
			d.spare = make([]partition.Log, logBlock)
		}
		l = &d.spare[0]
		d.spare = d.spare[1:]
		*l = *partition.NewLog(tp)
		d.Logs[tp] = l
		d.replicas = append(d.replicas, l)
		d.changes.Track(l)
	}
	d.index.Set(tp, l)
	return l
}

// Changed returns the logs created or changed (through their methods)
// since the previous call, and forgets them: the assertions after a
// statement check only those, the rest having passed the previous check
// unchanged. The slice is the disk's own, valid until the disk changes.
func (d *Disk) Changed() []*partition.Log { return d.changes.Drain() }

// Replicas returns every log on the disk, in no meaningful order (the
// caller must not depend on it), without walking the map: the
// assertions after every statement visit every replica, and walking a
// slice is several times cheaper than iterating a map. The slice is the
// disk's own; the caller must not change it.
func (d *Disk) Replicas() []*partition.Log {
	if len(d.replicas) != len(d.Logs) { // Logs filled by hand, not through Log
		d.replicas = d.replicas[:0]
		for _, l := range d.Logs {
			d.replicas = append(d.replicas, l)
		}
	}
	return d.replicas
}

// Broker is one broker node.
type Broker struct {
	ID    int32
	Node  sim.NodeID
	Meta  *Metadata
	Disk  *Disk
	Cfg   *Config
	Txn   *txncoord.Coordinator
	Group *groupcoord.Coordinator

	// led is the partitions this broker leads, with the leader epoch it
	// was elected at (to notice elections and resignations when the
	// metadata changes) and its view of each follower. ledOrder is the
	// same sorted by partition, rebuilt lazily (nil when stale). A
	// tptable, not a map: every follower fetch looks up each partition
	// it lists and each it is answered, and hashing the partition's name
	// was most of a lookup's cost.
	led      tptable.Table[*leadership]
	ledOrder []*leadership
	// byFollower is, per replica id, the led partitions it follows with
	// the leader's view of it, in ledOrder's order; rebuilt lazily. Every incremental fetch walks its follower's list
	// (sessionCaughtUp), and walking all of ledOrder for it, asking each
	// partition for the follower, was 3% of the heavy benchmark.
	// byFollowerOK: the lists are current (they keep their arrays
	// across rebuilds).
	byFollower   [][]ledFollower
	byFollowerOK bool
	// parked holds follower fetches waiting for news, by follower id.
	parked map[int32]*sim.Envelope
	// delayed holds consumer fetches waiting for fetch.min.bytes, in
	// arrival order (1_fetch.go).
	delayed []*delayedFetch
	// news is, per follower, the partitions with news for it: data past
	// its fetch offset, a new high watermark, a lost leadership. Only
	// those go into a fetch response (an incremental fetch session). A
	// set kept as a short list: it is drained at every fetch. Indexed by
	// follower id (newsOf), not a map: storing the drained list back into
	// a map at every answer cost more than the answer.
	news [][]protocol.TopicPartition
	// fetching is the follower side: the outstanding fetch per leader.
	fetching fetches
	// latestFetch is the leader side: the newest fetch (its message id)
	// seen from each follower, by replica id. An older one arriving
	// later is from a session the follower already gave up on.
	latestFetch fetches
	// sessions is the follower side of the fetch sessions, per leader.
	sessions        map[int32]*fetchSession
	sessionOrder    []*fetchSession // by leader id, for a stable send order
	following       tptable.Table[*followed]
	sessionsVersion int
	pending         []*pendingAppend
	pidNext         int64
	pidEnd          int64
	// verifying holds the KIP-890 verifications sent to a transaction
	// coordinator, by request message id (verify.go).
	verifying map[int64]*verification

	started           sim.Time
	isrCheckScheduled bool

	// Replication's messages are cut from blocks (package slab): the
	// trace keeps every message anyway, and a follower fetch and its
	// answer are a third of a run's allocations otherwise.
	fetchReqs  slab.Slab[protocol.FetchRequest]
	fetchResps slab.Slab[protocol.FetchResponse]
	fetchParts slab.Slab[protocol.FetchPartition]
	fetchData  slab.Slab[protocol.FetchPartitionData]
	// Leaderships and the leader's view of its followers, cut from
	// blocks too: a new cluster's brokers each elect themselves leader of
	// some thirty partitions at once.
	// (Blocks of 16: the explorer's clusters are mostly small.)
	leads         slab.Slab[leadership]
	followerViews slab.Slab[followerState]
	followerPtrs  slab.Slab[*followerState]
	// expirationSeq tells the current producer-expiration timer from
	// stale ones (expiration.go).
	expirationSeq int
}

// leadership is a partition this broker leads, with what the hot paths
// of replication need at hand: the controller's record, the replica log,
// and the followers.
type leadership struct {
	p         *PartitionState
	log       *partition.Log
	epoch     int32
	followers []*followerState // one per other replica, in replica order
	// isr is the ISR this broker last acted on: a change of it with the
	// same leader epoch reloads the coordinators of an internal
	// partition until 3.8 (OnMetadataChange).
	isr []int32
}

// follower returns the leader's view of replica id, or nil.
func (l *leadership) follower(id int32) *followerState {
	for _, f := range l.followers {
		if f.id == id {
			return f
		}
	}
	return nil
}

type followerState struct {
	id               int32
	listed           int64 // the last fetch (message id) that listed this partition
	leo              int64 // its log end, as its last fetch that had not diverged said
	fetchOffset      int64 // its last fetch's offset, diverged or not: what the answer reads from
	lastFetchedEpoch int32
	lastCaughtUp     sim.Time
	sentHW           int64 // the high watermark last sent to it
}

// pendingAppend waits for the high watermark to reach offset.
type pendingAppend struct {
	tp       protocol.TopicPartition
	offset   int64 // HW must reach this (the next offset after the append)
	epoch    int32 // leader epoch when appended
	deadline sim.Time
	done     func(w *sim.World, err protocol.ErrorCode)
	finished bool
}

// New creates a broker over its disk; on a restart the disk's logs are
// recovered (producer state rebuilt by replay).
func New(id int32, meta *Metadata, disk *Disk, cfg *Config) *Broker {
	b := &Broker{ID: id, Node: NodeID(id), Meta: meta, Disk: disk, Cfg: cfg,
		parked:          map[int32]*sim.Envelope{},
		sessions:        map[int32]*fetchSession{},
		sessionsVersion: -1,
	}
	b.leads.Block, b.followerViews.Block, b.followerPtrs.Block = 16, 16, 32
	for _, tp := range sortedTPs(disk.Logs) {
		disk.Logs[tp].Rebuild()
	}
	b.Txn = txncoord.New(b, &cfg.Txn)
	b.Group = groupcoord.New(b, &cfg.Group)
	return b
}

func sortedTPs(m map[protocol.TopicPartition]*partition.Log) []protocol.TopicPartition {
	out := make([]protocol.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, protocol.TopicPartition.Compare)
	return out
}

// Start schedules the broker's periodic tasks and takes up its roles.
func (b *Broker) Start(w *sim.World) {
	b.started = w.Now()
	b.Txn.Start(w)
	b.scheduleProducerExpiration(w)
	b.OnMetadataChange(w)
}

// Busy reports outstanding work: writes waiting for replication or
// coordinator work (markers to deliver, logs to load).
func (b *Broker) Busy() bool {
	for _, p := range b.pending {
		if !p.finished {
			return true
		}
	}
	return len(b.verifying) > 0 || b.Txn.Busy() || b.Group.Busy()
}

// Receive dispatches a delivered message.
func (b *Broker) Receive(w *sim.World, env *sim.Envelope) {
	switch m := env.Msg.(type) {
	case *protocol.ProduceRequest:
		b.handleProduce(w, env, m)
	case *protocol.FetchRequest:
		if m.ReplicaId >= 0 {
			b.handleReplicaFetch(w, env, m)
		} else {
			b.handleConsumerFetch(w, env, m)
		}
	case *protocol.FetchResponse:
		b.handleFetchResponse(w, env, m)
	case *protocol.FindCoordinatorRequest:
		b.handleFindCoordinator(w, env, m)
	case *protocol.MetadataRequest:
		b.handleMetadata(w, env, m)
	case *protocol.ListOffsetsRequest:
		b.handleListOffsets(w, env, m)
	case *protocol.WriteTxnMarkersRequest:
		b.handleWriteTxnMarkers(w, env, m)
	case *protocol.DescribeProducersRequest:
		b.handleDescribeProducers(w, env, m)
	case *protocol.WriteTxnMarkersResponse:
		b.Txn.HandleMarkersResponse(w, env, m)
	case *protocol.InitProducerIdRequest, *protocol.AddPartitionsToTxnRequest,
		*protocol.AddOffsetsToTxnRequest, *protocol.EndTxnRequest,
		*protocol.DescribeTransactionsRequest, *protocol.ListTransactionsRequest:
		b.Txn.Handle(w, env)
	case *protocol.AddPartitionsToTxnResponse:
		b.handleVerificationResponse(w, env, m)
	case *protocol.TxnOffsetCommitRequest:
		if !b.startOffsetsVerification(w, env, m) {
			b.Group.Handle(w, env)
		}
	case *protocol.OffsetCommitRequest, *protocol.OffsetFetchRequest,
		*protocol.JoinGroupRequest, *protocol.SyncGroupRequest, *protocol.HeartbeatRequest, *protocol.LeaveGroupRequest:
		b.Group.Handle(w, env)
	}
}

// Timer dispatches a fired timer.
func (b *Broker) Timer(w *sim.World, t *sim.Timer) {
	switch t.Kind {
	case "isr-check":
		b.isrCheckScheduled = false
		b.checkISR(w)
		if b.anyFollowerBehind() {
			b.scheduleISRCheck(w)
		}
	case "append-timeout":
		p := t.Data.(*pendingAppend)
		if !p.finished {
			p.finished = true
			p.done(w, protocol.REQUEST_TIMED_OUT)
		}
		b.gcPending()
	case sim.TimerDisconnected:
		env := t.Data.(*sim.Envelope)
		switch env.Msg.(type) {
		case *protocol.WriteTxnMarkersRequest:
			b.Txn.Disconnected(w, env.ID)
		case *protocol.AddPartitionsToTxnRequest:
			b.verificationLost(w, env.ID)
		case *protocol.FetchRequest:
			// replica.fetch.backoff.ms before trying the leader again
			if leader, ok := IDOf(env.To); ok && b.fetching.of(leader) == env.ID {
				w.AfterBackground(b.Node, sim.Second, "fetch-timeout", fetchTimeout{leader: leader, msgID: env.ID})
			}
		}
	case timerProducerExpiration:
		b.removeExpiredProducers(w, t.Data.(int))
	case timerVerifyTimeout:
		b.verificationLost(w, t.Data.(int64))
	case timerDelayedFetch:
		b.delayedFetchExpired(w, t.Data.(int64))
	case "fetch-timeout":
		ft := t.Data.(fetchTimeout)
		if b.fetching.of(ft.leader) == ft.msgID {
			b.fetching.clear(ft.leader)
			b.restartSession(ft.leader)
			b.ensureFetchers(w)
		}
	default:
		// The transaction coordinator's timers reach it directly
		// (sim.World.AfterFor); what remains is the group coordinator's.
		b.Group.Timer(w, t)
	}
}

// reply sends a response to a request.
func (b *Broker) reply(w *sim.World, req *sim.Envelope, m protocol.Message) {
	w.Send(b.Node, req.From, m, req.ID)
}

// Now is the virtual time, for the coordinator modules.
func (b *Broker) Now(w *sim.World) sim.Time { return w.Now() }

// BrokerNode is this broker's node name.
func (b *Broker) BrokerNode() sim.NodeID { return b.Node }

// LeaderOf returns the leader broker of tp and its epoch.
func (b *Broker) LeaderOf(tp protocol.TopicPartition) (sim.NodeID, int32, bool) {
	p := b.Meta.Partition(tp)
	if p == nil || p.Leader < 0 {
		return sim.NoNode, 0, false
	}
	return NodeID(p.Leader), p.LeaderEpoch, true
}

// GroupPartitionFor maps a group to its __consumer_offsets partition.
func (b *Broker) GroupPartitionFor(group string) int32 { return b.Meta.GroupPartitionFor(group) }

// TxnPartitionFor maps a transactional id to its __transaction_state partition.
func (b *Broker) TxnPartitionFor(id string) int32 { return b.Meta.TxnPartitionFor(id) }

// AllocateProducerId takes the next producer id of this broker's block.
func (b *Broker) AllocateProducerId() int64 {
	if b.pidNext >= b.pidEnd {
		b.pidNext = b.Meta.AllocateProducerIdBlock()
		b.pidEnd = b.pidNext + ProducerIdBlockSize
	}
	id := b.pidNext
	b.pidNext++
	return id
}

// ReplicaLog is this broker's replica of tp (coordinators load from it).
func (b *Broker) ReplicaLog(tp protocol.TopicPartition) *partition.Log { return b.Disk.Log(tp) }

// PartitionExists reports whether the topic-partition exists.
func (b *Broker) PartitionExists(tp protocol.TopicPartition) bool {
	return b.Meta.Partition(tp) != nil
}

func checks(w *sim.World) partition.Checks {
	return partition.Checks{
		EpochFencing:     !w.Broken(safety.EpochFencing),
		CoordinatorEpoch: !w.Broken(safety.CoordinatorEpoch),
		SequenceCheck:    !w.Broken(safety.SequenceCheck),
	}
}

// isLeader reports whether this broker leads tp now.
func (b *Broker) isLeader(tp protocol.TopicPartition) (*PartitionState, bool) {
	p := b.Meta.Partition(tp)
	return p, p != nil && p.Leader == b.ID
}

// AppendInternal appends records to an internal partition this broker
// leads, as the coordinator modules do (acks=all, origin COORDINATOR), and
// calls done once replicated, failed, or after timeout (the transaction's
// own timeout for __transaction_state, offsets.commit.timeout.ms for
// offsets). pid, epoch and transactional
// describe a transactional offset commit; use -1 for plain records.
func (b *Broker) AppendInternal(w *sim.World, tp protocol.TopicPartition, batch protocol.RecordBatch, timeout sim.Time, done func(w *sim.World, base int64, err protocol.ErrorCode)) {
	p, ok := b.isLeader(tp)
	if !ok {
		done(w, -1, protocol.NOT_LEADER_OR_FOLLOWER)
		return
	}
	if len(p.ISR) < p.MinISR {
		done(w, -1, protocol.NOT_ENOUGH_REPLICAS)
		return
	}
	batch.BaseSequence = protocol.NoSequence
	log := b.Disk.Log(tp)
	res := log.AppendAsLeader(batch, p.LeaderEpoch, int64(w.Now()), checks(w))
	if res.Err != protocol.NONE {
		done(w, -1, res.Err)
		return
	}
	b.afterAppend(w, log, res.BaseOffset, false)
	b.awaitHW(w, log, log.LogEndOffset(), timeout, func(w *sim.World, err protocol.ErrorCode) {
		done(w, res.BaseOffset, err)
	})
}

// afterAppend records the append, wakes parked follower fetches and
// advances the high watermark when this broker is the only in-sync replica.
func (b *Broker) afterAppend(w *sim.World, log *partition.Log, offset int64, follower bool) {
	tp := log.TP
	for i := len(log.Batches) - 1; i >= 0 && log.Batches[i].BaseOffset >= offset; i-- {
		if log.Batches[i].BaseOffset == offset {
			w.Record(sim.Event{Kind: sim.KindAppend, Node: b.Node, Subject: log.Name(), Offset: offset,
				Text: log.Batches[i].Logged(), Contents: sim.ContentsOf(&log.Batches[i]), Internal: follower})
		}
	}
	if !follower {
		b.scheduleISRCheck(w)
		if l := b.led.Get(tp); l != nil {
			b.markLedDirty(l)
			b.advanceLedHW(w, l)
		} else {
			b.maybeAdvanceHW(w, tp)
		}
		b.wakeParked(w)
	}
}

// awaitHW calls done when the high watermark reaches offset, or with
// REQUEST_TIMED_OUT after timeout, or NOT_LEADER_OR_FOLLOWER when this
// broker stops leading tp first.
func (b *Broker) awaitHW(w *sim.World, log *partition.Log, offset int64, timeout sim.Time, done func(w *sim.World, err protocol.ErrorCode)) {
	tp := log.TP
	if log.HighWatermark >= offset {
		done(w, protocol.NONE)
		return
	}
	epoch := int32(0)
	if l := b.led.Get(tp); l != nil {
		epoch = l.epoch
	}
	p := &pendingAppend{tp: tp, offset: offset, epoch: epoch, deadline: w.Now() + timeout, done: done}
	b.pending = append(b.pending, p)
	w.AfterBackground(b.Node, timeout, "append-timeout", p)
}

func (b *Broker) gcPending() {
	kept := b.pending[:0]
	for _, p := range b.pending {
		if !p.finished {
			kept = append(kept, p)
		}
	}
	b.pending = kept
}

// maybeAdvanceHW sets the high watermark to the smallest log end offset
// among the in-sync replicas and completes the writes it covers.
func (b *Broker) maybeAdvanceHW(w *sim.World, tp protocol.TopicPartition) {
	if l := b.led.Get(tp); l != nil {
		b.advanceHW(w, tp, l, l.p, l.log)
		return
	}
	b.advanceHW(w, tp, nil, b.Meta.Partition(tp), b.Disk.Log(tp))
}

// advanceLedHW is maybeAdvanceHW for a led partition at hand: replication
// has its leadership already, and hashing the partition's name again for
// every partition of every fetch was a measurable share of a run.
func (b *Broker) advanceLedHW(w *sim.World, l *leadership) {
	b.advanceHW(w, l.p.TP, l, l.p, l.log)
}

// advanceHW is maybeAdvanceHW's body; l is b.led[tp] (nil if not led).
func (b *Broker) advanceHW(w *sim.World, tp protocol.TopicPartition, l *leadership, p *PartitionState, log *partition.Log) {
	if p == nil || p.Leader != b.ID {
		return
	}
	hw := log.LogEndOffset()
	for _, r := range p.ISR {
		if r == b.ID {
			continue
		}
		leo := int64(0)
		if l != nil {
			if f := l.follower(r); f != nil {
				leo = f.leo
			}
		}
		if leo < hw {
			hw = leo
		}
	}
	if hw <= log.HighWatermark {
		return
	}
	log.SetHighWatermark(hw)
	// DelayedProduce.checkEnoughReplicasReachOffset: a write the high
	// watermark now covers succeeds only if enough replicas were in sync.
	result := protocol.NONE
	if len(p.ISR) < p.MinISR {
		result = protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND
	}
	called := false
	for _, pa := range b.pending {
		if !pa.finished && pa.offset <= hw && pa.tp == tp {
			pa.finished, called = true, true
			pa.done(w, result)
		}
	}
	b.gcPending()
	if l != nil && !called {
		b.markLedDirty(l)
	} else {
		b.markDirty(tp) // a callback may have acted: look again
	}
	b.wakeParked(w)
}

// OnMetadataChange reacts to the controller's decisions: elections and
// resignations of the partitions this broker hosts, and where its
// followers fetch from.
func (b *Broker) OnMetadataChange(w *sim.World) {
	for _, p := range b.Meta.SortedPartitions() {
		tp := p.TP
		if !p.IsReplica(b.ID) {
			continue
		}
		old := b.led.Get(tp)
		isLeader := p.Leader == b.ID
		switch {
		case isLeader && (old == nil || old.epoch != p.LeaderEpoch):
			// A new leader may have an empty replica: Disk.Log creates it.
			l := b.leads.New()
			*l = leadership{p: p, log: b.Disk.Log(tp), epoch: p.LeaderEpoch,
				followers: b.followerPtrs.Make(len(p.Replicas))}
			for _, r := range p.Replicas {
				if r == b.ID {
					continue
				}
				f := b.followerViews.New()
				if prev := followerOf(old, r); prev != nil {
					// Re-elected with a new leader epoch (an ISR shrink
					// bumps it in 3.5): Kafka's Partition.makeLeader keeps
					// what it knew of each follower when the leader stays
					// (Replica.resetReplicaState, isNewLeader=false), so
					// the high watermark can move at once "since ISR could
					// be down to 1"; an in-sync follower counts as caught
					// up now, another as never.
					*f = *prev
					f.lastCaughtUp = 0
					if p.InISR(r) {
						f.lastCaughtUp = w.Now()
					}
				} else {
					// A new leader: its position is unknown until its
					// next fetch says; a fetch parked before the election
					// must not be answered as if it came from epoch 0 at
					// offset 0.
					*f = followerState{id: r, lastCaughtUp: w.Now(), lastFetchedEpoch: -1}
				}
				l.followers = append(l.followers, f)
			}
			l.isr = slices.Clone(p.ISR)
			b.led.Set(tp, l)
			b.ledChanged()
			b.becomeLeader(w, p)
		case isLeader && !slices.Equal(old.isr, p.ISR):
			// The same leader epoch, another ISR (3.6+ no longer bumps
			// the epoch on a shrink; no release bumps it on an
			// expansion). Until 3.8 the broker still hands every change
			// of a partition it leads to its coordinators, which reload
			// (BrokerMetadataPublisher updateCoordinator; KAFKA-15468).
			old.isr = slices.Clone(p.ISR)
			if !b.Cfg.KeepCoordinatorOnPartitionChange {
				b.reloadCoordinators(w, p)
			}
		case !isLeader && old != nil:
			for _, f := range old.followers {
				b.addNews(f.id, tp) // tells it NOT_LEADER_OR_FOLLOWER
			}
			b.led.Set(tp, nil)
			b.ledChanged()
			b.resign(w, tp)
		}
	}
	b.wakeParked(w)
	b.ensureFetchers(w)
}

// followerOf is what an earlier leadership knew of replica r, or nil.
func followerOf(l *leadership, r int32) *followerState {
	if l == nil {
		return nil
	}
	return l.follower(r)
}

func sortedIDs(m map[int32]*sim.Envelope) []int32 {
	out := make([]int32, 0, len(m))
	for id := range m {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

func (b *Broker) becomeLeader(w *sim.World, p *PartitionState) {
	w.Record(sim.Event{Kind: sim.KindElection, Node: b.Node, Subject: b.Disk.Log(p.TP).Name(),
		Note: sim.NewNote(sim.NoteLeaderEpoch, itoa(int64(p.LeaderEpoch))), Internal: isInternalTopic(p.TP.Topic) && !b.coordinates(p.TP)})
	b.maybeAdvanceHW(w, p.TP)
	b.scheduleISRCheck(w) // its followers may be behind the new leader
	switch p.TP.Topic {
	case protocol.TransactionStateTopic:
		b.Txn.OnElection(w, p.TP.Partition, p.LeaderEpoch)
	case protocol.ConsumerOffsetsTopic:
		b.Group.OnElection(w, p.TP.Partition, p.LeaderEpoch)
	}
}

// reloadCoordinators has the coordinator of an internal partition load it
// again, as an election does, at the same coordinator epoch.
func (b *Broker) reloadCoordinators(w *sim.World, p *PartitionState) {
	switch p.TP.Topic {
	case protocol.TransactionStateTopic:
		b.Txn.OnElection(w, p.TP.Partition, p.LeaderEpoch)
	case protocol.ConsumerOffsetsTopic:
		b.Group.OnElection(w, p.TP.Partition, p.LeaderEpoch)
	}
}

// coordinates tells whether an internal partition holds coordinator state
// worth showing (a transactional id or a group lives there).
func (b *Broker) coordinates(tp protocol.TopicPartition) bool {
	return len(b.Disk.Log(tp).Batches) > 0
}

func isInternalTopic(t string) bool {
	return t == protocol.TransactionStateTopic || t == protocol.ConsumerOffsetsTopic
}

func (b *Broker) resign(w *sim.World, tp protocol.TopicPartition) {
	for _, pa := range b.pending {
		if !pa.finished && pa.tp == tp {
			pa.finished = true
			pa.done(w, protocol.NOT_LEADER_OR_FOLLOWER)
		}
	}
	b.gcPending()
	switch tp.Topic {
	case protocol.TransactionStateTopic:
		b.Txn.OnResignation(w, tp.Partition)
	case protocol.ConsumerOffsetsTopic:
		b.Group.OnResignation(w, tp.Partition)
	}
}

// checkISR removes followers that have not caught up for
// replica.lag.time.max.ms (the leader's AlterPartition, applied at once).
func (b *Broker) checkISR(w *sim.World) {
	// By partition, not by leadership: a shrink re-elects (a new leader
	// epoch), which replaces the partition's leadership.
	order := b.sortedLed()
	tps := make([]protocol.TopicPartition, len(order))
	for i, l := range order {
		tps[i] = l.p.TP
	}
	for _, tp := range tps {
		l := b.led.Get(tp)
		if l == nil {
			continue
		}
		p := l.p
		if p.Leader != b.ID || p.LeaderEpoch != l.epoch {
			// A leader that has not heard it was replaced (a broker
			// resumed from a pause, a zombie): the controller rejects
			// its AlterPartition, whose leader epoch is stale
			// (FENCED_LEADER_EPOCH in Kafka's ReplicationControlManager).
			continue
		}
		var kept []int32
		for _, r := range p.ISR {
			f := l.follower(r)
			if f != nil && f.leo >= l.log.LogEndOffset() {
				// Its fetch is parked at the log end: it is caught up now
				// (Kafka's follower would be re-fetching every 500 ms).
				f.lastCaughtUp = w.Now()
			}
			if r != b.ID && f != nil && w.Now()-f.lastCaughtUp > b.Cfg.ReplicaLagTimeMaxMs {
				w.Record(sim.Event{Kind: sim.KindNote, Node: b.Node, Subject: tp.String(),
					Note: sim.NewNote(sim.NoteISRShrinks, "broker-"+itoa(int64(r)), b.Cfg.ReplicaLagTimeMaxMs.Human()), Internal: isInternalTopic(tp.Topic)})
				continue
			}
			kept = append(kept, r)
		}
		if len(kept) != len(p.ISR) {
			p.ISR = kept
			// KRaft 3.5 bumps the leader epoch on every ISR shrink
			// (PartitionChangeBuilder, until KAFKA-15021 in 3.6).
			if !b.Cfg.KeepLeaderEpochOnISRShrink {
				p.LeaderEpoch++
			}
			b.Meta.Version++
			b.OnMetadataChange(w)
			b.maybeAdvanceHW(w, tp)
		}
	}
}

// scheduleISRCheck arms the ISR check (every replica.lag.time.max.ms / 2,
// Kafka's isr-expiration task) on its usual cadence. It only runs while a
// follower is behind, so a quiet cluster schedules nothing.
func (b *Broker) scheduleISRCheck(w *sim.World) {
	if b.isrCheckScheduled {
		return
	}
	b.isrCheckScheduled = true
	at := sim.NextTick(b.started, b.Cfg.ReplicaLagTimeMaxMs/2, w.Now())
	w.AfterBackground(b.Node, at-w.Now(), "isr-check", nil)
}

// anyFollowerBehind reports whether the ISR check has anything to do: a
// follower still in an ISR that is behind its leader's log end. A
// follower outside the ISR (a crashed broker, say) is behind for ever,
// but the check cannot change anything for it (it rejoins through its
// fetches); re-arming for it every replica.lag.time.max.ms / 2 would make
// idle time cost in proportion to its length. Appends and leadership
// changes arm the check again.
func (b *Broker) anyFollowerBehind() bool {
	for _, l := range b.sortedLed() {
		leo := l.log.LogEndOffset()
		for _, f := range l.followers {
			if f.leo < leo && l.p.InISR(f.id) {
				return true
			}
		}
	}
	return false
}

// sortedLed is the led partitions in partition order.
// ledChanged drops the orders derived from led: a partition was elected
// or resigned, or a leadership gained a follower.
func (b *Broker) ledChanged() { b.ledOrder, b.byFollowerOK = nil, false }

// ledFollower is a led partition and the leader's view of one follower.
type ledFollower struct {
	l *leadership
	f *followerState
}

// followedBy lists the led partitions replica follows, in partition order.
func (b *Broker) followedBy(replica int32) []ledFollower {
	if !b.byFollowerOK {
		b.byFollowerOK = true
		for i := range b.byFollower {
			b.byFollower[i] = b.byFollower[i][:0]
		}
		for _, l := range b.sortedLed() {
			for _, f := range l.followers {
				for int(f.id) >= len(b.byFollower) {
					b.byFollower = append(b.byFollower, nil)
				}
				b.byFollower[f.id] = append(b.byFollower[f.id], ledFollower{l, f})
			}
		}
	}
	if replica < 0 || int(replica) >= len(b.byFollower) {
		return nil
	}
	return b.byFollower[replica]
}

func (b *Broker) sortedLed() []*leadership {
	if b.ledOrder == nil {
		b.ledOrder = make([]*leadership, 0, b.led.Len())
		b.led.Values(func(l *leadership) { b.ledOrder = append(b.ledOrder, l) })
		sort.Slice(b.ledOrder, func(i, j int) bool { return b.ledOrder[i].p.TP.Less(b.ledOrder[j].p.TP) })
	}
	return b.ledOrder
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
