package sim

import (
	"encoding/hex"
	"hash"
	"hash/fnv"
	"iter"
	"strconv"
	"strings"

	"txnlab/core/protocol"
)

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

// CarriesMessage reports whether events of this kind are about a message
// (send, deliver, drop): only those have a Peer, an API and a MsgID.
func (k Kind) CarriesMessage() bool { return k <= KindDrop }

// Event is one entry of the trace. Fields are grouped by size (numbers,
// strings, the message, then the small codes) so that no padding is
// wasted: a long history holds hundreds of thousands of these, and every
// string is a pointer the browser's garbage collector must mark, so the
// nodes, the states, the API, the error and the exception are codes, not
// names. The trace's JSON still writes them by name (Export).
type Event struct {
	Index int
	At    Time
	// MsgID identifies a message across its send, deliver and drop events;
	// ReplyTo is the request a response answers.
	MsgID   int64
	ReplyTo int64
	Offset  int64

	Subject string
	Text    string

	Msg protocol.Message
	// Note is Text (or its end) as a code and arguments, for a page in
	// another language; nil when the text is data (a batch, a call's
	// arguments) or there is none. Text alone is the canonical line's.
	Note *Note

	// Node is where the event happened (a message's sender); Peer is a
	// message's destination, NoNode on other events. Codes of the
	// World's Names (Trace.Names).
	Node NodeID
	Peer NodeID
	// From and To are the states a KindState event moved between, codes
	// of the same Names (Names.Label, World.Label); NoLabel on others.
	From, To Label
	// API is the message's API on a send, deliver or drop event, and
	// protocol.NoAPI on every other (World.Record sees to it).
	API protocol.APIKey
	// Error is the first error code a response carries, or the broker
	// code a client call returned with; NONE when there is none.
	Error protocol.ErrorCode
	Kind  Kind
	// Exception is what a call that the client itself failed returned
	// with (a call's return event); never set together with Error.
	Exception protocol.Exception
	Resp      bool
	// Internal marks traffic the UI hides by default: replication fetches.
	Internal bool
	// Illegal marks a KindState transition Kafka does not allow (its
	// validPreviousStates table): recorded rather than a panic, so that a
	// broken mechanism does not crash a lesson, and judged by the
	// transitions invariant. The canonical line ends with "ILLEGAL".
	Illegal bool
	// Unmet marks a KindExpect event whose expectation did not hold (its
	// text says FAIL); the pages read the flag, never the text.
	Unmet bool
	// Contents says what a KindAppend event's batch holds.
	Contents Contents
}

// Contents is what an appended batch holds: the diagram draws a marker,
// a transaction-log record and data differently, and reads which from
// here rather than from the batch's text.
type Contents uint8

// What a batch may hold.
const (
	DataRecords       Contents = iota // records a producer wrote
	CommitMarker                      // a control batch: COMMIT
	AbortMarker                       // a control batch: ABORT
	TransactionRecord                 // __transaction_state: a transactional id's metadata
	OffsetRecord                      // __consumer_offsets: a group's committed offsets
)

var contentsNames = [...]string{"", "commit-marker", "abort-marker", "transaction-record", "offset-record"}

// String names the contents for JSON ("" for data records).
func (c Contents) String() string {
	if int(c) < len(contentsNames) {
		return contentsNames[c]
	}
	return "contents(" + strconv.Itoa(int(c)) + ")"
}

// ContentsOf is what batch b holds.
func ContentsOf(b *protocol.RecordBatch) Contents {
	switch {
	case b.IsControl && b.ControlType == protocol.ControlCommit:
		return CommitMarker
	case b.IsControl:
		return AbortMarker
	case len(b.Records) > 0 && b.Records[0].TxnLog != nil:
		return TransactionRecord
	case len(b.Records) > 0 && b.Records[0].Offset != nil:
		return OffsetRecord
	}
	return DataRecords
}

// ErrorName is the event's error as the trace has always written it: the
// client exception's name, else the error code's, "" when neither is set.
func (e *Event) ErrorName() string {
	if e.Exception != protocol.NoException {
		return e.Exception.String()
	}
	if e.Error != protocol.NONE {
		return e.Error.String()
	}
	return ""
}

// Failed reports whether the event carries an error code or an exception.
func (e *Event) Failed() bool {
	return e.Error != protocol.NONE || e.Exception != protocol.NoException
}

// Line is the canonical one-line text of the event, its nodes named by
// names (the Names of the World that recorded it): stable, sorted, no
// pointers; the digest is computed over these lines.
func (e *Event) Line(names *Names) string {
	node := names.Name(e.Node)
	var b strings.Builder
	b.WriteString(strconv.FormatInt(int64(e.At), 10))
	b.WriteString("ms ")
	b.WriteString(e.Kind.String())
	b.WriteByte(' ')
	switch e.Kind {
	case KindSend, KindDeliver, KindDrop:
		b.WriteString("#" + strconv.FormatInt(e.MsgID, 10) + " ")
		b.WriteString(node + " -> " + names.Name(e.Peer) + " " + e.API.String())
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
		b.WriteString(node + " " + e.Subject + " " + names.Label(e.From) + " -> " + names.Label(e.To))
		if e.Text != "" {
			b.WriteString(" " + e.Text)
		}
		if e.Illegal {
			b.WriteString(" ILLEGAL")
		}
	case KindAppend:
		b.WriteString(node + " " + e.Subject + "@" + strconv.FormatInt(e.Offset, 10) + " " + e.Text)
	default:
		b.WriteString(node)
		if e.Subject != "" {
			b.WriteString(" " + e.Subject)
		}
		if e.Text != "" {
			b.WriteString(" " + e.Text)
		}
	}
	return b.String()
}

