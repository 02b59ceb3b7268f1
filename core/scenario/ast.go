// Package scenario is the scenario language: a line-oriented script that
// sets up a simulated Kafka cluster, drives producers and consumers,
// injects faults and states expectations (docs/scenario-language.md).
//
// This file holds the typed statements the parser produces. Each statement
// is validated when it is parsed (names declared, numbers in range, enums
// known), so the interpreter can act on it without checking its syntax
// again. Every statement renders back to canonical text with String(), and
// parsing that text yields the same statement: the UI appends statements to
// a script as text.
package scenario

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Limits that keep a host (a browser tab, the CLI, a test) safe from a
// hostile or mistaken script. The parser reports an error for each.
const (
	MaxBrokers            = 9             // brokers per cluster
	MaxPartitions         = 64            // partitions per topic
	MaxInternalPartitions = 50            // partitions of __transaction_state and __consumer_offsets
	MaxClients            = 32            // producers and consumers declared in one script
	MaxTopics             = 32            // topics declared in one script
	MaxLines              = 5000          // lines in a script, blank and comment lines included
	MaxLineLength         = 1000          // characters (runes) in one line
	MaxDuration           = 365 * sim.Day // longest duration a script may write
	MaxCount              = 1<<31 - 1     // largest count= value
)

// Pos is a position in a script: 1-based line and 1-based column, counted
// in characters (runes), a tab counting as one.
type Pos struct{ Line, Col int }

// String renders the position as "line:col".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Error is a script error: where it is and what was expected there.
type Error struct {
	File string // the script's name; empty renders as "script"
	Pos  Pos
	Msg  string
}

// Error renders "file:line:col: msg".
func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "script"
	}
	return file + ":" + e.Pos.String() + ": " + e.Msg
}

// ErrorList is every error found in a script, sorted by position. Parse
// reports at most one error per line: the first one on it.
type ErrorList []*Error

