package sim

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/safety"
)

// recorder is a node that logs what reaches it: "msg <api> #<id> from <node>"
// for a delivery, "timer <kind>" for a timer, each with the time.
type recorder struct {
	id  NodeID
	log []string
	// onReceive, when set, runs after logging a delivery (to reply).
	onReceive func(w *World, env *Envelope)
}

func (r *recorder) Receive(w *World, env *Envelope) {
	r.log = append(r.log, "@"+strconv.FormatInt(int64(w.Now()), 10)+" msg "+env.Msg.APIKey().String()+
		" #"+strconv.FormatInt(env.ID, 10)+" from "+w.Name(env.From))
	if r.onReceive != nil {
		r.onReceive(w, env)
	}
}

func (r *recorder) Timer(w *World, t *Timer) {
	s := "@" + strconv.FormatInt(int64(w.Now()), 10) + " timer " + t.Kind
	if t.Kind == TimerDisconnected {
		s += " #" + strconv.FormatInt(t.Data.(*Envelope).ID, 10)
	}
	r.log = append(r.log, s)
}

// fixedWorld has nodes a, b, c and a fixed latency, so tests know when
// each message arrives.
func fixedWorld(latency Time) (*World, map[NodeID]*recorder) {
	w := NewWorld(1)
	w.Net.MinLatency, w.Net.MaxLatency = latency, latency
	nodes := map[NodeID]*recorder{}
	for _, name := range []string{"a", "b", "c"} {
		id := w.Node(name)
		r := &recorder{id: id}
		nodes[id] = r
		w.AddNode(id, r)
	}
	return w, nodes
}

func runAll(t *testing.T, w *World) {
	t.Helper()
	for i := 0; w.Step(); i++ {
		if i > 100000 {
			t.Fatal("the queue never drained")
		}
	}
}

func req() protocol.Message  { return &protocol.EndTxnRequest{TransactionalId: "t"} }
func resp() protocol.Message { return &protocol.EndTxnResponse{} }

func kinds(w *World) []string {
	var out []string
	for _, e := range w.Trace.All() {
		out = append(out, e.Line(w.Names()))
	}
	return out
}

func TestQueueFIFOOnTies(t *testing.T) {
	w, n := fixedWorld(3)
	// Timers and deliveries due at the same instant run in insertion order.
	w.After(nodeb, 3, "t1", nil)
	w.Send(nodea, nodeb, req(), 0) // arrives at 3
	w.After(nodeb, 3, "t2", nil)
	w.Send(nodec, nodeb, req(), 0) // arrives at 3
	w.After(nodeb, 3, "t3", nil)
	w.After(nodeb, 2, "early", nil)
	runAll(t, w)
	want := []string{"@2 timer early", "@3 timer t1", "@3 msg EndTxn #1 from a", "@3 timer t2",
		"@3 msg EndTxn #2 from c", "@3 timer t3"}
	if !reflect.DeepEqual(n[nodeb].log, want) {
		t.Fatalf("order:\n got %q\nwant %q", n[nodeb].log, want)
	}
	// Many ties: a heap is not stable by itself, the sequence number is.
	w2, n2 := fixedWorld(1)
	for i := 0; i < 200; i++ {
		w2.After(nodea, 10, "k"+strconv.Itoa(i), nil)
	}
	runAll(t, w2)
	for i, s := range n2[nodea].log {
		if s != "@10 timer k"+strconv.Itoa(i) {
			t.Fatalf("tie %d ran as %q", i, s)
		}
	}
}

func TestNegativeTimerRunsNow(t *testing.T) {
	w, n := fixedWorld(1)
	w.AdvanceTo(50, 10)
	w.After(nodea, -5, "late", nil)
	runAll(t, w)
	if want := []string{"@50 timer late"}; !reflect.DeepEqual(n[nodea].log, want) {
		t.Fatalf("got %q want %q", n[nodea].log, want)
	}
}

