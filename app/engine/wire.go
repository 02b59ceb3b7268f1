package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The wire: what crosses between the page and the engine's worker
// (worker.go, remote.go), as JSON. A history crosses once per script;
// then each move's state.
//
// The history is most of the bytes, and the page decodes it before the
// learner can take a step (encoding/json, by reflection, on the page's
// thread), so each event crosses in as few bytes as decode back to it:
// short keys, no field at its zero value, no Index (its place), no Text
// that is its note's English, and message bodies without their zero
// fields (compactJSON). The happy path's 496 events crossed as 347 kB,
// with every field named; 126 kB now. The page reads each event's own
// fields by hand (wire_fast.go), and its message's body by reflection
// but for the followers' Fetch requests and answers, once per distinct
// body (decodeMemo).

// wireEvent is a trace event on the wire.
type wireEvent struct {
	At      int64  `json:"t,omitempty"`
	MsgID   int64  `json:"m,omitempty"`
	ReplyTo int64  `json:"rt,omitempty"`
	Offset  int64  `json:"o,omitempty"`
	Subject string `json:"s,omitempty"`
	From    string `json:"f,omitempty"`
	To      string `json:"to,omitempty"`
	// Text is left out when it is its note's English (NoteText).
	Text     string    `json:"x,omitempty"`
	NoteText bool      `json:"xn,omitempty"`
	Note     *wireNote `json:"no,omitempty"`
	Msg      *wireMsg  `json:"M,omitempty"`
	// Node and Peer cross as codes (sim.NodeID refuses to be written
	// alone): the history carries its World's names, in code order.
	Node      uint16 `json:"n,omitempty"`
	Peer      uint16 `json:"p,omitempty"`
	API       int    `json:"a,omitempty"`
	Error     int    `json:"e,omitempty"`
	Kind      int    `json:"k,omitempty"`
	Exception int    `json:"ex,omitempty"`
	Resp      bool   `json:"r,omitempty"`
	Internal  bool   `json:"in,omitempty"`
	Illegal   bool   `json:"il,omitempty"`
	Unmet     bool   `json:"u,omitempty"`
	Contents  int    `json:"c,omitempty"`
	// Index is the event's own when it is not its place in the history.
	Index *int `json:"i,omitempty"`
}

// wireNote is a note's code and arguments.
type wireNote struct {
	Code int      `json:"c,omitempty"`
	Args []string `json:"a,omitempty"`
}

// wireMsg is a protocol message with what names its type.
type wireMsg struct {
	API  protocol.APIKey `json:"a"`
	Resp bool            `json:"r,omitempty"`
	Body json.RawMessage `json:"b"`
}

// messageTypes are the protocol's messages, one of each: decoding a
// message makes a new one of the type its API and direction name.
var messageTypes = func() map[[2]int]reflect.Type {
	all := []protocol.Message{
		&protocol.JoinGroupRequest{}, &protocol.JoinGroupResponse{},
		&protocol.SyncGroupRequest{}, &protocol.SyncGroupResponse{},
		&protocol.HeartbeatRequest{}, &protocol.HeartbeatResponse{},
		&protocol.FindCoordinatorRequest{}, &protocol.FindCoordinatorResponse{},
		&protocol.InitProducerIdRequest{}, &protocol.InitProducerIdResponse{},
		&protocol.AddPartitionsToTxnRequest{}, &protocol.AddPartitionsToTxnResponse{},
		&protocol.AddOffsetsToTxnRequest{}, &protocol.AddOffsetsToTxnResponse{},
		&protocol.EndTxnRequest{}, &protocol.EndTxnResponse{},
		&protocol.WriteTxnMarkersRequest{}, &protocol.WriteTxnMarkersResponse{},
		&protocol.TxnOffsetCommitRequest{}, &protocol.TxnOffsetCommitResponse{},
		&protocol.OffsetCommitRequest{}, &protocol.OffsetCommitResponse{},
		&protocol.OffsetFetchRequest{}, &protocol.OffsetFetchResponse{},
		&protocol.ProduceRequest{}, &protocol.ProduceResponse{},
		&protocol.FetchRequest{}, &protocol.FetchResponse{},
		&protocol.DescribeProducersRequest{}, &protocol.DescribeProducersResponse{},
		&protocol.DescribeTransactionsRequest{}, &protocol.DescribeTransactionsResponse{},
		&protocol.ListTransactionsRequest{}, &protocol.ListTransactionsResponse{},
		// What a real client on the Kafka listener (and a request
		// statement) sends beyond the Java-like clients' APIs.
		&protocol.MetadataRequest{}, &protocol.MetadataResponse{},
		&protocol.ListOffsetsRequest{}, &protocol.ListOffsetsResponse{},
		&protocol.LeaveGroupRequest{}, &protocol.LeaveGroupResponse{},
	}
	m := map[[2]int]reflect.Type{}
	for _, msg := range all {
		m[msgKey(msg.APIKey(), msg.IsResponse())] = reflect.TypeOf(msg).Elem()
	}
	return m
}()

