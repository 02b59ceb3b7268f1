package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"txnlab/core/protocol"
	"txnlab/core/sim"
	"txnlab/core/workload"
	"txnlab/scenarios"
)

var _ Engine = (*Remote)(nil)

// Every library script through the worker's protocol: the page holds the
// same history (every event, its message included), the same steps, and
// at each position, once the reply came, the same cluster state, results
// and violations as the engine on the page.
func TestRemoteMatchesTheEngineOnEveryLibraryScript(t *testing.T) {
	for _, sc := range scenarios.All() {
		t.Run(sc.Slug, func(t *testing.T) {
			local := newSessionEngine()
			lerr := local.Load(sc.Script)
			p := newLoopback()
			r := p.link.Engine()
			rerr := r.Load(sc.Script)
			if (lerr == nil) != (rerr == nil) || lerr != nil && lerr.Error() != rerr.Error() {
				t.Fatalf("load: %v on the page, %v through the worker", lerr, rerr)
			}
			if !sameEvents(t, local.Names(), r.Names(), local.History(), r.History()) {
				t.Fatalf("the history that crossed differs from the engine's (%d events, %d)", len(r.History()), len(local.History()))
			}
			if r.Len() != local.Len() || r.Script() != local.Script() {
				t.Fatalf("%d steps through the worker, %d on the page", r.Len(), local.Len())
			}
			stride := max(1, r.Len()/40)
			for i := 0; i <= r.Len(); i += stride {
				local.Seek(i)
				r.Seek(i)
				if r.Digest() != local.Digest() || r.Line() != local.Line() || r.Now() != local.Now() ||
					len(r.Events()) != len(local.Events()) || !reflect.DeepEqual(r.Results(), local.Results()) {
					t.Fatalf("step %d: what the history gives differs", i)
				}
				p.pump()
				if r.StateCost() != 0 {
					t.Fatalf("step %d: the state did not come", i)
				}
				if a, b := jsonOf(t, r.Snapshot()), jsonOf(t, local.Snapshot()); a != b {
					t.Fatalf("step %d: snapshot\n%s\nthe engine's\n%s", i, a, b)
				}
				r.Violations()
				p.pump()
				if !r.ViolationsReady() || jsonOf(t, r.Violations()) != jsonOf(t, local.Violations()) {
					t.Fatalf("step %d: violations differ", i)
				}
			}
		})
	}
}