func TestMessageToCrashedNodeIsDroppedAndSenderDisconnected(t *testing.T) {
	w, n := fixedWorld(2)
	w.Crash(nodeb)
	id := w.Send(nodea, nodeb, req(), 0) // lost at 2; a learns one latency later
	runAll(t, w)
	if len(n[nodeb].log) != 0 {
		t.Fatalf("crashed node received %q", n[nodeb].log)
	}
	want := []string{"@4 timer disconnected #" + strconv.FormatInt(id, 10)}
	if !reflect.DeepEqual(n[nodea].log, want) {
		t.Fatalf("sender got %q, want %q", n[nodea].log, want)
	}
	var drop *Event
	for _, e := range w.Trace.All() {
		if e.Kind == KindDrop {
			drop = e
		}
	}
	if drop == nil || drop.Text != "destination down" || drop.At != 2 || drop.MsgID != id {
		t.Fatalf("drop event %+v", drop)
	}
	if got := drop.Line(w.Names()); got != "2ms drop #1 a -> b EndTxn (destination down)" {
		t.Errorf("drop line %q", got)
	}
}

func TestResponseToCrashedNodeGivesNoDisconnect(t *testing.T) {
	w, n := fixedWorld(2)
	w.Crash(nodeb)
	w.Send(nodea, nodeb, resp(), 7)
	runAll(t, w)
	if len(n[nodea].log) != 0 {
		t.Fatalf("a responder was told of a disconnection: %q", n[nodea].log)
	}
}

func TestCrashedSenderGetsNoDisconnect(t *testing.T) {
	w, n := fixedWorld(2)
	w.Crash(nodeb)
	w.Send(nodea, nodeb, req(), 0)
	w.Crash(nodea) // gone before its request is refused
	w.Restart(nodea, n[nodea])
	runAll(t, w)
	if len(n[nodea].log) != 0 {
		t.Fatalf("crashed sender got %q", n[nodea].log)
	}
}

func TestMessageInFlightFromCrashedSenderIsDelivered(t *testing.T) {
	w, n := fixedWorld(2)
	w.Send(nodea, nodeb, req(), 0)
	w.Crash(nodea) // it is on the wire already
	runAll(t, w)
	if want := []string{"@2 msg EndTxn #1 from a"}; !reflect.DeepEqual(n[nodeb].log, want) {
		t.Fatalf("got %q want %q", n[nodeb].log, want)
	}
}

// TestAfterForReachesTheModule: a timer set for a module a node hosts
// fires into the module, not the node's handler, and still follows the
// node: held while it is paused, void once it crashed.
func TestAfterForReachesTheModule(t *testing.T) {
	w, n := fixedWorld(1)
	module := &recorder{id: nodeb}
	w.AfterFor(nodeb, module, 10, "module-timer", nil, false)
	w.After(nodeb, 10, "node-timer", nil)
	w.AfterFor(nodeb, module, 20, "held", nil, true)
	w.AfterFor(nodec, module, 10, "void", nil, false)
	w.Crash(nodec)
	for next, ok := w.Peek(); ok && next.At < 15; next, ok = w.Peek() {
		w.Step()
	}
	w.Pause(nodeb)
	for i := 0; i < 10 && w.Step(); i++ {
	}
	if want := []string{"@10 timer module-timer"}; !reflect.DeepEqual(module.log, want) {
		t.Fatalf("the module got %q, want %q", module.log, want)
	}
	w.Resume(nodeb)
	runAll(t, w)
	if want := []string{"@10 timer module-timer", "@" + strconv.FormatInt(int64(w.Now()), 10) + " timer held"}; !reflect.DeepEqual(module.log, want) {
		t.Errorf("the module got %q, want %q", module.log, want)
	}
	if want := []string{"@10 timer node-timer"}; !reflect.DeepEqual(n[nodeb].log, want) {
		t.Errorf("the node got %q, want %q", n[nodeb].log, want)
	}
	if len(n[nodec].log) != 0 {
		t.Errorf("a crashed node's module timer reached %q", n[nodec].log)
	}
}

func TestCrashedNodesTimersAreVoid(t *testing.T) {
	w, n := fixedWorld(1)
	w.After(nodeb, 10, "old-incarnation", nil)
	w.AfterBackground(nodeb, 10, "old-background", nil)
	w.Crash(nodeb)
	if !w.Idle() {
		t.Error("a dead node's timer keeps the world busy")
	}
	nb := &recorder{id: nodeb}
	w.Restart(nodeb, nb)
	w.After(nodeb, 20, "new-incarnation", nil)
	runAll(t, w)
	if len(n[nodeb].log) != 0 {
		t.Fatalf("the old handler ran: %q", n[nodeb].log)
	}
	if want := []string{"@20 timer new-incarnation"}; !reflect.DeepEqual(nb.log, want) {
		t.Fatalf("after restart got %q, want %q", nb.log, want)
	}
	if w.Handler(nodeb) != Handler(nb) || w.StatusOf(nodeb) != Up {
		t.Error("restart did not install the new handler")
	}
}

