// Package safety holds two of the course's concepts as tables, in the
// shape of franz-go's kerr: the safety mechanisms a lesson may switch off
// with `break`, and the invariants the checker holds every run to. Each
// entry is one exported value; the slices list them in the order the
// scenario language documents them, and the lookups find them by the
// names scripts use.
//
// Everyone reads these tables: the scenario language validates `break
// NAME` and `expect violation NAME` with them, the simulation keys its
// switches by them, the checker reports violations of them, the explorer
// provokes and documents each mechanism from them, the UI keys its
// English and Chinese texts by their names, and `txnlab explore
// --list-mechanisms` prints them for the Makefile. Adding a mechanism
// starts here: its entry carries what the explorer and the UI need
// (Needs, Provoke), so no other table is keyed by mechanism; the
// checklist is docs/architecture.md's "Adding a mechanism".
package safety

// Mechanism is a safety mechanism of Kafka's transaction protocol that a
// scenario may switch off (`break NAME`) to watch what it prevents.
type Mechanism struct {
	// Name is the script's name (`break epoch-fencing`).
	Name string
	// Prevents says, in English, what the mechanism does while it is on;
	// the UI's texts are in its catalogue, keyed by Name.
	Prevents string
	// Catches is the invariant a run with the mechanism broken violates
	// first: the one the explorer shrinks on.
	Catches *Invariant
	// TV2 marks the defenses KIP-890 added: a run that breaks one runs
	// under transaction.version=2, where they are at work.
	TV2 bool
	// Title and Narrative say what breaking the mechanism lets through:
	// the header of a scenario the explorer writes.
	Title, Narrative string
	// Needs is what a history must hold for the mechanism to be put to
	// work: without it, switching the mechanism off cannot change
	// anything, and the playground's break tab says so.
	Needs *Precondition
	// Provoke is how the explorer leans a run towards the mechanism's
	// anomaly when it is broken.
	Provoke Provocation
	// Liveness marks a mechanism whose break only the liveness checks
	// see: on a healed, quiet cluster a decided transaction is left
	// incomplete, which the checker forgives while its markers may still
	// be on their way. Its example ends with `expect liveness violation`,
	// the explorer finds it after its liveness phase, and an attack on
	// it is judged with the liveness checks on.
	Liveness bool
}

// Provocation is how the explorer provokes a mechanism's anomaly: the
// motif it weaves between random actions and the cast a run needs for
// the anomaly to show. It is data so that a mechanism provoked like an
// existing one adds no code to the explorer.
type Provocation struct {
	// Motif names one of core/explore's motifs (its motifs table): a
	// short sequence of statements that sets up the situation the
	// mechanism guards. core/explore's TestEveryMechanismIsProvoked
	// names a mechanism whose motif the explorer does not know.
	Motif string
	// ReadCommitted: the anomaly shows only to read_committed
	// consumers, so a run breaking the mechanism makes more of them.
	ReadCommitted bool
	// Idempotent: the anomaly needs an idempotent producer outside any
	// transaction, so such a run always has one.
	Idempotent bool
	// Pipeline: batches of one partition in flight at once are the
	// mechanism's ground, so a run breaking it keeps the explorer's
	// pipeline motif (runs breaking another mechanism leave it out, to
	// keep the mix their bias was tuned with).
	Pipeline bool
	// Phrase picks, among the violations of Catches, the kind that shows
	// the anomaly best ("" for the first).
	Phrase string
}

// Precondition is something a history must hold for a mechanism to be
// put to work, true whether the mechanism is on or off. Several
// mechanisms may share one; the UI explains each in its catalogue under
// "break.never." plus Name, and decides from the history which are met.
type Precondition struct {
	// Name keys the precondition's texts.
	Name string
	// Means says, in English, what the history must hold.
	Means string
}

// String returns the precondition's name.
func (p *Precondition) String() string { return p.Name }

// The preconditions the mechanisms need.
var (
	SecondEpoch        = &Precondition{"second-epoch", "a producer id gets a second epoch"}
	CoordinatorMoved   = &Precondition{"coordinator-moved", "a transaction coordinator moves: a WriteTxnMarkers request carries a coordinator epoch above 0"}
	TxnProduce         = &Precondition{"txn-produce", "a transactional producer sends a record"}
	ReadCommittedFetch = &Precondition{"read-committed-fetch", "a read_committed consumer fetches"}
	TxnOffsetCommit    = &Precondition{"txn-offset-commit", "a producer sends offsets in a transaction (TxnOffsetCommit)"}
	RetriedBatch       = &Precondition{"retried-batch", "an idempotent batch is sent again"}
	EndTxnTV2          = &Precondition{"end-txn-tv2", "a producer ends a transaction under transaction version 2 (EndTxn v5)"}
	PreparedOnLoad     = &Precondition{"prepared-on-load", "a coordinator loading its __transaction_state partition finds a transaction in PrepareCommit or PrepareAbort"}
)

