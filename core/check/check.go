// Package check is the invariant checker. It judges a run from what the
// clients did and saw — which transaction each send belonged to, how each
// transaction ended for its producer, what each poll returned — and from
// the final logs, not from the brokers' own bookkeeping, so a broken
// mechanism cannot hide the anomaly it lets through.
package check

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strconv"
	"strings"

	"txnlab/core/client"
	"txnlab/core/internal/ptrsort"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// Violation is one broken invariant, with the trace events that show it.
type Violation struct {
	Invariant string
	Message   string
	Events    []int `json:",omitempty"`
	// Anomaly names a known defect of Kafka itself that the violation
	// has the shape of (safety.Anomalies): Kafka's behaviour, not
	// txnlab's bug.
	Anomaly string `json:",omitempty"`
}

// String renders the violation for the CLI.
func (v Violation) String() string {
	if v.Anomaly != "" {
		return v.Invariant + " (Kafka's own anomaly " + v.Anomaly + "): " + v.Message
	}
	return v.Invariant + ": " + v.Message
}

// Producer is one producer's client-side history.
type Producer struct {
	Name            string
	TransactionalId string
	Idempotent      bool
	Acks            int16
	Sends           []client.SentRecord
	Txns            []client.TxnRecord
	Grants          []client.Grant
}

// Consumer is one consumer's client-side history.
type Consumer struct {
	Name          string
	ReadCommitted bool
	Received      map[protocol.TopicPartition][]client.ReceivedRecord
}

// CoordinatorState is what the current coordinator says of an id.
type CoordinatorState struct {
	Known         bool
	State         protocol.TransactionState
	ProducerId    int64
	ProducerEpoch int16
	Pending       bool
	// LastUpdate is the metadata's TxnLastUpdateTimestamp: for a
	// Complete* state, when that transaction completed.
	LastUpdate int64
	// Log is the coordinator's replica of the id's __transaction_state
	// partition: what it loaded its metadata from.
	Log *partition.Log
	// Node is the coordinator's node.
	Node sim.NodeID
}

// Offset is a committed or pending group offset.
type Offset struct {
	Group      string
	Partition  protocol.TopicPartition
	Offset     int64
	Pending    bool
	ProducerId int64
}

// GroupPartition is a group's committed position on one partition.
type GroupPartition struct {
	Group     string
	Partition protocol.TopicPartition
}

// OffsetsLog is one __consumer_offsets partition: its leader's log, and
// the committed offsets its coordinator answers for the groups it holds.
type OffsetsLog struct {
	Log       *partition.Log
	Committed map[GroupPartition]int64
}

// Input is everything the checker reads.
type Input struct {
	Producers []Producer
	Consumers []Consumer
	// Logs are the current leader's (or, when offline, a replica's) logs
	// of every user partition.
	Logs         map[protocol.TopicPartition]*partition.Log
	Coordinators map[string]CoordinatorState
	Offsets      []Offset
	// OffsetsLogs are the __consumer_offsets partitions whose coordinator
	// is up and has loaded them, each with what it answers.
	OffsetsLogs []OffsetsLog
	Trace       *sim.Trace
	// Final asks for the liveness checks too: the run has been healed and
	// run to quiescence, so every decided transaction must be complete.
	Final bool
}

// Check evaluates every invariant.
func Check(in *Input) []Violation {
	c := newChecker(in)
	c.readCommitted()
	c.atomicity()
	c.duplicatesAndDurability()
	c.fencing()
	c.offsetsAtomicity()
	c.offsetsLost()
	c.markerConsistency()
	c.traceInvariants()
	sort.SliceStable(c.out, func(i, j int) bool { return rank(c.out[i].Invariant) < rank(c.out[j].Invariant) })
	return c.out
}

// rank orders violations by their invariant's place in the table.
func rank(inv string) int {
	for i, n := range safety.Invariants {
		if n.Name == inv {
			return i
		}
	}
	return len(safety.Invariants)
}

type recordKey struct {
	tp    protocol.TopicPartition
	pid   int64
	epoch int16
	seq   int32
}

type sendRef struct {
	p    *Producer
	send *client.SentRecord
}

type checker struct {
	in  *Input
	out []Violation
	// sends is the first send of each record identity: the one sendOf
	// answers with.
	sends map[recordKey]sendRef
	seen  map[string]bool
	ev    *evidenceIndex // built on first use (evidence.go)
	// logged is loggedRecords' answer, built on first use: five
	// invariants read it, and building it walks every user log.
	logged []logged
	built  bool
}

func newChecker(in *Input) *checker {
	n := 0
	for i := range in.Producers {
		n += len(in.Producers[i].Sends)
	}
	c := &checker{in: in, sends: make(map[recordKey]sendRef, n), seen: map[string]bool{}}
	for i := range in.Producers {
		p := &in.Producers[i]
		for j := range p.Sends {
			s := &p.Sends[j]
			if s.Sequence < 0 {
				continue
			}
			c.addSend(recordKey{s.TP, s.ProducerId, s.ProducerEpoch, s.Sequence}, sendRef{p, s})
			// A copy written under an identity the record had before
			// it was re-sequenced is still this send's.
			for _, e := range s.Earlier {
				c.addSend(recordKey{s.TP, e.ProducerId, e.ProducerEpoch, e.Sequence}, sendRef{p, s})
			}
		}
	}
	return c
}

// report records a violation once, with the events that show it (see
// events; the evidence is looked up only for a new message).
func (c *checker) report(inv *safety.Invariant, evidence func() []int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if c.seen[inv.Name+msg] {
		return
	}
	c.seen[inv.Name+msg] = true
	c.out = append(c.out, Violation{Invariant: inv.Name, Message: msg, Events: evidence()})
}

// reportAnomaly records a violation that has the shape of a known Kafka
// anomaly.
func (c *checker) reportAnomaly(a *safety.Anomaly, evidence func() []int, format string, args ...any) {
	n := len(c.out)
	c.report(a.Violates, evidence, format, args...)
	if len(c.out) > n {
		c.out[n].Anomaly = a.Name
	}
}

// reportAnomalyAs is reportAnomaly for a consequence of the anomaly that
// another invariant sees (a forgotten transaction's records read, a late
// marker's records both committed and aborted).
func (c *checker) reportAnomalyAs(a *safety.Anomaly, inv *safety.Invariant, evidence func() []int, format string, args ...any) {
	n := len(c.out)
	c.report(inv, evidence, format, args...)
	if len(c.out) > n {
		c.out[n].Anomaly = a.Name
	}
}