func TestPausedNodeGetsHeldMessagesOnResumeInOrder(t *testing.T) {
	w, n := fixedWorld(2)
	w.Pause(nodeb)
	w.Send(nodea, nodeb, req(), 0) // #1 at 2
	w.Send(nodec, nodeb, req(), 0) // #2 at 2
	w.After(nodeb, 3, "tick", nil) // held too
	w.AdvanceTo(4, 100)
	w.Send(nodea, nodeb, req(), 0) // #3 at 6
	w.AdvanceTo(100, 100)
	if len(n[nodeb].log) != 0 {
		t.Fatalf("a paused node received %q", n[nodeb].log)
	}
	if !w.Idle() {
		t.Error("a paused node's held work keeps the world busy")
	}
	for _, e := range w.Trace.All() {
		if e.Kind == KindDeliver || e.Kind == KindDrop {
			t.Fatalf("held message traced before resume: %s", e.Line(w.Names()))
		}
	}
	w.Resume(nodeb)
	runAll(t, w)
	want := []string{"@100 msg EndTxn #1 from a", "@100 msg EndTxn #2 from c", "@100 timer tick",
		"@100 msg EndTxn #3 from a"}
	if !reflect.DeepEqual(n[nodeb].log, want) {
		t.Fatalf("after resume:\n got %q\nwant %q", n[nodeb].log, want)
	}
	if len(n[nodea].log) != 0 {
		t.Errorf("the senders to a paused node were told something: %q", n[nodea].log)
	}
}

func TestCrashWhilePausedLosesHeldMessages(t *testing.T) {
	w, n := fixedWorld(1)
	w.Pause(nodeb)
	w.Send(nodea, nodeb, req(), 0)
	w.AdvanceTo(10, 100)
	w.Crash(nodeb)
	w.Restart(nodeb, n[nodeb])
	runAll(t, w)
	if len(n[nodeb].log) != 0 {
		t.Fatalf("held messages survived a crash: %q", n[nodeb].log)
	}
}

func TestDropRuleWithCount(t *testing.T) {
	w, n := fixedWorld(1)
	w.Net.Drops = append(w.Net.Drops,
		&DropRule{Match: Match{API: protocol.InitProducerId}, Remaining: -1}, // never matches
		&DropRule{Match: Match{API: protocol.EndTxn, To: nodeb}, Remaining: 2},
	)
	for i := 0; i < 4; i++ {
		w.Send(nodea, nodeb, req(), 0)
	}
	w.Send(nodea, nodec, req(), 0)  // other destination: delivered
	w.Send(nodea, nodeb, resp(), 1) // response: not matched by a request rule
	runAll(t, w)
	if want := []string{"@1 msg EndTxn #3 from a", "@1 msg EndTxn #4 from a", "@1 msg EndTxn #6 from a"}; !reflect.DeepEqual(n[nodeb].log, want) {
		t.Fatalf("b got %q, want %q", n[nodeb].log, want)
	}
	if len(n[nodec].log) != 1 {
		t.Errorf("c got %q", n[nodec].log)
	}
	if len(w.Net.Drops) != 1 || w.Net.Drops[0].API != protocol.InitProducerId {
		t.Errorf("the exhausted rule was not removed (or the wrong one was): %+v", w.Net.Drops)
	}
	drops := 0
	for _, e := range w.Trace.All() {
		if e.Kind == KindDrop {
			drops++
			if e.Text != "dropped by rule" {
				t.Errorf("drop reason %q", e.Text)
			}
		}
	}
	if drops != 2 {
		t.Errorf("%d drops traced, want 2", drops)
	}
	// A dropped message does not tell its sender anything.
	if len(n[nodea].log) != 0 {
		t.Errorf("sender of a dropped message got %q", n[nodea].log)
	}
}

