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
// grows by blocks, never by copying.
const TraceBlock = 1024

const traceChunk = TraceBlock

// Trace is the ordered history of a run. It stores its events without a
// pointer (record): strings as indexes into a table of the trace's own,
// messages and notes in side blocks indexed by the event, so the garbage
// collector never scans the events, which were a quarter of the bytes a
// run allocated and most of what it marked. Readers get events back as
// Event values (At, All, Events), built from the record.
type Trace struct {
	recs  blocks[record]
	msgs  blocks[protocol.Message]
	notes blocks[*Note]
	// strs are the distinct subjects and texts, strs[0] is "": a few
	// thousand in a run of fifty thousand events.
	strs []string
	ids  map[string]uint32
	// shared is a longer run's events this trace's first len(shared)
	// equal (ShareWith); their records are dropped.
	shared []Event
	// strayed is set when an event recorded while following a history
	// differed from it (Follow): the trace shares nothing more.
	strayed bool
	n       int
	names   *Names
}

// record is an Event as the trace stores it: no pointer. Its index is
// its place (World.Record stamps it so); subject and text index the
// trace's strings (0 is ""); msg and note are one more than their index
// in the side blocks (0 is nil).
type record struct {
	At, MsgID, ReplyTo, Offset int64

	subject, text, msg, note uint32

	From, To   Label
	Node, Peer NodeID
	API        protocol.APIKey
	Error      protocol.ErrorCode
	Kind       Kind
	Exception  protocol.Exception
	Contents   Contents
	flags      uint8
}

// The flags of a record.
const (
	flagResp uint8 = 1 << iota
	flagInternal
	flagIllegal
	flagUnmet
)

// blocks is an append-only sequence in fixed blocks: it grows without
// copying what it holds, and a block can be dropped (ShareWith).
type blocks[T any] struct {
	b [][]T
	n int
}

// push appends a zero element and returns it.
func (s *blocks[T]) push() *T {
	c := s.n / traceChunk
	if c == len(s.b) {
		s.b = append(s.b, make([]T, traceChunk))
	} else if s.b[c] == nil {
		s.b[c] = make([]T, traceChunk)
	}
	p := &s.b[c][s.n%traceChunk]
	s.n++
	return p
}

// skip appends an element that is never read (its block is made only
// if a later push needs it).
func (s *blocks[T]) skip() {
	if c := s.n / traceChunk; c == len(s.b) {
		s.b = append(s.b, nil)
	}
	s.n++
}

// at is element i.
func (s *blocks[T]) at(i int) *T { return &s.b[i/traceChunk][i%traceChunk] }

// Names names the nodes the events' codes stand for: the recording
// World's table (nil for a Trace no World made).
func (t *Trace) Names() *Names { return t.names }

// Name is the name of node id in this trace.
func (t *Trace) Name(id NodeID) string { return t.names.Name(id) }

// Label is the name of state l in this trace.
func (t *Trace) Label(l Label) string { return t.names.Label(l) }

// Len is the number of events recorded.
func (t *Trace) Len() int { return t.n }

// At returns event i (0 ≤ i < Len): a copy, which the trace does not
// change, or the shared history's own event (ShareWith).
func (t *Trace) At(i int) *Event {
	if i < len(t.shared) {
		return &t.shared[i]
	}
	e := new(Event)
	t.load(i, e)
	return e
}

// load builds event i into e.
func (t *Trace) load(i int, e *Event) {
	if i < len(t.shared) {
		*e = t.shared[i]
		return
	}
	r := t.recs.at(i)
	// Field by field: a whole-struct copy into the walk's event (a heap
	// one) is a typed copy, slower than the fields.
	e.Index, e.At = i, Time(r.At)
	e.MsgID, e.ReplyTo, e.Offset = r.MsgID, r.ReplyTo, r.Offset
	e.Subject, e.Text, e.Msg, e.Note = "", "", nil, nil
	if r.subject != 0 {
		e.Subject = t.strs[r.subject]
	}
	if r.text != 0 {
		e.Text = t.strs[r.text]
	}
	if r.msg != 0 {
		e.Msg = *t.msgs.at(int(r.msg) - 1)
	}
	if r.note != 0 {
		e.Note = *t.notes.at(int(r.note) - 1)
	}
	e.From, e.To, e.Node, e.Peer = r.From, r.To, r.Node, r.Peer
	e.API, e.Error, e.Kind, e.Exception, e.Contents = r.API, r.Error, r.Kind, r.Exception, r.Contents
	e.Resp, e.Internal = r.flags&flagResp != 0, r.flags&flagInternal != 0
	e.Illegal, e.Unmet = r.flags&flagIllegal != 0, r.flags&flagUnmet != 0
}

// All yields every event in order. The event yielded is valid until the
// next one: a reader that keeps one keeps a copy (At gives one). One
// buffer for the whole walk, so that the checker's walks of a long run
// allocate nothing per event.
func (t *Trace) All() iter.Seq2[int, *Event] {
	return func(yield func(int, *Event) bool) {
		e := new(Event)
		for i := 0; i < t.n; i++ {
			t.load(i, e)
			if !yield(i, e) {
				return
			}
		}
	}
}

