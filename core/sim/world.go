package sim

import (
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/safety"
)

// Handler is a node's behaviour: it reacts to a delivered message or a
// fired timer, and acts only through the World (send, set timers, trace).
type Handler interface {
	Receive(w *World, env *Envelope)
	Timer(w *World, t *Timer)
}

// Busy is implemented by handlers that have work outstanding which a `run`
// must wait for (a pending client call, undelivered markers).
type Busy interface {
	Busy() bool
}

// Status is a node's lifecycle state.
type Status uint8

// Node statuses.
const (
	Up Status = iota
	Crashed
	Paused
)

// String names the status.
func (s Status) String() string { return [...]string{"up", "crashed", "paused"}[s] }

// Envelope is a message in transit.
type Envelope struct {
	ID       int64
	From, To NodeID
	// Internal marks replication traffic (SendInternal). It sits next
	// to From and To, in the word they leave: 88 bytes an envelope, not
	// 96, and there is one for each of a run's tens of thousands of
	// messages.
	Internal  bool
	SentAt    Time
	DeliverAt Time
	ReplyTo   int64
	Msg       protocol.Message
	// fromGen is the sender's incarnation: a refused connection is news
	// only to the incarnation that sent the request.
	fromGen uint64
	// src and dst are the nodes From and To name, looked up once at the
	// send (dst is nil for a name unknown then): a node is never removed,
	// and hashing names at every delivery cost more than the delivery.
	src, dst *node
	// sent holds the send event's API, direction and error: a delivery
	// or a drop names the same without asking the message again. A copy,
	// not a pointer into the trace: an envelope a parked session keeps
	// in flight would otherwise keep that session's own trace blocks
	// alive after they were shared with the history (the playground's
	// engine heap went from 22 to 67 MB).
	sent sentFields
}

// sentFields are the fields a delivery copies from its send event.
type sentFields struct {
	API   protocol.APIKey
	Error protocol.ErrorCode
	Resp  bool
}

// TimerDisconnected is the timer kind a sender receives when a request
// it sent found its destination down; Data is the *Envelope.
const TimerDisconnected = "disconnected"

// Timer is a timer a node set for itself.
type Timer struct {
	Node NodeID
	// Background timers (periodic scans) do not keep a `run` going.
	// (Next to Node: the two share a word, and thousands of timers wait
	// in the queue.)
	Background bool
	Kind       string
	Data       any
	gen        uint64
	n          *node // the node Node names
	// to receives the timer instead of the node's Handler (AfterFor).
	to TimerHandler
}

// TimerHandler receives fired timers: a node's Handler, or a module the
// node hosts (a coordinator inside a broker) that set its timers with
// AfterFor, so that the node need not tell them apart by name.
type TimerHandler interface {
	Timer(w *World, t *Timer)
}

type node struct {
	id      NodeID
	handler Handler
	status  Status
	gen     uint64  // bumped at crash: the dead incarnation's timers are void
	held    []event // what arrived while paused
}

type eventKind uint8

const (
	evDeliver eventKind = iota
	evTimer
)

type event struct {
	at   Time
	seq  uint64
	kind eventKind
	// arrived marks a delivery held by a paused node: it has crossed the
	// network already, so it is not judged against cuts and drops again.
	// (Next to kind, so the two share a word: 104 bytes a queued event,
	// not 120.)
	arrived bool
	env     *Envelope
	// timer is held by value, so setting one allocates nothing; the
	// handler gets a pointer to the world's copy of the one firing.
	timer Timer
}

// eventQueue orders events on (time, insertion sequence). The keys wait
// in two binary min-heaps, deliveries and timers, and the next event is
// the smaller of their two tops: keys are unique, so the order is the one
// a single heap gives. Deliveries are due within milliseconds and few are
// in flight, while thousands of request timeouts wait 30 s ahead; apart,
// a delivery's push and pop no longer climb through the timeouts' levels.
// The heaps hold only keys without pointers, so reordering them costs no
// write barriers; the events wait in slots (reused through a free list),
// and pushing allocates nothing once the queue has grown. The slots live
// in fixed blocks, so growing never copies them: regrowing one slice of
// thousands of queued timeouts by doubling allocated twice their size,
// pointers and all, every run.
type eventQueue struct {
	heaps  [2]keyHeap // deliveries, timers
	blocks []*[slotBlock]event
	used   int32 // slots handed out so far
	free   []int32
}

