package engine

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"txnlab/core/check"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/core/workload"
	"txnlab/scenarios"
)

// reference is the state at every step of a script, taken by one session
// stepping forward from the start: what the engine must show at each
// position, whichever way it got there.
type reference struct {
	snaps  []Snapshot
	viol   [][]check.Violation
	digest []string
}

func referenceOf(t testing.TB, src string) reference {
	t.Helper()
	script, err := scenario.Parse(scriptFile, src)
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession(scriptFile, script)
	var r reference
	var d sim.Digester
	hashed := 0
	take := func() {
		snap, viol := Snapshot{}, []check.Violation(nil)
		if s.Cluster != nil {
			snap = Snapshot{Snapshot: s.Cluster.Snapshot(), Valid: true}
			viol = s.Cluster.Check(false)
			for trace := &s.Cluster.World.Trace; hashed < trace.Len(); hashed++ {
				d.Add(trace.Names(), trace.At(hashed))
			}
		}
		r.snaps, r.viol, r.digest = append(r.snaps, snap), append(r.viol, viol), append(r.digest, d.Sum())
	}
	take()
	for !s.Done() {
		s.StepVisible()
		take()
	}
	return r
}

// checkAt compares the engine's state at its position with the
// reference.
func (r reference) checkAt(t testing.TB, e *sessionEngine, how string) {
	t.Helper()
	i := e.Pos()
	if got := e.Digest(); got != r.digest[i] {
		t.Fatalf("%s: digest %s at step %d, want %s", how, got, i, r.digest[i])
	}
	if got := e.Snapshot(); !reflect.DeepEqual(got, r.snaps[i]) {
		t.Fatalf("%s: the snapshot at step %d differs from a replay's", how, i)
	}
	if got := e.Violations(); !reflect.DeepEqual(got, r.viol[i]) {
		t.Fatalf("%s: violations %v at step %d, want %v", how, got, i, r.viol[i])
	}
}

// idle runs the engine's background work to its end.
func idle(e *sessionEngine) {
	for e.Idle(time.Hour) {
	}
}

// The same snapshot, violations and digest at every position, whether it
// was reached stepping forward, stepping back, jumping, with the
// checkpoints built or not, or from a session whose trace is shared.
func TestEngineSameStateWhicheverPath(t *testing.T) {
	t.Parallel()
	scripts := map[string]string{"workload": workload.Script(workload.ForEvents(3000))}
	for _, slug := range []string{"happy-path", "coordinator-crash-during-markers", "zombie-fencing-init"} {
		sc, ok := scenarios.Get(slug)
		if !ok {
			t.Fatalf("no scenario %s", slug)
		}
		scripts[slug] = sc.Script
	}
	for name, src := range scripts {
		t.Run(name, func(t *testing.T) {
			ref := referenceOf(t, src)
			e := newSessionEngine()
			if err := e.Load(src); err != nil {
				t.Fatal(err)
			}
			n := e.Len()
			if n+1 != len(ref.snaps) {
				t.Fatalf("%d steps, a replay has %d", n, len(ref.snaps)-1)
			}
			stride := max(1, n/60) // the long history: every stride-th step
			// Forward, before any checkpoint exists.
			for i := 0; i <= n; i += stride {
				e.Seek(i)
				ref.checkAt(t, e, "forward")
			}
			// Back one step at a time from the end, building checkpoints
			// a little between steps, as the page does.
			e.Seek(n)
			for i := n; i >= max(0, n-3*stride); i-- {
				e.Seek(i)
				ref.checkAt(t, e, "stepping back")
				e.Idle(time.Millisecond)
			}
			// Jumps, with every checkpoint built.
			idle(e)
			for k := 0; k < 40; k++ {
				e.Seek((k * 7919) % (n + 1))
				ref.checkAt(t, e, fmt.Sprintf("jump %d", k))
			}
			// Jumps whose state Idle computes in small slices, as the
			// page does over several frames.
			for k := 0; k < 10; k++ {
				e.Seek((k*4001 + 17) % (n + 1))
				for e.StateCost() > 0 {
					e.Idle(time.Microsecond)
				}
				ref.checkAt(t, e, fmt.Sprintf("settled jump %d", k))
			}
			// Backwards over everything, from checkpoints only.
			idle(e)
			for i := n; i >= 0; i -= stride {
				e.Seek(i)
				ref.checkAt(t, e, "scrubbing back")
			}
			e.Seek(n)
			if d := sim.DigestOf(e.Names(), e.Events()); e.Digest() != d {
				t.Errorf("digest at the end %s, DigestOf %s", e.Digest(), d)
			}
			if len(e.pool) > maxPool {
				t.Errorf("%d sessions parked, at most %d", len(e.pool), maxPool)
			}
		})
	}
}