// Select is All for the events keep accepts, judged by kind and the
// Internal flag alone: the others are skipped before they are built. A
// checker that reads only non-internal sends skips the two thirds of a
// long run that are replication and deliveries for the cost of reading
// two bytes of each.
func (t *Trace) Select(keep func(k Kind, internal bool) bool) iter.Seq2[int, *Event] {
	return func(yield func(int, *Event) bool) {
		e := new(Event)
		for i := 0; i < t.n; i++ {
			if i < len(t.shared) {
				if s := &t.shared[i]; !keep(s.Kind, s.Internal) {
					continue
				}
			} else if r := t.recs.at(i); !keep(r.Kind, r.flags&flagInternal != 0) {
				continue
			}
			t.load(i, e)
			if !yield(i, e) {
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
	out := make([]Event, t.n-from)
	for i := range out {
		t.load(from+i, &out[i])
	}
	return out
}

// ShareWith lets the trace read its first events from history, a copy
// of a longer run of the same script and seed (so its first Len events
// equal this trace's), and drops its own records of them: a session
// replayed to a position then holds no second copy of the history. At
// returns history's own events for them. The history is never written:
// events recorded later are the trace's own.
func (t *Trace) ShareWith(history []Event) {
	k := min(t.n, len(history))
	if k <= len(t.shared) || t.strayed {
		return
	}
	t.shared = history[:k:k]
	for c := 0; (c+1)*traceChunk <= k && c < len(t.recs.b); c++ {
		t.recs.b[c] = nil
	}
	if k == t.n && k%traceChunk != 0 && k/traceChunk < len(t.recs.b) {
		// The last, partial block holds only shared events: push
		// makes it anew at the next event.
		t.recs.b[k/traceChunk] = nil
	}
}

// Follow is ShareWith for a replay: history is the run this trace's
// session replays (the same script and seed), so each event it records
// at an index history has equals history's. The trace keeps no record
// of those, as ShareWith, and does not build one either: a replay to a
// position, which the playground's engine makes at every move back and
// for every checkpoint, allocated a record block per 1,024 events only to
// drop it at the end (a quarter of what a scrub's 60 moves allocated
// through the worker's Server, natively). Each event recorded meanwhile
// is checked against history's by its kind, time, message, nodes and
// offset; at the first that differs, the trace stops following and
// records from there on. Past history's end it records as before.
func (t *Trace) Follow(history []Event) {
	if t.strayed || len(history) <= len(t.shared) || t.n > len(history) {
		return
	}
	t.ShareWith(history)
	t.shared = history[:len(history):len(history)]
}

// follows reports whether e, recorded at index t.n, is the followed
// history's event there (Follow), and counts it if so.
func (t *Trace) follows(e *Event) bool {
	h := &t.shared[t.n]
	if h.Kind != e.Kind || h.At != e.At || h.MsgID != e.MsgID || h.Node != e.Node ||
		h.Peer != e.Peer || h.Offset != e.Offset {
		// A different run: record from here, and share no more (the
		// engine asks again at every step).
		t.shared, t.strayed = t.shared[:t.n:t.n], true
		return false
	}
	t.recs.skip()
	t.n++
	return true
}

// add appends e, whose Index is its place: Len before the call.
func (t *Trace) add(e *Event) {
	if t.n < len(t.shared) && t.follows(e) {
		return
	}
	r := t.recs.push()
	t.n++
	r.At = int64(e.At)
	r.MsgID, r.ReplyTo, r.Offset = e.MsgID, e.ReplyTo, e.Offset
	r.subject, r.text = t.intern(e.Subject), t.intern(e.Text)
	if e.Msg != nil {
		*t.msgs.push() = e.Msg
		r.msg = uint32(t.msgs.n)
	}
	if e.Note != nil {
		*t.notes.push() = e.Note
		r.note = uint32(t.notes.n)
	}
	r.From, r.To, r.Node, r.Peer = e.From, e.To, e.Node, e.Peer
	r.API, r.Error, r.Kind, r.Exception, r.Contents = e.API, e.Error, e.Kind, e.Exception, e.Contents
	var f uint8
	if e.Resp {
		f |= flagResp
	}
	if e.Internal {
		f |= flagInternal
	}
	if e.Illegal {
		f |= flagIllegal
	}
	if e.Unmet {
		f |= flagUnmet
	}
	r.flags = f
}

// intern is s's index in the trace's strings, added if new: a run's
// subjects and texts repeat (a partition, a transactional id, a call),
// and the trace keeps one copy of each.
func (t *Trace) intern(s string) uint32 {
	if s == "" {
		return 0
	}
	if id, ok := t.ids[s]; ok {
		return id
	}
	if t.ids == nil {
		t.ids = map[string]uint32{}
		t.strs = append(t.strs, "")
	}
	id := uint32(len(t.strs))
	t.strs = append(t.strs, s)
	t.ids[s] = id
	return id
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
