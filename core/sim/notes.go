package sim

import "strings"

// NoteCode names one kind of sentence the core writes into the trace (a
// note, a reason, a call's detail): the trace keeps the English text, so
// the canonical lines and their digests are what they always were, and
// the event keeps the code and its arguments, so that a page writes the
// sentence in its own language. NoteTemplates is the English of every
// code; the UI's catalogue holds the other languages, keyed by code.
type NoteCode uint16

// The note codes. Arguments ({0}, {1}, …) are identifiers, numbers and
// durations, the same in every language.
const (
	NoteNone NoteCode = iota

	// Brokers.
	NoteDuplicateBatch
	NoteAcks0Failed
	NoteProducerStateExpired
	NoteTruncate
	NoteISRShrinks
	NoteISRExpands
	NoteLeaderEpoch

	// The group coordinator.
	NoteGroupStable
	NoteGroupOffsetsLoaded
	NotePendingOffsetsDropped
	NotePendingOffsetsMaterialised
	NoteRebalanceNewMember
	NoteRebalanceJoinDuringPrepare
	NoteRebalanceMetadata
	NoteRebalanceLeaderRejoin
	NoteRebalanceStaticRejoin
	NoteRebalanceHeartbeatExpired
	NoteGroupMemberRemoved
	NoteGroupEmpty
	NoteGroupMemberFailed

	// Clients: notes and the details a call returns with.
	NoteJoinedGroup
	NoteEpochExhausted
	NoteEpochBump
	NoteNothingAssigned
	NoteNoGroupID
	NoteRecords
	NoteNotTransactional
	NoteCallInState
	NoteProducerClosed
	NoteMaxBlockElapsed

	// The cluster.
	NoteIsolated
	NoteHealed
	NoteBrokerFenced
	NoteBrokerRegistered
	NotePartitionOffline
	NoteRawRequest
	NoteTxnSeeded

	// The transaction coordinator.
	NoteMarkersRequeuedNoConnect
	NoteMarkersRequeuedTimeout
	NoteMarkerError
	NoteMarkersStopped
	NoteCoordinatorResigns
	NoteTxnLoaded
	NoteTxnFoundWhileLoading
	NoteTimeoutAtMaxEpoch
	NoteTxnTimedOut
	NoteTxnIdExpired
	NoteEpochFencePending

	// The scenario: faults and statements that ran out of time.
	NoteAlreadyDown
	NotePartitioned
	NoteStatement
	NoteBreak
	NoteRestore
	NoteWaitNoReturn
	NoteCallNoReturn
	NoteRequestNoResponse
	NoteSeedNoMetadata
	NoteRunOutstanding
	NoteRunUntilNone

	// Added for real clients (issue 27), kept last so the codes above
	// keep their numbers.
	NoteRebalanceMemberLeft

	// Added for the marker-recovery mechanism, kept last for the same
	// reason.
	NoteTxnLeftPrepared

	noteCount
)

