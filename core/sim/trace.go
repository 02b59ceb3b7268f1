package sim

import (
	"encoding/hex"
	"hash"
	"hash/fnv"
	"strconv"
	"strings"

	"txnlab/core/protocol"
)

// NodeID names a node: "broker-0", "controller", or a client's name.
type NodeID string

// Kind is what an event records.
type Kind uint8

// Event kinds.
const (
	// KindSend: a message leaves Node for Peer.
	KindSend Kind = iota
	// KindDeliver: the message reaches Peer (Node is still the sender).
	KindDeliver
	// KindDrop: the message is lost in transit; Text says why.
	KindDrop
	// KindState: Subject moved from From to To on Node.
	KindState
	// KindAppend: a batch was appended to Subject's log on Node at Offset.
	KindAppend
	// KindElection: Node became leader of Subject (Text has the epoch).
	KindElection
	// KindCrash, KindRestart, KindPause, KindResume: node lifecycle.
	KindCrash
	KindRestart
	KindPause
	KindResume
	// KindCallStart and KindCallEnd: a client call begins and returns.
	KindCallStart
	KindCallEnd
	// KindExpect: an expectation's result.
	KindExpect
	// KindNote: anything else worth showing (a timer firing a scan, a
	// truncation, a rule installed).
	KindNote
)

var kindNames = [...]string{"send", "deliver", "drop", "state", "append", "election",
	"crash", "restart", "pause", "resume", "call", "return", "expect", "note"}

// String names the kind.
func (k Kind) String() string { return kindNames[k] }

// MarshalText renders the kind by name in JSON.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Event is one entry of the trace.
type Event struct {
	Index int
	At    Time
	Kind  Kind
	Node  NodeID
	Peer  NodeID `json:",omitempty"`
	// MsgID identifies a message across its send, deliver and drop events;
	// ReplyTo is the request a response answers.
	MsgID   int64            `json:",omitempty"`
	ReplyTo int64            `json:",omitempty"`
	API     string           `json:",omitempty"`
	Resp    bool             `json:",omitempty"`
	Msg     protocol.Message `json:",omitempty"`
	Error   string           `json:",omitempty"`
	Subject string           `json:",omitempty"`
	From    string           `json:",omitempty"`
	To      string           `json:",omitempty"`
	Offset  int64            `json:",omitempty"`
	Text    string           `json:",omitempty"`
	// Internal marks traffic the UI hides by default: replication fetches.
	Internal bool `json:",omitempty"`
}

// Line is the canonical one-line text of the event: stable, sorted, no
// pointers; the digest is computed over these lines.
func (e *Event) Line() string {
	var b strings.Builder
	b.WriteString(strconv.FormatInt(int64(e.At), 10))
	b.WriteString("ms ")
	b.WriteString(e.Kind.String())
	b.WriteByte(' ')
	switch e.Kind {
	case KindSend, KindDeliver, KindDrop:
		b.WriteString("#" + strconv.FormatInt(e.MsgID, 10) + " ")
		b.WriteString(string(e.Node) + " -> " + string(e.Peer) + " " + e.API)
		if e.Resp {
			b.WriteString(".response")
		}
		if e.Kind == KindSend && e.Msg != nil {
			b.WriteString(" " + e.Msg.Summary())
		}
		if e.Kind == KindDrop {
			b.WriteString(" (" + e.Text + ")")
		}
	case KindState:
		b.WriteString(string(e.Node) + " " + e.Subject + " " + e.From + " -> " + e.To)
		if e.Text != "" {
			b.WriteString(" " + e.Text)
		}
	case KindAppend:
		b.WriteString(string(e.Node) + " " + e.Subject + "@" + strconv.FormatInt(e.Offset, 10) + " " + e.Text)
	default:
		b.WriteString(string(e.Node))
		if e.Subject != "" {
			b.WriteString(" " + e.Subject)
		}
		if e.Text != "" {
			b.WriteString(" " + e.Text)
		}
	}
	return b.String()
}

// Trace is the ordered history of a run.
type Trace struct {
	Events []Event
}

// Digest is a hash of every canonical line, printed by the CLI and shown by
// the page, so two hosts can prove they ran the same history.
func (t *Trace) Digest() string {
	return DigestOf(t.Events)
}

// DigestOf hashes the canonical lines of events with 128-bit FNV-1a. The
// digest identifies a history, it protects nothing, so a cryptographic
// hash would only add weight: crypto/sha256 drags the whole FIPS module
// into the browser's wasm.
func DigestOf(events []Event) string {
	var d Digester
	for i := range events {
		d.Add(&events[i])
	}
	return d.Sum()
}

// Digester computes DigestOf incrementally, for a host that wants the
// digest of every prefix of a trace: Add the events in order, and Sum is
// DigestOf of those added so far. The zero value is ready to use.
type Digester struct {
	h   hash.Hash
	buf []byte
}

// Add hashes the next event's canonical line.
func (d *Digester) Add(e *Event) {
	if d.h == nil {
		d.h = fnv.New128a()
	}
	d.buf = append(append(d.buf[:0], e.Line()...), '\n')
	d.h.Write(d.buf)
}

// Sum is the digest of the events added so far.
func (d *Digester) Sum() string {
	if d.h == nil {
		d.h = fnv.New128a()
	}
	return hex.EncodeToString(d.h.Sum(nil))[:16]
}
