// Package partition holds one partition replica's log as Kafka keeps it:
// record batches with producer id, epoch and sequence; control batches
// (transaction markers); per-producer state for duplicate, sequence and
// epoch checks; the high watermark, the last stable offset and the
// aborted-transaction index. Pure data structures, tested alone.
package partition

import (
	"slices"
	"sort"

	"txnlab/core/protocol"
)

// NumBatchesToRetain is Kafka's ProducerStateEntry.NUM_BATCHES_TO_RETAIN:
// how many recent batches per producer the leader remembers to recognise a
// retried batch. It matches max.in.flight.requests.per.connection ≤ 5.
const NumBatchesToRetain = 5

// Checks says which safety checks are on. All are on in Kafka; a lesson
// turns one off with `break` to show what it prevents.
type Checks struct {
	// EpochFencing rejects batches and markers with an older producer
	// epoch (INVALID_PRODUCER_EPOCH).
	EpochFencing bool
	// CoordinatorEpoch rejects markers from an older coordinator
	// (TRANSACTION_COORDINATOR_FENCED).
	CoordinatorEpoch bool
	// SequenceCheck rejects out-of-order sequences and answers retried
	// batches with their original offset instead of appending them again.
	SequenceCheck bool
	// Verification (KIP-890 part 1, transaction.partition.verification.enable)
	// rejects a transactional batch that opens a transaction here unless
	// it carries the guard of a verification the coordinator answered
	// (INVALID_TXN_STATE). Off in Kafka 3.5, so not in AllChecks.
	Verification bool
	// StrictMarkerEpoch is transaction version 2's marker check: the
	// coordinator bumps the epoch before writing a transaction's
	// markers, so a valid marker's epoch is above the producer's current
	// one, and one at the current epoch while a transaction is open is
	// a late marker of the previous transaction (ProducerAppendInfo
	// checkProducerEpoch with transactionVersion >= 2; at the current
	// epoch with no transaction open it is a retry of a marker already
	// written, and is written again, KAFKA-19999). Off under transaction
	// version 1, which cannot tell a late marker from the current one.
	StrictMarkerEpoch bool
}

// AllChecks is Kafka's behaviour.
var AllChecks = Checks{EpochFencing: true, CoordinatorEpoch: true, SequenceCheck: true}

// BatchMetadata is what the producer state remembers of one recent batch.
type BatchMetadata struct {
	FirstSeq    int32
	LastSeq     int32
	FirstOffset int64
	LastOffset  int64
}

// ProducerStateEntry is the partition's state for one producer id
// (ProducerStateEntry.java).
type ProducerStateEntry struct {
	ProducerId    int64
	ProducerEpoch int16
	// Batches holds at most NumBatchesToRetain recent batches, oldest first.
	Batches []BatchMetadata
	// CoordinatorEpoch is the coordinator epoch of the last marker applied.
	CoordinatorEpoch int32
	// CurrentTxnFirstOffset is the first offset of this producer's open
	// transaction here, or -1.
	CurrentTxnFirstOffset int64
	// LastTimestamp is the timestamp of the producer's last batch here
	// (the leader's append time it carries, so every replica and a replay
	// after a restart agree), for producer.id.expiration.ms.
	LastTimestamp int64
}

// TxnRange is a transaction's span on this partition: open (LastOffset -1)
// or decided (LastOffset = its marker's offset).
type TxnRange struct {
	ProducerId  int64
	FirstOffset int64
	LastOffset  int64
	Aborted     bool
}

// AbortedTxn is an entry of the aborted-transaction index (.txnindex).
type AbortedTxn struct {
	ProducerId       int64
	FirstOffset      int64
	LastOffset       int64
	LastStableOffset int64
}