func msgKey(api protocol.APIKey, resp bool) [2]int {
	k := [2]int{int(api), 0}
	if resp {
		k[1] = 1
	}
	return k
}

// encodeEvents renders a history for the wire, its states by name from
// names (the recording World's table).
func encodeEvents(names *sim.Names, evs []sim.Event) ([]wireEvent, error) {
	out := make([]wireEvent, len(evs))
	for i := range evs {
		e := &evs[i]
		// The fields that cross as they are come from sim.EventFields
		// (wire_fill.go); the rest are the wire's own (wireOwn).
		w := wireEvent{From: names.Label(e.From), To: names.Label(e.To), Text: e.Text}
		fillWire(&w, e)
		if e.Index != i {
			w.Index = &e.Index
		}
		if n := e.Note; n != nil {
			w.Note = &wireNote{Code: int(n.Code), Args: n.Args}
			if e.Text == n.English() {
				w.Text, w.NoteText = "", true
			}
		}
		if m := e.Msg; m != nil {
			if _, ok := messageTypes[msgKey(m.APIKey(), m.IsResponse())]; !ok {
				return nil, fmt.Errorf("event %d: message %T is not on the wire's list", i, m)
			}
			body, err := compactJSON(m)
			if errors.Is(err, errNotCompact) {
				body, err = json.Marshal(m)
			}
			if err != nil {
				return nil, err
			}
			w.Msg = &wireMsg{API: m.APIKey(), Resp: m.IsResponse(), Body: body}
		}
		out[i] = w
	}
	return out, nil
}

// wireEvents is a history's events on the wire. The worker writes list;
// the page keeps the JSON array as it came (raw) and decodes it a slice
// at a time (eventDecoder, from remoteEngine.Work), since decoding a history of
// a few hundred events at once took 50–130 ms of one of the page's tasks
// (a lesson page decodes one per playground as the learner scrolls).
type wireEvents struct {
	list []wireEvent
	raw  []byte
}

// A reply with a history crosses as the reply's JSON with its events
// left out (null), a newline, and the events' JSON array: the page
// decodes the reply without reading the events (Link.Receive), which
// encoding/json would otherwise scan twice, to check the whole message
// and to skip the array it keeps raw: 90–200 kB per history of a lesson's
// playground, 10–150 ms of the task that received it. JSON as
// encoding/json writes it holds no newline (one in a string is \n).

// MarshalJSON writes the events as null: encodeReply sends them after
// the reply.
func (w wireEvents) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

// UnmarshalJSON keeps the array undecoded (a reply written whole, as the
// tests may).
func (w *wireEvents) UnmarshalJSON(b []byte) error {
	w.raw = append([]byte(nil), b...)
	return nil
}

// encodeReply writes r for the wire: its JSON, then, if it carries a
// history, a newline and the history's events.
func encodeReply(r reply) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil || r.Hist == nil {
		return b, err
	}
	evs, err := json.Marshal(r.Hist.Events.list)
	if err != nil {
		return nil, err
	}
	b = append(b, '\n')
	return append(b, evs...), nil
}

// decodeReply reads a message encodeReply wrote. The events stay in msg,
// undecoded (eventDecoder reads them a slice at a time).
func decodeReply(msg []byte, m *reply) error {
	head, events, split := bytes.Cut(msg, []byte{'\n'})
	if err := json.Unmarshal(head, m); err != nil {
		return err
	}
	if split {
		if m.Hist == nil {
			return errors.New("events without a history")
		}
		m.Hist.Events.raw = events
	}
	return nil
}

