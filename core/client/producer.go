package client

import (
	"math"
	"slices"
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// ProducerConfig holds the producer settings the simulation honours, with
// the Java client's names and defaults.
type ProducerConfig struct {
	TransactionalId      string
	TransactionTimeoutMs sim.Time
	EnableIdempotence    bool
	Acks                 int16
	RequestTimeoutMs     sim.Time
	DeliveryTimeoutMs    sim.Time
	MaxBlockMs           sim.Time
	RetryBackoffMs       sim.Time
	// MaxInFlight is max.in.flight.requests.per.connection: how many
	// Produce requests may be unanswered on one broker connection (at
	// most 5 with idempotence, the broker's duplicate window).
	MaxInFlight int
}

// DefaultProducerConfig is the Java client's defaults (acks=all,
// idempotence on, transaction.timeout.ms 60 s).
func DefaultProducerConfig() ProducerConfig {
	return ProducerConfig{TransactionTimeoutMs: 60 * sim.Second, EnableIdempotence: true, Acks: -1,
		RequestTimeoutMs: 30 * sim.Second, DeliveryTimeoutMs: 120 * sim.Second, MaxBlockMs: 60 * sim.Second,
		RetryBackoffMs: 100, MaxInFlight: 5}
}

// SentRecord is one record the application sent, as the producer saw its
// fate: what the invariant checker judges from.
type SentRecord struct {
	TP            protocol.TopicPartition
	Key, Value    string
	ProducerId    int64
	ProducerEpoch int16
	Sequence      int32
	// Txn is the client-side transaction number (1, 2, …), 0 outside one.
	Txn    int
	Acked  bool
	Offset int64
	// Error is how the send failed: a broker's code or a client
	// exception (TimeoutException for an expired batch).
	Error Result
	// Earlier lists the producer ids, epochs and sequences the record was
	// sent under before the idempotent producer re-sequenced it (an epoch
	// bump or a new producer id): a copy written under one of them is
	// still this send's, and the checker counts it.
	Earlier []SentAs `json:",omitempty"`
}

// SentAs is one identity a record went out under: its producer id,
// epoch and sequence.
type SentAs struct {
	ProducerId    int64
	ProducerEpoch int16
	Sequence      int32
}

// TxnRecord is one transaction as the producer lived it.
type TxnRecord struct {
	Txn           int
	ProducerId    int64
	ProducerEpoch int16
	// CommitSent is set once EndTxn(commit) has left the client: before
	// that, no record of the transaction may become visible.
	CommitSent   bool
	CommitSentAt sim.Time
	// Outcome: "open", "committed" (commit returned NONE), "aborted"
	// (abort returned NONE, or the transaction failed before any commit
	// was sent), or "unknown" (the commit was sent but failed).
	Outcome string
	Offsets []protocol.OffsetEntry
	// OffsetGroups[i] is the group Offsets[i] was sent for: a
	// transaction may send offsets for several groups. Group is the last.
	OffsetGroups []string
	Group        string
}

type batch struct {
	tp       protocol.TopicPartition
	records  []protocol.Record
	pid      int64
	epoch    int16
	seq      int32
	txn      int
	created  sim.Time
	inflight int64
	done     bool
	err      Result
	offset   int64
	call     *sendCall
	version  int16 // the Produce version, fixed at the first send
	// earlier holds the identities (of its first record) the batch was
	// sent under before it was re-sequenced.
	earlier []SentAs
	// reset marks a batch on the wire when the idempotent producer bumped
	// its epoch for its partition (sequenceHasBeenReset): if it comes
	// back with an error, it is sent again with a new sequence.
	reset bool
}

// conn is the producer's connection to one broker, for Produce requests
// (NetworkClient's InFlightRequests for that node). Kafka answers the
// requests of a connection in order, so a request stops counting as in
// flight only once it and every earlier one are answered; outstanding
// holds them from the oldest unanswered, in send order.
type conn struct {
	wire        sim.Conn
	outstanding []outstanding
}

type outstanding struct {
	id       int64
	answered bool
}

// inFlight is the number of requests counted against
// max.in.flight.requests.per.connection.
func (c *conn) inFlight() int { return len(c.outstanding) }

// answer marks request id answered and drops the answered head.
func (c *conn) answer(id int64) bool {
	found := false
	for i := range c.outstanding {
		if c.outstanding[i].id == id {
			c.outstanding[i].answered, found = true, true
		}
	}
	n := 0
	for n < len(c.outstanding) && c.outstanding[n].answered {
		n++
	}
	c.outstanding = c.outstanding[n:]
	return found
}

type sendCall struct {
	call    *Call
	pending int
	err     Result
}

type coordKind uint8

const (
	coordTxn coordKind = iota
	coordGroup
)

// txnRequest is one queued transactional request (TxnRequestHandler).
type txnRequest struct {
	prio    int // FindCoordinator < InitProducerId < Add* < EndTxn
	kind    coordKind
	group   string
	build   func() protocol.Message
	handle  func(w *sim.World, resp protocol.Message)
	backoff bool
}

// Grant is a producer id and epoch an InitProducerId response gave.
type Grant struct {
	ProducerId    int64
	ProducerEpoch int16
	At            sim.Time
}

// Producer is a producer client process.
type Producer struct {
	calls
	Cfg           ProducerConfig
	meta          Metadata
	State         TxnState
	ProducerId    int64
	ProducerEpoch int16
	Sends         []SentRecord
	Txns          []TxnRecord
	// Grants lists every producer id and epoch this client was given, and
	// when: the fencing invariant compares record times against them.
	Grants []Grant

	txnCoordinator     sim.NodeID
	groupCoordinators  map[string]sim.NodeID
	bootstrapAttempt   int
	nextSeq            map[protocol.TopicPartition]int32
	added              map[protocol.TopicPartition]bool
	pendingAdd         map[protocol.TopicPartition]bool
	addQueued          bool
	batches            []*batch
	txnQueue           []*txnRequest
	inflightTxn        *txnRequest
	inflightTxnMsg     int64
	initCall           *Call
	commitCall         *Call
	abortCall          *Call
	offsetsCall        *Call
	lastError          Result
	epochBumpRequired  bool
	transactionStarted bool
	// tv2: the current transaction uses transaction version 2 (tv2.go).
	tv2        bool
	currentTxn int
	closed     bool
	// pidRequested marks an idempotent producer's pending InitProducerId.
	pidRequested bool
	// The idempotent producer's recovery from a gap in its sequences
	// (TransactionManager, KIP-360 for idempotent producers): lastAcked
	// is the last sequence acknowledged per partition under the current
	// producer id and epoch; unresolved holds, per partition, the
	// sequence after a batch that expired once sent (markSequenceUnresolved),
	// until nothing of the partition is in flight; rewrite lists the
	// partitions whose sequences restart at 0 when idemBump has the
	// epoch bumped locally (requestEpochBumpForPartition).
	lastAcked  map[protocol.TopicPartition]int32
	unresolved map[protocol.TopicPartition]int32
	rewrite    map[protocol.TopicPartition]bool
	idemBump   bool
	// conns are the Produce connections, by broker.
	conns map[sim.NodeID]*conn
	// backoff is the current retry delay: retry.backoff.ms, doubled after
	// each refused connection up to reconnect.backoff.max.ms (1 s), so a
	// dead coordinator is not hammered until the controller moves it.
	backoff sim.Time
}

// NewProducer creates a producer process.
func NewProducer(name sim.NodeID, cfg ProducerConfig, meta Metadata) *Producer {
	return &Producer{calls: calls{node: name}, Cfg: cfg, meta: meta, State: Uninitialized,
		ProducerId: protocol.NoProducerId, ProducerEpoch: protocol.NoProducerEpoch,
		groupCoordinators: map[string]sim.NodeID{}, nextSeq: map[protocol.TopicPartition]int32{},
		added: map[protocol.TopicPartition]bool{}, pendingAdd: map[protocol.TopicPartition]bool{},
		lastAcked: map[protocol.TopicPartition]int32{}, unresolved: map[protocol.TopicPartition]int32{},
		rewrite: map[protocol.TopicPartition]bool{}, conns: map[sim.NodeID]*conn{}}
}

// Transactional tells a transactional producer from an idempotent one.
func (p *Producer) Transactional() bool { return p.Cfg.TransactionalId != "" }

// Busy reports work in progress: a call not returned, a batch or a
// transactional request outstanding.
func (p *Producer) Busy() bool {
	if l := p.Last(); l != nil && !l.Done {
		return true
	}
	return p.inflightTxn != nil || len(p.txnQueue) > 0 || p.hasIncompleteBatches()
}

func (p *Producer) hasIncompleteBatches() bool {
	for _, b := range p.batches {
		if !b.done {
			return true
		}
	}
	return false
}

func (p *Producer) transition(w *sim.World, to TxnState) {
	from := p.State
	if from == to {
		return
	}
	p.State = to
	w.Record(sim.Event{Kind: sim.KindState, Node: p.node, Subject: "producer " + w.Name(p.node), From: w.Label(string(from)), To: w.Label(string(to)),
		Illegal: !ValidTransition(from, to)})
}

// fatal moves to FATAL_ERROR: only close remains.
func (p *Producer) fatal(w *sim.World, err Result) {
	p.lastError = err
	p.transition(w, FatalError)
	p.failOpenCalls(w, err)
}

// abortable moves to ABORTABLE_ERROR: the application must abort.
func (p *Producer) abortable(w *sim.World, err Result) {
	if p.State == FatalError {
		return
	}
	p.lastError = err
	if p.State == InTransaction || p.State == CommittingTransaction || p.State == AbortableError {
		p.transition(w, AbortableError)
	}
	if p.commitCall != nil && !p.commitCall.Done {
		p.endTxnRecord("unknown")
		c := p.commitCall
		p.commitCall = nil
		p.finish(w, c, err, "")
	}
}

func (p *Producer) failOpenCalls(w *sim.World, err Result) {
	for _, c := range []*Call{p.initCall, p.commitCall, p.abortCall, p.offsetsCall} {
		if c != nil && !c.Done {
			p.finish(w, c, err, "")
		}
	}
	if p.commitCall != nil {
		p.endTxnRecord("unknown")
	}
	p.initCall, p.commitCall, p.abortCall, p.offsetsCall = nil, nil, nil, nil
	p.txnQueue = nil
}

// ---- public calls -------------------------------------------------------

// Init is initTransactions(): FindCoordinator, then InitProducerId,
// retried until it succeeds or fails fatally.
func (p *Producer) Init(w *sim.World) *Call {
	call := p.start(w, CallInit, p.Cfg.TransactionalId)
	if p.closedCall(w, call) {
		return call
	}
	if !p.Transactional() {
		p.finishSaying(w, call, Raised(protocol.IllegalStateException), sim.NoteNotTransactional)
		return call
	}
	if p.State == Initializing && p.initCall == nil || p.State == Initializing && p.initCall.Done {
		// A retry after a TimeoutException resumes the pending operation
		// (handleCachedTransactionRequestResult).
		p.initCall = call
		p.blockLimit(w, call)
		return call
	}
	if p.State != Uninitialized {
		p.finishSaying(w, call, p.illegal(), sim.NoteCallInState, "initTransactions", string(p.State))
		return call
	}
	p.initCall = call
	p.transition(w, Initializing)
	p.enqueueInitProducerId(w, false)
	p.blockLimit(w, call)
	return call
}

// illegal is what a call refused in the producer's state raises: the
// fatal error that put it there (maybeFailWithError), otherwise an
// IllegalStateException (an invalid transition).
func (p *Producer) illegal() Result {
	if p.State == FatalError && !p.lastError.OK() {
		return p.lastError
	}
	return Raised(protocol.IllegalStateException)
}

// blockLimit ends a blocking call after max.block.ms with a TimeoutException;
// the work itself goes on.
func (p *Producer) blockLimit(w *sim.World, call *Call) {
	w.AfterBackground(p.node, p.Cfg.MaxBlockMs, "max-block", call)
}

// Begin is beginTransaction(): local only.
func (p *Producer) Begin(w *sim.World) *Call {
	call := p.start(w, CallBegin, "")
	if p.closedCall(w, call) {
		return call
	}
	if !p.Transactional() || p.State != Ready {
		p.finishSaying(w, call, p.illegal(), sim.NoteCallInState, "beginTransaction", string(p.State))
		return call
	}
	p.currentTxn++
	p.decideTransactionVersion()
	p.transactionStarted = false
	p.added = map[protocol.TopicPartition]bool{}
	p.Txns = append(p.Txns, TxnRecord{Txn: p.currentTxn, ProducerId: p.ProducerId, ProducerEpoch: p.ProducerEpoch, Outcome: "open"})
	p.transition(w, InTransaction)
	p.finish(w, call, OK, "")
	return call
}

// Send is one send() per record to one partition, then waits for the acks.
func (p *Producer) Send(w *sim.World, tp protocol.TopicPartition, records []protocol.Record) *Call {
	text := tp.String()
	for _, r := range records {
		text += " " + r.Key + "=" + r.Value
	}
	call := p.start(w, CallSend, text)
	if p.closedCall(w, call) {
		return call
	}
	if p.Transactional() && p.State != InTransaction {
		err := p.illegal()
		if p.State == AbortableError {
			err = p.lastError
		}
		p.finishSaying(w, call, err, sim.NoteCallInState, "send", string(p.State))
		return call
	}
	if !p.Transactional() && p.ProducerId < 0 && p.Cfg.EnableIdempotence && !p.pidRequested {
		p.pidRequested = true
		p.enqueueInitProducerId(w, false)
	}
	sc := &sendCall{call: call, pending: 1}
	b := &batch{tp: tp, records: records, txn: p.currentTxn, created: w.Now(), call: sc, seq: -1, offset: -1}
	if !p.Transactional() {
		b.txn = 0
	}
	p.batches = append(p.batches, b)
	if p.Transactional() && !p.added[tp] {
		if w.Broken(safety.AddPartitions) || p.tv2 {
			// the lesson's broken client writes first; under transaction
			// version 2 the partition leader adds the partition (tv2.go)
			p.added[tp] = true
			p.transactionStarted = true
		} else {
			p.pendingAdd[tp] = true
			p.enqueueAddPartitions(w)
		}
	}
	w.AfterBackground(p.node, p.Cfg.DeliveryTimeoutMs, "delivery-timeout", b)
	p.pump(w)
	return call
}

// SendOffsets is the deprecated sendOffsetsToTransaction(offsets,
// groupId): no group metadata, so the coordinator does not fence the
// commit by generation.
func (p *Producer) SendOffsets(w *sim.World, group string, offsets []protocol.OffsetEntry) *Call {
	return p.SendOffsetsToTransaction(w, SimpleGroupMetadata(group), offsets)
}

// SendOffsetsToTransaction is sendOffsetsToTransaction(offsets,
// groupMetadata): AddOffsetsToTxn to the transaction coordinator, then
// TxnOffsetCommit (carrying the consumer's generation, member id and
// instance id, KIP-447) to the group coordinator.
func (p *Producer) SendOffsetsToTransaction(w *sim.World, md GroupMetadata, offsets []protocol.OffsetEntry) *Call {
	group := md.GroupId
	call := p.start(w, CallSendOffsets, group)
	if p.closedCall(w, call) {
		return call
	}
	if !p.Transactional() || p.State != InTransaction {
		p.finishSaying(w, call, p.illegal(), sim.NoteCallInState, "sendOffsetsToTransaction", string(p.State))
		return call
	}
	p.offsetsCall = call
	if t := p.txn(); t != nil {
		t.Group = group
		t.Offsets = append(t.Offsets, offsets...)
		for range offsets {
			t.OffsetGroups = append(t.OffsetGroups, group)
		}
	}
	commitOffsets := func(w *sim.World) {
		p.enqueue(w, &txnRequest{prio: 2, kind: coordGroup, group: group, build: func() protocol.Message {
			return &protocol.TxnOffsetCommitRequest{Version: p.txnOffsetCommitVersion(), TransactionalId: p.Cfg.TransactionalId, GroupId: group,
				ProducerId: p.ProducerId, ProducerEpoch: p.ProducerEpoch, GenerationId: md.GenerationId, MemberId: md.MemberId,
				GroupInstanceId: md.GroupInstanceId, Offsets: offsets}
		}, handle: func(w *sim.World, resp protocol.Message) {
			err := protocol.Error(resp)
			switch err {
			case protocol.NONE:
				p.finish(w, p.offsetsCall, OK, "")
			case protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_COORDINATOR, protocol.REQUEST_TIMED_OUT:
				delete(p.groupCoordinators, group)
				p.retry(w)
			case protocol.INVALID_PRODUCER_EPOCH, protocol.PRODUCER_FENCED:
				p.fatal(w, Broker(err))
			case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.COORDINATOR_LOAD_IN_PROGRESS:
				p.retry(w) // with the same coordinator
			case protocol.UNKNOWN_MEMBER_ID, protocol.ILLEGAL_GENERATION, protocol.FENCED_INSTANCE_ID, protocol.TRANSACTION_ABORTABLE:
				p.abortable(w, Broker(err))
				p.finish(w, p.offsetsCall, Broker(err), "")
			default:
				// TxnOffsetCommitHandler (3.5): anything it does not list is
				// fatal, a retriable error too ("Unexpected error in
				// TxnOffsetCommitResponse").
				p.fatal(w, Broker(err))
			}
		}})
	}
	if w.Broken(safety.AddOffsets) || p.tv2 {
		p.transactionStarted = true
		commitOffsets(w)
	} else {
		p.enqueue(w, &txnRequest{prio: 2, kind: coordTxn, build: func() protocol.Message {
			return &protocol.AddOffsetsToTxnRequest{TransactionalId: p.Cfg.TransactionalId, ProducerId: p.ProducerId,
				ProducerEpoch: p.ProducerEpoch, GroupId: group}
		}, handle: func(w *sim.World, resp protocol.Message) {
			err := protocol.Error(resp)
			switch {
			case err == protocol.NONE:
				p.transactionStarted = true
				commitOffsets(w)
			case p.coordinatorError(w, err):
			case err == protocol.CONCURRENT_TRANSACTIONS || err.Retriable():
				p.retry(w)
			default:
				p.classify(w, err, true)
				p.finish(w, p.offsetsCall, Broker(err), "")
			}
		}})
	}
	p.blockLimit(w, call)
	return call
}

// Commit is commitTransaction(): EndTxn(commit), held until every batch
// of the transaction has completed; not sent at all for an empty
// transaction.
func (p *Producer) Commit(w *sim.World) *Call {
	call := p.start(w, CallCommit, "")
	if p.closedCall(w, call) {
		return call
	}
	if p.State == CommittingTransaction && (p.commitCall == nil || p.commitCall.Done) {
		p.commitCall = call // resume the commit a timed-out call started
		p.blockLimit(w, call)
		return call
	}
	if !p.Transactional() || p.State != InTransaction {
		err := p.illegal()
		if p.State == AbortableError {
			err = p.lastError
		}
		p.finishSaying(w, call, err, sim.NoteCallInState, "commitTransaction", string(p.State))
		return call
	}
	p.commitCall = call
	p.transition(w, CommittingTransaction)
	p.blockLimit(w, call)
	p.maybeEndTxn(w)
	return call
}

// Abort is abortTransaction(): unsent batches fail, EndTxn(abort) unless
// nothing was added, then an epoch bump if one is required (KIP-360).
func (p *Producer) Abort(w *sim.World) *Call {
	call := p.start(w, CallAbort, "")
	if p.closedCall(w, call) {
		return call
	}
	if p.State == AbortingTransaction && (p.abortCall == nil || p.abortCall.Done) {
		p.abortCall = call // resume the abort a timed-out call started
		p.blockLimit(w, call)
		return call
	}
	if !p.Transactional() || (p.State != InTransaction && p.State != AbortableError) {
		p.finishSaying(w, call, p.illegal(), sim.NoteCallInState, "abortTransaction", string(p.State))
		return call
	}
	p.beginAbort(w, call)
	p.blockLimit(w, call)
	return call
}

// beginAbort starts aborting for call: batches not yet sent fail locally,
// then EndTxn(abort) goes out once nothing is in flight.
func (p *Producer) beginAbort(w *sim.World, call *Call) {
	// Batches not sent fail: in Java the Sender fails them at once in
	// ABORTABLE_ERROR with the error that caused it, and otherwise, once
	// aborting, with a TransactionAbortedException
	// (abortUndrainedBatches). Here both happen when the abort starts.
	aborted := Raised(protocol.TransactionAbortedException)
	if p.State == AbortableError && !p.lastError.OK() {
		aborted = p.lastError
	}
	p.abortCall = call
	p.transition(w, AbortingTransaction)
	for _, b := range p.batches {
		if !b.done && b.inflight == 0 {
			p.completeBatch(w, b, aborted, -1)
		}
	}
	p.pendingAdd = map[protocol.TopicPartition]bool{}
	p.maybeEndTxn(w)
}

// Close is close(): a graceful close aborts the open transaction first
// (the Sender does it on shutdown), then the process stops producing.
func (p *Producer) Close(w *sim.World) *Call {
	call := p.start(w, CallClose, "")
	p.closed = true
	if p.Transactional() && (p.State == InTransaction || p.State == AbortableError) {
		p.beginAbort(w, call)
		return call
	}
	p.finish(w, call, OK, "")
	return call
}

// closedCall refuses a call on a closed producer, as the Java client
// throws IllegalStateException.
func (p *Producer) closedCall(w *sim.World, call *Call) bool {
	if !p.closed {
		return false
	}
	p.finishSaying(w, call, Raised(protocol.IllegalStateException), sim.NoteProducerClosed)
	return true
}

func (p *Producer) txn() *TxnRecord {
	if p.currentTxn == 0 || len(p.Txns) == 0 {
		return nil
	}
	return &p.Txns[len(p.Txns)-1]
}

func (p *Producer) endTxnRecord(outcome string) {
	if t := p.txn(); t != nil && t.Outcome == "open" {
		if outcome == "unknown" && !t.CommitSent {
			outcome = "aborted"
		}
		t.Outcome = outcome
	}
}

// maybeEndTxn sends EndTxn once nothing of the transaction is outstanding.
func (p *Producer) maybeEndTxn(w *sim.World) {
	commit := p.State == CommittingTransaction
	if !commit && p.State != AbortingTransaction {
		return
	}
	if p.hasIncompleteBatches() || p.addQueued || p.inflightTxn != nil && p.inflightTxn.prio == 2 {
		return // held until the batches complete (nextRequest(hasIncompleteBatches))
	}
	// EndTxn waits behind every queued AddOffsetsToTxn/TxnOffsetCommit
	// (priority 2), as in Java's priority queue: a commit called while a
	// timed-out sendOffsetsToTransaction is still pending must not skip
	// or overtake it.
	for _, r := range p.txnQueue {
		if r.prio >= 2 {
			return
		}
	}
	if p.inflightTxn != nil && p.inflightTxn.prio == 3 {
		return
	}
	if commit {
		for _, b := range p.batches {
			if b.txn == p.currentTxn && !b.err.OK() {
				p.abortable(w, b.err)
				return
			}
		}
	}
	if !p.transactionStarted || (!commit && p.lastError == Broker(protocol.INVALID_PRODUCER_ID_MAPPING)) {
		p.completeTxn(w, commit)
		return
	}
	if commit {
		if t := p.txn(); t != nil && !t.CommitSent {
			t.CommitSent, t.CommitSentAt = true, w.Now()
		}
	}
	p.enqueue(w, &txnRequest{prio: 3, kind: coordTxn, build: func() protocol.Message {
		return p.endTxnRequest(commit)
	}, handle: func(w *sim.World, resp protocol.Message) {
		err := protocol.Error(resp)
		switch {
		case err == protocol.NONE:
			p.adoptEndTxn(w, resp)
			p.completeTxn(w, commit)
		case p.coordinatorError(w, err):
		case err == protocol.CONCURRENT_TRANSACTIONS || err.Retriable():
			p.retry(w)
		default:
			p.classify(w, err, true)
		}
	}})
}

// completeTxn returns to READY (or bumps the epoch first after an
// abortable error that requires it).
func (p *Producer) completeTxn(w *sim.World, commit bool) {
	if commit {
		p.endTxnRecord("committed")
		c := p.commitCall
		p.commitCall = nil
		p.transition(w, Ready)
		p.finish(w, c, OK, "")
		return
	}
	p.endTxnRecord("aborted")
	if p.epochBumpRequired {
		p.epochBumpRequired = false
		p.transition(w, Initializing)
		p.enqueueInitProducerId(w, true)
		return
	}
	c := p.abortCall
	p.abortCall = nil
	p.lastError = OK
	p.transition(w, Ready)
	p.finish(w, c, OK, "")
}

// classify applies the Java client's error handling to a coordinator
// response that is neither success nor retriable. unexpectedFatal is set
// for EndTxn and AddOffsetsToTxn, whose handlers treat any error they do
// not know as fatal (AddPartitionsToTxn's treat it as abortable).
func (p *Producer) classify(w *sim.World, err protocol.ErrorCode, unexpectedFatal bool) {
	switch err {
	case protocol.PRODUCER_FENCED, protocol.INVALID_PRODUCER_EPOCH:
		p.fatal(w, Broker(protocol.PRODUCER_FENCED))
	case protocol.INVALID_TXN_STATE, protocol.TRANSACTIONAL_ID_AUTHORIZATION_FAILED:
		p.fatal(w, Broker(err))
	case protocol.INVALID_PRODUCER_ID_MAPPING, protocol.UNKNOWN_PRODUCER_ID:
		p.epochBumpRequired = true
		p.abortable(w, Broker(err))
		p.failOpenCallsExceptAbort(w, Broker(err))
	case protocol.TRANSACTION_ABORTABLE, protocol.OPERATION_NOT_ATTEMPTED, protocol.UNKNOWN_TOPIC_OR_PARTITION:
		p.abortable(w, Broker(err))
		p.failOpenCallsExceptAbort(w, Broker(err))
	default:
		if unexpectedFatal {
			p.fatal(w, Broker(err))
			return
		}
		p.abortable(w, Broker(err))
		p.failOpenCallsExceptAbort(w, Broker(err))
	}
}

func (p *Producer) failOpenCallsExceptAbort(w *sim.World, err Result) {
	for _, c := range []*Call{p.initCall, p.offsetsCall} {
		if c != nil && !c.Done {
			p.finish(w, c, err, "")
		}
	}
	if p.abortCall != nil && !p.abortCall.Done {
		c := p.abortCall
		p.abortCall = nil
		p.fatal(w, err)
		p.finish(w, c, err, "")
	}
}

// coordinatorError handles NOT_COORDINATOR and COORDINATOR_NOT_AVAILABLE:
// look the coordinator up again and retry.
func (p *Producer) coordinatorError(w *sim.World, err protocol.ErrorCode) bool {
	if err != protocol.NOT_COORDINATOR && err != protocol.COORDINATOR_NOT_AVAILABLE {
		return false
	}
	p.txnCoordinator = sim.NoNode
	p.retry(w)
	return true
}

func (p *Producer) enqueueInitProducerId(w *sim.World, bump bool) {
	p.enqueue(w, &txnRequest{prio: 1, kind: coordTxn, build: func() protocol.Message {
		req := &protocol.InitProducerIdRequest{TransactionalId: p.Cfg.TransactionalId,
			TransactionTimeoutMs: int32(p.Cfg.TransactionTimeoutMs), ProducerId: protocol.NoProducerId, ProducerEpoch: protocol.NoProducerEpoch}
		if bump {
			req.ProducerId, req.ProducerEpoch = p.ProducerId, p.ProducerEpoch
		}
		return req
	}, handle: func(w *sim.World, resp protocol.Message) {
		r := resp.(*protocol.InitProducerIdResponse)
		switch {
		case r.ErrorCode == protocol.NONE:
			if r.ProducerId != p.ProducerId || r.ProducerEpoch != p.ProducerEpoch {
				p.restartSequences() // a new epoch restarts every sequence at 0
			}
			p.ProducerId, p.ProducerEpoch = r.ProducerId, r.ProducerEpoch
			p.Grants = append(p.Grants, Grant{ProducerId: r.ProducerId, ProducerEpoch: r.ProducerEpoch, At: w.Now()})
			if !p.Transactional() {
				p.State = Ready
				p.pump(w)
				return
			}
			p.transition(w, Ready)
			if c := p.initCall; c != nil {
				p.initCall = nil
				p.finish(w, c, OK, "pid="+strconv.FormatInt(r.ProducerId, 10)+" epoch="+strconv.Itoa(int(r.ProducerEpoch)))
			}
			if c := p.abortCall; c != nil {
				p.abortCall = nil
				p.finish(w, c, OK, "")
			}
		case p.Transactional() && p.coordinatorError(w, r.ErrorCode):
		case r.ErrorCode.Retriable():
			p.retry(w)
		case r.ErrorCode == protocol.INVALID_PRODUCER_EPOCH || r.ErrorCode == protocol.PRODUCER_FENCED:
			p.fatal(w, Broker(protocol.PRODUCER_FENCED))
		default:
			p.fatal(w, Broker(r.ErrorCode))
		}
	}})
}

func (p *Producer) enqueueAddPartitions(w *sim.World) {
	if p.addQueued {
		return
	}
	p.addQueued = true
	var sent []protocol.TopicPartition
	p.enqueue(w, &txnRequest{prio: 2, kind: coordTxn, build: func() protocol.Message {
		sent = sortedTPs(p.pendingAdd)
		return &protocol.AddPartitionsToTxnRequest{TransactionalId: p.Cfg.TransactionalId, ProducerId: p.ProducerId,
			ProducerEpoch: p.ProducerEpoch, Partitions: sent}
	}, handle: func(w *sim.World, resp protocol.Message) {
		err := protocol.Error(resp)
		switch {
		case err == protocol.NONE:
			p.addQueued = false
			for _, tp := range sent {
				p.added[tp] = true
				delete(p.pendingAdd, tp)
			}
			p.transactionStarted = true
			if len(p.pendingAdd) > 0 {
				p.enqueueAddPartitions(w)
			}
			p.pump(w)
			p.maybeEndTxn(w)
		case p.coordinatorError(w, err):
		case err == protocol.CONCURRENT_TRANSACTIONS || err.Retriable():
			p.retry(w)
		default:
			p.addQueued = false
			p.classify(w, err, false)
			for _, b := range p.batches {
				if !b.done && b.inflight == 0 && p.pendingAdd[b.tp] {
					p.completeBatch(w, b, Broker(err), -1)
				}
			}
			p.pendingAdd = map[protocol.TopicPartition]bool{}
			p.maybeEndTxn(w)
		}
	}})
}

func sortedTPs(m map[protocol.TopicPartition]bool) []protocol.TopicPartition {
	out := make([]protocol.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, protocol.TopicPartition.Compare)
	return out
}

// ---- the transactional request pipeline: one in flight at a time -------

func (p *Producer) enqueue(w *sim.World, r *txnRequest) {
	p.txnQueue = append(p.txnQueue, r)
	p.pumpTxn(w)
}

// retry puts the in-flight request back, to be sent after
// retry.backoff.ms.
func (p *Producer) retry(w *sim.World) {
	r := p.inflightTxn
	p.inflightTxn, p.inflightTxnMsg = nil, 0
	if r == nil {
		return
	}
	r.backoff = true
	p.txnQueue = append([]*txnRequest{r}, p.txnQueue...)
	d := p.Cfg.RetryBackoffMs
	if p.backoff > d {
		d = p.backoff
	}
	w.After(p.node, d, "retry", r)
}

func (p *Producer) pumpTxn(w *sim.World) {
	if p.inflightTxn != nil || len(p.txnQueue) == 0 || p.State == FatalError {
		return
	}
	// The highest-priority request goes next; when it is backing off
	// after a retriable error, nothing else overtakes it (Java's Sender
	// sleeps retry.backoff.ms before resending the head of the queue).
	best := -1
	for i, r := range p.txnQueue {
		if best < 0 || r.prio < p.txnQueue[best].prio {
			best = i
		}
	}
	if best < 0 || p.txnQueue[best].backoff {
		return
	}
	r := p.txnQueue[best]
	dest, ok := p.coordinatorFor(w, r)
	if !ok {
		return // a FindCoordinator is on its way
	}
	// In place: the queue's array is the producer's alone.
	p.txnQueue = slices.Delete(p.txnQueue, best, best+1)
	p.inflightTxn = r
	p.inflightTxnMsg = w.Send(p.node, dest, r.build(), 0)
	w.AfterBackground(p.node, p.Cfg.RequestTimeoutMs, "request-timeout", p.inflightTxnMsg)
}

// coordinatorFor returns where r goes, sending FindCoordinator first when
// the coordinator is not known.
func (p *Producer) coordinatorFor(w *sim.World, r *txnRequest) (sim.NodeID, bool) {
	// FindCoordinator itself needs no coordinator (Java's
	// FindCoordinatorHandler.needsCoordinator() is false): a retried one
	// goes to a bootstrap broker again instead of spawning another.
	if !p.Transactional() || r.prio == 0 {
		return p.meta.Bootstrap(p.bootstrapAttempt), true
	}
	key, keyType := p.Cfg.TransactionalId, protocol.KeyTypeTransaction
	known := p.txnCoordinator
	if r.kind == coordGroup {
		key, keyType, known = r.group, protocol.KeyTypeGroup, p.groupCoordinators[r.group]
	}
	if known != sim.NoNode {
		return known, true
	}
	find := &txnRequest{prio: 0, kind: r.kind, group: r.group}
	find.build = func() protocol.Message { return &protocol.FindCoordinatorRequest{Key: key, KeyType: keyType} }
	find.handle = func(w *sim.World, resp protocol.Message) {
		fr := resp.(*protocol.FindCoordinatorResponse)
		if fr.ErrorCode != protocol.NONE {
			p.retry(w)
			return
		}
		node := p.meta.BrokerNode(fr.NodeId)
		if keyType == protocol.KeyTypeTransaction {
			p.txnCoordinator = node
		} else {
			p.groupCoordinators[key] = node
		}
	}
	p.inflightTxn = find
	p.inflightTxnMsg = w.Send(p.node, p.meta.Bootstrap(p.bootstrapAttempt), find.build(), 0)
	w.AfterBackground(p.node, p.Cfg.RequestTimeoutMs, "request-timeout", p.inflightTxnMsg)
	return sim.NoNode, false
}

// ---- data: batches, sequences, acks -------------------------------------

// pump sends every batch that may go (RecordAccumulator.drain and
// shouldStopDrainBatchesForPartition): its partition added to the
// transaction, a producer id known, fewer than
// max.in.flight.requests.per.connection requests unanswered on the
// leader's connection. A partition drains in order and stops at the first
// batch that may not go: one backing off before a retry; with
// idempotence, a new batch while the partition's sequence is unresolved
// or batches of an older epoch are still in flight, and a retried batch
// that is not the partition's first in flight (retries go one at a time,
// in sequence order). With max.in.flight.requests.per.connection=1 the
// partition also waits for its batch in flight (guaranteeMessageOrder).
func (p *Producer) pump(w *sim.World) {
	if !p.Transactional() && p.Cfg.EnableIdempotence && p.ProducerId >= 0 {
		// Sender.runOnce: maybeResolveSequences, then
		// bumpIdempotentEpochAndResetIdIfNeeded, before any batch drains.
		p.resolveSequences()
		if p.idemBump {
			p.bumpIdempotentEpoch(w)
		}
	}
	if p.Cfg.EnableIdempotence && p.ProducerId < 0 {
		return
	}
	if p.State == AbortingTransaction || p.State == FatalError || p.State == AbortableError {
		return
	}
	stopped := map[protocol.TopicPartition]bool{}
	for _, b := range p.batches {
		if b.done || stopped[b.tp] {
			continue
		}
		if b.inflight != 0 {
			if b.inflight < 0 || p.maxInFlight() == 1 {
				stopped[b.tp] = true // backing off, or muted
			}
			continue
		}
		if p.Transactional() && !p.added[b.tp] || !p.mayDrain(b) {
			stopped[b.tp] = true
			continue
		}
		if leader, ok := p.meta.LeaderOf(b.tp); ok && p.conn(leader).inFlight() >= p.maxInFlight() {
			stopped[b.tp] = true // the connection is not ready (NetworkClient.canSendMore)
			continue
		}
		p.sendBatch(w, b)
		if b.inflight < 0 {
			stopped[b.tp] = true
		}
	}
}

func (p *Producer) maxInFlight() int {
	if p.Cfg.MaxInFlight <= 0 {
		return 1
	}
	return p.Cfg.MaxInFlight
}

// conn is the Produce connection to broker, opened on first use.
func (p *Producer) conn(broker sim.NodeID) *conn {
	c := p.conns[broker]
	if c == nil {
		c = &conn{}
		p.conns[broker] = c
	}
	return c
}

// mayDrain is the idempotent half of shouldStopDrainBatchesForPartition.
func (p *Producer) mayDrain(b *batch) bool {
	if !p.Cfg.EnableIdempotence {
		return true
	}
	first, stale := int32(-1), false
	for _, o := range p.batches {
		if o.tp != b.tp || o.done || o.seq < 0 {
			continue
		}
		if o.pid != p.ProducerId || o.epoch != p.ProducerEpoch {
			stale = stale || o.inflight != 0
			continue
		}
		if first < 0 || o.seq < first {
			first = o.seq
		}
	}
	if b.seq < 0 {
		if stale {
			return false // a new epoch's sequence 0 must not overtake the old epoch's batches
		}
		if _, unresolved := p.unresolved[b.tp]; unresolved {
			return false
		}
		return true
	}
	return first < 0 || b.seq == first || b.pid != p.ProducerId || b.epoch != p.ProducerEpoch
}

func (p *Producer) sendBatch(w *sim.World, b *batch) {
	leader, ok := p.meta.LeaderOf(b.tp)
	if !ok {
		w.After(p.node, p.Cfg.RetryBackoffMs, "resend", b)
		b.inflight = -1
		return
	}
	if b.seq < 0 {
		b.version = p.produceVersion()
		b.pid, b.epoch = p.ProducerId, p.ProducerEpoch
		if p.Cfg.EnableIdempotence {
			b.seq = p.nextSeq[b.tp]
			p.nextSeq[b.tp] = b.seq + int32(len(b.records))
		} else {
			b.pid, b.epoch = protocol.NoProducerId, protocol.NoProducerEpoch
		}
	}
	rb := protocol.RecordBatch{ProducerId: b.pid, ProducerEpoch: b.epoch, BaseSequence: b.seq,
		IsTransactional: p.Transactional(), Records: b.records}
	if !p.Cfg.EnableIdempotence {
		rb.BaseSequence = protocol.NoSequence
	}
	req := &protocol.ProduceRequest{TransactionalId: p.Cfg.TransactionalId, Acks: p.Cfg.Acks, TimeoutMs: int32(p.Cfg.RequestTimeoutMs),
		Partitions: []protocol.ProducePartitionData{{TopicPartition: b.tp, Records: rb}}}
	req.Version = b.version
	c := p.conn(leader)
	if p.Cfg.Acks == 0 {
		// acks=0: the broker sends no response, and the Sender completes
		// the batch once the request is written (NetworkClient
		// handleCompletedSends, expectResponse false), with no offset.
		w.SendOn(&c.wire, p.node, leader, req, 0)
		p.completeBatch(w, b, OK, -1)
		return
	}
	b.inflight = w.SendOn(&c.wire, p.node, leader, req, 0)
	c.outstanding = append(c.outstanding, outstanding{id: b.inflight})
	w.AfterBackground(p.node, p.Cfg.RequestTimeoutMs, "produce-timeout", b)
}

func (p *Producer) handleProduceResponse(w *sim.World, env *sim.Envelope, m *protocol.ProduceResponse) {
	// An answer on a connection closed since (produceLost) is ignored.
	open := false
	if c := p.conns[env.From]; c != nil {
		open = c.answer(env.ReplyTo)
	}
	for _, b := range p.batches {
		if !open || b.inflight != env.ReplyTo || b.done {
			continue
		}
		b.inflight = 0
		r := m.Responses[0]
		switch {
		case r.ErrorCode == protocol.NONE || r.ErrorCode == protocol.DUPLICATE_SEQUENCE_NUMBER:
			p.completeBatch(w, b, OK, r.BaseOffset)
		case r.ErrorCode.Retriable(),
			r.ErrorCode == protocol.OUT_OF_ORDER_SEQUENCE_NUMBER && p.Cfg.EnableIdempotence && p.retryOutOfOrder(b):
			if b.reset {
				b.resequence()
				b.reset = false // sent again from the new epoch's sequence
			}
			w.After(p.node, p.Cfg.RetryBackoffMs, "resend", b)
			b.inflight = -1
		default:
			p.completeBatch(w, b, Broker(r.ErrorCode), -1)
			if p.Transactional() {
				// Every produce error is abortable for a transactional
				// producer since 2.7 (KAFKA-10687), and the abort is
				// followed by an epoch bump (maybeTransitionToErrorState,
				// KIP-360) so the next transaction starts clean.
				p.epochBumpRequired = true
				p.abortable(w, Broker(r.ErrorCode))
			}
		}
		break // one batch per request
	}
	p.pump(w)
	p.maybeEndTxn(w)
}

// resequence forgets the batch's sequence so that it is given a new one
// (with the producer's new epoch or id) when next sent, remembering the
// one it had: copies written under it are still the same records.
func (b *batch) resequence() {
	if b.seq >= 0 {
		b.earlier = append(b.earlier, SentAs{b.pid, b.epoch, b.seq})
	}
	b.seq = -1
}

func (p *Producer) completeBatch(w *sim.World, b *batch, err Result, offset int64) {
	if b.done {
		return
	}
	b.done, b.err, b.offset = true, err, offset
	if last := b.seq + int32(len(b.records)) - 1; err.OK() && b.seq >= 0 && b.pid == p.ProducerId && b.epoch == p.ProducerEpoch &&
		last > p.lastAckedSeq(b.tp) {
		p.lastAcked[b.tp] = last // maybeUpdateLastAckedSequence: answers may come out of order
	}
	p.pruneBatches()
	for i, r := range b.records {
		s := SentRecord{TP: b.tp, Key: r.Key, Value: r.Value, ProducerId: b.pid, ProducerEpoch: b.epoch,
			Sequence: -1, Txn: b.txn, Acked: err.OK(), Offset: -1, Error: err}
		if b.seq >= 0 {
			s.Sequence = b.seq + int32(i)
		}
		if offset >= 0 {
			s.Offset = offset + int64(i)
		}
		for _, e := range b.earlier {
			s.Earlier = append(s.Earlier, SentAs{e.ProducerId, e.ProducerEpoch, e.Sequence + int32(i)})
		}
		p.Sends = append(p.Sends, s)
	}
	if sc := b.call; sc != nil {
		sc.pending--
		if !err.OK() && sc.err.OK() {
			sc.err = err
		}
		if sc.pending == 0 {
			detail := ""
			if err.OK() {
				detail = "offset " + strconv.FormatInt(offset, 10)
			}
			p.finish(w, sc.call, sc.err, detail)
		}
	}
}

// pruneBatches forgets completed batches (their fate is in Sends) so the
// per-event work stays proportional to what is outstanding. The current
// transaction's failed batches are kept: commit must see them.
//
// A new slice, not the old one filtered in place: callers complete
// batches while ranging over p.batches (an abort failing every unsent
// batch), and must still see the ones after.
func (p *Producer) pruneBatches() {
	kept := make([]*batch, 0, len(p.batches))
	for _, b := range p.batches {
		if !b.done || (!b.err.OK() && b.txn == p.currentTxn) {
			kept = append(kept, b)
		}
	}
	p.batches = kept
}

// ---- message and timer dispatch ----------------------------------------

// Receive handles responses.
func (p *Producer) Receive(w *sim.World, env *sim.Envelope) {
	if m, ok := env.Msg.(*protocol.ProduceResponse); ok {
		p.handleProduceResponse(w, env, m)
		return
	}
	if p.inflightTxn == nil || env.ReplyTo != p.inflightTxnMsg {
		return // an answer to a request we gave up on
	}
	r := p.inflightTxn
	p.backoff = 0 // the node answered: connections are fine again
	r.handle(w, env.Msg)
	if p.inflightTxn == r {
		// Not retried: the request is done. (retry() clears inflightTxn
		// itself and puts the request back in the queue.)
		p.inflightTxn, p.inflightTxnMsg = nil, 0
	}
	p.pumpTxn(w)
	p.maybeEndTxn(w)
}

// Timer handles retries and timeouts.
func (p *Producer) Timer(w *sim.World, t *sim.Timer) {
	switch t.Kind {
	case "retry":
		t.Data.(*txnRequest).backoff = false
		p.pumpTxn(w)
	case "request-timeout", sim.TimerDisconnected:
		id, _ := t.Data.(int64)
		if env, ok := t.Data.(*sim.Envelope); ok {
			id = env.ID
			if _, isProduce := env.Msg.(*protocol.ProduceRequest); isProduce {
				p.produceLost(w, id)
				return
			}
		}
		if p.inflightTxn != nil && p.inflightTxnMsg == id {
			if p.backoff < p.Cfg.RetryBackoffMs {
				p.backoff = p.Cfg.RetryBackoffMs
			} else if p.backoff < sim.Second {
				p.backoff = min(2*p.backoff, sim.Second)
			}
			// Java marks the node disconnected and looks the coordinator
			// up again before retrying.
			p.txnCoordinator = sim.NoNode
			p.groupCoordinators = map[string]sim.NodeID{}
			p.bootstrapAttempt++
			p.retry(w)
		}
	case "produce-timeout":
		b := t.Data.(*batch)
		p.produceLost(w, b.inflight)
	case "resend":
		b := t.Data.(*batch)
		if !b.done && b.inflight == -1 {
			b.inflight = 0
			p.pump(w)
		}
	case "delivery-timeout":
		b := t.Data.(*batch)
		if !b.done {
			p.completeBatch(w, b, Raised(protocol.TimeoutException), -1) // Sender: "Expiring N record(s)"
			if p.Transactional() {
				// An expired batch is abortable and its sequence may have
				// reached the broker: the abort is followed by an epoch
				// bump (KAFKA-8805), so later batches start afresh.
				p.epochBumpRequired = true
				p.abortable(w, Raised(protocol.TimeoutException))
			} else if p.Cfg.EnableIdempotence && b.seq >= 0 {
				// Sender.sendProducerData: an expired batch that was sent
				// may or may not be in the log, so its partition's
				// sequence is unresolved (markSequenceUnresolved) until
				// nothing of it is in flight; then the epoch is bumped.
				if next := b.seq + int32(len(b.records)); next > p.unresolved[b.tp] {
					p.unresolved[b.tp] = next
				}
			}
			p.pump(w)
			p.maybeEndTxn(w)
		}
	case "max-block":
		c := t.Data.(*Call)
		if !c.Done {
			p.finishSaying(w, c, Raised(protocol.TimeoutException), sim.NoteMaxBlockElapsed)
		}
	}
}

// lastAckedSeq is the last sequence acknowledged on tp under the current
// producer id and epoch, -1 when none (NO_LAST_ACKED_SEQUENCE_NUMBER).
func (p *Producer) lastAckedSeq(tp protocol.TopicPartition) int32 {
	if s, ok := p.lastAcked[tp]; ok {
		return s
	}
	return -1
}

// retryOutOfOrder is TransactionManager.canRetry for
// OUT_OF_ORDER_SEQUENCE_NUMBER. A batch that is not the next after the
// last acknowledged one was overtaken (an earlier batch failed or is
// late): it is retried, in turn, by both kinds of producer. For the next
// batch the gap is real: the idempotent producer bumps its epoch (unless
// an unresolved sequence may still fill it) and retries; a transactional
// producer fails the batch.
func (p *Producer) retryOutOfOrder(b *batch) bool {
	next, unresolved := p.unresolved[b.tp]
	if !unresolved && (b.reset || b.seq != p.lastAckedSeq(b.tp)+1) {
		return true
	}
	if p.Transactional() {
		return false
	}
	if !unresolved || b.seq == next {
		p.requestEpochBump(b.tp)
	}
	return true
}

// restartSequences starts every partition's sequence at 0, for a new
// producer id or epoch.
func (p *Producer) restartSequences() {
	p.nextSeq = map[protocol.TopicPartition]int32{}
	p.lastAcked = map[protocol.TopicPartition]int32{}
}

// requestEpochBump asks for a local epoch bump that restarts tp's
// sequence (TransactionManager.requestEpochBumpForPartition).
func (p *Producer) requestEpochBump(tp protocol.TopicPartition) {
	p.idemBump = true
	p.rewrite[tp] = true
}

// resolveSequences is TransactionManager.maybeResolveSequences for the
// idempotent producer: once nothing of an unresolved partition is in
// flight, the partition is resolved when its next sequence follows the
// last acknowledged one (later batches succeeded), and otherwise needs an
// epoch bump.
func (p *Producer) resolveSequences() {
	for _, tp := range sortedTPs(boolKeys(p.unresolved)) {
		inflight := false
		for _, b := range p.batches {
			if b.tp == tp && !b.done && b.seq >= 0 {
				inflight = true
				break
			}
		}
		if inflight {
			continue
		}
		if p.nextSeq[tp] != p.lastAckedSeq(tp)+1 {
			p.requestEpochBump(tp)
		}
		delete(p.unresolved, tp)
	}
}

func boolKeys(m map[protocol.TopicPartition]int32) map[protocol.TopicPartition]bool {
	out := make(map[protocol.TopicPartition]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// bumpIdempotentEpoch is TransactionManager.bumpIdempotentProducerEpoch:
// the idempotent producer raises its epoch by itself (no request; the
// leader accepts a higher epoch that starts at sequence 0), and the
// batches of the partitions that asked for it are sent again from
// sequence 0. Other partitions follow once their in-flight batches are
// done (maybeUpdateProducerIdAndEpoch): their next batch gets the new
// epoch at sequence 0. At the last epoch, the producer id is reset and
// a new one requested instead.
func (p *Producer) bumpIdempotentEpoch(w *sim.World) {
	p.idemBump = false
	for _, b := range p.batches {
		if !b.done && p.rewrite[b.tp] {
			if b.inflight <= 0 {
				b.resequence() // reassigned, with the new epoch, when next sent
			} else {
				b.reset = true // on the wire: reassigned if it fails
			}
		}
	}
	p.rewrite = map[protocol.TopicPartition]bool{}
	p.restartSequences()
	if p.ProducerEpoch == math.MaxInt16 {
		p.ProducerId, p.ProducerEpoch = protocol.NoProducerId, protocol.NoProducerEpoch
		w.Note(p.node, "producer "+w.Name(p.node), sim.NoteEpochExhausted)
		p.enqueueInitProducerId(w, false)
		return
	}
	p.ProducerEpoch++
	w.Note(p.node, "producer "+w.Name(p.node), sim.NoteEpochBump, strconv.Itoa(int(p.ProducerEpoch)))
}

// produceLost retries a produce request that got no answer, with the same
// sequence numbers: the broker's duplicate check makes the retry safe.
// The Java client closes the connection (a request timeout or a
// disconnection), so every request still unanswered on it is lost too
// and retried; a late answer on the closed connection is ignored.
func (p *Producer) produceLost(w *sim.World, msgID int64) {
	if msgID <= 0 {
		return
	}
	lost := []int64{msgID}
	for node, c := range p.conns {
		for _, o := range c.outstanding {
			if o.id == msgID {
				lost = lost[:0]
				for _, o := range c.outstanding {
					if !o.answered {
						lost = append(lost, o.id)
					}
				}
				delete(p.conns, node)
				break
			}
		}
	}
	for _, b := range p.batches {
		if !b.done && b.inflight > 0 && slices.Contains(lost, b.inflight) {
			b.inflight = -1
			w.After(p.node, p.Cfg.RetryBackoffMs, "resend", b)
		}
	}
}

// LastError is the error that put the producer in ABORTABLE_ERROR or
// FATAL_ERROR.
func (p *Producer) LastError() Result { return p.lastError }