// Log is one replica of one partition.
type Log struct {
	TP            protocol.TopicPartition
	Batches       []protocol.RecordBatch
	HighWatermark int64
	// Producers maps producer id to its state; iterate with ProducerIds.
	// It is nil until a producer's first batch: most logs (the internal
	// topics' partitions) never see one, and every cluster creates
	// hundreds of them.
	Producers map[int64]*ProducerStateEntry
	// Ongoing holds open transactions, by first offset.
	Ongoing []TxnRange
	// Unreplicated holds decided transactions whose marker is not yet
	// below the high watermark: their data stays invisible to
	// read_committed readers until it is (apache/kafka PR #2910).
	Unreplicated []TxnRange
	// AbortedIndex is the aborted-transaction index, in marker order.
	AbortedIndex []AbortedTxn
	// Verifying holds, per producer id, the verification a leader started
	// and has not yet consumed (ProducerStateManager.verificationStates):
	// in memory only, like Kafka's.
	Verifying map[int64]VerificationState
	lastGuard int64

	name string // TP.String(), rendered once
	// watch, when set, is told of every change to the offsets
	// OffsetsOrdered reads (see Watch); inWatch: the log is already in
	// its list.
	watch   *Watch
	inWatch bool
}

// Watch lists the logs whose batches, high watermark or transactions
// changed since it was last drained: the assertions after every statement
// (cluster.AssertChanged) need only look at those, since a log nothing touched
// still holds what it held at the previous check. Only the changes made
// through Log's methods are seen; a field set by hand is not.
type Watch struct{ changed []*Log }

// Track makes w hear of l's changes from now on, and counts l as
// changed (it has never been checked under w).
func (w *Watch) Track(l *Log) {
	l.watch, l.inWatch = w, false
	l.touch()
}

// Drain returns the logs changed since the last Drain, in the order of
// their first change, and forgets them. The slice is w's own, valid
// until its next change.
func (w *Watch) Drain() []*Log {
	out := w.changed
	for _, l := range out {
		l.inWatch = false
	}
	w.changed = w.changed[:0]
	return out
}

// touch records a change of l's offsets with its watch.
func (l *Log) touch() {
	if l.watch != nil && !l.inWatch {
		l.inWatch = true
		l.watch.changed = append(l.watch.changed, l)
	}
}

// Name is the partition's name as events show it ("topic/0").
func (l *Log) Name() string {
	if l.name == "" {
		l.name = l.TP.String()
	}
	return l.name
}

// NewLog returns an empty log.
func NewLog(tp protocol.TopicPartition) *Log {
	return &Log{TP: tp}
}

// VerificationState is one producer's pending verification
// (VerificationStateEntry): a guard unique to this verification, so an
// answer that outlived an abort marker cannot open a transaction the
// coordinator has never heard of (the ABA case of UnifiedLog).
type VerificationState struct {
	Guard         int64
	ProducerEpoch int16
	LowestSeq     int32
}

// StartVerification is UnifiedLog.maybeStartTransactionVerification: no
// verification is needed (guard 0) while the producer has a transaction
// open here at this epoch; otherwise its pending verification's guard,
// created if there is none.
func (l *Log) StartVerification(pid int64, epoch int16, seq int32) int64 {
	if l.hasOngoingTransaction(pid, epoch) {
		return 0
	}
	if v, ok := l.Verifying[pid]; ok {
		return v.Guard
	}
	if l.Verifying == nil {
		l.Verifying = map[int64]VerificationState{}
	}
	l.lastGuard++
	l.Verifying[pid] = VerificationState{Guard: l.lastGuard, ProducerEpoch: epoch, LowestSeq: seq}
	return l.lastGuard
}

// hasOngoingTransaction: the producer has a transaction open here, at
// this epoch. Kafka 3.6 compared the producer id only; later Kafka
// compares the epoch too (hasOngoingTransaction(producerId,
// producerEpoch)), which transaction version 2 needs: its next
// transaction, at the bumped epoch, may write before the previous one's
// marker has landed, and must not slip into that open transaction.
func (l *Log) hasOngoingTransaction(pid int64, epoch int16) bool {
	e := l.Producers[pid]
	return e != nil && e.CurrentTxnFirstOffset >= 0 && e.ProducerEpoch == epoch
}

