package client

import (
	"cmp"
	"slices"
	"strconv"

	"txnlab/core/internal/ptrsort"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// ConsumerConfig holds the consumer settings the simulation honours.
type ConsumerConfig struct {
	// IsolationLevel is protocol.ReadUncommitted (Kafka's default) or
	// protocol.ReadCommitted.
	IsolationLevel   int8
	GroupId          string
	RequestTimeoutMs sim.Time
	RetryBackoffMs   sim.Time
	// Group membership (subscribe): session.timeout.ms,
	// heartbeat.interval.ms, max.poll.interval.ms (the rebalance timeout
	// the member gives the coordinator) and group.instance.id ("": a
	// dynamic member).
	SessionTimeoutMs    sim.Time
	HeartbeatIntervalMs sim.Time
	MaxPollIntervalMs   sim.Time
	GroupInstanceId     string
	// Assignors is partition.assignment.strategy: the assignment
	// protocols the member offers in JoinGroup, preferred first ("range"
	// or "roundrobin"); nil offers "range" alone.
	Assignors []string
	// FetchMaxWaitMs and FetchMinBytes are fetch.max.wait.ms and
	// fetch.min.bytes, sent in every Fetch (MaxWaitMs, MinBytes). The
	// Java client's defaults are 500 ms and 1 byte; the simulated
	// consumer waits 0 ms unless told otherwise, so that a poll of an
	// idle partition answers at once as it always did in txnlab.
	FetchMaxWaitMs sim.Time
	FetchMinBytes  int32
}

// Assignor names the simulated consumer implements (RangeAssignor,
// RoundRobinAssignor).
const (
	RangeAssignor      = "range"
	RoundRobinAssignor = "roundrobin"
)

// DefaultConsumerConfig is the Java client's defaults (Kafka 3.5's
// ConsumerConfig).
func DefaultConsumerConfig() ConsumerConfig {
	return ConsumerConfig{IsolationLevel: protocol.ReadUncommitted, RequestTimeoutMs: 30 * sim.Second, RetryBackoffMs: 100,
		SessionTimeoutMs: 45 * sim.Second, HeartbeatIntervalMs: 3 * sim.Second, MaxPollIntervalMs: 5 * sim.Minute,
		FetchMinBytes: 1}
}

// ReceivedRecord is one record a poll returned to the application.
type ReceivedRecord struct {
	Offset        int64
	Key, Value    string
	ProducerId    int64
	ProducerEpoch int16
	Sequence      int32
	// Poll is the number of the poll that returned it; At is when.
	Poll int
	At   sim.Time
}

// Consumer is a consumer client process.
type Consumer struct {
	calls
	membership
	Cfg       ConsumerConfig
	meta      Metadata
	Assigned  []protocol.TopicPartition
	Positions map[protocol.TopicPartition]int64
	Received  map[protocol.TopicPartition][]ReceivedRecord
	// Fetched is what the last fetch answer of each partition said: one
	// map of both offsets rather than a map each, since absorb writes it
	// for every partition of every answer.
	Fetched map[protocol.TopicPartition]FetchedOffsets
	Polls   int

	groupCoordinator sim.NodeID
	bootstrapAttempt int
	call             *Call
	waiting          map[int64]bool // fetch requests of the current poll
	// fetchLeaders, fetchOf and fetchLeader are fetch's scratch: the
	// leaders asked, the partitions that have a leader, and the leader of
	// each.
	fetchLeaders, fetchLeader []sim.NodeID
	fetchOf                   []protocol.FetchPartition
	pollCount                 int
	// polled counts the records received in poll pollCount: what its
	// call returns, kept as they arrive rather than recounted over every
	// record ever received when the poll ends.
	polled       int
	needOffsets  bool
	inflight     int64
	inflightKind string
	syncRequest  *protocol.SyncGroupRequest
}

// FetchedOffsets is what a fetch answer said of a partition's offsets.
type FetchedOffsets struct {
	HighWatermark, LastStableOffset int64
}

// NewConsumer creates a consumer process.
func NewConsumer(name sim.NodeID, cfg ConsumerConfig, meta Metadata) *Consumer {
	return &Consumer{calls: calls{node: name}, Cfg: cfg, meta: meta,
		Positions: map[protocol.TopicPartition]int64{}, Received: map[protocol.TopicPartition][]ReceivedRecord{},
		Fetched: map[protocol.TopicPartition]FetchedOffsets{},
		waiting: map[int64]bool{}}
}

// Busy reports a call in progress.
func (c *Consumer) Busy() bool { return c.call != nil && !c.call.Done }

// Assign is assign(): positions start at the committed offset of the
// group when there is one, else at the log start (txnlab's consumers use
// auto.offset.reset=earliest so a poll shows what was written).
func (c *Consumer) Assign(w *sim.World, tps []protocol.TopicPartition) *Call {
	text := ""
	for _, tp := range tps {
		text += tp.String() + " "
	}
	call := c.start(w, CallAssign, text)
	c.Assigned = append([]protocol.TopicPartition(nil), tps...)
	for _, tp := range tps {
		if _, ok := c.Positions[tp]; !ok {
			c.Positions[tp] = -1
		}
	}
	c.needOffsets = c.Cfg.GroupId != ""
	if !c.needOffsets {
		for _, tp := range tps {
			if c.Positions[tp] < 0 {
				c.Positions[tp] = 0
			}
		}
	}
	c.finish(w, call, OK, "")
	return call
}

// Seek is seek(): the next poll reads from offset.
func (c *Consumer) Seek(w *sim.World, tp protocol.TopicPartition, offset int64) *Call {
	call := c.start(w, CallSeek, tp.String()+" "+strconv.FormatInt(offset, 10))
	c.Positions[tp] = offset
	c.finish(w, call, OK, "")
	return call
}

// Poll is one poll(): committed positions first if unknown (OffsetFetch,
// with require_stable at read_committed), then one Fetch round over the
// assigned partitions, grouped by leader.
func (c *Consumer) Poll(w *sim.World) *Call {
	c.call = c.start(w, CallPoll, "")
	c.pollCount++
	c.polled = 0
	if len(c.Assigned) == 0 && c.Subscription == nil {
		c.finishSaying(w, c.call, OK, sim.NoteNothingAssigned)
		return c.call
	}
	c.step(w)
	return c.call
}

// Commit is commitSync() of the current positions.
func (c *Consumer) Commit(w *sim.World) *Call {
	c.call = c.start(w, CallCommitSync, "")
	if c.Cfg.GroupId == "" {
		c.finishSaying(w, c.call, Raised(protocol.InvalidGroupIdException), sim.NoteNoGroupID)
		return c.call
	}
	c.sendGroupRequest(w, "commit")
	return c.call
}

func (c *Consumer) step(w *sim.World) {
	if c.needsJoin() {
		c.startJoin(w)
		return
	}
	if c.needOffsets {
		c.sendGroupRequest(w, "offsets")
		return
	}
	c.fetch(w)
}

func (c *Consumer) sendGroupRequest(w *sim.World, kind string) {
	if c.groupCoordinator == sim.NoNode {
		c.inflightKind = "find:" + kind
		c.inflight = w.Send(c.node, c.meta.Bootstrap(c.bootstrapAttempt), &protocol.FindCoordinatorRequest{Key: c.Cfg.GroupId, KeyType: protocol.KeyTypeGroup}, 0)
		w.AfterBackground(c.node, c.Cfg.RequestTimeoutMs, "request-timeout", c.inflight)
		return
	}
	var m protocol.Message
	if mm := c.membershipRequest(kind); mm != nil {
		m = mm
	} else if kind == "offsets" {
		m = &protocol.OffsetFetchRequest{GroupId: c.Cfg.GroupId, Partitions: c.Assigned, RequireStable: c.Cfg.IsolationLevel == protocol.ReadCommitted}
	} else {
		req := &protocol.OffsetCommitRequest{GroupId: c.Cfg.GroupId, GenerationId: protocol.NoGenerationId}
		if c.Subscription != nil && c.Member == StableMember {
			req.GenerationId, req.MemberId, req.GroupInstanceId = c.generation, c.memberId, c.Cfg.GroupInstanceId
		}
		for _, tp := range c.Assigned {
			if pos := c.Positions[tp]; pos >= 0 {
				req.Offsets = append(req.Offsets, protocol.OffsetEntry{TopicPartition: tp, CommittedOffset: pos})
			}
		}
		m = req
	}
	c.inflightKind = kind
	c.inflight = w.Send(c.node, c.groupCoordinator, m, 0)
	w.AfterBackground(c.node, c.Cfg.RequestTimeoutMs, "request-timeout", c.inflight)
}

func (c *Consumer) fetch(w *sim.World) {
	// One request per leader, leaders in name order, each listing its
	// partitions in assignment order. A poll is one of the commonest
	// steps, so the grouping reuses the consumer's scratch slices rather
	// than a map per poll; only the requests' own lists are new.
	c.fetchLeaders = c.fetchLeaders[:0]
	c.fetchOf = c.fetchOf[:0]
	for _, tp := range c.Assigned {
		leader, ok := c.meta.LeaderOf(tp)
		if !ok {
			continue
		}
		c.fetchOf = append(c.fetchOf, protocol.FetchPartition{TopicPartition: tp, FetchOffset: c.Positions[tp], LastFetchedEpoch: -1})
		c.fetchLeader = append(c.fetchLeader[:len(c.fetchOf)-1], leader)
		if !slices.Contains(c.fetchLeaders, leader) {
			c.fetchLeaders = append(c.fetchLeaders, leader)
		}
	}
	slices.Sort(c.fetchLeaders)
	clear(c.waiting)
	for _, l := range c.fetchLeaders {
		n := 0
		for _, of := range c.fetchLeader[:len(c.fetchOf)] {
			if of == l {
				n++
			}
		}
		parts := make([]protocol.FetchPartition, 0, n)
		for i, of := range c.fetchLeader[:len(c.fetchOf)] {
			if of == l {
				parts = append(parts, c.fetchOf[i])
			}
		}
		id := w.Send(c.node, l, &protocol.FetchRequest{ReplicaId: protocol.ConsumerReplicaId, IsolationLevel: c.Cfg.IsolationLevel, Partitions: parts,
			MaxWaitMs: int32(c.Cfg.FetchMaxWaitMs), MinBytes: c.Cfg.FetchMinBytes}, 0)
		c.waiting[id] = true
		w.AfterBackground(c.node, c.Cfg.RequestTimeoutMs, "fetch-timeout", id)
	}
	c.maybeFinishPoll(w)
}

func (c *Consumer) maybeFinishPoll(w *sim.World) {
	if len(c.waiting) > 0 || c.call == nil || c.call.Done {
		return
	}
	c.Polls = c.pollCount
	c.finishSaying(w, c.call, OK, sim.NoteRecords, strconv.Itoa(c.polled))
}

// Receive handles responses.
func (c *Consumer) Receive(w *sim.World, env *sim.Envelope) {
	switch m := env.Msg.(type) {
	case *protocol.FetchResponse:
		if !c.waiting[env.ReplyTo] {
			return
		}
		delete(c.waiting, env.ReplyTo)
		for _, pd := range m.Responses {
			c.absorb(w, pd)
		}
		c.maybeFinishPoll(w)
		return
	case *protocol.HeartbeatResponse:
		if env.ReplyTo == c.hbInflight {
			c.onHeartbeatResponse(w, m)
		}
		return
	}
	if env.ReplyTo != c.inflight {
		return
	}
	c.inflight = 0
	switch m := env.Msg.(type) {
	case *protocol.FindCoordinatorResponse:
		kind := c.inflightKind[len("find:"):]
		if m.ErrorCode != protocol.NONE {
			w.After(c.node, c.Cfg.RetryBackoffMs, "retry", kind)
			return
		}
		c.groupCoordinator = c.meta.BrokerNode(m.NodeId)
		c.sendGroupRequest(w, kind)
	case *protocol.OffsetFetchResponse:
		if err := m.TopError(); err != protocol.NONE {
			if err == protocol.NOT_COORDINATOR || err == protocol.COORDINATOR_NOT_AVAILABLE {
				c.groupCoordinator = sim.NoNode
			}
			// UNSTABLE_OFFSET_COMMIT: a transaction holding offsets for
			// these partitions is not complete; the consumer retries.
			w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "offsets")
			return
		}
		for _, r := range m.Results {
			pos := r.CommittedOffset
			if pos < 0 {
				pos = 0
			}
			c.Positions[r.TopicPartition] = pos
		}
		c.needOffsets = false
		c.fetch(w)
	case *protocol.JoinGroupResponse:
		c.onJoinResponse(w, m)
	case *protocol.SyncGroupResponse:
		c.onSyncResponse(w, m)
	case *protocol.OffsetCommitResponse:
		err := m.TopError()
		if err == protocol.NOT_COORDINATOR || err == protocol.COORDINATOR_NOT_AVAILABLE {
			c.groupCoordinator = sim.NoNode
			w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "commit")
			return
		}
		c.finish(w, c.call, Broker(err), "")
	}
}