// Preconditions lists every precondition.
var Preconditions = []*Precondition{SecondEpoch, CoordinatorMoved, TxnProduce, ReadCommittedFetch,
	TxnOffsetCommit, RetriedBatch, EndTxnTV2, PreparedOnLoad}

// String returns the script's name.
func (m *Mechanism) String() string { return m.Name }

// Invariant is a property the checker verifies over a run's history.
type Invariant struct {
	// Name is the script's name (`expect violation read-committed`).
	Name string
	// Asserts says, in English, what must hold.
	Asserts string
}

// String returns the script's name; a nil invariant is the scenario
// language's "any invariant".
func (i *Invariant) String() string {
	if i == nil {
		return "any"
	}
	return i.Name
}

// The invariants, in the order the language documents them.
var (
	ReadCommitted = &Invariant{"read-committed",
		"a read_committed consumer never receives a record of an aborted transaction or of one still open"}
	Atomicity = &Invariant{"atomicity",
		"once decided, a transaction has one outcome on every partition it wrote: all its records eventually become visible (commit) or none ever do (abort)"}
	NoDuplicates = &Invariant{"no-duplicates",
		"with idempotence on, a record is in the log at most once, acknowledged or not, retries included (and an acknowledged one exactly once)"}
	Durability = &Invariant{"durability",
		"acknowledged records and committed transactions survive every crash and restart, at the offset the acknowledgement gave"}
	Fencing = &Invariant{"fencing",
		"once a newer epoch of a producer id exists, nothing written with an older epoch of that producer id becomes visible"}
	OffsetsAtomicity = &Invariant{"offsets-atomicity",
		"offsets sent in a transaction become visible exactly when, and only if, it commits"}
	MarkerConsistency = &Invariant{"marker-consistency",
		"every marker of one transaction says the same thing (never COMMIT on one partition and ABORT on another)"}
	Transitions = &Invariant{"transitions",
		"every coordinator and client state transition is one Kafka allows"}
	LSO = &Invariant{"lso",
		"LSO ≤ high watermark, it never moves backwards, and never passes the first offset of an open transaction"}
)

// Invariants lists every invariant in the order the language documents
// them, which is also the order the checker reports them in.
var Invariants = []*Invariant{ReadCommitted, Atomicity, NoDuplicates, Durability, Fencing,
	OffsetsAtomicity, MarkerConsistency, Transitions, LSO}