// AppendAsLeaderVerified is AppendAsLeader with the verification guard
// the leader obtained for this batch (0 for none). With
// checks.Verification, a transactional batch that would open a
// transaction here must carry the producer's current guard, checked
// after the duplicate check and before the epoch check, as in
// UnifiedLog.analyzeAndValidateProducerState.
func (l *Log) AppendAsLeaderVerified(b protocol.RecordBatch, leaderEpoch int32, now int64, checks Checks, guard int64) AppendResult {
	if checks.Verification && b.IsTransactional && b.ProducerId >= 0 {
		e := l.Producers[b.ProducerId]
		if e != nil && checks.SequenceCheck && b.ProducerEpoch == e.ProducerEpoch {
			for _, m := range e.Batches {
				if m.FirstSeq == b.BaseSequence && m.LastSeq == b.LastSequence() {
					return AppendResult{BaseOffset: m.FirstOffset, Duplicate: true}
				}
			}
		}
		open := l.hasOngoingTransaction(b.ProducerId, b.ProducerEpoch)
		if v, ok := l.Verifying[b.ProducerId]; !open && (!ok || guard == 0 || v.Guard != guard) {
			return AppendResult{BaseOffset: -1, Err: protocol.INVALID_TXN_STATE}
		}
	}
	return l.AppendAsLeader(b, leaderEpoch, now, checks)
}

// LogEndOffset is the offset the next batch gets.
func (l *Log) LogEndOffset() int64 {
	if n := len(l.Batches); n > 0 {
		return l.Batches[n-1].NextOffset()
	}
	return 0
}