func TestDropRuleForeverAndResponses(t *testing.T) {
	w, n := fixedWorld(1)
	w.Net.Drops = append(w.Net.Drops, &DropRule{Match: Match{API: protocol.EndTxn, Response: true, From: nodeb}, Remaining: -1})
	for i := 0; i < 5; i++ {
		w.Send(nodeb, nodea, resp(), 1)
	}
	w.Send(nodec, nodea, resp(), 1)
	w.Send(nodeb, nodea, req(), 0)
	runAll(t, w)
	if want := []string{"@1 msg EndTxn #6 from c", "@1 msg EndTxn #7 from b"}; !reflect.DeepEqual(n[nodea].log, want) {
		t.Fatalf("a got %q, want %q", n[nodea].log, want)
	}
	if len(w.Net.Drops) != 1 {
		t.Error("a rule without a count was removed")
	}
	w.Net.Heal()
	w.Send(nodeb, nodea, resp(), 1)
	runAll(t, w)
	if len(n[nodea].log) != 3 {
		t.Errorf("heal did not remove the drop rule: %q", n[nodea].log)
	}
}

func TestDelayIsFixedAtSend(t *testing.T) {
	w, n := fixedWorld(1)
	w.Send(nodea, nodeb, req(), 0) // #1: no delay, at 1
	w.Net.Delays = append(w.Net.Delays, DelayRule{Match: Match{API: protocol.EndTxn}, By: 100},
		DelayRule{Match: Match{API: protocol.EndTxn, From: nodec}, By: 10})
	w.Send(nodea, nodeb, req(), 0) // #2: at 101
	w.Send(nodec, nodeb, req(), 0) // #3: both rules, at 111
	w.Net.Heal()                   // keeps the delays already applied
	w.Send(nodea, nodeb, req(), 0) // #4: at 1
	runAll(t, w)
	want := []string{"@1 msg EndTxn #1 from a", "@1 msg EndTxn #4 from a", "@101 msg EndTxn #2 from a", "@111 msg EndTxn #3 from c"}
	if !reflect.DeepEqual(n[nodeb].log, want) {
		t.Fatalf("got %q want %q", n[nodeb].log, want)
	}
}

func TestCutJudgedAtDelivery(t *testing.T) {
	w, n := fixedWorld(5)
	w.Send(nodea, nodeb, req(), 0)
	w.Net.Cut(nodeb, nodea) // after the send, before the delivery
	w.Send(nodea, nodec, req(), 0)
	runAll(t, w)
	if len(n[nodeb].log) != 0 {
		t.Fatalf("delivered across a cut: %q", n[nodeb].log)
	}
	if len(n[nodec].log) != 1 {
		t.Fatalf("c got %q", n[nodec].log)
	}
	if !w.Net.IsCut(nodea, nodeb) || !w.Net.IsCut(nodeb, nodea) {
		t.Error("a cut is not symmetric")
	}
	found := false
	for _, e := range w.Trace.All() {
		if e.Kind == KindDrop && e.Text == "network cut" {
			found = true
		}
	}
	if !found {
		t.Error("no 'network cut' drop traced")
	}
	// A message sent before a heal but delivered after it goes through.
	w.Send(nodea, nodeb, req(), 0)
	w.Net.Heal()
	runAll(t, w)
	if len(n[nodeb].log) != 1 {
		t.Errorf("after heal b got %q", n[nodeb].log)
	}
}

func TestIdleAndBackgroundTimers(t *testing.T) {
	w, _ := fixedWorld(1)
	if !w.Idle() {
		t.Fatal("a fresh world is busy")
	}
	w.AfterBackground(nodea, 10, "scan", nil)
	if !w.Idle() {
		t.Error("a background timer keeps the world busy")
	}
	w.After(nodea, 10, "retry", nil)
	if w.Idle() {
		t.Error("a foreground timer does not keep the world busy")
	}
	runAll(t, w)
	w.Send(nodea, nodeb, req(), 0)
	if w.Idle() {
		t.Error("a message in flight does not keep the world busy")
	}
}