// lateMarker reports whether the marker that closed l was asked for
// before l was even produced: the WriteTxnMarkers request (the last one
// for its producer id, partition, result and coordinator epoch before
// the marker's append) was sent before the first Produce that carried
// l. A marker for l's own transaction is always asked for after it,
// since a transaction is decided after its records are sent; this one
// belonged to an earlier transaction of the same producer id and epoch
// (transaction version 1 keeps the epoch), a request that timed out, was
// sent again, and arrived after the next transaction had begun
// (safety.LateMarker).
func (c *checker) lateMarker(l logged) bool {
	if l.marker == "" || l.markerBehind || c.in.Trace == nil {
		return false
	}
	x := c.markerEvidence()
	m := x.marker(l)
	if len(m) == 0 || m[0] < 0 {
		return false
	}
	s, ok := x.produced(l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq)
	return ok && m[0] < s.event
}

// sendOf finds the send a logged record came from.
func (c *checker) sendOf(tp protocol.TopicPartition, pid int64, epoch int16, seq int32) (sendRef, bool) {
	ref, ok := c.sends[recordKey{tp, pid, epoch, seq}]
	return ref, ok
}

// addSend records ref as k's send unless an earlier one is.
func (c *checker) addSend(k recordKey, ref sendRef) {
	if _, ok := c.sends[k]; !ok {
		c.sends[k] = ref
	}
}

func (r sendRef) txn() *client.TxnRecord {
	if r.send.Txn == 0 || r.send.Txn > len(r.p.Txns) {
		return nil
	}
	return &r.p.Txns[r.send.Txn-1]
}

func txnName(r sendRef) string {
	return fmt.Sprintf("%s's transaction #%d", r.p.Name, r.send.Txn)
}

// readCommitted: a read_committed consumer never receives a record of an
// aborted transaction, or of one whose commit had not even been sent.
func (c *checker) readCommitted() {
	// What the logs prove: the marker that closes each logged record. A
	// producer may never learn its transaction's outcome (its commit got
	// PRODUCER_FENCED after the coordinator's timeout aborted it), but
	// the ABORT marker in the partition says how it ended.
	type at struct {
		tp     protocol.TopicPartition
		offset int64
	}
	// Pointers into loggedRecords' list, not copies: a logged record is
	// large, and growing a map of them copied each several times.
	closedBy := map[at]*logged{}
	records := c.loggedRecords()
	for i := range records {
		if l := &records[i]; l.batch.IsTransactional {
			closedBy[at{l.tp, l.offset}] = l
		}
	}
	for _, cons := range c.in.Consumers {
		if !cons.ReadCommitted {
			continue
		}
		for _, tp := range sortedTPs(cons.Received) {
			for _, r := range cons.Received[tp] {
				ref, ok := c.sendOf(tp, r.ProducerId, r.ProducerEpoch, r.Sequence)
				if !ok {
					continue
				}
				t := ref.txn()
				if t == nil {
					continue
				}
				l := closedBy[at{tp, r.Offset}]
				abortMarker := l != nil && l.marker == "ABORT" && l.batch.ProducerId == r.ProducerId &&
					l.batch.ProducerEpoch == r.ProducerEpoch && l.seq == r.Sequence
				// The Produce that wrote it, the Fetch answer that
				// handed it over and the EndTxn that ended it.
				ev := func() []int {
					produce, end := c.written(ref.p.Name, tp, r.ProducerId, r.ProducerEpoch, r.Sequence)
					return events(produce, c.evidence().fetched(cons.Name, tp, r.Offset), end)
				}
				switch {
				case l != nil && c.lateMarker(*l):
					c.reportAnomalyAs(safety.LateMarker, safety.ReadCommitted, ev, "%s received %q at %s@%d from %s, closed by a %s marker asked for before the record was produced: a WriteTxnMarkers request of an earlier transaction at the same producer epoch, sent again after a timeout, arrived late", cons.Name, r.Value, tp, r.Offset, txnName(ref), l.marker)
				case l != nil && c.laterCommitOfForgotten(ref, t, *l):
					c.reportAnomalyAs(safety.UnreplicatedTxnState, safety.ReadCommitted, ev, "%s received %q at %s@%d from %s, which its coordinator has no record of: the COMMIT of a later transaction at epoch %d, begun after a failover lost the __transaction_state records that registered this one, closed its records too", cons.Name, r.Value, tp, r.Offset, txnName(ref), l.markerProducerEpoch)
				case t.Outcome == "aborted" || abortMarker:
					c.report(safety.ReadCommitted, ev, "%s received %q at %s@%d from %s, which aborted", cons.Name, r.Value, tp, r.Offset, txnName(ref))
				case !t.CommitSent || t.CommitSentAt > r.At:
					c.report(safety.ReadCommitted, ev, "%s received %q at %s@%d from %s before its commit was even sent", cons.Name, r.Value, tp, r.Offset, txnName(ref))
				}
			}
		}
	}
}