// decodeEvent is encodeEvents undone for the event at place i, its
// states coded in names (the page's table of the history, whose state
// codes are its own: the wire writes states by name), its message decoded
// once per body through memo (nil decodes every one).
func decodeEvent(i int, w *wireEvent, names *sim.Names, memo *decodeMemo) (sim.Event, error) {
	e := sim.Event{Index: i, From: names.InternLabel(w.From), To: names.InternLabel(w.To), Text: w.Text}
	fillEvent(&e, w)
	if w.Index != nil {
		e.Index = *w.Index
	}
	if n := w.Note; n != nil {
		e.Note = &sim.Note{Code: sim.NoteCode(n.Code), Args: n.Args}
		if w.NoteText {
			e.Text = e.Note.English()
		}
	} else if w.NoteText {
		return sim.Event{}, fmt.Errorf("event %d: a note's text without a note", i)
	}
	if w.Msg != nil {
		key := msgKey(w.Msg.API, w.Msg.Resp)
		if _, ok := messageTypes[key]; !ok {
			return sim.Event{}, fmt.Errorf("event %d: no message type for API %d", i, w.Msg.API)
		}
		if e.Msg = memo.message(key, w.Msg.Body); e.Msg == nil {
			return sim.Event{}, fmt.Errorf("event %d: a message's body is not a JSON object", i)
		}
	}
	return e, nil
}

// decodeMemo is what decoding a history keeps from one event for the
// next ones. Two thirds of a history's message bodies repeat one before
// them, byte for byte (a follower's fetch of the same partitions from
// the same offsets, its empty answer): their events then share one
// message (msgs, by msgKey and body), its body copied once into bodies,
// decoded when read, the last read kept decoded (recent). And a history
// names the same few topics, subjects and states thousands of times:
// the hand reader makes each string once (strs, wireScanner.shared).
type decodeMemo struct {
	msgs   map[[2]int]map[string]*encodedMessage
	bodies bodyArena
	recent *recentMessages
	strs   map[string]string
}

func newDecodeMemo() *decodeMemo {
	return &decodeMemo{msgs: map[[2]int]map[string]*encodedMessage{}, recent: &recentMessages{}, strs: map[string]string{}}
}

// message is the message of type key whose body is body, made once per
// body (a new one for every call when m is nil); nil when the body is not
// a JSON object. The hand reader only finds where a body ends, and a
// history with a body that cannot be read should fail as it loads, not
// when the message is drawn.
func (m *decodeMemo) message(key [2]int, body []byte) protocol.Message {
	if m != nil {
		if msg, ok := m.msgs[key][string(body)]; ok {
			return msg
		}
	}
	if len(body) == 0 || body[0] != '{' || !json.Valid(body) {
		return nil
	}
	if m == nil {
		return &encodedMessage{key: key, body: append([]byte(nil), body...)}
	}
	msg := &encodedMessage{key: key, body: m.bodies.copy(body), recent: m.recent}
	if m.msgs[key] == nil {
		m.msgs[key] = map[string]*encodedMessage{}
	}
	m.msgs[key][string(msg.body)] = msg
	return msg
}

// strings is the table of strings the hand reader shares (nil: none).
func (m *decodeMemo) strings() map[string]string {
	if m == nil {
		return nil
	}
	return m.strs
}

// eventDecoder decodes a history's events as they came from the worker
// (a JSON array), a few at a time: remoteEngine.Work gives it a slice of its
// budget. It reads each event by hand where it can (scanNext), else
// finds its bounds (nextElement) and decodes it with json.Unmarshal,
// rather than through json.Decoder, whose streaming code is 26 kB of the
// wasm that nothing else uses.
type eventDecoder struct {
	raw   []byte
	names *sim.Names // the history's, where the states are coded
	memo  *decodeMemo
	at    int // where the next event is looked for
	out   []sim.Event
	done  bool
}

// newEventDecoder decodes raw, an array of about n events, coding their
// states in names.
func newEventDecoder(raw []byte, n int, names *sim.Names) *eventDecoder {
	d := &eventDecoder{raw: raw, names: names, memo: newDecodeMemo(), out: make([]sim.Event, 0, n)}
	if i := skipSpace(raw, 0); i == len(raw) || string(raw[i:]) == "null" {
		d.done = true // no events
	} else if raw[i] != '[' {
		d.raw = nil // more says what is wrong
	} else {
		d.at = i + 1
	}
	return d
}

// decodeCheck is how many events are decoded between two looks at the
// clock.
const decodeCheck = 8