// NoteTemplates is the English of every note code, {i} standing for its
// i-th argument: the text the trace has always held, byte for byte.
var NoteTemplates = [noteCount]string{
	NoteDuplicateBatch:       "duplicate batch (seq {0}) answered with its original offset {1}",
	NoteAcks0Failed:          "acks=0 produce failed with {0}: no response; the broker closes the connection to {1}",
	NoteProducerStateExpired: "producer state expired (producer.id.expiration.ms) for producer id {0}",
	NoteTruncate:             "truncate to offset {0} (diverged from the leader)",
	NoteISRShrinks:           "ISR shrinks: {0} has not caught up for {1}",
	NoteISRExpands:           "ISR expands: {0} caught up",
	NoteLeaderEpoch:          "leader epoch {0}",

	NoteGroupStable:                "group {0} is Stable at generation {1}",
	NoteGroupOffsetsLoaded:         "group coordinator loaded {0} committed offset(s)",
	NotePendingOffsetsDropped:      "{0} pending transactional offset(s) of producer {1} dropped",
	NotePendingOffsetsMaterialised: "{0} pending transactional offset(s) of producer {1} materialised",
	NoteRebalanceNewMember:         "group {0} preparing to rebalance (generation {1}): adding new member {2}",
	NoteRebalanceJoinDuringPrepare: "group {0} preparing to rebalance (generation {1}): member {2} joining during PreparingRebalance",
	NoteRebalanceMetadata:          "group {0} preparing to rebalance (generation {1}): updating metadata for member {2}",
	NoteRebalanceLeaderRejoin:      "group {0} preparing to rebalance (generation {1}): leader {2} re-joining",
	NoteRebalanceStaticRejoin:      "group {0} preparing to rebalance (generation {1}): static member {2} rejoined with a new member id",
	NoteRebalanceHeartbeatExpired:  "group {0} preparing to rebalance (generation {1}): removing member {2} on heartbeat expiration",
	NoteGroupMemberRemoved:         "group {0} removed member {1}, which did not rejoin",
	NoteGroupEmpty:                 "group {0} is empty at generation {1}",
	NoteGroupMemberFailed:          "group {0}: member {1} failed (session timeout), removing it",

	NoteJoinedGroup:      "{0} joined group {1} at generation {2} as {3}",
	NoteEpochExhausted:   "epoch exhausted: a new producer id is requested",
	NoteEpochBump:        "idempotent producer bumps its epoch to {0} after a gap in its sequences: the sequence restarts at 0",
	NoteNothingAssigned:  "0 records (nothing assigned)",
	NoteNoGroupID:        "no group.id",
	NoteRecords:          "{0} record(s)",
	NoteNotTransactional: "not a transactional producer",
	NoteCallInState:      "{0} in state {1}",
	NoteProducerClosed:   "the producer is closed",
	NoteMaxBlockElapsed:  "max.block.ms elapsed",

	NoteIsolated:         "isolated from every other node",
	NoteHealed:           "network healed",
	NoteBrokerFenced:     "fenced: no heartbeat for {0}",
	NoteBrokerRegistered: "registered",
	NotePartitionOffline: "offline: no live in-sync replica",
	NoteRawRequest:       "a request written by hand, not by the Java client: {0}",
	NoteTxnSeeded:        "set up by the script at producer id {0}, epoch {1}",

	NoteMarkersRequeuedNoConnect: "{0}: could not connect to the partition leader; markers queued again",
	NoteMarkersRequeuedTimeout:   "{0}: no answer within request.timeout.ms; markers queued again",
	NoteMarkerError:              "unexpected marker error {0} on {1}",
	NoteMarkersStopped:           "markers stopped: a newer producer epoch or coordinator owns this transaction",
	NoteCoordinatorResigns:       "coordinator resigns",
	NoteTxnLoaded:                "loaded {0} transactional id(s), coordinator epoch {1}",
	NoteTxnFoundWhileLoading:     "found in {0} while loading: sending the markers again",
	NoteTxnLeftPrepared:          "found in {0} while loading: left as it is, no markers sent (marker-recovery is broken)",
	NoteTimeoutAtMaxEpoch:        "transaction timed out at epoch 32767: it cannot be fenced (IllegalStateException), the scan stops",
	NoteTxnTimedOut:              "transaction timed out after {0}: fencing the producer and aborting",
	NoteTxnIdExpired:             "transactional id expired: writing a tombstone",
	NoteEpochFencePending:        "epoch {0} -> {1} (pending, not persisted)",

	NoteAlreadyDown:       "line {0}: {1} is already down",
	NotePartitioned:       "network partitioned: {0}",
	NoteStatement:         "{0}",
	NoteBreak:             "break {0}: this safety mechanism is now OFF",
	NoteRestore:           "restore {0}",
	NoteWaitNoReturn:      "wait {0}: the call did not return within 10m",
	NoteCallNoReturn:      "{0} {1}: the call did not return within 10m",
	NoteRequestNoResponse: "request {0}: no response within {1}",
	NoteSeedNoMetadata:    "txn {0}: the coordinator did not write the metadata within 30s",
	NoteRunOutstanding:    "run stopped after {0} with work still outstanding",
	NoteRunUntilNone:      "run until {0}: no such message within {1}",

	NoteRebalanceMemberLeft: "group {0} preparing to rebalance (generation {1}): member {2} left (LeaveGroup)",
}

// NoteCodes lists every note code, for the catalogues' completeness tests.
func NoteCodes() []NoteCode {
	out := make([]NoteCode, 0, noteCount-1)
	for c := NoteNone + 1; c < noteCount; c++ {
		out = append(out, c)
	}
	return out
}

// Note is a sentence as a code and its arguments: what an event's text
// (or the end of it) says, for a page to write in its language.
type Note struct {
	Code NoteCode
	Args []string
}

// NewNote is the note of code c with its arguments.
func NewNote(c NoteCode, args ...string) *Note { return &Note{Code: c, Args: args} }

// English is the note in English: the trace's text.
func (n *Note) English() string { return FillNote(NoteTemplates[n.Code], n.Args) }

// FillNote writes template t with {i} replaced by args[i]; a placeholder
// without an argument is written as it is.
func FillNote(t string, args []string) string {
	if !strings.Contains(t, "{") {
		return t
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(t, '{')
		if i < 0 || i+2 >= len(t) || t[i+2] != '}' || t[i+1] < '0' || t[i+1] > '9' || int(t[i+1]-'0') >= len(args) {
			if i < 0 {
				b.WriteString(t)
				return b.String()
			}
			b.WriteString(t[:i+1])
			t = t[i+1:]
			continue
		}
		b.WriteString(t[:i])
		b.WriteString(args[t[i+1]-'0'])
		t = t[i+3:]
	}
}

// TextIn is the event's text with its note, which ends it, written by
// say (another language's rendering of the note); the text as it is when
// the event has no note. A call's return reads "IllegalStateException the
// producer is closed": its note is the detail after the result's name.
func (e *Event) TextIn(say func(*Note) string) string {
	if e.Note == nil || say == nil {
		return e.Text
	}
	en := e.Note.English()
	if !strings.HasSuffix(e.Text, en) {
		return e.Text
	}
	return e.Text[:len(e.Text)-len(en)] + say(e.Note)
}