func sortedTPs[V any](m map[protocol.TopicPartition]V) []protocol.TopicPartition {
	out := make([]protocol.TopicPartition, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	slices.SortFunc(out, protocol.TopicPartition.Compare)
	return out
}

// status of each logged data record: the marker that closed it.
type logged struct {
	tp     protocol.TopicPartition
	offset int64
	batch  *protocol.RecordBatch
	seq    int32
	marker string // "COMMIT", "ABORT", or "" while open
	// markerOffset and markerEpoch are the offset and coordinator epoch
	// of the control batch that closed it.
	markerOffset int64
	markerEpoch  int32
	// markerProducerEpoch is the producer epoch the control batch
	// carries: a later epoch's marker closing an earlier epoch's records
	// means the coordinator bumped the epoch without knowing of them.
	markerProducerEpoch int16
	// markerBehind: an earlier marker of the same producer id on this
	// partition carried a higher coordinator epoch, so this one came
	// from a deposed coordinator, which Kafka refuses
	// (TRANSACTION_COORDINATOR_FENCED): never a late-marker anomaly.
	markerBehind bool
}

// loggedRecords lists every data record of every user log, in partition
// then offset order, with the marker that closed it. The slice is the
// checker's own: callers read it and must not change it.
func (c *checker) loggedRecords() []logged {
	if !c.built {
		c.logged, c.built = c.buildLogged(), true
	}
	return c.logged
}

func (c *checker) buildLogged() []logged {
	var out []logged
	for _, tp := range sortedTPs(c.in.Logs) {
		log := c.in.Logs[tp]
		open := map[int64][]int{}     // pid → indexes into out still open
		topEpoch := map[int64]int32{} // pid → highest coordinator epoch of its markers so far
		for i := range log.Batches {
			b := &log.Batches[i]
			if b.IsControl {
				top, seen := topEpoch[b.ProducerId]
				behind := seen && b.CoordinatorEpoch < top
				if !seen || b.CoordinatorEpoch > top {
					topEpoch[b.ProducerId] = b.CoordinatorEpoch
				}
				for _, idx := range open[b.ProducerId] {
					out[idx].markerBehind = behind
					out[idx].marker = b.ControlType.String()
					out[idx].markerOffset = b.BaseOffset
					out[idx].markerEpoch = b.CoordinatorEpoch
					out[idx].markerProducerEpoch = b.ProducerEpoch
				}
				delete(open, b.ProducerId)
				continue
			}
			for j := range b.Records {
				seq := int32(-1)
				if b.BaseSequence >= 0 {
					seq = b.BaseSequence + int32(j)
				}
				out = append(out, logged{tp: tp, offset: b.BaseOffset + int64(j), batch: b, seq: seq})
				if b.IsTransactional {
					open[b.ProducerId] = append(open[b.ProducerId], len(out)-1)
				}
			}
		}
	}
	return out
}

// atomicity: a transaction's records all end the same way; a committed
// one, once its coordinator has completed it, is visible everywhere.
func (c *checker) atomicity() {
	type outcome struct{ commit, abort, open []logged }
	byTxn := map[*client.TxnRecord]*outcome{}
	var order []*client.TxnRecord
	refs := map[*client.TxnRecord]sendRef{}
	for _, l := range c.loggedRecords() {
		if !l.batch.IsTransactional {
			continue
		}
		ref, ok := c.sendOf(l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq)
		if !ok || ref.txn() == nil {
			continue
		}
		t := ref.txn()
		o := byTxn[t]
		if o == nil {
			o = &outcome{}
			byTxn[t] = o
			order = append(order, t)
			refs[t] = ref
		}
		switch l.marker {
		case "COMMIT":
			o.commit = append(o.commit, l)
		case "ABORT":
			o.abort = append(o.abort, l)
		default:
			o.open = append(o.open, l)
		}
	}
	// The evidence: the Produce of the first record concerned, the EndTxn
	// that decided the transaction and the markers that closed it.
	record := func(ref sendRef, l logged, markers ...logged) func() []int {
		return func() []int {
			produce, end := c.written(ref.p.Name, l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq)
			ev := []int{produce, end}
			for _, m := range markers {
				ev = append(ev, c.evidence().marker(m)...)
			}
			return events(ev...)
		}
	}
	for _, t := range order {
		o, ref := byTxn[t], refs[t]
		switch {
		case len(o.commit) > 0 && len(o.abort) > 0 && (c.lateMarker(o.commit[0]) || c.lateMarker(o.abort[0])):
			c.reportAnomalyAs(safety.LateMarker, safety.Atomicity, record(ref, o.commit[0], o.commit[0], o.abort[0]), "%s is committed at %v but aborted at %v: a marker of an earlier transaction at the same producer epoch, asked for before these records were produced, arrived late", txnName(ref), places(o.commit), places(o.abort))
		case len(o.commit) > 0 && len(o.abort) > 0 && c.laterCommitOfForgotten(ref, t, o.commit[0]):
			c.reportAnomalyAs(safety.UnreplicatedTxnState, safety.Atomicity, record(ref, o.commit[0], o.commit[0], o.abort[0]), "%s is committed at %v but aborted at %v: its coordinator has no record of the committed ones, and the COMMIT of a later transaction at epoch %d, begun after a failover lost the __transaction_state records that registered them, closed them too", txnName(ref), places(o.commit), places(o.abort), o.commit[0].markerProducerEpoch)
		case len(o.commit) > 0 && len(o.abort) > 0 && c.abortOfLostEpoch(ref, o.abort[0]):
			c.reportAnomalyAs(safety.UnreplicatedTxnState, safety.Atomicity, record(ref, o.commit[0], o.commit[0], o.abort[0]), "%s is committed at %v but aborted at %v: the ABORT carries epoch %d, which its coordinator never reached; a coordinator that loaded unreplicated __transaction_state records fenced it and wrote that marker, its records were lost in a failover, and the successor let the transaction go on and commit", txnName(ref), places(o.commit), places(o.abort), o.abort[0].markerProducerEpoch)
		case len(o.commit) > 0 && len(o.abort) > 0:
			c.report(safety.Atomicity, record(ref, o.commit[0], o.commit[0], o.abort[0]), "%s is committed at %v but aborted at %v", txnName(ref), places(o.commit), places(o.abort))
		case t.Outcome == "committed" && len(o.abort) > 0 && c.commitNeverDecided(ref, t, o.abort[0]):
			c.reportAnomalyAs(safety.UnreplicatedTxnState, safety.Atomicity, record(ref, o.abort[0], o.abort[0]), "%s committed for its producer, but its coordinator never decided it: the __transaction_state records that registered it were lost in a failover, a successor answered the commit from an earlier completed transaction, and a later transaction's ABORT closed its records at %v", txnName(ref), places(o.abort))
		case t.Outcome == "committed" && len(o.abort) > 0:
			c.report(safety.Atomicity, record(ref, o.abort[0], o.abort[0]), "%s committed for its producer but its records at %v were aborted", txnName(ref), places(o.abort))
		case t.Outcome == "aborted" && len(o.commit) > 0:
			c.report(safety.Atomicity, record(ref, o.commit[0], o.commit[0]), "%s aborted for its producer but its records at %v were committed", txnName(ref), places(o.commit))
		case len(o.open) > 0 && t.Outcome != "open" && c.coordinatorForgot(ref, t, o.open):
			c.reportAnomaly(safety.UnreplicatedTxnState, record(ref, o.open[0]), "%s was decided, but its coordinator has no record of it (at its producer id and epoch it holds Empty or an earlier transaction completed before these records were written, or a later epoch whose InitProducerId found nothing open to fence, or it completed the transaction without these partitions, which its log never registered): the __transaction_state records that registered its partitions were lost in a failover, and no marker will ever reach its records at %v", txnName(ref), places(o.open))
		case len(o.open) > 0 && t.Outcome != "open" && c.coordinatorDone(ref, t):
			c.report(safety.Atomicity, record(ref, o.open[0]), "%s was decided and its coordinator finished it, but its records at %v never got a marker", txnName(ref), places(o.open))
		case len(o.open) > 0 && t.Outcome != "open" && c.in.Final:
			// Only the liveness checks get here: the coordinator has
			// not finished it, and on a healed, quiet cluster nothing
			// ever will.
			c.report(safety.Atomicity, record(ref, o.open[0]), "%s was decided%s, but on the healed, quiet cluster its records at %v never got a marker", txnName(ref), c.heldIn(ref), places(o.open))
		}
	}
}

// laterCommitOfForgotten reports whether l, a record of transaction t
// its producer did not see committed, was closed by the COMMIT marker of
// a later epoch while t's coordinator has no record of t: Kafka 3.5's
// unreplicated-txn-state, where the next transaction of the producer id
// began after a failover lost the records that registered t, and its
// COMMIT completes whatever the producer id has open on the partition
// (appendEndTxnMarker).
func (c *checker) laterCommitOfForgotten(ref sendRef, t *client.TxnRecord, l logged) bool {
	return l.marker == "COMMIT" && l.markerProducerEpoch > l.batch.ProducerEpoch && t.Outcome != "committed" && c.coordinatorForgot(ref, t, []logged{l})
}

// abortOfLostEpoch reports whether l was closed by an ABORT marker at a
// producer epoch above any the id's coordinator holds for the producer
// id: the epoch came from a bump only lost __transaction_state records
// knew. A coordinator that loaded them (up to the log end, unreplicated
// included) fenced the transaction and wrote the marker; a successor
// elected without them let the producer go on at the old epoch and
// commit (explorer seed 1500621438; safety.UnreplicatedTxnState).
func (c *checker) abortOfLostEpoch(ref sendRef, l logged) bool {
	cs, ok := c.in.Coordinators[ref.p.TransactionalId]
	return ok && cs.Known && l.marker == "ABORT" && cs.ProducerId == l.batch.ProducerId && l.markerProducerEpoch > cs.ProducerEpoch
}

// commitNeverDecided reports whether no coordinator asked for a COMMIT
// marker on the record's partition, for its producer id, between the
// record's append and the ABORT marker that closed it, though its
// producer was told the transaction committed: a coordinator that lost
// the records registering it answers EndTxn(commit) NONE from the
// previous transaction's CompleteCommit (TC endTransaction, Kafka 3.5;
// safety.UnreplicatedTxnState), nothing decides this one, and a later
// transaction's ABORT closes its records. A coordinator that committed
// it and then aborted it would have asked for the COMMIT in between.
//
// And the commit's answer came without a decision: between the
// producer's EndTxn(commit) and the NONE that answered it, no
// coordinator moved the id to PrepareCommit (a coordinator that decides
// writes PrepareCommit before it answers), so a coordinator that
// decided to commit and then wrote ABORT markers is still reported.
func (c *checker) commitNeverDecided(ref sendRef, t *client.TxnRecord, l logged) bool {
	if c.in.Trace == nil || !t.CommitSent {
		return false
	}
	x := c.evidence()
	tr := c.in.Trace
	start := x.endTxnAfter(ref.p.Name, t.CommitSentAt)
	if start < 0 {
		return false
	}
	node, _ := tr.Names().Lookup(ref.p.Name)
	subject := "txn " + ref.p.TransactionalId
	answered := false
	for i := start; i < tr.Len() && !answered; i++ {
		e := tr.At(i)
		switch {
		case e.Kind == sim.KindState && e.Subject == subject && tr.Names().Label(e.To) == protocol.PrepareCommit.String():
			return false
		case e.Kind == sim.KindSend && e.Peer == node:
			if r, ok := e.Msg.(*protocol.EndTxnResponse); ok && r.ErrorCode == protocol.NONE {
				answered = true
			}
		}
	}
	if !answered {
		return false
	}
	from := x.appended(l.tp, l.offset)
	m := x.marker(l)
	if from < 0 || len(m) < 2 || m[1] < from {
		return false
	}
	for i := from; i < m[1]; i++ {
		e := c.in.Trace.At(i)
		req, ok := e.Msg.(*protocol.WriteTxnMarkersRequest)
		if e.Kind != sim.KindSend || !ok {
			continue
		}
		for _, mk := range req.Markers {
			if mk.TransactionResult && mk.ProducerId == l.batch.ProducerId && slices.Contains(mk.Partitions, l.tp) {
				return false
			}
		}
	}
	return true
}

// places names logged records as the messages do: "orders/0@3".
func places(ls []logged) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = fmt.Sprintf("%s@%d", l.tp, l.offset)
	}
	return out
}