// The mechanisms: Kafka 3.5's eight, then the two defenses KIP-890 added.
var (
	EpochFencing = &Mechanism{Name: "epoch-fencing",
		Prevents: "brokers and the coordinator reject requests with an older producer epoch",
		Catches:  Fencing,
		Title:    "Broken epoch fencing: a zombie producer's old epoch still commits.",
		Narrative: "Brokers and the coordinator accept an older producer epoch. A producer is in a transaction when a successor with the same transactional.id initialises and bumps the epoch; " +
			"the first one, a zombie that has not heard, writes and commits with its old epoch, and both go through: records written after the fence become visible.",
		Needs: SecondEpoch, Provoke: Provocation{Motif: "zombie"}}
	CoordinatorEpoch = &Mechanism{Name: "coordinator-epoch",
		Prevents: "brokers reject WriteTxnMarkers from an older coordinator epoch",
		Catches:  Atomicity,
		Title:    "Broken coordinator epoch: a deposed coordinator's late marker lands.",
		Narrative: "Leaders accept WriteTxnMarkers from an older coordinator epoch. A commit's markers are held up, the coordinator crashes, its successor completes the commit, " +
			"the producer (same pid and epoch) starts its next transaction, and the late COMMIT marker closes that one before it is decided.",
		Needs: CoordinatorMoved, Provoke: Provocation{Motif: "late-marker", ReadCommitted: true}}
	AddPartitions = &Mechanism{Name: "add-partitions",
		Prevents: "the producer registers a partition with AddPartitionsToTxn before producing to it",
		Catches:  Atomicity,
		Title:    "Broken AddPartitionsToTxn: records the coordinator never hears of.",
		Narrative: "The producer writes to a partition it never registered with AddPartitionsToTxn, so the coordinator sends it no marker when the transaction ends: " +
			"its records hang open for ever, neither committed nor aborted.",
		Needs: TxnProduce, Provoke: Provocation{Motif: "txn"}}
	LSOBound = &Mechanism{Name: "lso-bound",
		Prevents: "read_committed fetches stop at the last stable offset",
		Catches:  ReadCommitted,
		Title:    "Broken LSO bound: read_committed reads an open transaction.",
		Narrative: "read_committed fetches stop at the high watermark instead of the last stable offset, so a read_committed consumer receives records of a transaction " +
			"whose commit was not even sent.",
		Needs: ReadCommittedFetch, Provoke: Provocation{Motif: "read-open", ReadCommitted: true, Phrase: "before its commit was even sent"}}
	AbortedFilter = &Mechanism{Name: "aborted-filter",
		Prevents:  "read_committed consumers drop the batches of aborted transactions",
		Catches:   ReadCommitted,
		Title:     "Broken aborted-transaction filter: read_committed returns aborted records.",
		Narrative: "The read_committed consumer ignores the fetch's list of aborted transactions, so records of a transaction that aborted reach the application.",
		Needs:     ReadCommittedFetch, Provoke: Provocation{Motif: "read-aborted", ReadCommitted: true, Phrase: "which aborted"}}
	AddOffsets = &Mechanism{Name: "add-offsets",
		Prevents: "sendOffsetsToTransaction sends AddOffsetsToTxn first",
		Catches:  OffsetsAtomicity,
		Title:    "Broken AddOffsetsToTxn: transactional offsets that never commit.",
		Narrative: "sendOffsetsToTransaction skips AddOffsetsToTxn, so the coordinator writes no marker to the group's __consumer_offsets partition: " +
			"the transaction commits, its offsets stay pending for ever.",
		Needs: TxnOffsetCommit, Provoke: Provocation{Motif: "txn-offsets"}}
	SequenceCheck = &Mechanism{Name: "sequence-check",
		Prevents: "brokers detect duplicate and out-of-order sequence numbers",
		Catches:  NoDuplicates,
		Title:    "Broken sequence check: a retried produce is written twice.",
		Narrative: "Brokers accept any sequence number. A produce response is lost, the idempotent producer retries the batch, and the broker appends it again " +
			"instead of answering DUPLICATE_SEQUENCE_NUMBER.",
		Needs: RetriedBatch, Provoke: Provocation{Motif: "duplicate", Idempotent: true, Pipeline: true}}
	// MarkerRecovery: a coordinator that takes over a __transaction_state
	// partition finishes the transactions it finds decided (Kafka's
	// onElection: the markers of every PrepareCommit and PrepareAbort
	// are sent again). Broken, nothing else ever sends them.
	MarkerRecovery = &Mechanism{Name: "marker-recovery",
		Prevents: "a coordinator that takes over sends the markers again for every transaction it finds in PrepareCommit or PrepareAbort",
		Catches:  Atomicity, Liveness: true,
		Title: "Broken marker recovery: a transaction decided before a failover never completes.",
		Narrative: "A coordinator that loads its __transaction_state partition leaves the transactions it finds in PrepareCommit or PrepareAbort as they are. " +
			"A transaction whose markers were lost with the coordinator that decided it is never finished: its records never get a marker, and read_committed consumers never read past them.",
		Needs: PreparedOnLoad, Provoke: Provocation{Motif: "lost-markers"}}
	// PartitionVerification: the partition leader appends a
	// transactional batch without asking the coordinator (no
	// verification, and under transaction version 2 no implicit add, so
	// no marker ever closes its records).
	PartitionVerification = &Mechanism{Name: "partition-verification", TV2: true,
		Prevents: "the partition leader verifies (under transaction version 2, adds) a partition with the coordinator before a transactional write",
		Catches:  Atomicity,
		Title:    "Broken partition verification: under transaction version 2, records no coordinator knows of.",
		Narrative: "The partition leader appends a transactional batch without asking the coordinator. Under transaction version 2 that request is also what adds the partition " +
			"to the transaction (the client sends no AddPartitionsToTxn), so the coordinator writes no marker there: the records hang open for ever.",
		Needs: TxnProduce, Provoke: Provocation{Motif: "txn"}}
	// EpochBump: under transaction version 2 the coordinator ends a
	// transaction without bumping the producer epoch, so a late EndTxn
	// commits the next transaction.
	EpochBump = &Mechanism{Name: "epoch-bump", TV2: true,
		Prevents: "under transaction version 2 the coordinator bumps the producer epoch at every EndTxn",
		Catches:  ReadCommitted,
		Title:    "Broken epoch bump: under transaction version 2, a late EndTxn ends the next transaction.",
		Narrative: "The coordinator ends a transaction without bumping the producer epoch. A commit's EndTxn is delayed past request.timeout.ms, its retry commits, " +
			"the producer begins its next transaction with the same epoch, and the late EndTxn commits that one too: a read_committed consumer reads it before its commit was sent.",
		Needs: EndTxnTV2, Provoke: Provocation{Motif: "late-end-txn", ReadCommitted: true, Phrase: "before its commit was even sent"}}
)