const slotBlock = 256

// slot is the event in slot i.
func (q *eventQueue) slot(i int32) *event { return &q.blocks[i/slotBlock][i%slotBlock] }

type queueKey struct {
	at   Time
	seq  uint64
	slot int32
}

func keyLess(a, b *queueKey) bool {
	if a.at != b.at {
		return a.at < b.at
	}
	return a.seq < b.seq
}

func (q *eventQueue) len() int { return len(q.heaps[0]) + len(q.heaps[1]) }

// next is the heap whose top comes first (the queue must not be empty).
func (q *eventQueue) next() *keyHeap {
	d, t := &q.heaps[0], &q.heaps[1]
	if len(*t) == 0 || len(*d) > 0 && keyLess(&(*d)[0], &(*t)[0]) {
		return d
	}
	return t
}

// peek is the next event (the queue must not be empty).
func (q *eventQueue) peek() *event { return q.slot((*q.next())[0].slot) }

func (q *eventQueue) push(e event) {
	var slot int32
	if n := len(q.free); n > 0 {
		slot = q.free[n-1]
		q.free = q.free[:n-1]
	} else {
		if q.used%slotBlock == 0 {
			q.blocks = append(q.blocks, new([slotBlock]event))
		}
		slot = q.used
		q.used++
	}
	storeQueued(q.slot(slot), &e)
	h := &q.heaps[0]
	if e.kind == evTimer {
		h = &q.heaps[1]
	}
	h.push(queueKey{at: e.at, seq: e.seq, slot: slot})
}

// popSlot takes the next event out of the queue and returns its slot,
// which stays taken until release: Step dispatches the event in place
// rather than copying it (with its pointers) twice.
func (q *eventQueue) popSlot() int32 { return q.next().pop().slot }

// release empties a slot popSlot returned and makes it free again.
func (q *eventQueue) release(slot int32) {
	clearQueued(q.slot(slot))
	q.free = append(q.free, slot)
}

// storeQueued copies e into slot, a free slot, field by field, and
// clearQueued empties a slot's pointers: a whole-struct copy or clear of
// an event is a typed one, which while the collector marks sends all
// seven pointer words through the write barrier's buffer, set or not. A
// delivery carries its envelope and no timer, a timer no envelope, so
// each writes only its own; a free slot's numbers are left as they were
// (only its pointers would keep anything alive).
// TestQueuedSlotCopiesEveryField keeps the lists complete.
func storeQueued(slot, e *event) {
	slot.at, slot.seq, slot.kind, slot.arrived = e.at, e.seq, e.kind, e.arrived
	if e.kind == evDeliver {
		slot.env = e.env
		return
	}
	t, st := &e.timer, &slot.timer
	st.Node, st.Background, st.gen = t.Node, t.Background, t.gen
	st.Kind, st.n = t.Kind, t.n
	if t.Data != nil {
		st.Data = t.Data
	}
	if t.to != nil {
		st.to = t.to
	}
}

func clearQueued(slot *event) {
	if slot.kind == evDeliver {
		slot.env = nil
		return
	}
	st := &slot.timer
	st.Kind, st.n = "", nil
	if st.Data != nil {
		st.Data = nil
	}
	if st.to != nil {
		st.to = nil
	}
}

// removeIf takes out every event drop says to, and restores the heaps.
func (q *eventQueue) removeIf(drop func(e *event) bool) {
	for k := range q.heaps {
		h := q.heaps[k]
		kept := h[:0]
		for _, key := range h {
			if e := q.slot(key.slot); drop(e) {
				clearQueued(e)
				q.free = append(q.free, key.slot)
				continue
			}
			kept = append(kept, key)
		}
		for i := len(kept)/2 - 1; i >= 0; i-- {
			kept.down(i)
		}
		q.heaps[k] = kept
	}
}

// keyHeap is a binary min-heap of keys.
type keyHeap []queueKey

func (h *keyHeap) push(k queueKey) {
	*h = append(*h, k)
	a := *h
	for i := len(a) - 1; i > 0; {
		parent := (i - 1) / 2
		if !keyLess(&a[i], &a[parent]) {
			break
		}
		a[i], a[parent] = a[parent], a[i]
		i = parent
	}
}