// more decodes events until the deadline or the array's end, and reports
// whether it is at the end.
func (d *eventDecoder) more(deadline time.Time) (bool, error) {
	if d.done {
		return true, nil
	}
	if d.raw == nil {
		return false, errors.New("a history's events: not an array")
	}
	for n := 1; ; n++ {
		var w wireEvent
		if end, ok := d.scanNext(&w); ok {
			d.at = end
		} else {
			start, end, err := nextElement(d.raw, d.at)
			if err != nil {
				return false, fmt.Errorf("a history's events: %w", err)
			}
			if start < 0 {
				d.done = true
				return true, nil
			}
			d.at = end
			if err := json.Unmarshal(d.raw[start:end], &w); err != nil {
				return false, fmt.Errorf("event %d: %w", len(d.out), err)
			}
		}
		e, err := decodeEvent(len(d.out), &w, d.names, d.memo)
		if err != nil {
			return false, err
		}
		d.out = append(d.out, e)
		if n%decodeCheck == 0 && time.Now().After(deadline) {
			return false, nil
		}
	}
}

// scanNext reads the next event by hand, as it reads the whole array
// once: it reports where the event ends, or false (w then zero) for
// more's slower way, nextElement's bounds and json.Unmarshal, which
// reads the same events and decides the rest.
func (d *eventDecoder) scanNext(w *wireEvent) (end int, ok bool) {
	i := skipSpace(d.raw, d.at)
	if i < len(d.raw) && d.raw[i] == ',' {
		i = skipSpace(d.raw, i+1) // after the element before
	}
	p := wireScanner{b: d.raw, i: i, shared: d.memo.strings()}
	if p.event(w) {
		// nextElement would end this element here too.
		if j := skipSpace(d.raw, p.i); j < len(d.raw) && (d.raw[j] == ',' || d.raw[j] == ']') {
			return p.i, true
		}
	}
	*w = wireEvent{}
	return 0, false
}

// nextElement finds the next element of a JSON array whose opening '['
// ends before at: its bounds, or start -1 at the closing ']'. It checks
// only what finding the bounds needs (brackets and strings), and leaves
// the element's own syntax to json.Unmarshal.
func nextElement(b []byte, at int) (start, end int, err error) {
	i := skipSpace(b, at)
	if i < len(b) && b[i] == ',' {
		i = skipSpace(b, i+1) // after the element before
	}
	if i == len(b) {
		return 0, 0, errors.New("the array does not end")
	}
	if b[i] == ']' {
		if rest := skipSpace(b, i+1); rest != len(b) {
			return 0, 0, fmt.Errorf("%q after the array", b[rest:min(rest+16, len(b))])
		}
		return -1, 0, nil
	}
	start, depth, inString := i, 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case (c == '}' || c == ']') && depth == 0:
			if i == start {
				return 0, 0, fmt.Errorf("an unmatched %q", c)
			}
			return start, i, nil // a number, true, false or null, then the array's end
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 0:
			if i == start {
				return 0, 0, errors.New("an empty element")
			}
			return start, i, nil
		}
		if depth == 0 && !inString && (c == '}' || c == ']' || c == '"') {
			return start, i + 1, nil
		}
	}
	return 0, 0, errors.New("the array does not end")
}

// skipSpace is the index of the first byte at or after i that is not
// JSON's white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// A cluster state crosses as what changed since the last one sent to the
// same playground: its partition logs, transaction logs and consumers'
// received records only grow between most positions (a step appends a
// few entries to logs of thousands; the aborted transactions' index
// too), so each of these lists crosses as a
// count of entries kept from the last state (the same list at the same
// index, compared entry by entry) and the entries after them. The page
// decodes every state in the order sent, so the last state it decoded is
// the one the worker diffed against; seq and base check it. A full
// 10,000-event state is 80–220 kB of JSON, which the page's thread took
// up to 24 ms to decode; a step's change is a few hundred bytes.