// absorb applies one partition's fetched data: read_committed drops the
// batches of aborted transactions using the aborted list and the ABORT
// markers (CompletedFetch.nextFetchedRecord); control records are never
// returned.
func (c *Consumer) absorb(w *sim.World, pd protocol.FetchPartitionData) {
	if pd.ErrorCode != protocol.NONE {
		return
	}
	c.Fetched[pd.TopicPartition] = FetchedOffsets{HighWatermark: pd.HighWatermark, LastStableOffset: pd.LastStableOffset}
	filter := c.Cfg.IsolationLevel == protocol.ReadCommitted && !w.Broken(safety.AbortedFilter)
	var aborted []protocol.AbortedTransaction
	var abortedPids map[int64]bool // made when the first aborted transaction starts
	if filter && len(pd.AbortedTransactions) > 0 {
		aborted = append(aborted, pd.AbortedTransactions...)
		ptrsort.SortFunc(aborted, func(a, b *protocol.AbortedTransaction) int { return cmp.Compare(a.FirstOffset, b.FirstOffset) })
	}
	pos, known := c.Positions[pd.TopicPartition]
	// Most answers bring nothing past the position (a long poll's empty
	// answer, a batch already read): then there is nothing to store and
	// the position stands, and two of the three map operations below
	// (each hashes the partition's name) are skipped. (An unknown
	// partition still gets its entry, as before.)
	if known && !anyPast(pd.Records, pos) {
		return
	}
	// The partition's received records are appended to here and stored
	// back once (only if some arrived, so no empty entry appears): a map
	// assignment per record was 4% of a heavy run.
	received, got := c.Received[pd.TopicPartition], false
	for _, b := range pd.Records {
		if b.NextOffset() <= pos {
			continue
		}
		if filter {
			for len(aborted) > 0 && aborted[0].FirstOffset <= b.LastOffset() {
				if abortedPids == nil {
					abortedPids = map[int64]bool{}
				}
				abortedPids[aborted[0].ProducerId] = true
				aborted = aborted[1:]
			}
		}
		if b.IsControl {
			if b.ControlType == protocol.ControlAbort {
				delete(abortedPids, b.ProducerId)
			}
			pos = b.NextOffset()
			continue
		}
		if filter && b.IsTransactional && abortedPids[b.ProducerId] {
			pos = b.NextOffset()
			continue
		}
		for i, r := range b.Records {
			off := b.BaseOffset + int64(i)
			if off < pos {
				continue
			}
			seq := int32(-1)
			if b.BaseSequence >= 0 {
				seq = b.BaseSequence + int32(i)
			}
			received, got = append(received, ReceivedRecord{Offset: off, Key: r.Key, Value: r.Value,
				ProducerId: b.ProducerId, ProducerEpoch: b.ProducerEpoch, Sequence: seq, Poll: c.pollCount, At: w.Now()}), true
			c.polled++
		}
		pos = b.NextOffset()
	}
	if got {
		c.Received[pd.TopicPartition] = received
	}
	c.Positions[pd.TopicPartition] = pos
}