// Error renders one error per line.
func (l ErrorList) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap lets errors.As find the individual *Error values.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// sortErrors orders the list by line, then column (insertion sort: the
// list is nearly sorted already, and stable).
func (l ErrorList) sortErrors() {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && posLess(l[j].Pos, l[j-1].Pos); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

func posLess(a, b Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// Script is a parsed scenario.
type Script struct {
	File       string
	Statements []Stmt
	// Decls is the symbol table after the last line: the cluster, the
	// topics and the clients, in declaration order.
	Decls *Decls
}

// String renders the script canonically, one statement per line.
func (s *Script) String() string {
	var b strings.Builder
	for _, st := range s.Statements {
		b.WriteString(st.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Stmt is one parsed statement. The concrete types are the *XxxStmt
// structs of this file; the interpreter switches on them.
type Stmt interface {
	// Position is where the statement's first token is.
	Position() Pos
	// Source is the line as written: trimmed, without its comment.
	Source() string
	// String is the canonical text of the statement; parsing it gives the
	// same statement back.
	String() string
	stmtNode()
}

// Base is embedded in every statement: where it was written and its text.
// Statements built in code (not parsed) may leave it zero.
type Base struct {
	Pos  Pos    // line and column of the first token
	Text string // the original line, trimmed, without its comment
}

// Position returns where the statement starts.
func (b Base) Position() Pos { return b.Pos }

// Source returns the statement's original text.
func (b Base) Source() string { return b.Text }

func (Base) stmtNode() {}

// OptionSet lists the option keys a statement gave explicitly, in the
// statement's canonical option order. Options not in it hold their
// defaults (or, in expectations, are not checked). String() renders
// exactly the options listed, so a statement built in code must list the
// options it sets.
type OptionSet []string

// Has reports whether the option was written.
func (o OptionSet) Has(key string) bool {
	for _, k := range o {
		if k == key {
			return true
		}
	}
	return false
}

// ---- Enumerations ----

// enumString and enumByName back the String and XxxByName functions of the
// enumerations below: names[v] is the name of value v; "" marks a value
// without a name.
func enumString[T ~uint8](v T, names []string, typ string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

func enumByName[T ~uint8](name string, names []string) (T, bool) {
	for i, n := range names {
		if n != "" && n == name {
			return T(i), true
		}
	}
	return 0, false
}

func enumNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// ClientKind tells producers from consumers.
type ClientKind uint8

// The client kinds.
const (
	KindProducer ClientKind = iota + 1
	KindConsumer
)

var clientKindNames = []string{"", "producer", "consumer"}

// String returns "producer" or "consumer".
func (k ClientKind) String() string { return enumString(k, clientKindNames, "ClientKind") }

// ProducerOp is a producer action: one call of the Java KafkaProducer.
type ProducerOp uint8

// The producer actions.
const (
	ProducerInit        ProducerOp = iota + 1 // initTransactions()
	ProducerBegin                             // beginTransaction()
	ProducerSend                              // send() per record, then wait for the acks
	ProducerSendOffsets                       // sendOffsetsToTransaction()
	ProducerCommit                            // commitTransaction()
	ProducerAbort                             // abortTransaction()
	ProducerClose                             // close()
)

var producerOpNames = []string{"", "init", "begin", "send", "send-offsets", "commit", "abort", "close"}

// String returns the action's script keyword.
func (o ProducerOp) String() string { return enumString(o, producerOpNames, "ProducerOp") }

// Transactional reports whether the call needs a transactional.id.
func (o ProducerOp) Transactional() bool { return o != ProducerSend && o != ProducerClose }

// ConsumerOp is a consumer action: one call of the Java KafkaConsumer.
type ConsumerOp uint8

// The consumer actions.
const (
	ConsumerAssign    ConsumerOp = iota + 1 // assign()
	ConsumerPoll                            // poll(): one fetch round
	ConsumerSeek                            // seek()
	ConsumerCommit                          // commitSync() of the current positions
	ConsumerSubscribe                       // subscribe(): partitions from the group (group.go)
)

var consumerOpNames = []string{"", "assign", "poll", "seek", "commit", "subscribe"}

// String returns the action's script keyword.
func (o ConsumerOp) String() string { return enumString(o, consumerOpNames, "ConsumerOp") }

// Acks is the producer's acks setting, with Kafka's numbers.
type Acks int8

// The acks settings.
const (
	AcksAll    Acks = -1 // written "all" (or -1)
	AcksNone   Acks = 0
	AcksLeader Acks = 1
)

// String returns "all", "1" or "0".
func (a Acks) String() string {
	if a == AcksAll {
		return "all"
	}
	return strconv.Itoa(int(a))
}

// IsolationLevel is the consumer's isolation.level, with Kafka's numbers.
type IsolationLevel uint8

// The isolation levels.
const (
	ReadUncommitted IsolationLevel = 0
	ReadCommitted   IsolationLevel = 1
)

var isolationNames = []string{"read_uncommitted", "read_committed"}

// String returns Kafka's name of the level.
func (l IsolationLevel) String() string { return enumString(l, isolationNames, "IsolationLevel") }

// Mechanism is a safety mechanism that break/restore switches off and on.
type Mechanism uint8

// The mechanisms.
const (
	MechEpochFencing          Mechanism = iota + 1 // brokers and coordinator reject older producer epochs
	MechCoordinatorEpoch                           // brokers reject WriteTxnMarkers from an older coordinator epoch
	MechAddPartitions                              // the producer registers partitions with AddPartitionsToTxn before producing
	MechLSOBound                                   // read_committed fetches stop at the LSO
	MechAbortedFilter                              // read_committed consumers drop aborted batches
	MechAddOffsets                                 // sendOffsetsToTransaction sends AddOffsetsToTxn first
	MechSequenceCheck                              // brokers detect duplicate and out-of-order sequences
	MechPartitionVerification                      // leaders verify (or, under TV2, add) a partition with the coordinator before a transactional write
	MechEpochBump                                  // under TV2 the coordinator bumps the epoch at every EndTxn
)

var mechanismNames = []string{"", "epoch-fencing", "coordinator-epoch", "add-partitions",
	"lso-bound", "aborted-filter", "add-offsets", "sequence-check", "partition-verification", "epoch-bump"}

// Mechanisms lists every mechanism in documentation order.
var Mechanisms = []Mechanism{MechEpochFencing, MechCoordinatorEpoch, MechAddPartitions,
	MechLSOBound, MechAbortedFilter, MechAddOffsets, MechSequenceCheck, MechPartitionVerification, MechEpochBump}

// String returns the mechanism's script name.
func (m Mechanism) String() string { return enumString(m, mechanismNames, "Mechanism") }

// MechanismByName finds a mechanism by its script name.
func MechanismByName(name string) (Mechanism, bool) {
	return enumByName[Mechanism](name, mechanismNames)
}

// Invariant names a property the checker verifies over the history.
type Invariant uint8

// The invariants. InvAny (zero) is "any invariant" in expect violation.
const (
	InvAny Invariant = iota
	InvReadCommitted
	InvAtomicity
	InvNoDuplicates
	InvDurability
	InvFencing
	InvOffsetsAtomicity
	InvMarkerConsistency
	InvTransitions
	InvLSO
)

var invariantNames = []string{"", "read-committed", "atomicity", "no-duplicates", "durability",
	"fencing", "offsets-atomicity", "marker-consistency", "transitions", "lso"}

// Invariants lists every invariant in documentation order.
var Invariants = []Invariant{InvReadCommitted, InvAtomicity, InvNoDuplicates, InvDurability,
	InvFencing, InvOffsetsAtomicity, InvMarkerConsistency, InvTransitions, InvLSO}

// String returns the invariant's script name ("any" for InvAny).
func (i Invariant) String() string {
	if i == InvAny {
		return "any"
	}
	return enumString(i, invariantNames, "Invariant")
}

// InvariantByName finds an invariant by its script name.
func InvariantByName(name string) (Invariant, bool) {
	return enumByName[Invariant](name, invariantNames)
}

// ClientState is a state of the Java producer's TransactionManager.
type ClientState uint8

// The client transaction states, as TransactionManager.State names them.
const (
	StateUninitialized ClientState = iota + 1
	StateInitializing
	StateReady
	StateInTransaction
	StateCommittingTransaction
	StateAbortingTransaction
	StateAbortableError
	StateFatalError
)

var clientStateNames = []string{"", "UNINITIALIZED", "INITIALIZING", "READY", "IN_TRANSACTION",
	"COMMITTING_TRANSACTION", "ABORTING_TRANSACTION", "ABORTABLE_ERROR", "FATAL_ERROR"}

// ClientStates lists every client state in TransactionManager's order.
var ClientStates = []ClientState{StateUninitialized, StateInitializing, StateReady,
	StateInTransaction, StateCommittingTransaction, StateAbortingTransaction,
	StateAbortableError, StateFatalError}

// String returns the Java name of the state.
func (s ClientState) String() string { return enumString(s, clientStateNames, "ClientState") }

// ClientStateByName finds a client state by its Java name.
func ClientStateByName(name string) (ClientState, bool) {
	return enumByName[ClientState](name, clientStateNames)
}

// Outcome is what expect P ok|error|pending checks about a client's call.
type Outcome uint8

// The outcomes.
const (
	OutcomeOK      Outcome = iota + 1 // the last completed call succeeded
	OutcomeError                      // the last completed call failed with a given error
	OutcomePending                    // the last call has not returned
)

var outcomeNames = []string{"", "ok", "error", "pending"}

// String returns the outcome's script keyword.
func (o Outcome) String() string { return enumString(o, outcomeNames, "Outcome") }

// NodeKind says how a NodeRef names its node.
type NodeKind uint8

// The node reference kinds. NodeAny (zero) is "no reference": any node in
// from=/to= filters.
const (
	NodeAny              NodeKind = iota
	NodeBroker                    // broker-N
	NodeClient                    // a declared producer or consumer
	NodeCoordinator               // coordinator(TXN_ID)
	NodeGroupCoordinator          // group-coordinator(GROUP)
	NodeLeader                    // leader(TOPIC/PART)
)

// NodeRef names a node. Coordinator, group-coordinator and leader
// references are resolved by the interpreter when the line runs.
type NodeRef struct {
	Kind  NodeKind
	Index int                     // NodeBroker: the broker number
	Name  string                  // NodeClient: the client; NodeCoordinator: the transactional id; NodeGroupCoordinator: the group
	TP    protocol.TopicPartition // NodeLeader: the partition
}

// IsZero reports whether the reference is absent (NodeAny).
func (n NodeRef) IsZero() bool { return n.Kind == NodeAny }

// String renders the reference as a script writes it.
func (n NodeRef) String() string {
	switch n.Kind {
	case NodeBroker:
		return "broker-" + strconv.Itoa(n.Index)
	case NodeClient:
		return n.Name
	case NodeCoordinator:
		return "coordinator(" + quote(n.Name) + ")"
	case NodeGroupCoordinator:
		return "group-coordinator(" + quote(n.Name) + ")"
	case NodeLeader:
		return "leader(" + n.TP.String() + ")"
	}
	return "any"
}

// MessageMatch selects messages by API, direction and endpoints, as
// written "API[.response] [from=NODE] [to=NODE]".
type MessageMatch struct {
	API      protocol.APIKey
	Response bool    // match responses instead of requests
	From, To NodeRef // zero: any node
}

// String renders the match as a script writes it.
func (m MessageMatch) String() string {
	s := m.API.String()
	if m.Response {
		s += ".response"
	}
	if !m.From.IsZero() {
		s += " from=" + m.From.String()
	}
	if !m.To.IsZero() {
		s += " to=" + m.To.String()
	}
	return s
}

// KV is one record of a send: key and value.
type KV struct{ Key, Value string }

// TPOffset is an offset of one partition (send-offsets).
type TPOffset struct {
	TP     protocol.TopicPartition
	Offset int64
}

// LogEntryKind tells records from control markers in expect log.
type LogEntryKind uint8

// The log entry kinds.
const (
	EntryRecord LogEntryKind = iota + 1 // P:VALUE
	EntryCommit                         // COMMIT(P)
	EntryAbort                          // ABORT(P)
	EntryKeyed                          // KEY:VALUE, a record of an internal topic
)

// LogEntry is one expected entry of a partition log: a record written with
// the producer id Producer holds, or a control marker of that producer id.
type LogEntry struct {
	Kind     LogEntryKind
	Producer string
	Value    string // EntryRecord: the value; EntryKeyed: the state (__transaction_state) or offset (__consumer_offsets)
	Key      string // EntryKeyed only: the record's key
}

// String renders the entry as a script writes it.
func (e LogEntry) String() string {
	switch e.Kind {
	case EntryCommit:
		return "COMMIT(" + e.Producer + ")"
	case EntryAbort:
		return "ABORT(" + e.Producer + ")"
	case EntryKeyed:
		// A __consumer_offsets key (GROUP/TOPIC/PARTITION) keeps its
		// slashes unquoted.
		key := quote(e.Key)
		if e.Key != "" && plain(strings.ReplaceAll(e.Key, "/", "")) {
			key = e.Key
		}
		return key + ":" + quote(e.Value)
	}
	return e.Producer + ":" + quote(e.Value)
}

// OffsetKind is what expect offsets expects of one partition.
type OffsetKind uint8

// The expected offset kinds.
const (
	OffsetCommitted OffsetKind = iota + 1 // a committed offset, N
	OffsetNone                            // no committed offset
	OffsetUnstable                        // a transactional commit is pending (UNSTABLE_OFFSET_COMMIT)
)

// ExpectedOffset is the expectation for one partition in expect offsets.
type ExpectedOffset struct {
	TP     protocol.TopicPartition
	Kind   OffsetKind
	Offset int64 // OffsetCommitted only
}

// String renders "TOPIC/PART=N|none|unstable".
func (o ExpectedOffset) String() string {
	switch o.Kind {
	case OffsetNone:
		return o.TP.String() + "=none"
	case OffsetUnstable:
		return o.TP.String() + "=unstable"
	}
	return o.TP.String() + "=" + strconv.FormatInt(o.Offset, 10)
}

// ---- Setup statements ----

// ClusterStmt creates the cluster; it is the first statement of a script.
type ClusterStmt struct {
	Base
	Brokers           int    // brokers=N, default 3
	RF                int    // rf=R: replication factor of the internal topics and default of topics; default min(3, Brokers)
	TxnPartitions     int    // txn-partitions=P: partitions of __transaction_state, default 50
	OffsetsPartitions int    // offsets-partitions=Q: partitions of __consumer_offsets, default 50
	Seed              uint64 // seed=S, default 1
	MinLatency        sim.Time
	MaxLatency        sim.Time  // latency=MIN..MAX, default 1ms..5ms
	Given             OptionSet // which of brokers, rf, txn-partitions, offsets-partitions, seed, latency were written
}

// DefaultCluster returns the cluster a bare "cluster" statement creates.
func DefaultCluster() *ClusterStmt {
	return &ClusterStmt{Brokers: 3, RF: 3, TxnPartitions: 50, OffsetsPartitions: 50, Seed: 1,
		MinLatency: 1, MaxLatency: 5}
}

// String renders the statement canonically.
func (s *ClusterStmt) String() string {
	b := words("cluster")
	for _, k := range s.Given {
		switch k {
		case "brokers":
			b.opt(k, strconv.Itoa(s.Brokers))
		case "rf":
			b.opt(k, strconv.Itoa(s.RF))
		case "txn-partitions":
			b.opt(k, strconv.Itoa(s.TxnPartitions))
		case "offsets-partitions":
			b.opt(k, strconv.Itoa(s.OffsetsPartitions))
		case "seed":
			b.opt(k, strconv.FormatUint(s.Seed, 10))
		case "latency":
			b.opt(k, FormatDuration(s.MinLatency)+".."+FormatDuration(s.MaxLatency))
		}
	}
	return b.String()
}

// ConfigKey describes one broker setting the config statement accepts.
type ConfigKey struct {
	Name     string
	Duration bool  // the value is a duration (every *.ms key)
	Default  int64 // Kafka's default: milliseconds for durations
	Min, Max int64 // accepted range
}

// ConfigKeys is every broker setting the config statement accepts, with
// Kafka's defaults. Durations are capped at 2147483647ms, as these are
// int settings in Kafka.
var ConfigKeys = []ConfigKey{
	{"transaction.max.timeout.ms", true, 900_000, 1, math.MaxInt32},
	{"transactional.id.expiration.ms", true, 604_800_000, 1, math.MaxInt32},
	{"transaction.abort.timed.out.transaction.cleanup.interval.ms", true, 10_000, 1, math.MaxInt32},
	{"transaction.remove.expired.transaction.cleanup.interval.ms", true, 3_600_000, 1, math.MaxInt32},
	{"broker.session.timeout.ms", true, 9_000, 1, math.MaxInt32},
	{"request.timeout.ms", true, 30_000, 1, math.MaxInt32},
	{"producer.id.expiration.ms", true, 86_400_000, 1, math.MaxInt32},
	{"producer.id.expiration.check.interval.ms", true, 600_000, 1, math.MaxInt32},
	{"min.insync.replicas", false, 1, 1, MaxBrokers},
	{"transaction.state.log.min.isr", false, 2, 1, MaxBrokers},
	// KIP-890 (docs/kafka-fidelity.md, "Kafka 4: verification and
	// transaction version 2"). Kafka 3.6+ defaults verification to true;
	// the defaults here are Kafka 3.5's protocol.
	{"transaction.partition.verification.enable", false, 0, 0, 1},
	{"transaction.version", false, 0, 0, 2},
	// The group coordinator's (group.go).
	{"group.initial.rebalance.delay.ms", true, 3_000, 0, math.MaxInt32},
	{"group.min.session.timeout.ms", true, 6_000, 1, math.MaxInt32},
	{"group.max.session.timeout.ms", true, 1_800_000, 1, math.MaxInt32},
}

// BoolConfigKeys are the config keys written true/false (held as 1/0).
var BoolConfigKeys = map[string]bool{"transaction.partition.verification.enable": true}

// ConfigKeyByName finds a broker setting.
func ConfigKeyByName(name string) (ConfigKey, bool) {
	for _, k := range ConfigKeys {
		if k.Name == name {
			return k, true
		}
	}
	return ConfigKey{}, false
}

// Setting is one KEY=VALUE of a config statement. Value is milliseconds
// for durations.
type Setting struct {
	Key   string
	Value int64
}

// ConfigStmt sets broker configuration from this line on.
type ConfigStmt struct {
	Base
	Settings []Setting // in the order written; each key at most once
}

// String renders the statement canonically.
func (s *ConfigStmt) String() string {
	b := words("config")
	for _, st := range s.Settings {
		if k, ok := ConfigKeyByName(st.Key); ok && k.Duration {
			b.opt(st.Key, FormatDuration(sim.Time(st.Value)))
		} else if BoolConfigKeys[st.Key] {
			b.opt(st.Key, strconv.FormatBool(st.Value != 0))
		} else {
			b.opt(st.Key, strconv.FormatInt(st.Value, 10))
		}
	}
	return b.String()
}

// TopicStmt creates a topic.
type TopicStmt struct {
	Base
	Name       string
	Partitions int       // partitions=N, default 1
	RF         int       // rf=R, default the cluster's rf
	Given      OptionSet // which of partitions, rf were written
}

// String renders the statement canonically.
func (s *TopicStmt) String() string {
	b := words("topic", s.Name)
	if s.Given.Has("partitions") {
		b.opt("partitions", strconv.Itoa(s.Partitions))
	}
	if s.Given.Has("rf") {
		b.opt("rf", strconv.Itoa(s.RF))
	}
	return b.String()
}

// ProducerStmt declares a producer. Without a transactional id it is an
// idempotent (or, with enable.idempotence=false, a plain) producer.
type ProducerStmt struct {
	Base
	Name               string
	TransactionalID    string   // transactional.id, "" when not transactional
	TransactionTimeout sim.Time // transaction.timeout.ms, default 60s
	EnableIdempotence  bool     // enable.idempotence, default true unless acks is not all (as Kafka 3.2+)
	Acks               Acks     // acks, default all
	RequestTimeout     sim.Time // request.timeout.ms, default 30s
	DeliveryTimeout    sim.Time // delivery.timeout.ms, default 120s (raised to request.timeout.ms if that is larger)
	MaxBlock           sim.Time // max.block.ms, default 60s
	RetryBackoff       sim.Time // retry.backoff.ms, default 100ms
	MaxInFlight        int      // max.in.flight.requests.per.connection, default 5 (at most 5 with idempotence)
	Given              OptionSet
}

// String renders the statement canonically.
func (s *ProducerStmt) String() string {
	b := words("producer", s.Name)
	for _, k := range s.Given {
		switch k {
		case "transactional.id":
			b.opt(k, quote(s.TransactionalID))
		case "transaction.timeout.ms":
			b.opt(k, FormatDuration(s.TransactionTimeout))
		case "enable.idempotence":
			b.opt(k, strconv.FormatBool(s.EnableIdempotence))
		case "acks":
			b.opt(k, s.Acks.String())
		case "request.timeout.ms":
			b.opt(k, FormatDuration(s.RequestTimeout))
		case "delivery.timeout.ms":
			b.opt(k, FormatDuration(s.DeliveryTimeout))
		case "max.block.ms":
			b.opt(k, FormatDuration(s.MaxBlock))
		case "retry.backoff.ms":
			b.opt(k, FormatDuration(s.RetryBackoff))
		case "max.in.flight.requests.per.connection":
			b.opt(k, strconv.Itoa(s.MaxInFlight))
		}
	}
	return b.String()
}

// ConsumerStmt declares a consumer.
type ConsumerStmt struct {
	Base
	Name           string
	IsolationLevel IsolationLevel // isolation.level, default read_uncommitted
	GroupID        string         // group.id, "" for none
	Group          GroupOptions   // membership options (group.go)
	Given          OptionSet
}

// String renders the statement canonically.
func (s *ConsumerStmt) String() string {
	b := words("consumer", s.Name)
	if s.Given.Has("isolation.level") {
		b.opt("isolation.level", s.IsolationLevel.String())
	}
	if s.Given.Has("group.id") {
		b.opt("group.id", quote(s.GroupID))
	}
	s.groupOptionsString(b)
	return b.String()
}

// ---- Client actions ----

// ProducerActionStmt is a call on a declared producer.
type ProducerActionStmt struct {
	Base
	Client     string
	Op         ProducerOp
	TP         protocol.TopicPartition // send
	Records    []KV                    // send: at least one
	Group      string                  // send-offsets
	Consumer   string                  // send-offsets consumer=C: C's groupMetadata() (group.go)
	Offsets    []TPOffset              // send-offsets: at least one
	Background bool                    // trailing &: issue the call and return at once
}

// String renders the statement canonically.
func (s *ProducerActionStmt) String() string {
	b := words(s.Client, s.Op.String())
	switch s.Op {
	case ProducerSend:
		b.add(s.TP.String())
		for _, r := range s.Records {
			b.add(quote(r.Key) + "=" + quote(r.Value))
		}
	case ProducerSendOffsets:
		b.add(s.groupArg())
		for _, o := range s.Offsets {
			b.add(o.TP.String() + "=" + strconv.FormatInt(o.Offset, 10))
		}
	}
	if s.Background {
		b.add("&")
	}
	return b.String()
}

// ConsumerActionStmt is a call on a declared consumer.
type ConsumerActionStmt struct {
	Base
	Client     string
	Op         ConsumerOp
	Partitions []protocol.TopicPartition // assign: at least one, no duplicates
	Topics     []string                  // subscribe: at least one, no duplicates
	TP         protocol.TopicPartition   // seek
	Offset     int64                     // seek
	Background bool                      // trailing &
}

// String renders the statement canonically.
func (s *ConsumerActionStmt) String() string {
	b := words(s.Client, s.Op.String())
	switch s.Op {
	case ConsumerAssign:
		for _, tp := range s.Partitions {
			b.add(tp.String())
		}
	case ConsumerSeek:
		b.add(s.TP.String(), strconv.FormatInt(s.Offset, 10))
	case ConsumerSubscribe:
		b.add(s.Topics...)
	}
	if s.Background {
		b.add("&")
	}
	return b.String()
}

// WaitStmt runs the simulation until the client's pending call returns.
type WaitStmt struct {
	Base
	Client string
}

// String renders the statement canonically.
func (s *WaitStmt) String() string { return "wait " + s.Client }

// ---- Faults and time ----

// CrashStmt stops a node at once.
type CrashStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *CrashStmt) String() string { return "crash " + s.Node.String() }

// RestartStmt brings a crashed broker back. It never names a client.
type RestartStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *RestartStmt) String() string { return "restart " + s.Node.String() }

// PauseStmt stalls a process (a long GC pause): a client, or a broker.
type PauseStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *PauseStmt) String() string { return "pause " + s.Node.String() }

// ResumeStmt resumes a paused process with its old state.
type ResumeStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *ResumeStmt) String() string { return "resume " + s.Node.String() }

// IsolateStmt cuts a node off from every other node.
type IsolateStmt struct {
	Base
	Node NodeRef
}

// String renders the statement canonically.
func (s *IsolateStmt) String() string { return "isolate " + s.Node.String() }

// PartitionStmt cuts the network between groups of nodes: messages between
// nodes of different groups are lost. Nodes named in no group keep
// talking to everyone.
type PartitionStmt struct {
	Base
	Groups [][]NodeRef // at least two, each non-empty
}

// String renders the statement canonically.
func (s *PartitionStmt) String() string {
	gs := make([]string, len(s.Groups))
	for i, g := range s.Groups {
		ns := make([]string, len(g))
		for j, n := range g {
			ns[j] = n.String()
		}
		gs[i] = strings.Join(ns, ",")
	}
	return "partition " + strings.Join(gs, " | ")
}

// HealStmt removes every cut, drop rule and delay rule.
type HealStmt struct{ Base }

// String renders the statement canonically.
func (s *HealStmt) String() string { return "heal" }

// DropStmt loses matching messages in transit.
type DropStmt struct {
	Base
	Match MessageMatch
	Count int // count=N: drop the next N (≥ 1); 0: every matching message until heal
}

// String renders the statement canonically.
func (s *DropStmt) String() string {
	b := words("drop", s.Match.String())
	if s.Count > 0 {
		b.opt("count", strconv.Itoa(s.Count))
	}
	return b.String()
}

// DelayStmt adds latency to matching messages.
type DelayStmt struct {
	Base
	Match MessageMatch
	By    sim.Time // by=DURATION, required
}

// String renders the statement canonically; by= comes right after the API.
func (s *DelayStmt) String() string {
	b := words("delay", s.Match.API.String())
	if s.Match.Response {
		b.s.WriteString(".response")
	}
	b.opt("by", FormatDuration(s.By))
	if !s.Match.From.IsZero() {
		b.opt("from", s.Match.From.String())
	}
	if !s.Match.To.IsZero() {
		b.opt("to", s.Match.To.String())
	}
	return b.String()
}

// DefaultRunFor is how long run and run until go at most by default.
const DefaultRunFor = 5 * sim.Minute

// RunStmt runs until quiescent, or for at most For of virtual time.
type RunStmt struct {
	Base
	For   sim.Time  // for=DURATION, default DefaultRunFor
	Given OptionSet // "for" when written
}

// String renders the statement canonically.
func (s *RunStmt) String() string {
	b := words("run")
	if s.Given.Has("for") {
		b.opt("for", FormatDuration(s.For))
	}
	return b.String()
}

// RunUntilStmt runs until a matching message is about to be delivered and
// stops just before it (or after For of virtual time). With nth=N it lets
// N-1 matching messages through first: the playground writes it to name
// exactly the moment a learner paused at.
type RunUntilStmt struct {
	Base
	Match MessageMatch
	Nth   int       // nth=N, default 1
	For   sim.Time  // for=DURATION, default DefaultRunFor
	Given OptionSet // which of nth, for were written
}

// String renders the statement canonically.
func (s *RunUntilStmt) String() string {
	b := words("run", "until", s.Match.String())
	if s.Given.Has("nth") {
		b.opt("nth", strconv.Itoa(s.Nth))
	}
	if s.Given.Has("for") {
		b.opt("for", FormatDuration(s.For))
	}
	return b.String()
}

// AdvanceStmt moves virtual time forward, firing the timers that fall due.
type AdvanceStmt struct {
	Base
	By sim.Time
}

// String renders the statement canonically.
func (s *AdvanceStmt) String() string { return "advance " + FormatDuration(s.By) }

// BreakStmt switches a safety mechanism off.
type BreakStmt struct {
	Base
	Mechanism Mechanism
}

// String renders the statement canonically.
func (s *BreakStmt) String() string { return "break " + s.Mechanism.String() }

// RestoreStmt switches a safety mechanism back on.
type RestoreStmt struct {
	Base
	Mechanism Mechanism
}

// String renders the statement canonically.
func (s *RestoreStmt) String() string { return "restore " + s.Mechanism.String() }

// ---- Expectations ----

// ExpectOutcomeStmt checks a client's last call: expect C ok | error NAME |
// pending.
type ExpectOutcomeStmt struct {
	Base
	Client  string
	Outcome Outcome
	Error   protocol.ErrorCode // OutcomeError: the expected error (never NONE)
}

// String renders the statement canonically.
func (s *ExpectOutcomeStmt) String() string {
	b := words("expect", s.Client, s.Outcome.String())
	if s.Outcome == OutcomeError {
		b.add(s.Error.String())
	}
	return b.String()
}

// ExpectStateStmt checks a producer's TransactionManager state.
type ExpectStateStmt struct {
	Base
	Client string
	State  ClientState
	Epoch  int16     // epoch=N, when given
	Given  OptionSet // "epoch" when written
}

// String renders the statement canonically.
func (s *ExpectStateStmt) String() string {
	b := words("expect", s.Client, "state", s.State.String())
	if s.Given.Has("epoch") {
		b.opt("epoch", strconv.Itoa(int(s.Epoch)))
	}
	return b.String()
}

// ExpectTxnStmt checks the coordinator's metadata of a transactional id.
type ExpectTxnStmt struct {
	Base
	TransactionalID string
	Absent          bool                      // expect txn ID absent
	State           protocol.TransactionState // state=STATE, when given
	Epoch           int16                     // epoch=N, when given
	ProducerID      int64                     // pid=N, when given
	Partitions      []protocol.TopicPartition // partitions=T/P,... when given: sorted, a set ("none" for empty)
	Given           OptionSet                 // which of state, epoch, pid, partitions were written
}

// String renders the statement canonically.
func (s *ExpectTxnStmt) String() string {
	b := words("expect", "txn", quote(s.TransactionalID))
	if s.Absent {
		b.add("absent")
		return b.String()
	}
	if s.Given.Has("state") {
		b.opt("state", s.State.String())
	}
	if s.Given.Has("epoch") {
		b.opt("epoch", strconv.Itoa(int(s.Epoch)))
	}
	if s.Given.Has("pid") {
		b.opt("pid", strconv.FormatInt(s.ProducerID, 10))
	}
	if s.Given.Has("partitions") {
		b.opt("partitions", tpList(s.Partitions))
	}
	return b.String()
}

// ExpectRecordsStmt checks the values a consumer has received from one
// partition so far, in order.
type ExpectRecordsStmt struct {
	Base
	Client string
	TP     protocol.TopicPartition
	Values []string // nil: none
}

// String renders the statement canonically.
func (s *ExpectRecordsStmt) String() string {
	b := words("expect", s.Client, "records", s.TP.String(), "=")
	if len(s.Values) == 1 && s.Values[0] == "none" {
		b.add(`"none"`) // a lone none unquoted means no records
		return b.String()
	}
	for _, v := range s.Values {
		b.add(quote(v))
	}
	return b.String()
}

// ExpectPartitionStmt checks the leader's offsets of a partition and the
// controller's view of it.
type ExpectPartitionStmt struct {
	Base
	TP          protocol.TopicPartition
	HW          int64     // hw=N
	LSO         int64     // lso=N
	LogEnd      int64     // log-end=N
	Leader      int32     // leader=broker-N, -1 for leader=none
	LeaderEpoch int32     // leader-epoch=N
	ISR         []int32   // isr=broker-0,broker-1 (sorted, a set), nil for isr=none
	Given       OptionSet // which of hw, lso, log-end, leader, leader-epoch, isr were written (at least one)
}

// String renders the statement canonically.
func (s *ExpectPartitionStmt) String() string {
	b := words("expect", "partition", s.TP.String())
	if s.Given.Has("hw") {
		b.opt("hw", strconv.FormatInt(s.HW, 10))
	}
	if s.Given.Has("lso") {
		b.opt("lso", strconv.FormatInt(s.LSO, 10))
	}
	if s.Given.Has("log-end") {
		b.opt("log-end", strconv.FormatInt(s.LogEnd, 10))
	}
	if s.Given.Has("leader") {
		b.opt("leader", brokerName(s.Leader))
	}
	if s.Given.Has("leader-epoch") {
		b.opt("leader-epoch", strconv.Itoa(int(s.LeaderEpoch)))
	}
	if s.Given.Has("isr") {
		b.opt("isr", brokerSet(s.ISR))
	}
	return b.String()
}

// ExpectLogStmt checks a partition's log, one entry per record or marker.
type ExpectLogStmt struct {
	Base
	TP      protocol.TopicPartition
	Entries []LogEntry // nil: the log is empty
}

// String renders the statement canonically.
func (s *ExpectLogStmt) String() string {
	b := words("expect", "log", s.TP.String(), "=")
	for _, e := range s.Entries {
		b.add(e.String())
	}
	return b.String()
}

// ExpectOffsetsStmt checks what a require_stable OffsetFetch returns for a
// group.
type ExpectOffsetsStmt struct {
	Base
	Group   string
	Offsets []ExpectedOffset // at least one, no partition twice
}

// String renders the statement canonically.
func (s *ExpectOffsetsStmt) String() string {
	b := words("expect", "offsets", quote(s.Group))
	for _, o := range s.Offsets {
		b.add(o.String())
	}
	return b.String()
}

// ExpectTraceStmt checks that the history holds matching messages: at
// least one, or exactly Count.
type ExpectTraceStmt struct {
	Base
	Match MessageMatch
	// Fields are FIELD=VALUE checks on the message's own fields
	// (protocol.Fields), in schema order: a message matches when it has
	// every one, in itself or in one of its parts.
	Fields []FieldMatch
	Error  protocol.ErrorCode // error=NAME (responses only), when given
	Count  int                // count=N: exactly N (0: none); -1 when not given: at least one
	Given  OptionSet          // which of error, count were written
}

// String renders the statement canonically.
func (s *ExpectTraceStmt) String() string {
	b := words("expect", "trace", s.Match.String())
	for _, f := range s.Fields {
		b.opt(f.Name, f.Text)
	}
	if s.Given.Has("error") {
		b.opt("error", s.Error.String())
	}
	if s.Count >= 0 {
		b.opt("count", strconv.Itoa(s.Count))
	}
	return b.String()
}

// FieldMatch is one FIELD=VALUE of expect trace: a message field and the
// value it must have.
type FieldMatch struct {
	Name  string
	Value protocol.FieldValue // Part unused
	Text  string              // the value as the canonical form writes it
}

// ExpectCoordinatorStmt checks where a transactional id's coordinator is.
type ExpectCoordinatorStmt struct {
	Base
	TransactionalID string
	Partition       int32     // partition=N: its __transaction_state partition
	Broker          int       // broker=broker-N: the broker leading that partition now
	Epoch           int32     // epoch=N: the coordinator epoch
	Given           OptionSet // which of partition, broker, epoch were written
}

// String renders the statement canonically.
func (s *ExpectCoordinatorStmt) String() string {
	b := words("expect", "coordinator", quote(s.TransactionalID))
	if s.Given.Has("partition") {
		b.opt("partition", strconv.Itoa(int(s.Partition)))
	}
	if s.Given.Has("broker") {
		b.opt("broker", "broker-"+strconv.Itoa(s.Broker))
	}
	if s.Given.Has("epoch") {
		b.opt("epoch", strconv.Itoa(int(s.Epoch)))
	}
	return b.String()
}

// ExpectInvariantsStmt checks that every invariant holds so far.
type ExpectInvariantsStmt struct{ Base }

// String renders the statement canonically.
func (s *ExpectInvariantsStmt) String() string { return "expect invariants" }

// ExpectViolationStmt checks that the checker finds a violation (of one
// invariant, or of any when Invariant is InvAny).
type ExpectViolationStmt struct {
	Base
	Invariant Invariant
}

// String renders the statement canonically.
func (s *ExpectViolationStmt) String() string {
	if s.Invariant == InvAny {
		return "expect violation"
	}
	return "expect violation " + s.Invariant.String()
}

// ---- Rendering helpers ----

// FormatDuration renders milliseconds the way a script writes them, in the
// largest unit that divides exactly: "7d", "1h", "2m", "5s", "250ms", "0".
func FormatDuration(t sim.Time) string {
	if t == 0 {
		return "0"
	}
	for _, u := range []struct {
		d    sim.Time
		name string
	}{{sim.Day, "d"}, {sim.Hour, "h"}, {sim.Minute, "m"}, {sim.Second, "s"}} {
		if t%u.d == 0 {
			return strconv.FormatInt(int64(t/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ms"
}

// quote renders a free-text value: as is when it holds only letters,
// digits, '.', '_' and '-', otherwise double-quoted with \" and \\.
func quote(s string) string {
	if s != "" && plain(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}

func plain(s string) bool {
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func tpList(tps []protocol.TopicPartition) string {
	if len(tps) == 0 {
		return "none"
	}
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return strings.Join(parts, ",")
}

// wordBuilder joins words with single spaces.
type wordBuilder struct{ s strings.Builder }

func words(ws ...string) *wordBuilder {
	b := &wordBuilder{}
	b.add(ws...)
	return b
}

func (b *wordBuilder) add(ws ...string) {
	for _, w := range ws {
		if b.s.Len() > 0 {
			b.s.WriteByte(' ')
		}
		b.s.WriteString(w)
	}
}

func (b *wordBuilder) opt(k, v string) { b.add(k + "=" + v) }

func (b *wordBuilder) String() string { return b.s.String() }