// With the checkpoints built, going back anywhere replays at most about
// the spacing of the checkpoints, and the checkpoints' traces share the
// history's memory.
func TestEngineSeekBackReplaysLittle(t *testing.T) {
	t.Parallel()
	e := newSessionEngine()
	if err := e.Load(workload.Script(workload.ForEvents(6000))); err != nil {
		t.Fatal(err)
	}
	if len(e.targets) < 10 || len(e.targets) > maxTargets {
		t.Fatalf("%d checkpoints planned for %d events", len(e.targets), len(e.events))
	}
	idle(e)
	for _, tg := range e.targets {
		p := e.coverer(tg)
		if p == nil {
			t.Fatalf("no session parked at checkpoint %d after Idle", tg)
		}
		// Every block is shared, the last, partial one included.
		if tr := &p.s.Cluster.World.Trace; p != e.cursor && tr.Len() > 0 {
			for _, i := range []int{0, tr.Len() - 1} {
				if tr.At(i) != &e.events[i] {
					t.Errorf("the session at step %d holds its own copy of event %d", p.step, i)
				}
			}
		}
	}
	n := e.Len()
	limit := e.spacing + e.spacing/4 + 50
	for k := 1; k <= 15; k++ {
		i := n - k*n/15
		e.Seek(i)
		e.Snapshot()
		if e.replayed > limit {
			t.Errorf("seeking back to %d replayed %d events, the spacing is %d", i, e.replayed, e.spacing)
		}
		idle(e) // the page rebuilds the checkpoint taken between moves
	}
}

// BenchmarkEngineSeek times the engine's part of a seek in a history of
// about 10,000 events, natively: the state (snapshot) at a position the
// cache does not have, with the checkpoints built between moves as the
// page builds them while the learner looks; the mean and the slowest.
//
//	go test -run '^$' -bench EngineSeek ./app/engine/
func BenchmarkEngineSeek(b *testing.B) {
	e := newSessionEngine()
	if err := e.Load(workload.Script(workload.ForEvents(10000))); err != nil {
		b.Fatal(err)
	}
	idle(e)
	n := e.Len()
	var spent, slowest time.Duration
	seeks := 0
	for b.Loop() {
		for k := 1; k <= 30; k++ {
			i := (k * 7919) % (n + 1)
			if k%2 == 0 {
				i = e.Pos() - 1 // a step back
			}
			e.Seek(i)
			clear(e.states)
			start := time.Now()
			e.Snapshot()
			took := time.Since(start)
			spent += took
			slowest = max(slowest, took)
			seeks++
			b.StopTimer()
			idle(e)
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(seeks), "ms/seek")
	b.ReportMetric(float64(slowest.Microseconds())/1000, "ms/seek-max")
}

// Idle's work ends, for a long history too (the states it keeps fit the
// cache), and leaves every checkpoint built.
func TestEngineIdleEnds(t *testing.T) {
	e := newSessionEngine()
	if err := e.Load(workload.Script(workload.ForEvents(20000))); err != nil {
		t.Fatal(err)
	}
	e.Seek(e.Len() - 5)
	e.movedAt = time.Time{} // as if the position had stayed a while
	for calls := 0; e.Idle(time.Hour); calls++ {
		if calls > 1000 {
			t.Fatal("Idle never runs out of work")
		}
	}
	for _, tg := range e.targets {
		if e.coverer(tg) == nil {
			t.Errorf("no checkpoint at step %d", tg)
		}
	}
	for i := e.Pos() - warmSteps; i < e.Pos(); i++ {
		if _, ok := e.states[i]; !ok {
			t.Errorf("the state at %d, just before the position, is not kept", i)
		}
	}
}

// TestReplaysFollowTheHistory: a session replayed to a position (a move
// back, a checkpoint built in the background) reads the history's events
// rather than recording its own (sim.Trace.Follow), so a scrub does not
// allocate a second trace for every replay; and the state it gives is
// still the reference's.
func TestReplaysFollowTheHistory(t *testing.T) {
	src := workload.Script(workload.ForEvents(3000))
	ref := referenceOf(t, src)
	e := newSessionEngine()
	if err := e.Load(src); err != nil {
		t.Fatal(err)
	}
	n := e.Len()
	for _, i := range []int{n - 1, n / 2, n / 3} {
		e.Seek(i)
		s := e.sessionAt(i, i)
		trace := &s.Cluster.World.Trace
		if k := trace.Len() - 1; trace.At(k) != &e.events[k] {
			t.Errorf("at step %d the replayed session recorded its own event %d rather than follow the history's", i, k)
		}
		if got := e.Snapshot(); !reflect.DeepEqual(got, ref.snaps[i]) {
			t.Errorf("the state at step %d differs from the reference's", i)
		}
	}
	for e.Idle(time.Second) {
	}
	for _, p := range e.pool {
		if p.s.Cluster == nil {
			continue
		}
		if trace := &p.s.Cluster.World.Trace; trace.Len() > 0 && trace.At(trace.Len()-1) != &e.events[trace.Len()-1] {
			t.Errorf("the checkpoint at step %d recorded its own events", p.step)
		}
	}
}
