package txncoord

// WriteTxnMarkers (key 27), the coordinator's side:
// TransactionMarkerChannelManager and
// TransactionMarkerRequestCompletionHandler, Kafka 3.5.
//
// Once a decision is durable, the transaction's partitions are grouped by
// their current leader and ONE WriteTxnMarkers request goes to each
// destination broker, carrying every marker queued for it. Per partition:
// NONE removes the partition; retriable errors re-queue it (leader looked
// up again) and retry forever; INVALID_PRODUCER_EPOCH and
// TRANSACTION_COORDINATOR_FENCED stop this coordinator's work on the
// transaction (someone newer owns it). A request with no answer within
// request.timeout.ms is sent again (Kafka notices a disconnection). When
// no partition is left, CompleteCommit/CompleteAbort is written.
//
// At most one request is in flight to each destination: the send
// thread's NetworkClient allows one per connection
// (maxInFlightRequestsPerConnection = 1), and a request for a busy
// destination waits, unsent, until the one in flight is answered or
// times out. So a marker request a reload queued again cannot overtake
// the first and arrive after a later transaction began.
//
// Simplified: retries wait retry.backoff.ms (100 ms) instead of the send
// thread's next poll.

import (
	"slices"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// pendingComplete is a decided transaction whose markers are not all
// written (PendingCompleteTxn). Bookkeeping is keyed by this object, not
// only by the id, so a stale answer cannot finish a newer transaction
// (KAFKA-16352).
type pendingComplete struct {
	id               string
	partition        int32
	coordinatorEpoch int32
	commit           bool
	md               *TransactionMetadata
	target           transit
	remaining        []protocol.TopicPartition
}

type markerEntry struct {
	pc         *pendingComplete
	partitions []protocol.TopicPartition
}

type markerChannel struct {
	pending   map[string]*pendingComplete
	queue     map[sim.NodeID][]markerEntry
	unknown   []markerEntry // partitions with no leader now
	inflight  map[int64]inflightMarkers
	scheduled bool
}

type inflightMarkers struct {
	dest    sim.NodeID
	entries []markerEntry
}

func (ch *markerChannel) init() {
	ch.pending = map[string]*pendingComplete{}
	ch.queue = map[sim.NodeID][]markerEntry{}
	ch.inflight = map[int64]inflightMarkers{}
}

// add is addTxnMarkersToSend.
func (ch *markerChannel) add(w *sim.World, c *Coordinator, id string, coordinatorEpoch int32, commit bool, md *TransactionMetadata, target transit) {
	pc := &pendingComplete{id: id, partition: c.host.TxnPartitionFor(id), coordinatorEpoch: coordinatorEpoch,
		commit: commit, md: md, target: target, remaining: append([]protocol.TopicPartition(nil), md.Partitions...)}
	ch.pending[id] = pc
	md.PendingState, md.HasPendingState = target.State, true
	if len(pc.remaining) == 0 {
		c.writeTxnCompletion(w, pc)
		return
	}
	ch.enqueue(c, pc, pc.remaining)
	ch.schedule(w, c, 0)
}

func (ch *markerChannel) enqueue(c *Coordinator, pc *pendingComplete, tps []protocol.TopicPartition) {
	byDest := map[sim.NodeID][]protocol.TopicPartition{}
	for _, tp := range tps {
		leader, _, ok := c.host.LeaderOf(tp)
		if !ok {
			ch.unknown = append(ch.unknown, markerEntry{pc: pc, partitions: []protocol.TopicPartition{tp}})
			continue
		}
		byDest[leader] = append(byDest[leader], tp)
	}
	for _, dest := range sortedNodes(byDest) {
		ch.queue[dest] = append(ch.queue[dest], markerEntry{pc: pc, partitions: byDest[dest]})
	}
}

// sortedNodes is m's brokers in id order (their codes follow their ids,
// and with at most 9 brokers that is also their names' order).
func sortedNodes[V any](m map[sim.NodeID]V) []sim.NodeID {
	out := make([]sim.NodeID, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (ch *markerChannel) schedule(w *sim.World, c *Coordinator, after sim.Time) {
	if ch.scheduled {
		return
	}
	ch.scheduled = true
	w.AfterFor(c.host.BrokerNode(), c, after, timerSendMarkers, nil, false)
}

// live reports whether the entry still belongs to this coordinator's
// current work.
func (ch *markerChannel) live(c *Coordinator, pc *pendingComplete) bool {
	if ch.pending[pc.id] != pc {
		return false
	}
	e := c.cache[pc.partition]
	return e != nil && e.coordinatorEpoch == pc.coordinatorEpoch
}

// sendQueuedMarkers is one pass of the send thread: one request per
// destination broker.
func (c *Coordinator) sendQueuedMarkers(w *sim.World) {
	ch := &c.markers
	ch.scheduled = false
	unknown := ch.unknown
	ch.unknown = nil
	for _, e := range unknown {
		if ch.live(c, e.pc) {
			ch.enqueue(c, e.pc, e.partitions)
		}
	}
	for _, dest := range sortedNodes(ch.queue) {
		if ch.busy(dest) {
			continue // sent once the request in flight is done
		}
		var entries []markerEntry
		for _, e := range ch.queue[dest] {
			if ch.live(c, e.pc) {
				entries = append(entries, e)
			}
		}
		delete(ch.queue, dest)
		if len(entries) == 0 {
			continue
		}
		req := &protocol.WriteTxnMarkersRequest{}
		for _, e := range entries {
			req.Markers = append(req.Markers, protocol.WritableTxnMarker{
				ProducerId: e.pc.md.ProducerId, ProducerEpoch: e.pc.md.ProducerEpoch, TransactionResult: e.pc.commit,
				Partitions: e.partitions, CoordinatorEpoch: e.pc.coordinatorEpoch})
		}
		id := w.Send(c.host.BrokerNode(), dest, req, 0)
		ch.inflight[id] = inflightMarkers{dest: dest, entries: entries}
		w.AfterFor(c.host.BrokerNode(), c, c.cfg.RequestTimeoutMs, timerMarkerExpiry, id, true)
	}
	if len(ch.unknown) > 0 {
		ch.schedule(w, c, c.cfg.RetryBackoffMs)
	}
}

// busy reports whether a request to dest is in flight.
func (ch *markerChannel) busy(dest sim.NodeID) bool {
	for _, in := range ch.inflight {
		if in.dest == dest {
			return true
		}
	}
	return false
}

// Disconnected re-queues a request whose destination refused the
// connection; the send waits a reconnect backoff (1 s here) first.
func (c *Coordinator) Disconnected(w *sim.World, msgID int64) {
	c.requeue(w, msgID, sim.NoteMarkersRequeuedNoConnect, sim.Second)
}

// markerRequestTimedOut re-queues a request that got no answer.
func (c *Coordinator) markerRequestTimedOut(w *sim.World, msgID int64) {
	c.requeue(w, msgID, sim.NoteMarkersRequeuedTimeout, 0)
}

func (c *Coordinator) requeue(w *sim.World, msgID int64, why sim.NoteCode, backoff sim.Time) {
	ch := &c.markers
	in, ok := ch.inflight[msgID]
	if !ok {
		return
	}
	delete(ch.inflight, msgID)
	w.Note(c.host.BrokerNode(), "WriteTxnMarkers", why, w.Name(in.dest))
	for _, e := range in.entries {
		if ch.live(c, e.pc) {
			ch.enqueue(c, e.pc, e.partitions)
		}
	}
	ch.schedule(w, c, backoff)
}

// HandleMarkersResponse applies a WriteTxnMarkers answer.
func (c *Coordinator) HandleMarkersResponse(w *sim.World, env *sim.Envelope, m *protocol.WriteTxnMarkersResponse) {
	ch := &c.markers
	in, ok := ch.inflight[env.ReplyTo]
	if !ok {
		return
	}
	delete(ch.inflight, env.ReplyTo)
	if len(ch.queue[in.dest]) > 0 {
		ch.schedule(w, c, 0) // the requests that waited for this one
	}
	var retry bool
	for i, e := range in.entries {
		if i >= len(m.Markers) || !ch.live(c, e.pc) {
			continue
		}
		pc := e.pc
		var again []protocol.TopicPartition
		stopped := false
		for _, r := range m.Markers[i].Partitions {
			switch r.ErrorCode {
			case protocol.NONE:
				pc.remove(r.TopicPartition)
			case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.NOT_LEADER_OR_FOLLOWER, protocol.NOT_ENOUGH_REPLICAS,
				protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND, protocol.REQUEST_TIMED_OUT, protocol.KAFKA_STORAGE_ERROR:
				again = append(again, r.TopicPartition)
			case protocol.INVALID_PRODUCER_EPOCH, protocol.TRANSACTION_COORDINATOR_FENCED:
				stopped = true
			default:
				w.Note(c.host.BrokerNode(), "txn "+pc.id, sim.NoteMarkerError, r.ErrorCode.String(), r.TopicPartition.String())
				stopped = true
			}
		}
		if stopped {
			w.Note(c.host.BrokerNode(), "txn "+pc.id, sim.NoteMarkersStopped)
			delete(ch.pending, pc.id)
			continue
		}
		if len(again) > 0 {
			ch.enqueue(c, pc, again)
			retry = true
		}
		if len(pc.remaining) == 0 {
			c.writeTxnCompletion(w, pc)
		}
	}
	if retry {
		ch.schedule(w, c, c.cfg.RetryBackoffMs)
	}
}

func (pc *pendingComplete) remove(tp protocol.TopicPartition) {
	for i, have := range pc.remaining {
		if have == tp {
			pc.remaining = append(pc.remaining[:i:i], pc.remaining[i+1:]...)
			break
		}
	}
	pc.md.removePartition(tp)
}

// writeTxnCompletion persists CompleteCommit/CompleteAbort
// (maybeWriteTxnCompletion). COORDINATOR_NOT_AVAILABLE is retried; on
// NOT_COORDINATOR or a load in progress the next owner finishes the job.
func (c *Coordinator) writeTxnCompletion(w *sim.World, pc *pendingComplete) {
	ch := &c.markers
	if !ch.live(c, pc) {
		return
	}
	target := pc.target
	target.TxnLastUpdateTimestamp = int64(w.Now())
	pc.md.prepareTransitionTo(target)
	c.appendTransactionToLog(w, pc.id, pc.coordinatorEpoch, pc.md, target, func(w *sim.World, err protocol.ErrorCode) {
		switch err {
		case protocol.NONE:
			if ch.pending[pc.id] == pc {
				delete(ch.pending, pc.id)
			}
		case protocol.COORDINATOR_NOT_AVAILABLE:
			// retryOnError: the Complete* transition stays pending.
			pc.md.PendingState, pc.md.HasPendingState = pc.target.State, true
			w.AfterFor(c.host.BrokerNode(), c, c.cfg.RetryBackoffMs, timerRetryComplete, pc, false)
		default:
			if ch.pending[pc.id] == pc {
				delete(ch.pending, pc.id)
			}
		}
	})
}

// dropPartition forgets queued and pending marker work of a
// __transaction_state partition this broker no longer owns.
func (ch *markerChannel) dropPartition(c *Coordinator, p int32) {
	for id, pc := range ch.pending {
		if pc.partition == p {
			delete(ch.pending, id)
		}
	}
}