func TestAdvanceToStepBound(t *testing.T) {
	w, n := fixedWorld(1)
	for i := 0; i < 5; i++ {
		w.After(nodea, Time(i+1), "t", nil)
	}
	steps, ok := w.AdvanceTo(100, 3)
	if ok || steps != 3 || w.Now() != 3 {
		t.Fatalf("AdvanceTo bounded: steps=%d ok=%v now=%d", steps, ok, w.Now())
	}
	steps, ok = w.AdvanceTo(100, 100)
	if !ok || steps != 2 || w.Now() != 100 || len(n[nodea].log) != 5 {
		t.Fatalf("AdvanceTo: steps=%d ok=%v now=%d log=%q", steps, ok, w.Now(), n[nodea].log)
	}
}

// TestLatencyDrawsAreSeeded: two worlds with one seed draw the same
// latencies; another seed draws others.
func TestLatencyDrawsAreSeeded(t *testing.T) {
	arrivals := func(seed uint64) []Time {
		w := NewWorld(seed)
		r := &recorder{}
		w.AddNode(w.Node("a"), r)
		w.AddNode(w.Node("b"), r)
		var at []Time
		for i := 0; i < 30; i++ {
			w.Send(nodea, nodeb, req(), 0)
		}
		for {
			p, ok := w.Peek()
			if !ok {
				break
			}
			at = append(at, p.At)
			w.Step()
		}
		return at
	}
	a, b, c := arrivals(5), arrivals(5), arrivals(6)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different latencies: %v vs %v", a, b)
	}
	if reflect.DeepEqual(a, c) {
		t.Fatal("different seeds drew the same 30 latencies")
	}
	for _, x := range a {
		if x < 1 || x > 5 {
			t.Fatalf("latency %d outside the default 1..5 ms", x)
		}
	}
}

// testNames is a name table and its interning, for events made by hand.
func testNames() (*Names, func(string) NodeID) {
	n := NewNames()
	n.Intern("unused") // so that no code equals a name's place by chance
	return n, func(name string) NodeID { id, _ := n.Intern(name); return id }
}

func TestEventLines(t *testing.T) {
	names, id := testNames()
	msg := &protocol.EndTxnRequest{TransactionalId: "t", ProducerId: 7, ProducerEpoch: 1, Committed: true}
	tests := []struct {
		e    Event
		want string
	}{
		{Event{At: 12, Kind: KindSend, Node: id("p1"), Peer: id("broker-0"), MsgID: 3, API: protocol.EndTxn, Msg: msg},
			"12ms send #3 p1 -> broker-0 EndTxn " + msg.Summary()},
		{Event{At: 13, Kind: KindDeliver, Node: id("p1"), Peer: id("broker-0"), MsgID: 3, API: protocol.EndTxn},
			"13ms deliver #3 p1 -> broker-0 EndTxn"},
		{Event{At: 14, Kind: KindDrop, Node: id("broker-0"), Peer: id("p1"), MsgID: 4, API: protocol.EndTxn, Resp: true, Text: "network cut"},
			"14ms drop #4 broker-0 -> p1 EndTxn.response (network cut)"},
		{Event{At: 1, Kind: KindState, Node: id("broker-0"), Subject: "txn t", From: names.InternLabel("Ongoing"), To: names.InternLabel("PrepareCommit"), Text: "pid=7 epoch=1"},
			"1ms state broker-0 txn t Ongoing -> PrepareCommit pid=7 epoch=1"},
		{Event{At: 1, Kind: KindState, Node: id("broker-0"), Subject: "txn t", From: names.InternLabel("Empty"), To: names.InternLabel("PrepareCommit"), Text: "pid=7 epoch=1", Illegal: true},
			"1ms state broker-0 txn t Empty -> PrepareCommit pid=7 epoch=1 ILLEGAL"},
		{Event{At: 1, Kind: KindState, Node: id("p1"), Subject: "producer p1", From: names.InternLabel("READY"), To: names.InternLabel("COMMITTING_TRANSACTION"), Illegal: true},
			"1ms state p1 producer p1 READY -> COMMITTING_TRANSACTION ILLEGAL"},
		{Event{At: 2, Kind: KindAppend, Node: id("broker-1"), Subject: "orders/0", Offset: 5, Text: "[k=v]"},
			"2ms append broker-1 orders/0@5 [k=v]"},
		{Event{At: 3, Kind: KindCrash, Node: id("broker-2")}, "3ms crash broker-2"},
		{Event{At: 4, Kind: KindNote, Node: id("controller"), Subject: "broker-2", Text: "fenced"}, "4ms note controller broker-2 fenced"},
		{Event{At: 5, Kind: KindExpect, Node: id("script"), Subject: "line 3", Text: "ok expect p1 ok"}, "5ms expect script line 3 ok expect p1 ok"},
	}
	for _, tc := range tests {
		if got := tc.e.Line(names); got != tc.want {
			t.Errorf("Line() = %q, want %q", got, tc.want)
		}
	}
	if !strings.Contains(msg.Summary(), "t") {
		t.Errorf("summary %q", msg.Summary())
	}
}