// coordinatorForgot reports whether the coordinator has never heard of a
// transaction that wrote records: at the same producer id and epoch it
// holds Empty, the state InitProducerId leaves before any transaction
// (a transaction ends in Complete*, never Empty), or the Complete* state
// of an earlier transaction, one that completed before the first of
// these records was appended (a transaction completes only after its
// records are written; with transaction version 1 the epoch stays the
// same from one transaction to the next, so the successor of a
// coordinator that lost the records registering this one is left with
// the previous one). The records that registered its partitions were
// lost (safety.UnreplicatedTxnState). Or it holds a later epoch of the
// producer id, bumped by an InitProducerId that found no transaction to
// fence, and its log never registered these partitions at this epoch.
func (c *checker) coordinatorForgot(ref sendRef, t *client.TxnRecord, open []logged) bool {
	cs, ok := c.in.Coordinators[ref.p.TransactionalId]
	if !ok || !cs.Known || cs.Pending || cs.ProducerId != t.ProducerId || cs.ProducerEpoch < t.ProducerEpoch {
		return false
	}
	if cs.ProducerEpoch > t.ProducerEpoch {
		// A later InitProducerId bumped the epoch: had the coordinator
		// known the transaction, it would have fenced and aborted it,
		// writing markers. It knew it only if its log registered one of
		// these partitions at the transaction's epoch.
		return cs.Log != nil && !registered(cs.Log, ref.p.TransactionalId, t.ProducerId, t.ProducerEpoch, open)
	}
	switch cs.State {
	case protocol.Empty:
		return true
	case protocol.CompleteCommit, protocol.CompleteAbort:
		return cs.LastUpdate < firstAppended(open) || c.registrationLost(ref, cs, t, open)
	}
	return false
}

// registrationLost reports whether the coordinator's log never
// registered the open records' partitions at the transaction's epoch,
// though another broker, as the id's coordinator, told the producer it
// had (AddPartitionsToTxn answered NONE for one of them after the last
// transaction that completed before the records): that broker's record
// of it was lost in a failover, and the successor carried the
// transaction on, and completed it, without those partitions (explorer
// seed 1400501667; safety.UnreplicatedTxnState). A coordinator that
// answered from its own log and still holds the id is not excused.
func (c *checker) registrationLost(ref sendRef, cs CoordinatorState, t *client.TxnRecord, open []logged) bool {
	id := ref.p.TransactionalId
	if c.in.Trace == nil || cs.Log == nil || registered(cs.Log, id, t.ProducerId, t.ProducerEpoch, open) {
		return false
	}
	tr := c.in.Trace
	producer, ok := tr.Names().Lookup(ref.p.Name)
	if !ok {
		return false
	}
	first := firstAppended(open)
	since := lastCompletionBefore(cs.Log, id, t.ProducerId, t.ProducerEpoch, first)
	for _, e := range tr.All() {
		if int64(e.At) > first {
			break
		}
		r, isAdd := e.Msg.(*protocol.AddPartitionsToTxnResponse)
		if e.Kind != sim.KindSend || !isAdd || e.Peer != producer || e.Node == cs.Node || int64(e.At) <= since {
			continue
		}
		for _, res := range r.Results {
			if res.ErrorCode != protocol.NONE {
				continue
			}
			for _, l := range open {
				if l.tp == res.TopicPartition {
					return true
				}
			}
		}
	}
	return false
}

// lastCompletionBefore is when the last transaction of id at producer id
// pid and epoch that completed in the log before the time first was
// appended; 0 when none did.
func lastCompletionBefore(log *partition.Log, id string, pid int64, epoch int16, first int64) int64 {
	var last int64
	for at, v := range txnRecords(log, id, pid) {
		if at < first && v.ProducerEpoch == epoch && (v.TransactionStatus == protocol.CompleteCommit || v.TransactionStatus == protocol.CompleteAbort) {
			last = at
		}
	}
	return last
}