// sameEvents compares two histories event by event: the fields, the
// message's type and fields once decoded (the page keeps its messages
// encoded), its JSON as the exports write it, and the trace line with
// each side's node names (which renders the message's summary, memoized
// in the message and so not compared as is).
func sameEvents(t *testing.T, na, nb *sim.Names, a, b []sim.Event) bool {
	t.Helper()
	if len(a) != len(b) || (na == nil) != (nb == nil) || na != nil && na.Len() != nb.Len() {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		dx, dy := protocol.Decoded(x.Msg), protocol.Decoded(y.Msg)
		if reflect.TypeOf(dx) != reflect.TypeOf(dy) || jsonOf(t, x.Msg) != jsonOf(t, y.Msg) || jsonOf(t, dx) != jsonOf(t, dy) ||
			!reflect.DeepEqual(protocol.MessageFields(dx), protocol.MessageFields(dy)) || x.Line(na) != y.Line(nb) {
			t.Logf("event %d: %s\nthrough the worker: %s", i, x.Line(na), y.Line(nb))
			return false
		}
		x.Msg, y.Msg = nil, nil
		if !reflect.DeepEqual(x, y) {
			t.Logf("event %d: %#v\nthrough the worker: %#v", i, x, y)
			return false
		}
	}
	return true
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A move shows the position at once and the state a reply later; a query
// answers once the reply came.
func TestRemoteStateComesAReplyLater(t *testing.T) {
	p := newLoopback()
	r := p.link.Engine()
	notified := 0
	r.Notify(func() { notified++ })
	if err := r.Load(mustScenario(t, "happy-path")); err != nil {
		t.Fatal(err)
	}
	p.pump()
	r.Seek(r.Len())
	if r.Pos() != r.Len() || r.StateCost() == 0 {
		t.Fatalf("at %d of %d, state cost %d before the reply", r.Pos(), r.Len(), r.StateCost())
	}
	before := r.Snapshot()
	if before.Time == r.Now() && r.Now() != 0 {
		t.Fatal("the state of the end was there before the worker answered")
	}
	if v, _ := r.Query("producer app state"); v != "…" {
		t.Errorf("a query not answered yet reads %q", v)
	}
	n := notified
	p.pump()
	if notified == n || r.StateCost() != 0 || r.Snapshot().Time != r.Now() {
		t.Fatalf("the reply did not bring the state (notified %d→%d, cost %d)", n, notified, r.StateCost())
	}
	local := newSessionEngine()
	local.Load(mustScenario(t, "happy-path"))
	local.Seek(local.Len())
	want, _ := local.Query("producer app state")
	if got, err := r.Query("producer app state"); got != want || err != nil || !r.QueryReady("producer app state") {
		t.Errorf("app.state %q (%v) through the worker, %q on the page", got, err, want)
	}
}

// Actions and mistakes through the worker behave as the engine's own.
func TestRemoteActsAndRefusesAsTheEngine(t *testing.T) {
	p := newLoopback()
	r := p.link.Engine()
	src := mustScenario(t, "happy-path")
	if err := r.Load(src); err != nil {
		t.Fatal(err)
	}
	var se *ScriptError
	if err := r.Begin("cluster brokers=x"); !errors.As(err, &se) || r.Script() != src {
		t.Fatalf("a script that does not parse: %v, script kept %v", err, r.Script() == src)
	}
	r.Seek(r.Len() / 2)
	pos := r.Pos()
	if err := r.Act("resume app"); err == nil {
		t.Fatal("resuming a running client was accepted")
	}
	if r.Script() != src || r.Pos() != pos {
		t.Errorf("a refused action changed the script or moved to %d", r.Pos())
	}
	if err := r.Act("pause app"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Script(), "pause app") || r.Pos() <= pos-1 {
		t.Errorf("the action is not in the script, or the position went back to %d", r.Pos())
	}
	local := newSessionEngine()
	local.Load(r.Script())
	local.Seek(r.Pos())
	if r.Digest() != local.Digest() {
		t.Error("the acted history's digest is not the engine's for the same script")
	}
}

// When the worker fails, the engine carries on on the page at the same
// script and position, and a run in progress completes there.
func TestRemoteFallsBackToThePage(t *testing.T) {
	p := newLoopback()
	r := p.link.Engine()
	src := mustScenario(t, "happy-path")
	if err := r.Load(src); err != nil {
		t.Fatal(err)
	}
	r.Seek(r.Len() / 2)
	pos, digest := r.Pos(), r.Digest()
	if err := r.Begin(mustScenario(t, "zombie-fencing-init")); err != nil {
		t.Fatal(err)
	}
	p.link.Fail(errors.New("the worker stopped"))
	if !r.LeftWorker() || r.Pos() != pos || r.Digest() != digest || r.Script() != src {
		t.Fatalf("after the fault: on page %v, at %d (was %d)", r.LeftWorker(), r.Pos(), pos)
	}
	if r.StateCost() == 0 && !r.Snapshot().Valid {
		t.Error("no state on the page after the fault")
	}
	for {
		done, err := r.Work(time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
	}
	if r.Script() != mustScenario(t, "zombie-fencing-init") {
		t.Error("the run in progress did not complete on the page")
	}
	if e := p.link.Engine(); !e.LeftWorker() {
		t.Error("an engine made after the fault uses the failed worker")
	}
}

// A state crosses as what changed since the last one sent: stepping on
// from a state sends a small part of it, and the page, made whole again,
// holds the engine's own state however the moves jump (back, forward,
// across a new history).
func TestRemoteStatesCrossAsChanges(t *testing.T) {
	src := workload.Script(workload.ForEvents(3000))
	local := newSessionEngine()
	if err := local.Load(src); err != nil {
		t.Fatal(err)
	}
	p := newLoopback()
	var sent []int
	p.server.reply = func(b []byte) {
		if strings.Contains(string(b), `"op":"state"`) {
			sent = append(sent, len(b))
		}
		p.toPage = append(p.toPage, b)
	}
	r := p.link.Engine()
	if err := r.Load(src); err != nil {
		t.Fatal(err)
	}
	n := r.Len()
	check := func(i int) {
		t.Helper()
		r.Seek(i)
		p.pump()
		local.Seek(i)
		if r.LeftWorker() {
			t.Fatalf("step %d: the page fell back: %v", i, p.link.Fault())
		}
		if a, b := jsonOf(t, r.Snapshot()), jsonOf(t, local.Snapshot()); a != b {
			t.Fatalf("step %d: snapshot\n%s\nthe engine's\n%s", i, a, b)
		}
	}
	check(n)
	full := sent[len(sent)-1]
	check(n - 1)
	if step := sent[len(sent)-1]; step*2 > full {
		t.Errorf("a step back sent %d bytes of state, the whole is %d", step, full)
	}
	for _, i := range []int{n / 2, 1, n, n / 3, n - 2, 0, n / 4, n} {
		check(i)
	}
	// A new history: the states go on from the last one sent.
	if err := r.Load(src + "\n# a note\n"); err != nil {
		t.Fatal(err)
	}
	if err := local.Load(r.Script()); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{r.Len(), r.Len() - 3, 2} {
		check(i)
	}
}

// A state the page never received (a lost message, a bug) cannot be cut
// against: the page leaves the worker for an engine of its own, at the
// same position, rather than draw a wrong state.
func TestRemoteStateOutOfOrderFallsBack(t *testing.T) {
	src := workload.Script(workload.ForEvents(1000))
	p := newLoopback()
	dropped := false
	p.server.reply = func(b []byte) {
		if !dropped && strings.Contains(string(b), `"op":"state"`) && strings.Contains(string(b), `"seq":2`) {
			dropped = true
			return
		}
		p.toPage = append(p.toPage, b)
	}
	r := p.link.Engine()
	if err := r.Load(src); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{5, 6, 7} {
		r.Seek(i)
		p.pump()
	}
	if !dropped || !r.LeftWorker() || p.link.Fault() == nil {
		t.Fatalf("dropped %v, on the page %v", dropped, r.LeftWorker())
	}
	local := newSessionEngine()
	local.Load(src)
	local.Seek(7)
	if r.Pos() != 7 || jsonOf(t, r.Snapshot()) != jsonOf(t, local.Snapshot()) {
		t.Errorf("after the fallback: step %d, or a state not the engine's", r.Pos())
	}
}

// After a step, the worker sends the state of the next step the same way
// unasked: the learner's next Step back (or Step) draws its state in the
// move's own frame. A jump sends nothing ahead.
func TestRemoteStepsAheadOfTheLearner(t *testing.T) {
	src := workload.Script(workload.ForEvents(1000))
	local := newSessionEngine()
	local.Load(src)
	p := newLoopback()
	r := p.link.Engine()
	if err := r.Load(src); err != nil {
		t.Fatal(err)
	}
	n := r.Len()
	r.Seek(n)
	p.pump()
	r.StepBack()
	p.pump()
	for i := n - 2; i >= n-5; i-- {
		r.StepBack()
		if r.StateCost() != 0 {
			t.Fatalf("step back to %d: its state was not sent ahead", i)
		}
		local.Seek(i)
		if jsonOf(t, r.Snapshot()) != jsonOf(t, local.Snapshot()) {
			t.Fatalf("step %d: the state sent ahead is not the engine's", i)
		}
		p.pump()
	}
	r.Step()
	p.pump()
	if r.Step(); r.StateCost() != 0 {
		t.Errorf("step forward to %d: its state was not sent ahead", r.Pos())
	}
	r.Seek(n / 2)
	p.pump()
	if r.Seek(n/2 + 1); r.StateCost() == 0 {
		t.Errorf("a jump sent the next step's state ahead")
	}
}

// A worker that goes silent while the page waits for it is stalled; one
// that answered, or says it is busy, is not.
func TestLinkStalledWhenTheWorkerGoesSilent(t *testing.T) {
	p := newLoopback()
	r := p.link.Engine()
	now := time.Now()
	if p.link.Stalled(now.Add(time.Hour), 10*time.Second) {
		t.Fatal("stalled with nothing asked")
	}
	if err := r.Begin("cluster brokers=1\n"); err != nil {
		t.Fatal(err)
	}
	if p.link.Stalled(now.Add(5*time.Second), 10*time.Second) {
		t.Error("stalled 5 s after asking")
	}
	if !p.link.Stalled(now.Add(11*time.Second), 10*time.Second) {
		t.Error("not stalled 11 s after asking, no word from the worker")
	}
	p.link.Receive([]byte(`{"op":"busy"}`))
	if p.link.Stalled(time.Now().Add(5*time.Second), 10*time.Second) {
		t.Error("stalled although the worker just said it is busy")
	}
	p.pump()
	if done, err := r.Work(time.Hour); !done || err != nil {
		t.Fatalf("the run: done %v, %v", done, err)
	}
	p.pump()
	if p.link.Stalled(time.Now().Add(time.Hour), 10*time.Second) {
		t.Error("stalled with every reply in")
	}
}

// A script that does not parse is refused at once, whether a run is in
// flight or not; a run in flight is not lost for it, and none is.
func TestRemoteRefusesAScriptThatDoesNotParse(t *testing.T) {
	p := newLoopback()
	r := p.link.Engine()
	good := mustScenario(t, "happy-path")
	// No run in flight: the run was asked for before the parse.
	if err := r.Begin("cluster brokers=3\nnonsense here"); err == nil {
		t.Fatal("a script that does not parse began")
	}
	p.pump()
	if done, err := r.Work(time.Millisecond); !done || err != nil {
		t.Fatalf("after the refused script: done %v, %v", done, err)
	}
	if r.Len() != 0 {
		t.Fatalf("the refused script left %d steps", r.Len())
	}
	// A run in flight, then a script that does not parse: the run's
	// history still comes.
	if err := r.Begin(good); err != nil {
		t.Fatal(err)
	}
	if err := r.Begin("cluster brokers=3\nnonsense here"); err == nil {
		t.Fatal("a script that does not parse began")
	}
	p.pump()
	if done, err := r.Work(time.Hour); !done || err != nil {
		t.Fatalf("the run in flight: done %v, %v", done, err)
	}
	local := newSessionEngine()
	local.Load(good)
	if r.Len() != local.Len() || r.Len() == 0 {
		t.Fatalf("%d steps through the worker, %d on the page", r.Len(), local.Len())
	}
}

// A history is decoded on the page a slice of Work's budget at a time, so
// that no task of the page's thread decodes a long one whole: with no
// budget at all, Work takes many calls, each of a few events, and the
// history it ends with is the one the engine on the page makes, as is
// the state at its end.
func TestRemoteDecodesAHistoryInSlices(t *testing.T) {
	src := workload.Script(workload.ForEvents(1000))
	local := newSessionEngine()
	if err := local.Load(src); err != nil {
		t.Fatal(err)
	}
	p := newLoopback()
	r := p.link.Engine()
	if err := r.Begin(src); err != nil {
		t.Fatal(err)
	}
	p.pump()
	calls := 0
	for {
		calls++
		done, err := r.Work(0)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
		if _, busy := r.Busy(); !busy {
			t.Fatal("not busy while the history is decoded")
		}
		if r.Len() != 0 {
			t.Fatalf("%d steps shown before the history is decoded", r.Len())
		}
		if calls > len(local.History()) {
			t.Fatalf("still decoding after %d calls", calls)
		}
	}
	if min := len(local.History()) / decodeCheck; calls < min {
		t.Errorf("decoded in %d calls of no budget, want at least %d", calls, min)
	}
	if r.LeftWorker() {
		t.Fatalf("the page fell back: %v", p.link.Fault())
	}
	if r.Len() != local.Len() || !sameEvents(t, r.Names(), local.Names(), r.History(), local.History()) {
		t.Fatalf("%d steps decoded in slices, %d on the page", r.Len(), local.Len())
	}
	r.Seek(r.Len())
	p.pump()
	local.Seek(local.Len())
	if a, b := jsonOf(t, r.Snapshot()), jsonOf(t, local.Snapshot()); a != b {
		t.Fatalf("the state at the end\n%s\nthe engine's\n%s", a, b)
	}
}

// A history the page cannot read (a reply garbled on its way) is a
// worker the page cannot trust: the page leaves it, and runs the
// learner's new script itself rather than keep the old one and say
// nothing.
func TestRemoteRunsAnUnreadableHistoryOnThePage(t *testing.T) {
	for _, tc := range []struct{ name, from, to string }{
		{"an event", "\n[{", "\n[{\"t\":\"x\","},
		{"the node names", `"names":["",`, `"names":["","",`},
		{"the steps' lists", `"steps":{"e":"`, `"steps":{"e":"0 `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newLoopback()
			first, next := mustScenario(t, "happy-path"), mustScenario(t, "zombie-fencing-init")
			r := p.link.Engine()
			if err := r.Load(first); err != nil {
				t.Fatal(err)
			}
			p.server.reply = func(b []byte) {
				if s := string(b); strings.HasPrefix(s, `{"op":"run"`) {
					if !strings.Contains(s, tc.from) {
						t.Fatalf("no %q in the run's reply", tc.from)
					}
					b = []byte(strings.Replace(s, tc.from, tc.to, 1))
				}
				p.toPage = append(p.toPage, b)
			}
			if err := r.Load(next); err != nil {
				t.Fatal(err)
			}
			if !r.LeftWorker() || p.link.Fault() == nil {
				t.Fatal("the page kept a worker whose history it could not read")
			}
			local := newSessionEngine()
			local.Load(next)
			if r.Script() != next || r.Len() != local.Len() || r.Pos() != 0 {
				t.Fatalf("on the page: the new script %v, %d steps (want %d) at %d",
					r.Script() == next, r.Len(), local.Len(), r.Pos())
			}
		})
	}
}