// TestDigestStable pins the digest of a fixed history: the canonical
// line format and the hash must not drift, or every committed digest and
// every digest a learner shared would stop matching.
func TestDigestStable(t *testing.T) {
	names, id := testNames()
	events := []Event{
		{At: 0, Kind: KindNote, Node: id("controller"), Text: "hello"},
		{At: 3, Kind: KindCrash, Node: id("broker-1")},
		{At: 7, Kind: KindState, Node: id("broker-0"), Subject: "txn t", From: names.InternLabel("Empty"), To: names.InternLabel("Ongoing")},
	}
	// FNV-1a 128 of "0ms note controller hello\n3ms crash broker-1\n7ms state broker-0 txn t Empty -> Ongoing\n",
	// first 16 hex digits (computed independently in Python)
	const want = "711f03a26faad449"
	if got := DigestOf(names, events); got != want {
		t.Errorf("DigestOf = %s, want %s", got, want)
	}
	if got := DigestOf(names, nil); got != "6c62272e07bb0142" { // the FNV-128 offset basis
		t.Errorf("empty digest %s", got)
	}
	// A Digester gives the digest of every prefix.
	var d Digester
	if d.Sum() != DigestOf(names, nil) {
		t.Error("an empty Digester's sum differs from DigestOf(names, nil)")
	}
	for i := range events {
		d.Add(names, &events[i])
		if got, want := d.Sum(), DigestOf(names, events[:i+1]); got != want {
			t.Errorf("Digester after %d events: %s, want %s", i+1, got, want)
		}
	}
	// Index, Internal and the JSON-only fields do not enter the digest.
	ev2 := append([]Event(nil), events...)
	ev2[0].Index, ev2[1].Internal, ev2[2].Error = 99, true, protocol.PRODUCER_FENCED
	if DigestOf(names, ev2) != DigestOf(names, events) {
		t.Error("non-canonical fields changed the digest")
	}
	// Two identical runs digest identically; a different seed does not.
	run := func(seed uint64) string {
		w := NewWorld(seed)
		r := &recorder{}
		r.onReceive = func(w *World, env *Envelope) {
			if !env.Msg.IsResponse() {
				w.Send(env.To, env.From, resp(), env.ID)
			}
		}
		w.AddNode(w.Node("a"), r)
		w.AddNode(w.Node("b"), r)
		for i := 0; i < 20; i++ {
			w.Send(nodea, nodeb, req(), 0)
			w.After(nodea, Time(i), "tick", nil)
		}
		for w.Step() {
		}
		return w.Trace.Digest()
	}
	if run(3) != run(3) {
		t.Error("the same run digests differently")
	}
	if run(3) == run(4) {
		t.Error("different seeds, same digest")
	}
}

func TestMechanisms(t *testing.T) {
	w := NewWorld(1)
	for _, m := range safety.Mechanisms {
		if w.Broken(m) {
			t.Errorf("%s broken in a fresh world", m)
		}
	}
	w.SetBroken(safety.LSOBound, true)
	if !w.Broken(safety.LSOBound) || w.Broken(safety.EpochFencing) {
		t.Error("SetBroken leaked")
	}
	w.SetBroken(safety.LSOBound, false)
	if w.Broken(safety.LSOBound) {
		t.Error("restore did not restore")
	}
}

func TestTimeHuman(t *testing.T) {
	for _, tc := range []struct {
		t    Time
		want string
	}{{0, "0ms"}, {250, "250ms"}, {9 * Second, "9s"}, {2 * Minute, "2m"}, {Hour, "1h"}, {7 * Day, "7d"}, {1500, "1500ms"}} {
		if got := tc.t.Human(); got != tc.want {
			t.Errorf("%d.Human() = %q, want %q", tc.t, got, tc.want)
		}
	}
	if Time(12).String() != "12ms" {
		t.Error(Time(12).String())
	}
}