// firstAppended is when the first of the records was appended.
func firstAppended(open []logged) int64 {
	first := open[0].batch.Timestamp
	for _, l := range open[1:] {
		first = min(first, l.batch.Timestamp)
	}
	return first
}

// txnRecords yields the log's __transaction_state values of id at
// producer id pid, in order, each with its batch's append time.
func txnRecords(log *partition.Log, id string, pid int64) iter.Seq2[int64, *protocol.TransactionLogValue] {
	return func(yield func(int64, *protocol.TransactionLogValue) bool) {
		for i := range log.Batches {
			b := &log.Batches[i]
			for _, r := range b.Records {
				if v := r.TxnLog; v != nil && r.Key == id && v.ProducerId == pid && !yield(b.Timestamp, v) {
					return
				}
			}
		}
	}
}

// registered reports whether a __transaction_state log holds a record
// of transactional id at producer id pid and epoch with one of the open
// records' partitions in an open or deciding transaction, and no record
// completing a transaction at that epoch between it and the open
// records: with transaction version 1 one epoch spans transaction after
// transaction, so the registration of an earlier transaction on the
// same partition, completed before these records were appended, is not
// theirs (explorer seed 1200603662). A completion appended after the
// first of the records does not undo a registration: that coordinator
// knew them, and the checker goes on to judge it.
func registered(log *partition.Log, id string, pid int64, epoch int16, open []logged) bool {
	first := firstAppended(open)
	known := false
	for at, v := range txnRecords(log, id, pid) {
		if v.ProducerEpoch != epoch {
			continue
		}
		switch v.TransactionStatus {
		case protocol.CompleteCommit, protocol.CompleteAbort:
			if at < first {
				known = false
			}
		case protocol.Ongoing, protocol.PrepareCommit, protocol.PrepareAbort:
			for _, l := range open {
				if slices.Contains(v.TransactionPartitions, l.tp) {
					known = true
				}
			}
		}
	}
	return known
}

// coordinatorDone reports whether the coordinator has finished with the
// transaction: it moved on to a completed state at that epoch or later.
func (c *checker) coordinatorDone(ref sendRef, t *client.TxnRecord) bool {
	cs, ok := c.in.Coordinators[ref.p.TransactionalId]
	if !ok || !cs.Known || cs.Pending {
		return false
	}
	done := cs.State == protocol.CompleteCommit || cs.State == protocol.CompleteAbort || cs.State == protocol.Empty
	later := cs.ProducerId != t.ProducerId || cs.ProducerEpoch >= t.ProducerEpoch
	return done && later && c.laterTxnOrSame(ref, t)
}

// heldIn says, for a message, the state a transaction's coordinator
// holds it in when that is a decision it has not finished ("" else).
func (c *checker) heldIn(ref sendRef) string {
	cs, ok := c.in.Coordinators[ref.p.TransactionalId]
	if !ok || !cs.Known || (cs.State != protocol.PrepareCommit && cs.State != protocol.PrepareAbort) {
		return ""
	}
	return " and its coordinator still holds it in " + cs.State.String()
}

// laterTxnOrSame is true when the coordinator's completed transaction is
// this one or a later one of the same producer.
func (c *checker) laterTxnOrSame(ref sendRef, t *client.TxnRecord) bool {
	return t.CommitSent || t.Outcome == "aborted"
}

// duplicatesAndDurability: with idempotence, a record is in its
// partition at most once, acknowledged or not (a send that timed out may
// or may not have been written, never twice); an acknowledged one with
// acks=all is there, at the offset it was acknowledged with.
func (c *checker) duplicatesAndDurability() {
	// One map, sized once: a record's count is its number of copies.
	all := c.loggedRecords()
	copies := make(map[recordKey][]logged, len(all))
	for _, l := range all {
		if l.seq < 0 {
			continue
		}
		k := recordKey{l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq}
		copies[k] = append(copies[k], l)
	}
	for _, p := range c.in.Producers {
		for _, s := range p.Sends {
			if s.Sequence < 0 {
				continue
			}
			k := recordKey{s.TP, s.ProducerId, s.ProducerEpoch, s.Sequence}
			n := len(copies[k])
			// The send's identity survives re-sequencing: copies under
			// every epoch and producer id it went out with count.
			all := copies[k]
			if len(s.Earlier) > 0 {
				all = slices.Clone(all)
				for _, e := range s.Earlier {
					all = append(all, copies[recordKey{s.TP, e.ProducerId, e.ProducerEpoch, e.Sequence}]...)
				}
			}
			if p.Idempotent && len(all) > 1 {
				// Every Produce that carried it (the retries, under each
				// identity) and the append of each copy.
				ev := func() []int {
					x := c.evidence()
					ev := x.producedAll(s.TP, s.ProducerId, s.ProducerEpoch, s.Sequence)
					for _, e := range s.Earlier {
						ev = append(ev, x.producedAll(s.TP, e.ProducerId, e.ProducerEpoch, e.Sequence)...)
					}
					for _, l := range all {
						ev = append(ev, x.appended(l.tp, l.batch.BaseOffset))
					}
					return events(ev...)
				}
				switch {
				case len(all) > n && n <= 1 && !c.refusedAsOutOfOrder(s, copies):
					c.reportAnomaly(safety.ResequencedInFlight, ev, "%s's record %q (producer %d, sequence %d, re-sequenced from %s) is in %s %d times: its earlier copy's answer was lost, and the epoch bump after another batch's gap sent it again", p.Name, s.Value, s.ProducerId, s.Sequence, identities(s.Earlier), s.TP, len(all))
				case len(all) > n:
					c.report(safety.NoDuplicates, ev, "%s's record %q (producer %d, sequence %d, re-sequenced from %s) is in %s %d times", p.Name, s.Value, s.ProducerId, s.Sequence, identities(s.Earlier), s.TP, len(all))
				default:
					c.report(safety.NoDuplicates, ev, "%s's record %q (producer %d, sequence %d) is in %s %d times", p.Name, s.Value, s.ProducerId, s.Sequence, s.TP, n)
				}
			}
			if !s.Acked || p.Acks != -1 || c.in.Logs[s.TP] == nil {
				continue
			}
			// The Produce and the answer that acknowledged it.
			ackEv := func() []int {
				x := c.evidence()
				ps, ok := x.produced(s.TP, s.ProducerId, s.ProducerEpoch, s.Sequence)
				if !ok {
					return nil
				}
				return events(ps.event, x.reply(ps.msgID))
			}
			switch {
			case n == 0:
				c.report(safety.Durability, ackEv, "%s's acknowledged record %q (offset %d) is gone from %s", p.Name, s.Value, s.Offset, s.TP)
			case s.Offset >= 0 && copies[k][0].offset != s.Offset:
				first := copies[k][0]
				ev := func() []int {
					return events(append(ackEv(), c.evidence().appended(first.tp, first.batch.BaseOffset))...)
				}
				c.report(safety.Durability, ev, "%s's record %q was acknowledged at %s@%d but the log holds it at offset %d", p.Name, s.Value, s.TP, s.Offset, first.offset)
			}
		}
	}
}