// TraceBlock is how many events one block of the trace holds. The trace
// grows by blocks, never by copying: events hold pointers, and copying a
// long history while the garbage collector runs costs more than recording
// it did.
const TraceBlock = 1024

const traceChunk = TraceBlock

// Trace is the ordered history of a run, stored in fixed blocks. Events
// never move once recorded (so a *Event stays valid), except the last
// block shared by ShareWith, which moves to an array of its own at the
// next append.
type Trace struct {
	chunks [][]Event
	n      int
	names  *Names
}

// Names names the nodes the events' codes stand for: the recording
// World's table (nil for a Trace no World made).
func (t *Trace) Names() *Names { return t.names }

// Name is the name of node id in this trace.
func (t *Trace) Name(id NodeID) string { return t.names.Name(id) }

// Label is the name of state l in this trace.
func (t *Trace) Label(l Label) string { return t.names.Label(l) }

// Len is the number of events recorded.
func (t *Trace) Len() int { return t.n }

// At returns event i (0 ≤ i < Len).
func (t *Trace) At(i int) *Event { return &t.chunks[i/traceChunk][i%traceChunk] }

// All yields every event in order, in place.
func (t *Trace) All() iter.Seq2[int, *Event] {
	return func(yield func(int, *Event) bool) {
		for i := 0; i < t.n; i++ {
			if !yield(i, t.At(i)) {
				return
			}
		}
	}
}

// Events returns a copy of the events from index from on, in order.
func (t *Trace) Events(from int) []Event {
	if from >= t.n {
		return nil
	}
	out := make([]Event, 0, t.n-from)
	for c := from / traceChunk; c < len(t.chunks); c++ {
		chunk := t.chunks[c]
		if c == from/traceChunk {
			chunk = chunk[from%traceChunk:]
		}
		out = append(out, chunk...)
	}
	return out
}

// ShareWith lets the trace's blocks alias the same events in history, a
// copy of a longer run of the same script and seed (so its first Len
// events equal this trace's). A session replayed to a position then holds
// no copy of the history at all. The shared blocks are never written:
// full ones are never appended to, and the last one is shared with its
// capacity cut at its length, so the session's next event moves it to an
// array of its own first. Blocks history does not cover stay as they are.
func (t *Trace) ShareWith(history []Event) {
	for c := range t.chunks {
		lo, hi := c*traceChunk, min((c+1)*traceChunk, t.n)
		if hi > len(history) {
			break
		}
		t.chunks[c] = history[lo:hi:hi]
	}
}

// add appends e and returns where it now lives.
func (t *Trace) add(e *Event) *Event {
	if t.n%traceChunk == 0 {
		t.chunks = append(t.chunks, make([]Event, 0, traceChunk))
	}
	last := &t.chunks[len(t.chunks)-1]
	if len(*last) == cap(*last) {
		// The last block is history's (ShareWith): move it, once, to a
		// block of full size of its own.
		own := make([]Event, len(*last), traceChunk)
		copy(own, *last)
		*last = own
	}
	*last = (*last)[:len(*last)+1]
	slot := &(*last)[len(*last)-1]
	storeEvent(slot, e)
	t.n++
	return slot
}

// storeEvent copies e into slot, a zeroed event in a trace block, field
// by field, and writes only the pointer fields that are set. Copied
// whole, an Event is a typed copy: while the collector marks (a third to
// a half of a run), that copy puts all five pointer words of the event,
// set or not, old and new, through the write barrier's buffer, and the
// buffer's flushes were a fifth of a heavy run's instructions. Two thirds
// of the events (deliveries, most notes) set none, and a send sets only
// its message. TestStoreEventCopiesEveryField keeps the list complete.
func storeEvent(slot, e *Event) {
	slot.Index, slot.At = e.Index, e.At
	slot.MsgID, slot.ReplyTo, slot.Offset = e.MsgID, e.ReplyTo, e.Offset
	if e.Subject != "" {
		slot.Subject = e.Subject
	}
	if e.Text != "" {
		slot.Text = e.Text
	}
	if e.Msg != nil {
		slot.Msg = e.Msg
	}
	if e.Note != nil {
		slot.Note = e.Note
	}
	slot.Node, slot.Peer, slot.API, slot.Error = e.Node, e.Peer, e.API, e.Error
	slot.From, slot.To = e.From, e.To
	slot.Kind, slot.Exception, slot.Contents = e.Kind, e.Exception, e.Contents
	slot.Resp, slot.Internal, slot.Illegal, slot.Unmet = e.Resp, e.Internal, e.Illegal, e.Unmet
}

// Digest is a hash of every canonical line, printed by the CLI and shown by
// the page, so two hosts can prove they ran the same history.
func (t *Trace) Digest() string {
	var d Digester
	for _, e := range t.All() {
		d.Add(t.names, e)
	}
	return d.Sum()
}

// DigestOf hashes the canonical lines of events, named by names, with
// 128-bit FNV-1a. The
// digest identifies a history, it protects nothing, so a cryptographic
// hash would only add weight: crypto/sha256 drags the whole FIPS module
// into the browser's wasm.
func DigestOf(names *Names, events []Event) string {
	var d Digester
	for i := range events {
		d.Add(names, &events[i])
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

// Add hashes the next event's canonical line, its nodes named by names.
func (d *Digester) Add(names *Names, e *Event) {
	if d.h == nil {
		d.h = fnv.New128a()
	}
	d.buf = append(append(d.buf[:0], e.Line(names)...), '\n')
	d.h.Write(d.buf)
}

// Sum is the digest of the events added so far.
func (d *Digester) Sum() string {
	if d.h == nil {
		d.h = fnv.New128a()
	}
	return hex.EncodeToString(d.h.Sum(nil))[:16]
}