// Mechanisms lists every mechanism in the order the language documents
// them.
var Mechanisms = []*Mechanism{EpochFencing, CoordinatorEpoch, AddPartitions, LSOBound, AbortedFilter,
	AddOffsets, SequenceCheck, MarkerRecovery, PartitionVerification, EpochBump}

var (
	mechanismByName = byName(Mechanisms, (*Mechanism).String)
	invariantByName = byName(Invariants, (*Invariant).String)
)

// byName indexes a table by its entries' names.
func byName[T any](table []*T, name func(*T) string) map[string]*T {
	out := make(map[string]*T, len(table))
	for _, e := range table {
		out[name(e)] = e
	}
	return out
}

// MechanismByName finds a mechanism by its script name.
func MechanismByName(name string) (*Mechanism, bool) {
	m, ok := mechanismByName[name]
	return m, ok
}

// InvariantByName finds an invariant by its script name.
func InvariantByName(name string) (*Invariant, bool) {
	i, ok := invariantByName[name]
	return i, ok
}

// MechanismNames returns the mechanisms' names in the table's order.
func MechanismNames() []string {
	out := make([]string, len(Mechanisms))
	for i, m := range Mechanisms {
		out[i] = m.Name
	}
	return out
}

// InvariantNames returns the invariants' names in the table's order.
func InvariantNames() []string {
	out := make([]string, len(Invariants))
	for i, v := range Invariants {
		out[i] = v.Name
	}
	return out
}

// Anomaly is a way Kafka itself breaks an invariant with every mechanism
// on: a known defect of a release, which a later release closed. The
// checker names it when a violation has its shape, and the explorer
// counts it apart from txnlab's own bugs.
type Anomaly struct {
	// Name is the anomaly's name in the checker's reports.
	Name string
	// Violates is the invariant the anomaly breaks.
	Violates *Invariant
	// Releases says which Kafka releases show it, and ClosedBy what
	// closed it.
	Releases, ClosedBy string
	// Explains says, in English, how it comes about.
	Explains string
}

// String returns the report's name.
func (a *Anomaly) String() string { return a.Name }

// The known anomalies (docs/kafka-fidelity.md §19).
var (
	// UnreplicatedTxnState: a coordinator that reloads its partition up
	// to the log end answers from records the other replicas never got;
	// after a failover its successor has never heard of the transaction.
	UnreplicatedTxnState = &Anomaly{Name: "unreplicated-txn-state", Violates: Atomicity,
		Releases: "3.5 to 3.7", ClosedBy: "3.8: a coordinator no longer reloads when its partition's ISR changes under the same leader (KAFKA-15468)",
		Explains: "The coordinator's append to __transaction_state times out unreplicated; an ISR change makes it reload its partition up to the log end, " +
			"so it answers from that record; then it fails over to a replica that never had it, and nothing ever writes the transaction's markers: a hanging transaction."}
)

// ResequencedInFlight: the Java idempotent producer that bumps its
// epoch after another batch's sequence gap re-sequences every batch
// still in flight on the partition, one that was written but whose
// answer was lost included, and writes it again.
var ResequencedInFlight = &Anomaly{Name: "resequenced-in-flight", Violates: NoDuplicates,
	Releases: "3.5 and later (the Java client's idempotent producer)", ClosedBy: "not closed in a release txnlab models: KAFKA-14034's proposed fix (PR #13796), waiting for preceding in-flight batches before resetting sequences, was not merged",
	Explains: "One batch's request is lost while the next batch of the partition is written and its answer lost; the retry of the first gets OUT_OF_ORDER_SEQUENCE_NUMBER, " +
		"the producer bumps its epoch (KIP-360) and sends both again from sequence 0 under the new epoch; the leader cannot tell the second from its earlier copy, so it is in the log twice."}

// LateMarker: with transaction version 1 a producer keeps its epoch
// from one transaction to the next, so a partition leader cannot tell a
// late WriteTxnMarkers request of the previous transaction from one of
// the current transaction.
var LateMarker = &Anomaly{Name: "late-marker", Violates: ReadCommitted,
	Releases: "3.5 and later under transaction version 1", ClosedBy: "transaction version 2 (KIP-890 part 2, Kafka 4.0): the coordinator bumps the producer epoch at every transaction's end, and a leader refuses a marker of an older epoch than the producer's current one",
	Explains: "A WriteTxnMarkers request gets no answer within request.timeout.ms; the coordinator sends it again, the copy is answered and the transaction completes; the producer begins its next transaction at the same epoch and writes to the partition; " +
		"then the first request arrives and its marker closes the new transaction's records, committing (or aborting) them before the producer decided anything."}

// Anomalies lists the known anomalies.
var Anomalies = []*Anomaly{UnreplicatedTxnState, ResequencedInFlight, LateMarker}