// refusedAsOutOfOrder reports whether a leader answered
// OUT_OF_ORDER_SEQUENCE_NUMBER to a Produce carrying one of the send's
// earlier identities while its log held a copy under that identity: the
// broker then refused a retry of a record it had, and the epoch bump that
// followed wrote it again. That is a bug. A copy under an earlier
// identity that no broker refused is Kafka's own anomaly
// (safety.ResequencedInFlight): an idempotent producer that bumps its
// epoch after another batch's gap (TransactionManager.handleFailedBatch,
// KIP-360) re-sequences every batch still in flight on that partition,
// one whose answer was lost included, and writes it again. So is a
// refusal once the leader had appended NumBatchesToRetain later batches
// of that producer id and epoch: Kafka's leader remembers only the last
// five (ProducerStateEntry.NUM_BATCHES_TO_RETAIN), so an older retry is
// out of order to it (ProducerAppendInfo.checkSequence), record or not;
// the Java client sends a partition's new batches to a new leader while
// older ones still wait for the old leader's answer.
func (c *checker) refusedAsOutOfOrder(s client.SentRecord, copies map[recordKey][]logged) bool {
	x := c.evidence()
	for _, e := range s.Earlier {
		if len(copies[recordKey{s.TP, e.ProducerId, e.ProducerEpoch, e.Sequence}]) == 0 {
			continue
		}
		for _, ps := range x.produces[produceKey{s.TP, e.ProducerId, e.ProducerEpoch}] {
			if ps.baseSeq < 0 || e.Sequence < ps.baseSeq || e.Sequence >= ps.baseSeq+ps.n {
				continue
			}
			r := x.reply(ps.msgID)
			if r < 0 {
				continue
			}
			if m, ok := x.trace.At(r).Msg.(*protocol.ProduceResponse); ok {
				for _, pr := range m.Responses {
					if pr.TopicPartition == s.TP && pr.ErrorCode == protocol.OUT_OF_ORDER_SEQUENCE_NUMBER &&
						c.laterBatches(s.TP, e, int64(x.trace.At(r).At)) < partition.NumBatchesToRetain {
						return true
					}
				}
			}
		}
	}
	return false
}

// laterBatches counts the batches of tp's log written under e's producer
// id and epoch with a higher sequence, appended at or before time at.
func (c *checker) laterBatches(tp protocol.TopicPartition, e client.SentAs, at int64) int {
	log := c.in.Logs[tp]
	if log == nil {
		return 0
	}
	n := 0
	for i := range log.Batches {
		b := &log.Batches[i]
		if !b.IsControl && b.ProducerId == e.ProducerId && b.ProducerEpoch == e.ProducerEpoch && b.BaseSequence > e.Sequence && b.Timestamp <= at {
			n++
		}
	}
	return n
}

// identities names the identities a record had before it was
// re-sequenced: "producer 0 epoch 0 sequence 1".
func identities(es []client.SentAs) string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = fmt.Sprintf("producer %d epoch %d sequence %d", e.ProducerId, e.ProducerEpoch, e.Sequence)
	}
	return strings.Join(out, ", ")
}

// fencing: nothing written with an older epoch of a producer id after a
// newer epoch of that producer id was granted becomes visible.
func (c *checker) fencing() {
	type grant struct {
		pid   int64
		epoch int16
		at    sim.Time
	}
	byId := map[string][]grant{}
	idOf := map[int64]string{}
	for _, p := range c.in.Producers {
		if p.TransactionalId == "" {
			continue
		}
		for _, g := range p.Grants {
			byId[p.TransactionalId] = append(byId[p.TransactionalId], grant{g.ProducerId, g.ProducerEpoch, g.At})
			idOf[g.ProducerId] = p.TransactionalId
		}
	}
	// Epochs are compared within one producer id only: a new producer
	// id (the transactional id expired, or its epochs were exhausted)
	// starts again at epoch 0, and its writes are not older for that.
	newer := func(pid int64, epoch int16, at int64) (grant, bool) {
		for _, g := range byId[idOf[pid]] {
			if int64(g.at) < at && g.pid == pid && g.epoch > epoch {
				return g, true
			}
		}
		return grant{}, false
	}
	visible := map[recordKey]bool{}
	for _, l := range c.loggedRecords() {
		if l.batch.IsTransactional && l.marker == "COMMIT" {
			visible[recordKey{l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq}] = true
			if g, ok := newer(l.batch.ProducerId, l.batch.ProducerEpoch, l.batch.Timestamp); ok {
				// The grant of the newer epoch, the stale Produce and
				// the marker that committed it.
				ev := func() []int {
					x := c.evidence()
					ev := []int{-1}
					if i, ok := x.grants[grantKey{g.pid, g.epoch}]; ok {
						ev[0] = i
					}
					if ps, ok := x.produced(l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq); ok {
						ev = append(ev, ps.event)
					}
					return events(append(ev, x.marker(l)...)...)
				}
				c.report(safety.Fencing, ev, "%q at %s@%d was written with epoch %d at %dms, after epoch %d of %s was granted at %s, and it was committed",
					recordValue(l), l.tp, l.offset, l.batch.ProducerEpoch, l.batch.Timestamp, g.epoch, idOf[l.batch.ProducerId], g.at)
			}
		}
	}
}

func recordValue(l logged) string {
	idx := l.offset - l.batch.BaseOffset
	if idx >= 0 && int(idx) < len(l.batch.Records) {
		return l.batch.Records[idx].Value
	}
	return ""
}

// offsetsAtomicity: offsets sent in a transaction become visible when it
// commits and never when it aborts.
func (c *checker) offsetsAtomicity() {
	for _, p := range c.in.Producers {
		for _, t := range p.Txns {
			if len(t.Offsets) == 0 {
				continue
			}
			for i, o := range t.Offsets {
				group := groupOf(&t, i)
				committed, pending := c.offsetState(group, o.TopicPartition, t.ProducerId, o.CommittedOffset)
				if c.sameOffsetElsewhere(p.Name, t, group, o) {
					// Another transaction of the same producer id sent the
					// same offset: the group's state cannot tell them
					// apart (TV1 keeps pid and epoch across
					// transactions), so it proves nothing about this one.
					continue
				}
				// The TxnOffsetCommit that sent the offset and the EndTxn
				// that ended its transaction.
				ev := func() []int {
					x := c.evidence()
					sent := x.offsets[offsetKey{group, o.TopicPartition, o.CommittedOffset, t.ProducerId}]
					if len(sent) == 0 {
						return nil
					}
					return events(sent[0], x.endTxnAfter(p.Name, x.trace.At(sent[0]).At))
				}
				switch {
				case t.Outcome == "aborted" && committed == o.CommittedOffset:
					c.report(safety.OffsetsAtomicity, ev, "offset %d of %s for group %s from %s's aborted transaction #%d became visible", o.CommittedOffset, o.TopicPartition, group, p.Name, t.Txn)
				case t.Outcome == "committed" && pending && (c.in.Final || c.coordinatorFinished(p.TransactionalId, t)):
					c.report(safety.OffsetsAtomicity, ev, "%s's transaction #%d committed, but its offset %d of %s for group %s is still pending: no marker reached %s", p.Name, t.Txn, o.CommittedOffset, o.TopicPartition, group, protocol.ConsumerOffsetsTopic)
				}
			}
		}
	}
}