// TestHeldMessagesAreNotJudgedAgain: a message that reached a paused
// process has arrived; a cut or drop rule installed before the process
// resumes must not lose it ("a paused process ... then finds what arrived
// meanwhile"), nor spend a drop rule's count on it.
func TestHeldMessagesAreNotJudgedAgain(t *testing.T) {
	w, n := fixedWorld(1)
	w.Pause(nodeb)
	w.Send(nodea, nodeb, req(), 0)
	w.Send(nodec, nodeb, req(), 0)
	w.AdvanceTo(10, 100) // both arrived and are held
	w.Net.Cut(nodea, nodeb)
	rule := &DropRule{Match: Match{API: protocol.EndTxn}, Remaining: 1}
	w.Net.Drops = append(w.Net.Drops, rule)
	w.Resume(nodeb)
	runAll(t, w)
	want := []string{"@10 msg EndTxn #1 from a", "@10 msg EndTxn #2 from c"}
	if !reflect.DeepEqual(n[nodeb].log, want) {
		t.Fatalf("after resume b got %q, want %q", n[nodeb].log, want)
	}
	if rule.Remaining != 1 || len(w.Net.Drops) != 1 {
		t.Errorf("a held message spent the drop rule's count: %+v", w.Net.Drops)
	}
}

// TestTraceAcrossBlocks: the trace is stored in blocks; indexes, copies
// from any index and pointers handed out earlier all stay right across
// block boundaries.
func TestTraceAcrossBlocks(t *testing.T) {
	w := NewWorld(1)
	var first *Event
	w.OnEvent = func(e *Event) {
		if first == nil {
			first = e
		}
	}
	n := 2*traceChunk + 7
	for i := 0; i < n; i++ {
		w.Note(nodea, "", NoteStatement, strconv.Itoa(i))
	}
	if w.Trace.Len() != n {
		t.Fatalf("Len = %d, want %d", w.Trace.Len(), n)
	}
	if first.Text != "0" || *first != *w.Trace.At(0) {
		t.Fatal("the first event changed after the trace grew")
	}
	for _, from := range []int{0, 1, traceChunk - 1, traceChunk, traceChunk + 1, 2 * traceChunk, n - 1, n, n + 5} {
		got := w.Trace.Events(from)
		if want := max(0, n-from); len(got) != want {
			t.Fatalf("Events(%d) has %d events, want %d", from, len(got), want)
		}
		for i, e := range got {
			if e.Index != from+i || e.Text != strconv.Itoa(from+i) {
				t.Fatalf("Events(%d)[%d] = #%d %q", from, i, e.Index, e.Text)
			}
		}
	}
	seen := 0
	for i, e := range w.Trace.All() {
		if e.Index != i || *w.Trace.At(i) != *e {
			t.Fatalf("All yielded #%d at %d", e.Index, i)
		}
		seen++
	}
	if seen != n {
		t.Fatalf("All yielded %d events, want %d", seen, n)
	}
}

// TestTraceShareWith: a trace whose blocks alias a longer copy of the
// same history reads the same, keeps growing in blocks of its own, and
// never writes into the shared copy.
func TestTraceShareWith(t *testing.T) {
	run := func(n int) *World {
		w := NewWorld(1)
		for i := 0; i < n; i++ {
			w.Note(nodea, "", NoteStatement, strconv.Itoa(i))
		}
		return w
	}
	history := run(3*traceChunk + 10).Trace.Events(0)
	w := run(2*traceChunk + 5)
	w.Trace.ShareWith(history)
	if w.Trace.At(0) != &history[0] || w.Trace.At(traceChunk) != &history[traceChunk] {
		t.Fatal("the first events are not the history's")
	}
	if w.Trace.At(2*traceChunk+4) != &history[2*traceChunk+4] {
		t.Fatal("the last shared event is not the history's")
	}
	for i := 0; i < traceChunk; i++ {
		w.Note(nodeb, "", NoteStatement, "new")
	}
	for i, e := range history {
		if e.Text != strconv.Itoa(i) {
			t.Fatalf("history[%d] changed to %q", i, e.Text)
		}
	}
	if got := w.Trace.At(3*traceChunk + 4).Text; got != "new" {
		t.Fatalf("the shared trace did not grow: %q", got)
	}
	if DigestOf(w.Names(), w.Trace.Events(0)[:2*traceChunk+5]) != DigestOf(w.Names(), history[:2*traceChunk+5]) {
		t.Fatal("the shared trace reads differently")
	}
}