// anyPast reports whether a batch of records ends past pos.
func anyPast(records []protocol.RecordBatch, pos int64) bool {
	for i := range records {
		if records[i].NextOffset() > pos {
			return true
		}
	}
	return false
}

// Timer handles retries and timeouts.
func (c *Consumer) Timer(w *sim.World, t *sim.Timer) {
	switch t.Kind {
	case "retry":
		if c.call != nil && !c.call.Done {
			kind := t.Data.(string)
			if kind == "offsets" && !c.needOffsets {
				return
			}
			c.sendGroupRequest(w, kind)
		}
	case "heartbeat":
		c.heartbeat(w, t.Data.(int))
	case "heartbeat-timeout":
		c.heartbeatTimedOut(w, t.Data.(int64))
	case "fetch-timeout":
		id := t.Data.(int64)
		if c.waiting[id] {
			delete(c.waiting, id)
			c.maybeFinishPoll(w)
		}
	case "request-timeout", sim.TimerDisconnected:
		id, _ := t.Data.(int64)
		if env, ok := t.Data.(*sim.Envelope); ok {
			id = env.ID
			if c.waiting[id] {
				delete(c.waiting, id)
				c.maybeFinishPoll(w)
				return
			}
		}
		if id != 0 && id == c.inflight && c.call != nil && !c.call.Done {
			c.inflight = 0
			c.groupCoordinator = sim.NoNode
			c.bootstrapAttempt++
			kind := c.inflightKind
			if len(kind) > 5 && kind[:5] == "find:" {
				kind = kind[5:]
			}
			w.After(c.node, c.Cfg.RetryBackoffMs, "retry", kind)
		}
	}
}