// offsetsLost: an offset a committed transaction sent is the group's
// committed value, unless a later commit of that group and partition
// superseded it. Both are judged from the __consumer_offsets log, replayed
// here as a coordinator loads it (a plain commit replaces the value, a
// transaction's offsets replace it at its COMMIT marker when they were
// written later, as GroupMetadata.completePendingTxnOffsetCommit does),
// and compared with what the coordinator answers: a coordinator that
// forgets an offset its log holds cannot hide it. Only a key whose
// latest value in the log is a committed transaction's is judged: a plain
// commit still being replicated is in the log before the coordinator
// applies it.
func (c *checker) offsetsLost() {
	type entry struct {
		value, position int64
		pid             int64
		txn             bool
	}
	for _, ol := range c.in.OffsetsLogs {
		latest := map[GroupPartition]entry{}
		pending := map[int64]map[GroupPartition]entry{}
		for i := range ol.Log.Batches {
			b := &ol.Log.Batches[i]
			if b.IsControl {
				if b.ControlType == protocol.ControlCommit {
					for k, e := range pending[b.ProducerId] {
						if cur, ok := latest[k]; !ok || cur.position < e.position {
							latest[k] = e
						}
					}
				}
				delete(pending, b.ProducerId)
				continue
			}
			for j, r := range b.Records {
				if r.Offset == nil {
					continue
				}
				k := GroupPartition{r.Offset.Group, r.Offset.Partition}
				e := entry{r.Offset.CommittedOffset, b.BaseOffset + int64(j), b.ProducerId, b.IsTransactional}
				if !b.IsTransactional {
					latest[k] = e
					continue
				}
				if pending[b.ProducerId] == nil {
					pending[b.ProducerId] = map[GroupPartition]entry{}
				}
				pending[b.ProducerId][k] = e
			}
		}
		keys := make([]GroupPartition, 0, len(latest))
		for k, e := range latest {
			if e.txn {
				keys = append(keys, k)
			}
		}
		ptrsort.SortFunc(keys, func(a, b *GroupPartition) int {
			if a.Group != b.Group {
				return strings.Compare(a.Group, b.Group)
			}
			return a.Partition.Compare(b.Partition)
		})
		for _, k := range keys {
			e := latest[k]
			got, ok := ol.Committed[k]
			if ok && got == e.value {
				continue
			}
			p, t := c.txnOfOffset(k, e.pid, e.value)
			if t == nil {
				continue // not a transaction the clients ran
			}
			answer := "none"
			if ok {
				answer = strconv.FormatInt(got, 10)
			}
			ev := func() []int {
				x := c.evidence()
				sent := x.offsets[offsetKey{k.Group, k.Partition, e.value, e.pid}]
				if len(sent) == 0 {
					return nil
				}
				return events(sent[0], x.endTxnAfter(p.Name, x.trace.At(sent[0]).At))
			}
			c.report(safety.OffsetsAtomicity, ev, "%s's transaction #%d committed offset %d of %s for group %s (%s@%d, closed by a COMMIT marker, superseded by nothing later), but the group's coordinator answers %s: the committed offset is lost",
				p.Name, t.Txn, e.value, k.Partition, k.Group, protocol.ConsumerOffsetsTopic, e.position, answer)
		}
	}
}

// txnOfOffset finds the transaction of producer id pid that sent value
// for a group and partition.
func (c *checker) txnOfOffset(k GroupPartition, pid, value int64) (*Producer, *client.TxnRecord) {
	for i := range c.in.Producers {
		p := &c.in.Producers[i]
		for j := range p.Txns {
			t := &p.Txns[j]
			if t.ProducerId != pid {
				continue
			}
			for i, o := range t.Offsets {
				if groupOf(t, i) == k.Group && o.TopicPartition == k.Partition && o.CommittedOffset == value {
					return p, t
				}
			}
		}
	}
	return nil, nil
}

// groupOf is the group a transaction's i-th offset was sent for (a
// transaction may send offsets for several).
func groupOf(t *client.TxnRecord, i int) string {
	if i < len(t.OffsetGroups) {
		return t.OffsetGroups[i]
	}
	return t.Group
}

func (c *checker) coordinatorFinished(id string, t client.TxnRecord) bool {
	cs, ok := c.in.Coordinators[id]
	return ok && cs.Known && !cs.Pending && (cs.State == protocol.CompleteCommit || cs.State == protocol.CompleteAbort || cs.State == protocol.Empty)
}

// sameOffsetElsewhere reports whether a transaction other than t (of
// producer name) with the same producer id sent the same offset for the
// same group and partition.
func (c *checker) sameOffsetElsewhere(name string, t client.TxnRecord, group string, o protocol.OffsetEntry) bool {
	for _, p := range c.in.Producers {
		for _, u := range p.Txns {
			if (p.Name == name && u.Txn == t.Txn) || u.ProducerId != t.ProducerId {
				continue
			}
			for i, e := range u.Offsets {
				if groupOf(&u, i) == group && e.TopicPartition == o.TopicPartition && e.CommittedOffset == o.CommittedOffset {
					return true
				}
			}
		}
	}
	return false
}

// offsetState says what the group holds for tp from producer pid: the
// materialised offset, and whether the offset value is still pending
// (a pending offset of a later transaction of the same producer id is
// another value, or is excluded by sameOffsetElsewhere).
func (c *checker) offsetState(group string, tp protocol.TopicPartition, pid int64, value int64) (committed int64, pending bool) {
	committed = -1
	for _, o := range c.in.Offsets {
		if o.Group != group || o.Partition != tp {
			continue
		}
		if o.Pending && o.ProducerId == pid && o.Offset == value {
			pending = true
		}
		if !o.Pending && o.ProducerId == pid {
			committed = o.Offset
		}
	}
	return committed, pending
}