// TestQueueOrder pushes thousands of events at seeded times, takes some
// out as a crash does, and pops the rest while pushing more: they come
// out in (time, insertion) order, the order every trace depends on.
func TestQueueOrder(t *testing.T) {
	var q eventQueue
	r := NewRand(7)
	seq, now := uint64(0), Time(0)
	push := func() {
		seq++
		// Deliveries and timers, which wait in separate heaps.
		// A delivery carries an envelope and no timer, a timer no
		// envelope (storeQueued relies on it): each is tagged seq%3.
		e := event{at: now + Time(r.Range(0, 500)), seq: seq, kind: eventKind(seq % 2)}
		if e.kind == evDeliver {
			e.env = &Envelope{ID: int64(seq % 3)}
		} else {
			e.timer = Timer{Kind: "t", gen: seq % 3}
		}
		q.push(e)
	}
	removed := func(e *event) bool {
		if e.kind == evDeliver {
			return e.env.ID == 0
		}
		return e.timer.gen == 0
	}
	for i := 0; i < 3000; i++ {
		push()
	}
	q.removeIf(removed)
	want := 2000
	var last event
	n := 0
	for q.len() > 0 {
		e := q.pop()
		if removed(&e) && e.seq <= 3000 {
			t.Fatalf("a removed event came out: seq %d", e.seq)
		}
		if n > 0 && (e.at < last.at || e.at == last.at && e.seq < last.seq) {
			t.Fatalf("event %d at %d came out after event %d at %d", e.seq, e.at, last.seq, last.at)
		}
		last, now = e, e.at
		n++
		if n%3 == 0 && seq < 6000 {
			push() // keys arrive between pops, as in a run
			want++
		}
	}
	if n != want {
		t.Fatalf("%d events came out, want %d", n, want)
	}
}

// pop takes the next event out, as Step does without dispatching it.
func (q *eventQueue) pop() event {
	slot := q.popSlot()
	e := *q.slot(slot)
	q.release(slot)
	return e
}

// TestSendOnKeepsOrder: messages sent on one Conn arrive in the order they
// were sent, whatever latencies are drawn, as on a TCP connection; a
// delay rule still holds one back; plain sends may overtake each other.
func TestSendOnKeepsOrder(t *testing.T) {
	order := func(conn bool, delayFirst bool) []int64 {
		w := NewWorld(7)
		w.Net.MinLatency, w.Net.MaxLatency = 1, 50
		nodes := map[NodeID]*recorder{}
		for _, name := range []string{"a", "b"} {
			id := w.Node(name)
			nodes[id] = &recorder{id: id}
			w.AddNode(id, nodes[id])
		}
		var got []int64
		w.OnEvent = func(e *Event) {
			if e.Kind == KindDeliver {
				got = append(got, e.MsgID)
			}
		}
		c := &Conn{}
		for i := 0; i < 20; i++ {
			if delayFirst && i == 0 {
				w.Net.Delays = []DelayRule{{Match: Match{API: protocol.EndTxn}, By: 1000}}
			}
			if conn {
				w.SendOn(c, nodea, nodeb, req(), 0)
			} else {
				w.Send(nodea, nodeb, req(), 0)
			}
			w.Net.Delays = nil
		}
		runAll(t, w)
		return got
	}
	inOrder := func(ids []int64) bool { return slices.IsSorted(ids) }
	if got := order(true, false); len(got) != 20 || !inOrder(got) {
		t.Errorf("on a Conn: delivered %v, want 1..20 in order", got)
	}
	if got := order(false, false); inOrder(got) {
		t.Errorf("plain sends with latencies 1-50 ms all arrived in order (%v): the test shows nothing", got)
	}
	if got := order(true, true); got[len(got)-1] != 1 {
		t.Errorf("on a Conn, a delayed first message: delivered %v, want it last", got)
	}
}

// The codes of fixedWorld's nodes: it names a, b and c first, in order.
const (
	nodea NodeID = iota + 1
	nodeb
	nodec
)