// ProducerIds lists the producer ids with state here, sorted, so nothing
// depends on map order.
func (l *Log) ProducerIds() []int64 {
	ids := make([]int64, 0, len(l.Producers))
	for id := range l.Producers {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// FirstUnstableOffset is the smallest first offset over open transactions
// and decided-but-unreplicated ones, or -1.
func (l *Log) FirstUnstableOffset() int64 {
	// Two loops, not one over [][]TxnRange{...}: building that literal
	// cost more than the scan, and the assertions after every statement
	// ask every replica for its LSO.
	first := int64(-1)
	for _, t := range l.Ongoing {
		if first < 0 || t.FirstOffset < first {
			first = t.FirstOffset
		}
	}
	for _, t := range l.Unreplicated {
		if first < 0 || t.FirstOffset < first {
			first = t.FirstOffset
		}
	}
	return first
}

// LSO is the last stable offset: the first unstable offset when it is
// below the high watermark, else the high watermark.
func (l *Log) LSO() int64 {
	if f := l.FirstUnstableOffset(); f >= 0 && f < l.HighWatermark {
		return f
	}
	return l.HighWatermark
}

// AppendResult is the outcome of a client write.
type AppendResult struct {
	BaseOffset int64
	Err        protocol.ErrorCode
	// Duplicate is set when the batch was a retry of one already in the
	// log: nothing was appended and BaseOffset is the original's.
	Duplicate bool
}

// AppendAsLeader validates a client's batch against the producer state
// (UnifiedLog.analyzeAndValidateProducerState, in Kafka's order) and
// appends it. now stamps the producer's last write.
func (l *Log) AppendAsLeader(b protocol.RecordBatch, leaderEpoch int32, now int64, checks Checks) AppendResult {
	if b.ProducerId >= 0 {
		if e := l.Producers[b.ProducerId]; e != nil {
			if res, handled := l.validate(e, &b, checks); handled {
				return res
			}
		}
	}
	b.BaseOffset = l.LogEndOffset()
	b.PartitionLeaderEpoch = leaderEpoch
	b.Timestamp = now
	l.append(b, now)
	return AppendResult{BaseOffset: b.BaseOffset}
}

func (l *Log) validate(e *ProducerStateEntry, b *protocol.RecordBatch, checks Checks) (AppendResult, bool) {
	// Writes from a coordinator (transactional offset commits) carry no
	// sequence: Kafka skips the sequence checks for that origin.
	if b.BaseSequence < 0 {
		checks.SequenceCheck = false
	}
	// 1. A retry of one of the last five batches gets its original offset.
	if checks.SequenceCheck && b.ProducerEpoch == e.ProducerEpoch {
		for _, m := range e.Batches {
			if m.FirstSeq == b.BaseSequence && m.LastSeq == b.LastSequence() {
				return AppendResult{BaseOffset: m.FirstOffset, Duplicate: true}, true
			}
		}
	}
	// 3. An older epoch is fenced.
	if checks.EpochFencing && b.ProducerEpoch < e.ProducerEpoch {
		return AppendResult{BaseOffset: -1, Err: protocol.INVALID_PRODUCER_EPOCH}, true
	}
	if checks.SequenceCheck && e.ProducerEpoch >= 0 {
		if b.ProducerEpoch != e.ProducerEpoch {
			// 5. A new epoch must start at sequence 0.
			if b.ProducerEpoch > e.ProducerEpoch && b.BaseSequence != 0 {
				return AppendResult{BaseOffset: -1, Err: protocol.OUT_OF_ORDER_SEQUENCE_NUMBER}, true
			}
		} else {
			// 6. The same epoch continues where it left off (from 0 when
			// nothing of this epoch is remembered).
			last := protocol.NoSequence
			if n := len(e.Batches); n > 0 {
				last = e.Batches[n-1].LastSeq
			}
			if b.BaseSequence != nextSeq(last) {
				return AppendResult{BaseOffset: -1, Err: protocol.OUT_OF_ORDER_SEQUENCE_NUMBER}, true
			}
		}
	}
	// 7. A non-transactional write while this producer has a transaction
	// open here.
	if !b.IsTransactional && e.CurrentTxnFirstOffset >= 0 {
		return AppendResult{BaseOffset: -1, Err: protocol.INVALID_TXN_STATE}, true
	}
	return AppendResult{}, false
}

// nextSeq wraps after Integer.MAX_VALUE, as the Java client does.
func nextSeq(s int32) int32 {
	if s == 1<<31-1 {
		return 0
	}
	return s + 1
}

// MarkerResult is the outcome of a WriteTxnMarkers entry on this partition.
type MarkerResult struct {
	Offset int64
	Err    protocol.ErrorCode
	// Completed is the transaction the marker closed, if one was open.
	Completed *TxnRange
}

// AppendMarker checks and appends a COMMIT or ABORT control batch
// (ProducerAppendInfo.appendEndTxnMarker). A marker for a producer with no
// open transaction is still written and changes nothing else.
func (l *Log) AppendMarker(pid int64, epoch int16, ct protocol.ControlType, coordinatorEpoch, leaderEpoch int32, now int64, checks Checks) MarkerResult {
	if e := l.Producers[pid]; e != nil {
		if checks.EpochFencing && (epoch < e.ProducerEpoch ||
			checks.StrictMarkerEpoch && epoch == e.ProducerEpoch && e.CurrentTxnFirstOffset >= 0) {
			return MarkerResult{Offset: -1, Err: protocol.INVALID_PRODUCER_EPOCH}
		}
		if checks.CoordinatorEpoch && coordinatorEpoch < e.CoordinatorEpoch {
			return MarkerResult{Offset: -1, Err: protocol.TRANSACTION_COORDINATOR_FENCED}
		}
	}
	b := protocol.RecordBatch{
		BaseOffset: l.LogEndOffset(), PartitionLeaderEpoch: leaderEpoch, Timestamp: now,
		ProducerId: pid, ProducerEpoch: epoch, BaseSequence: protocol.NoSequence,
		IsTransactional: true, IsControl: true, ControlType: ct, CoordinatorEpoch: coordinatorEpoch,
		Records: []protocol.Record{{Key: ct.String()}},
	}
	res := MarkerResult{Offset: b.BaseOffset}
	if done, ok := l.append(b, now); ok {
		res.Completed = &done
	}
	return res
}

// AppendReplica appends batches a follower fetched from its leader, with
// no checks, keeping offsets as the leader assigned them. Batches below
// the log end are skipped, so a repeated fetch response is harmless.
func (l *Log) AppendReplica(batches []protocol.RecordBatch, now int64) {
	for _, b := range batches {
		if b.BaseOffset < l.LogEndOffset() {
			continue
		}
		l.append(b, now)
	}
}

// append adds a batch and updates the producer state; it returns the
// transaction a marker completed, and whether it did. By value: a
// follower replicating a marker allocated a range no one read.
func (l *Log) append(b protocol.RecordBatch, now int64) (TxnRange, bool) {
	l.touch()
	l.Batches = append(l.Batches, b)
	return l.apply(&l.Batches[len(l.Batches)-1], now)
}

func (l *Log) entry(pid int64) *ProducerStateEntry {
	e := l.Producers[pid]
	if e == nil {
		e = &ProducerStateEntry{ProducerId: pid, ProducerEpoch: protocol.NoProducerEpoch,
			CoordinatorEpoch: -1, CurrentTxnFirstOffset: -1}
		if l.Producers == nil {
			l.Producers = map[int64]*ProducerStateEntry{}
		}
		l.Producers[pid] = e
	}
	return e
}

func (l *Log) apply(b *protocol.RecordBatch, now int64) (TxnRange, bool) {
	if b.ProducerId < 0 {
		return TxnRange{}, false
	}
	if b.IsTransactional && l.Verifying != nil {
		// A data batch opened the transaction, or a marker closed it:
		// either way the guard is spent (UnifiedLog.updateProducers).
		delete(l.Verifying, b.ProducerId)
	}
	e := l.entry(b.ProducerId)
	e.LastTimestamp = b.Timestamp
	if b.ProducerEpoch > e.ProducerEpoch {
		e.ProducerEpoch = b.ProducerEpoch
		e.Batches = nil
	}
	if b.IsControl {
		if b.CoordinatorEpoch > e.CoordinatorEpoch {
			e.CoordinatorEpoch = b.CoordinatorEpoch
		}
		if e.CurrentTxnFirstOffset < 0 {
			return TxnRange{}, false // an empty or repeated marker changes nothing (KAFKA-10702)
		}
		done := TxnRange{ProducerId: b.ProducerId, FirstOffset: e.CurrentTxnFirstOffset,
			LastOffset: b.BaseOffset, Aborted: b.ControlType == protocol.ControlAbort}
		e.CurrentTxnFirstOffset = -1
		l.removeOngoing(b.ProducerId)
		if done.Aborted {
			l.AbortedIndex = append(l.AbortedIndex, AbortedTxn{ProducerId: done.ProducerId,
				FirstOffset: done.FirstOffset, LastOffset: done.LastOffset,
				LastStableOffset: l.lastStableOffsetAfter(done)})
		}
		if done.LastOffset >= l.HighWatermark {
			l.Unreplicated = append(l.Unreplicated, done)
		}
		return done, true
	}
	if b.BaseSequence >= 0 {
		if e.Batches == nil {
			// The window's whole array at once: growing it from one
			// allocated four times per producer epoch.
			e.Batches = make([]BatchMetadata, 0, NumBatchesToRetain+1)
		}
		e.Batches = append(e.Batches, BatchMetadata{FirstSeq: b.BaseSequence, LastSeq: b.LastSequence(),
			FirstOffset: b.BaseOffset, LastOffset: b.LastOffset()})
		if n := len(e.Batches); n > NumBatchesToRetain {
			// Slide the window within its array: re-slicing from the
			// front left no room at the end, and every later append
			// copied the window to a new array. No one else holds the
			// array (Clone and the snapshot copy it).
			copy(e.Batches, e.Batches[n-NumBatchesToRetain:])
			e.Batches = e.Batches[:NumBatchesToRetain]
		}
	}
	if b.IsTransactional && e.CurrentTxnFirstOffset < 0 {
		e.CurrentTxnFirstOffset = b.BaseOffset
		l.Ongoing = append(l.Ongoing, TxnRange{ProducerId: b.ProducerId, FirstOffset: b.BaseOffset, LastOffset: -1})
	}
	return TxnRange{}, false
}

// lastStableOffsetAfter is the LSO once done completes: the first offset
// of the earliest other open transaction, or the marker offset + 1.
func (l *Log) lastStableOffsetAfter(done TxnRange) int64 {
	lso := done.LastOffset + 1
	for _, t := range l.Ongoing {
		if t.ProducerId != done.ProducerId && t.FirstOffset < lso {
			lso = t.FirstOffset
		}
	}
	return lso
}

func (l *Log) removeOngoing(pid int64) {
	for i, t := range l.Ongoing {
		if t.ProducerId == pid {
			// In place: only the log holds its array (Clone and the
			// snapshot copy it), and a copy per marker was a copy per
			// transaction and partition.
			l.Ongoing = slices.Delete(l.Ongoing, i, i+1)
			return
		}
	}
}

// SetHighWatermark moves the high watermark; decided transactions whose
// marker falls below it become stable. It never moves backwards.
func (l *Log) SetHighWatermark(hw int64) {
	if hw > l.LogEndOffset() {
		hw = l.LogEndOffset()
	}
	if hw < l.HighWatermark {
		return
	}
	l.touch()
	l.HighWatermark = hw
	kept := l.Unreplicated[:0]
	for _, t := range l.Unreplicated {
		if t.LastOffset >= hw {
			kept = append(kept, t)
		}
	}
	l.Unreplicated = kept
}

// Read returns the batches from offset from (inclusive) up to limit
// (exclusive), whole batches only.
func (l *Log) Read(from, limit int64) []protocol.RecordBatch {
	i := sort.Search(len(l.Batches), func(i int) bool { return l.Batches[i].LastOffset() >= from })
	j := i
	for j < len(l.Batches) && l.Batches[j].LastOffset() < limit {
		j++
	}
	if i == j {
		return nil
	}
	// The answer shares the log's array rather than copying it: a batch
	// below the log end is never overwritten (appends go past it, and
	// TruncateTo cuts the capacity so later appends reallocate), and the
	// capacity bound keeps an append to the answer off the log.
	return l.Batches[i:j:j]
}

// AbortedTransactions lists the aborted transactions overlapping
// [from, upper): what a read_committed fetch of that range carries
// (TransactionIndex.collectAbortedTxns).
func (l *Log) AbortedTransactions(from, upper int64) []protocol.AbortedTransaction {
	var out []protocol.AbortedTransaction
	for _, a := range l.AbortedIndex {
		if a.LastOffset >= from && a.FirstOffset < upper {
			out = append(out, protocol.AbortedTransaction{ProducerId: a.ProducerId, FirstOffset: a.FirstOffset})
		}
	}
	return out
}

// TruncateTo drops every batch at or after offset (a replica rejoining
// after a leader change) and rebuilds the producer state by replaying what
// remains, as Kafka does from its snapshots and the log tail.
func (l *Log) TruncateTo(offset int64) {
	i := sort.Search(len(l.Batches), func(i int) bool { return l.Batches[i].BaseOffset >= offset })
	if i == len(l.Batches) {
		return
	}
	l.touch()
	l.Batches = l.Batches[:i:i]
	l.Rebuild()
}

// Rebuild recomputes the producer state, open transactions and aborted
// index from the batches (recovery after a restart).
func (l *Log) Rebuild() {
	l.touch()
	batches := l.Batches
	hw := l.HighWatermark
	if end := l.LogEndOffset(); hw > end {
		hw = end
	}
	l.Batches = nil
	l.Producers = nil
	l.Ongoing, l.Unreplicated, l.AbortedIndex = nil, nil, nil
	l.HighWatermark = 0
	for _, b := range batches {
		l.append(b, 0)
	}
	l.HighWatermark = 0
	l.SetHighWatermark(hw)
}

// Clone returns a deep copy (snapshots, and a follower promoted to leader
// keeps its own).
func (l *Log) Clone() *Log {
	c := &Log{TP: l.TP, HighWatermark: l.HighWatermark, Producers: map[int64]*ProducerStateEntry{}}
	c.Batches = append([]protocol.RecordBatch(nil), l.Batches...)
	for id, e := range l.Producers {
		ce := *e
		ce.Batches = append([]BatchMetadata(nil), e.Batches...)
		c.Producers[id] = &ce
	}
	c.Ongoing = append([]TxnRange(nil), l.Ongoing...)
	c.Unreplicated = append([]TxnRange(nil), l.Unreplicated...)
	c.AbortedIndex = append([]AbortedTxn(nil), l.AbortedIndex...)
	return c
}