// markerConsistency: every marker that closes a part of one transaction
// says the same thing.
func (c *checker) markerConsistency() {
	// Per transaction, the first record each marker type closed (an
	// index into loggedRecords, -1 for none); the partitions a message
	// names are gathered again only for a violation (markedOn), since
	// rendering each record's partition cost more than the rest of the
	// invariant.
	type closed struct{ commit, abort int }
	records := c.loggedRecords()
	byTxn := map[*client.TxnRecord]*closed{}
	var order []*client.TxnRecord
	refs := map[*client.TxnRecord]sendRef{}
	for i := range records {
		l := &records[i]
		if l.marker == "" || !l.batch.IsTransactional {
			continue
		}
		ref, ok := c.sendOf(l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq)
		if !ok || ref.txn() == nil {
			continue
		}
		t := ref.txn()
		o := byTxn[t]
		if o == nil {
			o = &closed{-1, -1}
			byTxn[t] = o
			order = append(order, t)
			refs[t] = ref
		}
		switch l.marker {
		case "COMMIT":
			if o.commit < 0 {
				o.commit = i
			}
		case "ABORT":
			if o.abort < 0 {
				o.abort = i
			}
		}
	}
	for _, t := range order {
		o := byTxn[t]
		if o.commit < 0 || o.abort < 0 {
			continue
		}
		firstCommit, firstAbort := records[o.commit], records[o.abort]
		ev := func() []int {
			x := c.evidence()
			return events(append(x.marker(firstCommit), x.marker(firstAbort)...)...)
		}
		commits, aborts := c.markedOn(t, "COMMIT"), c.markedOn(t, "ABORT")
		if c.laterCommitOfForgotten(refs[t], t, firstCommit) {
			c.reportAnomalyAs(safety.UnreplicatedTxnState, safety.MarkerConsistency, ev, "%s got COMMIT markers on %v and ABORT markers on %v: the COMMIT markers belong to a later transaction at epoch %d, begun after a failover lost the __transaction_state records that registered this one", txnName(refs[t]), commits, aborts, firstCommit.markerProducerEpoch)
			continue
		}
		if c.abortOfLostEpoch(refs[t], firstAbort) {
			c.reportAnomalyAs(safety.UnreplicatedTxnState, safety.MarkerConsistency, ev, "%s got COMMIT markers on %v and ABORT markers on %v: the ABORT carries epoch %d, which its coordinator never reached, written by a coordinator whose __transaction_state records were lost in a failover", txnName(refs[t]), commits, aborts, firstAbort.markerProducerEpoch)
			continue
		}
		if c.lateMarker(firstCommit) || c.lateMarker(firstAbort) {
			c.reportAnomalyAs(safety.LateMarker, safety.MarkerConsistency, ev, "%s got COMMIT markers on %v and ABORT markers on %v: one of them belonged to an earlier transaction at the same producer epoch and arrived late", txnName(refs[t]), commits, aborts)
			continue
		}
		c.report(safety.MarkerConsistency, ev, "%s got COMMIT markers on %v and ABORT markers on %v", txnName(refs[t]), commits, aborts)
	}
}

// markedOn lists, once each in log order, the partitions where a marker
// of type marker closed a record of transaction t.
func (c *checker) markedOn(t *client.TxnRecord, marker string) []string {
	var tps []string
	for _, l := range c.loggedRecords() {
		if l.marker != marker || !l.batch.IsTransactional {
			continue
		}
		if ref, ok := c.sendOf(l.tp, l.batch.ProducerId, l.batch.ProducerEpoch, l.seq); ok && ref.txn() == t {
			tps = append(tps, l.tp.String())
		}
	}
	return uniq(tps)
}

func uniq(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// illegalTransition reports state event e, which Kafka does not allow
// (the transitions invariant: every state change is one Kafka allows).
func (c *checker) illegalTransition(e *sim.Event) {
	c.out = append(c.out, Violation{Invariant: safety.Transitions.Name,
		Message: fmt.Sprintf("%s: %s moved %s -> %s, which Kafka does not allow", c.in.Trace.Name(e.Node), e.Subject, c.in.Trace.Label(e.From), c.in.Trace.Label(e.To)), Events: []int{e.Index}})
}

// traceInvariants judges the two invariants read from the trace,
// transitions and lso, in one walk: a heavy run's trace is several
// megabytes, and each walk of it was a few percent of the run. Check
// sorts the violations by invariant afterwards, stably, so each keeps
// its trace order.
//
// lso: every read_committed fetch answer has LSO ≤ HW, returns nothing at
// or past its LSO, and a leader's LSO never moves backwards.
func (c *checker) traceInvariants() {
	type key struct {
		node sim.NodeID
		tp   protocol.TopicPartition
	}
	// The last LSO answered per node and partition: an index into
	// lastLSO, so that an answer costs one map lookup, not a lookup and
	// an assignment (the two were most of this invariant's cost).
	lastAt := map[key]int{}
	var lastLSO []int64
	// The read_committed fetches only: a map of every fetch's isolation
	// grew with each poll of the run.
	committedFetch := map[int64]bool{}
	// One pass: an answer is always sent after its request.
	// Only state events (an illegal transition) and clients' sends are
	// read.
	keep := func(k sim.Kind, internal bool) bool {
		return k == sim.KindState || k == sim.KindSend && !internal
	}
	for _, e := range c.in.Trace.Select(keep) {
		if e.Kind == sim.KindState && e.Illegal {
			c.illegalTransition(e)
			continue
		}
		if e.Kind != sim.KindSend {
			continue // a legal transition (keep yields no internal send)
		}
		var m *protocol.FetchResponse
		switch msg := e.Msg.(type) {
		case *protocol.FetchRequest:
			if msg.IsolationLevel == protocol.ReadCommitted {
				committedFetch[e.MsgID] = true
			}
			continue
		case *protocol.FetchResponse:
			m = msg
		default:
			continue
		}
		for _, pd := range m.Responses {
			if pd.ErrorCode != protocol.NONE {
				continue
			}
			if pd.LastStableOffset > pd.HighWatermark {
				c.out = append(c.out, Violation{Invariant: safety.LSO.Name, Events: []int{e.Index},
					Message: fmt.Sprintf("%s answered LSO %d above HW %d for %s", c.in.Trace.Name(e.Node), pd.LastStableOffset, pd.HighWatermark, pd.TopicPartition)})
			}
			k := key{e.Node, pd.TopicPartition}
			if i, ok := lastAt[k]; !ok {
				lastAt[k] = len(lastLSO)
				lastLSO = append(lastLSO, pd.LastStableOffset)
			} else {
				if prev := lastLSO[i]; pd.LastStableOffset < prev {
					c.out = append(c.out, Violation{Invariant: safety.LSO.Name, Events: []int{e.Index},
						Message: fmt.Sprintf("the LSO of %s on %s moved back from %d to %d", pd.TopicPartition, c.in.Trace.Name(e.Node), prev, pd.LastStableOffset)})
				}
				lastLSO[i] = pd.LastStableOffset
			}
			if committedFetch[e.ReplyTo] {
				for _, b := range pd.Records {
					if b.LastOffset() >= pd.LastStableOffset {
						c.out = append(c.out, Violation{Invariant: safety.LSO.Name, Events: []int{e.Index},
							Message: fmt.Sprintf("a read_committed fetch of %s returned offset %d at or past the LSO %d", pd.TopicPartition, b.LastOffset(), pd.LastStableOffset)})
						break
					}
				}
			}
		}
	}
}