// pop takes the smallest key out. It sifts bottom-up (Floyd): the hole
// the minimum leaves goes down to a leaf along the smaller children, one
// comparison a level, and the last key climbs back from there, which is
// rarely far since it is among the latest; sifting it down from the root
// took two comparisons at each of all the levels.
func (h *keyHeap) pop() queueKey {
	a := *h
	top := a[0]
	last := len(a) - 1
	x := a[last]
	a = a[:last]
	*h = a
	if last == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		if r := l + 1; r < last && keyLess(&a[r], &a[l]) {
			l = r
		}
		a[i] = a[l]
		i = l
	}
	for i > 0 {
		p := (i - 1) / 2
		if !keyLess(&x, &a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = x
	return top
}

// down restores the heap below i after a[i] changed.
func (h keyHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && keyLess(&h[r], &h[l]) {
			m = r
		}
		if !keyLess(&h[m], &h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}

// World is one simulation: the clock, the queue, the nodes, the network
// and the trace. Everything happens on the caller's goroutine, one event
// at a time, in (time, insertion) order.
type World struct {
	now   Time
	seq   uint64
	queue eventQueue
	names *Names
	// nodes is indexed by NodeID (nil where a code names no node of
	// this world); order lists them as they were added.
	nodes   []*node
	order   []NodeID
	nextMsg int64
	Net     *Network
	Trace   Trace
	// OnEvent, when set, sees each trace event as it is recorded (the
	// invariant checker follows the run this way).
	OnEvent func(e *Event)
	broken  map[*safety.Mechanism]bool
	// firing is the timer being handled (handlers must not keep it).
	firing Timer
	// deliveries and foreground count the queued events a `run` waits
	// for, so Idle is O(nodes) rather than O(queue).
	deliveries int
	foreground int
	// guard asserts the queue's order on every pop (order.go).
	guard orderGuard
	// steps counts Step's events, to yield to the collector every
	// yieldEvery of them (yield_js.go); it decides nothing.
	steps uint32
	// envelopes is where the next messages' envelopes are cut from: one
	// allocation per envBlock messages rather than one per message (a
	// sixth of an explorer run's allocations). A block lives while any of
	// its envelopes does, and some are held for long (an append waiting
	// for the high watermark keeps its request's envelope until its 30 s
	// timeout), so blocks are small: with 128 (7e78759) almost every block
	// stayed alive, 1.6 MB at the end of the heavy run; with 8, 0.37 MB.
	envelopes []Envelope
}

// envBlock is how many envelopes one allocation of World holds.
const envBlock = 8

// NewWorld creates an empty world whose network draws from seed.
func NewWorld(seed uint64) *World {
	w := &World{names: NewNames(), Net: newNetwork(DeriveSeed(seed, "network"))}
	w.Trace.names = w.names
	// A cluster keeps a few hundred events queued (messages in flight,
	// request timeouts): start there rather than growing to it.
	w.queue.heaps[0] = make(keyHeap, 0, 64)
	w.queue.heaps[1] = make(keyHeap, 0, 256)
	return w
}

// Now is the virtual time.
func (w *World) Now() Time { return w.now }

// Names is the world's table of node names: what its trace's codes
// stand for.
func (w *World) Names() *Names { return w.names }

// Node is name's code in this world, given the next one if the world
// has not seen the name yet. It does not add a node (AddNode does).
// The table holds MaxNodeNames names; a cluster's limits on brokers and
// clients keep a world far below it, so running out is a bug.
func (w *World) Node(name string) NodeID {
	id, ok := w.names.Intern(name)
	if !ok {
		panic("sim: more than " + strconv.Itoa(MaxNodeNames) + " node names in one world")
	}
	return id
}

// Lookup is name's code if the world knows the name (a node may still
// not exist under it: Handler tells).
func (w *World) Lookup(name string) (NodeID, bool) { return w.names.Lookup(name) }

// Name is id's name ("" for NoNode).
func (w *World) Name(id NodeID) string { return w.names.Name(id) }

// Label is state name s's code, for a state event's From and To.
func (w *World) Label(s string) Label { return w.names.InternLabel(s) }

// AddNode registers a node under id, a code Node gave. Names must be
// unique.
func (w *World) AddNode(id NodeID, h Handler) {
	if id == NoNode || int(id) >= w.names.Len() {
		panic("sim: AddNode of a code the world did not give: " + strconv.Itoa(int(id)))
	}
	if w.node(id) != nil {
		panic("sim: duplicate node " + w.Name(id))
	}
	for int(id) >= len(w.nodes) {
		w.nodes = append(w.nodes, nil)
	}
	w.nodes[id] = &node{id: id, handler: h}
	w.order = append(w.order, id)
}

// node is the node id names, nil if there is none.
func (w *World) node(id NodeID) *node {
	if int(id) < len(w.nodes) {
		return w.nodes[id]
	}
	return nil
}

// Nodes lists node names in the order they were added.
func (w *World) Nodes() []NodeID { return w.order }

// Handler returns a node's current handler.
func (w *World) Handler(id NodeID) Handler {
	if n := w.node(id); n != nil {
		return n.handler
	}
	return nil
}

// StatusOf returns a node's status; unknown nodes are reported crashed.
func (w *World) StatusOf(id NodeID) Status {
	if n := w.node(id); n != nil {
		return n.status
	}
	return Crashed
}

// Record appends an event to the trace, stamping its index and time; an
// event that carries no message gets protocol.NoAPI, so that no reader
// mistakes it for a Produce (key 0). An event with a note and no text
// gets the note's English as its text.
func (w *World) Record(e Event) {
	e.Index = w.Trace.Len()
	e.At = w.now
	if !e.Kind.CarriesMessage() {
		e.API = protocol.NoAPI
	}
	if e.Note != nil && e.Text == "" {
		e.Text = e.Note.English()
	}
	w.Trace.add(&e)
	if w.OnEvent != nil {
		// A copy of its own, so that e stays on the stack when no one
		// watches.
		seen := e
		w.OnEvent(&seen)
	}
}

// Note records a note at a node: the sentence of code c with its
// arguments, its English as the event's text.
func (w *World) Note(node NodeID, subject string, c NoteCode, args ...string) {
	w.Record(Event{Kind: KindNote, Node: node, Subject: subject, Note: &Note{Code: c, Args: args}})
}

// Send puts a message on the wire from one node to another and returns its
// id. The latency and any delay rule are fixed now; drops and cuts are
// judged at delivery.
func (w *World) Send(from, to NodeID, msg protocol.Message, replyTo int64) int64 {
	return w.send(from, to, msg, replyTo, false)
}

// SendInternal sends replication traffic, which the UI hides by default.
func (w *World) SendInternal(from, to NodeID, msg protocol.Message, replyTo int64) int64 {
	return w.send(from, to, msg, replyTo, true)
}

// Conn is one ordered connection from a sender to a node, as a TCP
// connection is: what is sent on it arrives in the order it was sent,
// where independent messages may overtake each other on the seeded
// latencies. A delay rule still holds one message back (a fault the
// script asked for). The zero value is a fresh connection; the sender
// replaces it when it closes the connection.
type Conn struct{ last Time }

// SendOn is Send on conn: the message arrives no earlier than the one
// sent on conn before it (a delay rule's delay excepted).
func (w *World) SendOn(conn *Conn, from, to NodeID, msg protocol.Message, replyTo int64) int64 {
	return w.sendConn(conn, from, to, msg, replyTo, false)
}

func (w *World) send(from, to NodeID, msg protocol.Message, replyTo int64, internal bool) int64 {
	return w.sendConn(nil, from, to, msg, replyTo, internal)
}

func (w *World) sendConn(conn *Conn, from, to NodeID, msg protocol.Message, replyTo int64, internal bool) int64 {
	w.nextMsg++
	if len(w.envelopes) == 0 {
		w.envelopes = make([]Envelope, envBlock)
	}
	env := &w.envelopes[0]
	w.envelopes = w.envelopes[1:]
	// Field by field into the block's zeroed envelope: a whole-struct
	// assignment is a typed copy, the write barrier's slow path while the
	// collector marks.
	env.ID, env.From, env.To, env.SentAt, env.ReplyTo, env.Internal = w.nextMsg, from, to, w.now, replyTo, internal
	env.Msg = msg
	if n := w.node(from); n != nil {
		env.fromGen, env.src = n.gen, n
	}
	env.dst = w.node(to)
	at := w.now + w.Net.latency()
	if conn != nil {
		at = max(at, conn.last)
		conn.last = at
	}
	env.DeliverAt = at + w.Net.delayFor(env)
	env.sent = sentFields{API: msg.APIKey(), Error: protocol.Error(msg), Resp: msg.IsResponse()}
	w.Record(Event{Kind: KindSend, Node: from, Peer: to, MsgID: env.ID, ReplyTo: replyTo,
		API: env.sent.API, Resp: env.sent.Resp, Msg: msg, Error: env.sent.Error, Internal: internal})
	w.push(event{at: env.DeliverAt, kind: evDeliver, env: env})
	return env.ID
}

// After sets a timer for node d from now. Timers die with the node's
// incarnation: a crash voids them.
func (w *World) After(id NodeID, d Time, kind string, data any) {
	w.after(id, d, kind, data, false)
}

// AfterBackground sets a periodic-scan timer that does not keep `run` busy.
func (w *World) AfterBackground(id NodeID, d Time, kind string, data any) {
	w.after(id, d, kind, data, true)
}

// AfterFor sets a timer that fires into h rather than into the node's
// Handler. The node still governs it: its crash voids it, its pause holds
// it. background is AfterBackground's.
func (w *World) AfterFor(id NodeID, h TimerHandler, d Time, kind string, data any, background bool) {
	w.afterTo(id, h, d, kind, data, background)
}

func (w *World) after(id NodeID, d Time, kind string, data any, bg bool) {
	w.afterTo(id, nil, d, kind, data, bg)
}

func (w *World) afterTo(id NodeID, h TimerHandler, d Time, kind string, data any, bg bool) {
	n := w.node(id)
	if n == nil {
		panic("sim: timer for unknown node " + w.Name(id))
	}
	if d < 0 {
		d = 0
	}
	w.push(event{at: w.now + d, kind: evTimer, timer: Timer{Node: id, Kind: kind, Data: data, Background: bg, gen: n.gen, n: n, to: h}})
}

func (w *World) push(e event) {
	w.seq++
	e.seq = w.seq
	w.count(&e, 1)
	w.queue.push(e)
}

func (w *World) count(e *event, d int) {
	if e.kind == evDeliver {
		w.deliveries += d
	} else if !e.timer.Background {
		w.foreground += d
	}
}

// Pending is what the next event would be, for `run until` and the UI.
type Pending struct {
	At    Time
	Env   *Envelope // set for a delivery
	Timer *Timer    // set for a timer
}

// Peek returns the next event without running it.
func (w *World) Peek() (Pending, bool) {
	if w.queue.len() == 0 {
		return Pending{}, false
	}
	e := w.queue.peek()
	p := Pending{At: e.at, Env: e.env}
	if e.kind == evTimer {
		p.Timer = &e.timer
	}
	return p, true
}

// Idle reports whether nothing remains that a `run` must wait for: no
// message in flight, no foreground timer, no busy node.
func (w *World) Idle() bool {
	if w.deliveries > 0 || w.foreground > 0 {
		return false
	}
	for _, id := range w.order {
		n := w.nodes[id]
		if n.status != Up {
			continue // a stalled or dead process holds no work a run waits for
		}
		if b, ok := n.handler.(Busy); ok && b.Busy() {
			return false
		}
	}
	return true
}

// QueueLen is the number of scheduled events.
func (w *World) QueueLen() int { return w.queue.len() }

// yieldEvery is how many events Step runs between two yields to the
// collector (yield_js.go): about 8 ms of a heavy run under wasm.
const yieldEvery = 1024

// Step runs the next event. It returns false when the queue is empty.
func (w *World) Step() bool {
	if w.queue.len() == 0 {
		return false
	}
	slot := w.queue.popSlot()
	e := w.queue.slot(slot)
	w.count(e, -1)
	w.guard.observe(e.at, e.seq, w.now)
	if e.at > w.now {
		w.now = e.at
	}
	w.dispatch(e)
	w.queue.release(slot)
	if w.steps++; w.steps%yieldEvery == 0 {
		yieldToCollector()
	}
	return true
}

// AdvanceTo moves the clock forward to t, firing everything due on the way.
// The bound on steps keeps a runaway feedback loop from hanging the host.
func (w *World) AdvanceTo(t Time, maxSteps int) (steps int, ok bool) {
	for w.queue.len() > 0 && w.queue.peek().at <= t {
		if steps >= maxSteps {
			return steps, false
		}
		w.Step()
		steps++
	}
	if t > w.now {
		w.now = t
	}
	return steps, true
}

func (w *World) dispatch(e *event) {
	switch e.kind {
	case evDeliver:
		w.deliver(e)
	case evTimer:
		n := e.timer.n
		if n == nil || n.gen != e.timer.gen || n.status == Crashed {
			return
		}
		if n.status == Paused {
			n.held = append(n.held, *e)
			return
		}
		w.firing = e.timer
		if h := e.timer.to; h != nil {
			h.Timer(w, &w.firing)
			return
		}
		n.handler.Timer(w, &w.firing)
	}
}

func (w *World) deliver(e *event) {
	env := e.env
	if !e.arrived {
		if reason := w.Net.judge(env); reason != "" {
			w.drop(env, reason)
			return
		}
	}
	n := env.dst
	if n == nil {
		n = w.node(env.To) // a node added after the send
	}
	if n == nil || n.status == Crashed {
		w.drop(env, DropDestinationDown)
		// The sender's connection is refused: it learns of it one latency
		// later, as a client's NetworkClient sees a disconnection, and can
		// retry elsewhere without waiting for request.timeout.ms.
		from := env.src
		if from == nil {
			from = w.node(env.From)
		}
		if from != nil && from.status != Crashed && from.gen == env.fromGen && !env.Msg.IsResponse() {
			w.push(event{at: w.now + w.Net.latency(), kind: evTimer,
				timer: Timer{Node: env.From, Kind: TimerDisconnected, Data: env, gen: from.gen, n: from}})
		}
		return
	}
	if n.status == Paused {
		n.held = append(n.held, *e)
		return
	}
	w.Record(Event{Kind: KindDeliver, Node: env.From, Peer: env.To, MsgID: env.ID, ReplyTo: env.ReplyTo,
		API: env.sent.API, Resp: env.sent.Resp, Error: env.sent.Error, Internal: env.Internal})
	n.handler.Receive(w, env)
	if env.Msg.IsResponse() {
		// A delivered response is done with (no handler keeps a
		// response's envelope; requests are kept: a parked fetch, an
		// append awaiting the high watermark, a JoinGroup), but its
		// envelope shares a block with envBlock-1 others, one of which
		// may be held for long: without this, that one keeps this
		// message and all it points to alive. The trace keeps its own
		// reference. A session parked for seeking (app/engine), whose
		// trace reads the history's events, then holds only its state:
		// 3 MB less of 20 at 10,000 events.
		env.Msg = nil
	}
}

func (w *World) drop(env *Envelope, reason string) {
	w.Record(Event{Kind: KindDrop, Node: env.From, Peer: env.To, MsgID: env.ID, ReplyTo: env.ReplyTo,
		API: env.sent.API, Resp: env.sent.Resp, Error: env.sent.Error, Text: reason, Internal: env.Internal})
}

// Crash stops a node at once: its timers die and messages to it are lost.
// Messages it already sent stay on the wire.
func (w *World) Crash(id NodeID) {
	n := w.nodes[id]
	n.status = Crashed
	n.gen++
	n.held = nil
	// The dead incarnation's timers will never fire: take them out now so
	// they neither cost steps nor keep a `run` waiting.
	w.queue.removeIf(func(e *event) bool {
		if e.kind == evTimer && e.timer.Node == id {
			w.count(e, -1)
			return true
		}
		return false
	})
	w.Record(Event{Kind: KindCrash, Node: id})
}

// Restart brings a crashed node back with a fresh handler (a broker
// rebuilt from its logs).
func (w *World) Restart(id NodeID, h Handler) {
	n := w.nodes[id]
	n.status = Up
	n.gen++
	n.handler = h
	w.Record(Event{Kind: KindRestart, Node: id})
}

// Pause stalls a node: it receives nothing and its timers wait.
func (w *World) Pause(id NodeID) {
	w.nodes[id].status = Paused
	w.Record(Event{Kind: KindPause, Node: id})
}

// Resume wakes a paused node, which then finds what arrived meanwhile, in
// arrival order, as events at the current time.
func (w *World) Resume(id NodeID) {
	n := w.nodes[id]
	n.status = Up
	w.Record(Event{Kind: KindResume, Node: id})
	held := n.held
	n.held = nil
	for _, e := range held {
		e.at = w.now
		e.arrived = e.kind == evDeliver
		w.push(e)
	}
}

// Broken reports whether a mechanism is switched off.
func (w *World) Broken(m *safety.Mechanism) bool { return w.broken[m] }

// SetBroken switches a mechanism off (true) or back on (false).
func (w *World) SetBroken(m *safety.Mechanism, off bool) {
	if w.broken == nil {
		w.broken = map[*safety.Mechanism]bool{}
	}
	w.broken[m] = off
}
