package txncoord

import (
	"slices"
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// MaxProducerEpoch is Short.MaxValue; an epoch at or above
// MaxProducerEpoch-1 is exhausted: the client never holds 32767, so the
// coordinator can always fence.
const MaxProducerEpoch int16 = 32767

func isEpochExhausted(e int16) bool { return e >= MaxProducerEpoch-1 }

// TransactionMetadata is the coordinator's state of one transactional id
// (TransactionMetadata.scala).
type TransactionMetadata struct {
	TransactionalId        string
	ProducerId             int64
	PrevProducerId         int64
	ProducerEpoch          int16
	LastProducerEpoch      int16 // never persisted: -1 after a load
	TxnTimeoutMs           int32
	State                  protocol.TransactionState
	PendingState           protocol.TransactionState
	HasPendingState        bool
	Partitions             []protocol.TopicPartition
	TxnStartTimestamp      int64
	TxnLastUpdateTimestamp int64
	HasFailedEpochFence    bool
}

// transit is a transition's target (TxnTransitMetadata): the complete new
// state, which is also what the __transaction_state record holds.
type transit struct {
	ProducerId             int64
	PrevProducerId         int64
	ProducerEpoch          int16
	LastProducerEpoch      int16
	TxnTimeoutMs           int32
	State                  protocol.TransactionState
	Partitions             []protocol.TopicPartition
	TxnStartTimestamp      int64
	TxnLastUpdateTimestamp int64
	// emptyAbort marks transaction version 2's abort with nothing open,
	// from Empty or Complete*: an edge Kafka 4.0's
	// TransactionState.PREPARE_ABORT allows ("the client may not know the
	// txn state on the server side"), which 3.5's table lacks.
	emptyAbort bool
}

func (t transit) logValue() protocol.TransactionLogValue {
	v := protocol.TransactionLogValue{
		ProducerId: t.ProducerId, ProducerEpoch: t.ProducerEpoch, TransactionTimeoutMs: t.TxnTimeoutMs,
		TransactionStatus: t.State, TransactionLastUpdateTimestampMs: t.TxnLastUpdateTimestamp,
		TransactionStartTimestampMs: t.TxnStartTimestamp,
	}
	if t.State != protocol.Empty {
		v.TransactionPartitions = append([]protocol.TopicPartition(nil), t.Partitions...)
	}
	return v
}

func newMetadata(id string, pid int64, timeoutMs int32, now sim.Time) *TransactionMetadata {
	return &TransactionMetadata{TransactionalId: id, ProducerId: pid, PrevProducerId: protocol.NoProducerId,
		ProducerEpoch: protocol.NoProducerEpoch, LastProducerEpoch: protocol.NoProducerEpoch,
		TxnTimeoutMs: timeoutMs, State: protocol.Empty, TxnStartTimestamp: -1, TxnLastUpdateTimestamp: int64(now)}
}

// fromLogValue rebuilds metadata while loading; lastProducerEpoch is not
// in the record and reads back as -1 (KAFKA-20357).
func fromLogValue(id string, v *protocol.TransactionLogValue) *TransactionMetadata {
	return &TransactionMetadata{TransactionalId: id, ProducerId: v.ProducerId, PrevProducerId: protocol.NoProducerId,
		ProducerEpoch: v.ProducerEpoch, LastProducerEpoch: protocol.NoProducerEpoch, TxnTimeoutMs: v.TransactionTimeoutMs,
		State: v.TransactionStatus, Partitions: append([]protocol.TopicPartition(nil), v.TransactionPartitions...),
		TxnStartTimestamp: v.TransactionStartTimestampMs, TxnLastUpdateTimestamp: v.TransactionLastUpdateTimestampMs}
}

// base is the current state as a transition's starting point. As in
// Kafka 3.5 (TxnTransitMetadata(newProducerId, producerId, ...)), every
// transition records the producer id it started from as prevProducerId,
// so the leniency for a retry after a rotation lasts one transition.
func (md *TransactionMetadata) base() transit {
	return transit{ProducerId: md.ProducerId, PrevProducerId: md.ProducerId, ProducerEpoch: md.ProducerEpoch,
		LastProducerEpoch: md.LastProducerEpoch, TxnTimeoutMs: md.TxnTimeoutMs, State: md.State,
		Partitions: append([]protocol.TopicPartition(nil), md.Partitions...), TxnStartTimestamp: md.TxnStartTimestamp,
		TxnLastUpdateTimestamp: md.TxnLastUpdateTimestamp}
}

// prepareTransitionTo marks the transition pending; nothing else may
// change this id until it completes or fails.
func (md *TransactionMetadata) prepareTransitionTo(t transit) transit {
	md.PendingState, md.HasPendingState = t.State, true
	return t
}

func (md *TransactionMetadata) clearPending() { md.HasPendingState = false }

// completeTransitionTo applies a replicated transition. An edge Kafka
// does not allow is recorded (the transitions invariant reads it) rather
// than panicking: a broken mechanism must not crash the lesson.
func (md *TransactionMetadata) completeTransitionTo(w *sim.World, node sim.NodeID, t transit) {
	from := md.State
	text := "pid=" + strconv.FormatInt(t.ProducerId, 10) + " epoch=" + strconv.Itoa(int(t.ProducerEpoch))
	illegal := !protocol.ValidTransition(from, t.State) && !(t.emptyAbort && t.State == protocol.PrepareAbort)
	md.ProducerId, md.PrevProducerId = t.ProducerId, t.PrevProducerId
	md.ProducerEpoch, md.LastProducerEpoch = t.ProducerEpoch, t.LastProducerEpoch
	md.TxnTimeoutMs, md.State = t.TxnTimeoutMs, t.State
	md.Partitions = append([]protocol.TopicPartition(nil), t.Partitions...)
	md.TxnStartTimestamp, md.TxnLastUpdateTimestamp = t.TxnStartTimestamp, t.TxnLastUpdateTimestamp
	md.HasPendingState = false
	w.Record(sim.Event{Kind: sim.KindState, Node: node, Subject: "txn " + md.TransactionalId,
		From: w.Label(from.String()), To: w.Label(t.State.String()), Text: text, Illegal: illegal})
}

// prepareIncrementProducerEpoch is KIP-360's rule for InitProducerId from
// Empty or Complete*: a first init, a legitimate bump, a retry of a bump
// that already happened, or a fenced stale producer.
func (md *TransactionMetadata) prepareIncrementProducerEpoch(timeoutMs int32, expectedEpoch int16, hasExpected bool, now sim.Time) (transit, protocol.ErrorCode) {
	t := md.base()
	switch {
	case !hasExpected:
		t.ProducerEpoch, t.LastProducerEpoch = md.ProducerEpoch+1, protocol.NoProducerEpoch
	case md.ProducerEpoch == protocol.NoProducerEpoch || expectedEpoch == md.ProducerEpoch:
		t.ProducerEpoch, t.LastProducerEpoch = md.ProducerEpoch+1, md.ProducerEpoch
	case expectedEpoch == md.LastProducerEpoch:
		// a retry: keep the epoch the first attempt got
	default:
		return t, protocol.PRODUCER_FENCED
	}
	t.TxnTimeoutMs, t.State, t.Partitions = timeoutMs, protocol.Empty, nil
	t.TxnStartTimestamp, t.TxnLastUpdateTimestamp = -1, int64(now)
	return md.prepareTransitionTo(t), protocol.NONE
}

// prepareProducerIdRotation moves an exhausted id to a new producer id at
// epoch 0.
func (md *TransactionMetadata) prepareProducerIdRotation(newPid int64, timeoutMs int32, hasExpected bool, now sim.Time) transit {
	t := md.base()
	t.PrevProducerId, t.ProducerId, t.ProducerEpoch = md.ProducerId, newPid, 0
	t.LastProducerEpoch = protocol.NoProducerEpoch
	if hasExpected {
		t.LastProducerEpoch = md.ProducerEpoch
	}
	t.TxnTimeoutMs, t.State, t.Partitions = timeoutMs, protocol.Empty, nil
	t.TxnStartTimestamp, t.TxnLastUpdateTimestamp = -1, int64(now)
	return md.prepareTransitionTo(t)
}

// prepareFenceProducerEpoch bumps the epoch in memory at once (never
// returned to a client) with PrepareEpochFence pending; the abort that
// follows persists it. A failed fence does not bump again (KAFKA-9666).
func (md *TransactionMetadata) prepareFenceProducerEpoch(w *sim.World, node sim.NodeID) {
	bumped := md.ProducerEpoch
	if !md.HasFailedEpochFence {
		bumped++
	}
	w.Record(sim.Event{Kind: sim.KindState, Node: node, Subject: "txn " + md.TransactionalId,
		From: w.Label(md.State.String()), To: w.Label(protocol.PrepareEpochFence.String()),
		Note: sim.NewNote(sim.NoteEpochFencePending, strconv.Itoa(int(md.ProducerEpoch)), strconv.Itoa(int(bumped)))})
	md.PendingState, md.HasPendingState = protocol.PrepareEpochFence, true
	// endTransaction clears the fence and adopts the fenced epoch.
	md.HasPendingState = false
	md.ProducerEpoch, md.LastProducerEpoch = bumped, protocol.NoProducerEpoch
}

// prepareAddPartitions moves to Ongoing with the union of partitions.
func (md *TransactionMetadata) prepareAddPartitions(add []protocol.TopicPartition, now sim.Time) transit {
	t := md.base()
	if md.State == protocol.Empty || md.State == protocol.CompleteCommit || md.State == protocol.CompleteAbort {
		t.TxnStartTimestamp = int64(now)
		t.Partitions = nil
	}
	t.Partitions = unionPartitions(t.Partitions, add)
	t.State, t.TxnLastUpdateTimestamp = protocol.Ongoing, int64(now)
	return md.prepareTransitionTo(t)
}

// prepareAbortOrCommit moves to PrepareCommit or PrepareAbort.
func (md *TransactionMetadata) prepareAbortOrCommit(commit bool, now sim.Time) transit {
	t := md.base()
	t.State = protocol.PrepareAbort
	if commit {
		t.State = protocol.PrepareCommit
	}
	t.TxnLastUpdateTimestamp = int64(now)
	return md.prepareTransitionTo(t)
}

// prepareComplete is the Complete* target once every marker is written.
// The marker channel marks it pending while the markers are out, so every
// other request for the id meanwhile gets CONCURRENT_TRANSACTIONS.
func (md *TransactionMetadata) prepareComplete(now sim.Time) transit {
	// The Prepare record is durable: a failed fence is history, and the
	// next fence bumps again.
	md.HasFailedEpochFence = false
	t := md.base()
	t.State = protocol.CompleteAbort
	if md.State == protocol.PrepareCommit {
		t.State = protocol.CompleteCommit
	}
	t.Partitions = nil
	t.TxnLastUpdateTimestamp = int64(now)
	return t
}

func (md *TransactionMetadata) prepareDead() transit {
	t := md.base()
	t.State = protocol.Dead
	return md.prepareTransitionTo(t)
}

func (md *TransactionMetadata) hasPartitions(tps []protocol.TopicPartition) bool {
	for _, tp := range tps {
		found := false
		for _, have := range md.Partitions {
			if have == tp {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (md *TransactionMetadata) removePartition(tp protocol.TopicPartition) {
	for i, have := range md.Partitions {
		if have == tp {
			md.Partitions = append(md.Partitions[:i:i], md.Partitions[i+1:]...)
			return
		}
	}
}

func unionPartitions(a, b []protocol.TopicPartition) []protocol.TopicPartition {
	out := append([]protocol.TopicPartition(nil), a...)
	for _, tp := range b {
		dup := false
		for _, have := range out {
			if have == tp {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, tp)
		}
	}
	slices.SortFunc(out, protocol.TopicPartition.Compare)
	return out
}

// MetadataView is a copy of the metadata for snapshots and expectations.
type MetadataView struct {
	TransactionalId        string
	ProducerId             int64
	ProducerEpoch          int16
	LastProducerEpoch      int16
	TxnTimeoutMs           int32
	State                  string
	PendingState           string `json:",omitempty"`
	Partitions             []protocol.TopicPartition
	TxnStartTimestamp      int64
	TxnLastUpdateTimestamp int64
}

// View copies the metadata.
func (md *TransactionMetadata) View() MetadataView {
	v := MetadataView{TransactionalId: md.TransactionalId, ProducerId: md.ProducerId, ProducerEpoch: md.ProducerEpoch,
		LastProducerEpoch: md.LastProducerEpoch, TxnTimeoutMs: md.TxnTimeoutMs, State: md.State.String(),
		Partitions: append([]protocol.TopicPartition(nil), md.Partitions...), TxnStartTimestamp: md.TxnStartTimestamp,
		TxnLastUpdateTimestamp: md.TxnLastUpdateTimestamp}
	if md.HasPendingState {
		v.PendingState = md.PendingState.String()
	}
	return v
}