// keptPrefix is how many leading entries a and b share.
func keptPrefix[T comparable](a, b []T) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// trimSnapshot returns s with each growing list cut to the entries after
// those it shares with base, and the counts cut, in the order
// forEachList visits them. s itself is not changed.
func trimSnapshot(base, s Snapshot) (Snapshot, []int) {
	out := s
	out.Partitions = append([]cluster.PartitionView(nil), s.Partitions...)
	out.Transactions = append([]cluster.TransactionView(nil), s.Transactions...)
	out.Consumers = append([]cluster.ConsumerView(nil), s.Consumers...)
	for i := range out.Consumers {
		out.Consumers[i].Positions = append([]cluster.PositionView(nil), s.Consumers[i].Positions...)
	}
	var keep []int
	forEachList(base, &out,
		func(b, p *cluster.PartitionView) {
			k, a := 0, 0
			if b != nil && b.Partition == p.Partition {
				k, a = keptPrefix(b.Entries, p.Entries), keptPrefix(b.Aborted, p.Aborted)
			}
			keep, p.Entries, p.Aborted = append(keep, k, a), p.Entries[k:], p.Aborted[a:]
		},
		func(b, t *cluster.TransactionView) {
			k := 0
			if b != nil && b.TransactionalId == t.TransactionalId {
				k = keptPrefix(b.Log, t.Log)
			}
			keep, t.Log = append(keep, k), t.Log[k:]
		},
		func(b, c *cluster.PositionView) {
			k := 0
			if b != nil && b.Partition == c.Partition {
				k = keptPrefix(b.Received, c.Received)
			}
			keep, c.Received = append(keep, k), c.Received[k:]
		})
	return out, keep
}

// untrimSnapshot is trimSnapshot undone: s's lists, each after the
// entries keep says to take from base's.
func untrimSnapshot(base Snapshot, s *Snapshot, keep []int) error {
	i := 0
	bad := false
	next := func(have int) int {
		if i >= len(keep) || keep[i] > have {
			bad = true
			return 0
		}
		i++
		return keep[i-1]
	}
	forEachList(base, s,
		func(b, p *cluster.PartitionView) {
			if k := next(lenOf(b, func(b *cluster.PartitionView) int { return len(b.Entries) })); k > 0 {
				p.Entries = append(b.Entries[:k:k], p.Entries...)
			}
			if a := next(lenOf(b, func(b *cluster.PartitionView) int { return len(b.Aborted) })); a > 0 {
				p.Aborted = append(b.Aborted[:a:a], p.Aborted...)
			}
		},
		func(b, t *cluster.TransactionView) {
			if k := next(lenOf(b, func(b *cluster.TransactionView) int { return len(b.Log) })); k > 0 {
				t.Log = append(b.Log[:k:k], t.Log...)
			}
		},
		func(b, c *cluster.PositionView) {
			if k := next(lenOf(b, func(b *cluster.PositionView) int { return len(b.Received) })); k > 0 {
				c.Received = append(b.Received[:k:k], c.Received...)
			}
		})
	if bad || i != len(keep) {
		return errors.New("a cluster state that does not follow the last one")
	}
	return nil
}

func lenOf[T any](b *T, n func(*T) int) int {
	if b == nil {
		return 0
	}
	return n(b)
}

// forEachList visits s's growing lists in a fixed order, each with the
// list at the same index of base (nil where base has none).
func forEachList(base Snapshot, s *Snapshot,
	part func(b, p *cluster.PartitionView), txn func(b, t *cluster.TransactionView), recv func(b, c *cluster.PositionView)) {
	for i := range s.Partitions {
		part(at(base.Partitions, i), &s.Partitions[i])
	}
	for i := range s.Transactions {
		txn(at(base.Transactions, i), &s.Transactions[i])
	}
	for i := range s.Consumers {
		var bc *cluster.ConsumerView
		if b := at(base.Consumers, i); b != nil && b.Name == s.Consumers[i].Name {
			bc = b
		}
		for j := range s.Consumers[i].Positions {
			var bp *cluster.PositionView
			if bc != nil {
				bp = at(bc.Positions, j)
			}
			recv(bp, &s.Consumers[i].Positions[j])
		}
	}
}

func at[T any](l []T, i int) *T {
	if i < len(l) {
		return &l[i]
	}
	return nil
}

// encodeNames is a World's names in code order (NoNode's "" first).
func encodeNames(n *sim.Names) []string {
	if n == nil {
		return nil
	}
	out := make([]string, n.Len())
	for i := range out {
		out[i] = n.Name(sim.NodeID(i))
	}
	return out
}

// decodeNames is encodeNames undone: the same codes for the same names.
func decodeNames(list []string) (*sim.Names, error) {
	if list == nil {
		return nil, nil
	}
	n := sim.NewNames()
	for i, name := range list {
		if id, ok := n.Intern(name); !ok || int(id) != i {
			return nil, fmt.Errorf("node name %d (%q) does not keep its code", i, name)
		}
	}
	return n, nil
}
