package engine

import (
	"errors"
	"testing"
	"time"

	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// attack is an attack exercise with no limits on mechanism m.
func attack(m string) doc.Exercise {
	return doc.Exercise{ID: "x-test", Kind: doc.ExerciseAttack, Break: m, Start: "cluster brokers=3\n"}
}

// passes reports whether the explorer's script passes the exercise.
func passes(t *testing.T, ex doc.Exercise, st exercise.ExploreState) {
	t.Helper()
	if st.Phase != exercise.PhaseFound || st.Script == "" {
		t.Fatalf("not found: %+v", st)
	}
	res, err := exercise.Grade(&ex, st.Script)
	if err != nil || !res.Passed {
		t.Fatalf("the script found does not pass: %+v %v\n%s", res, err, st.Script)
	}
}

// The exploration runs in the worker and reports as it goes; once it is
// over, neither side keeps it.
func TestExploreInTheWorker(t *testing.T) {
	p := newLoopback()
	ex := attack("aborted-filter")
	var states []exercise.ExploreState
	x := p.link.Explore(ex, 1, func(st exercise.ExploreState) { states = append(states, st) })
	if !p.link.waiting() {
		t.Error("the link does not wait for the exploration: a stopped worker would go unnoticed")
	}
	// Small slices, as the worker's loop gives it: several reports.
	for range 10_000 {
		for len(p.toWork) > 0 {
			p.server.Receive(p.toWork[0])
			p.toWork = p.toWork[1:]
		}
		more := p.server.Work(time.Millisecond)
		for len(p.toPage) > 0 {
			p.link.Receive(p.toPage[0])
			p.toPage = p.toPage[1:]
		}
		if !more {
			break
		}
		time.Sleep(exploreEvery / 20)
	}
	if len(states) < 2 {
		t.Errorf("%d reports", len(states))
	}
	passes(t, ex, x.State())
	if last := states[len(states)-1]; last != x.State() {
		t.Errorf("the last report %+v is not the state %+v", last, x.State())
	}
	if x.OnPage() || len(p.link.explorations) > 0 || len(p.server.explorers) > 0 || p.link.waiting() {
		t.Errorf("kept after the end: on page %v, link %d, server %d", x.OnPage(), len(p.link.explorations), len(p.server.explorers))
	}
}

// Stop in the worker ends the exploration there and says so.
func TestExploreStopsInTheWorker(t *testing.T) {
	p := newLoopback()
	var last exercise.ExploreState
	x := p.link.Explore(attack("epoch-bump"), 1, func(st exercise.ExploreState) { last = st })
	p.server.Receive(p.toWork[0])
	p.toWork = nil
	for range 3 {
		if !p.server.Work(time.Microsecond) {
			t.Fatal("over at once")
		}
	}
	x.Stop()
	x.Stop() // a second press sends nothing more
	if len(p.toWork) != 1 {
		t.Fatalf("%d messages for two stops", len(p.toWork))
	}
	p.pump()
	if last.Phase != exercise.PhaseStop || x.State().Phase != exercise.PhaseStop || len(p.server.explorers) > 0 {
		t.Errorf("after stop: reported %+v, state %+v, %d in the worker", last, x.State(), len(p.server.explorers))
	}
}

// An exercise the worker cannot explore for is reported over at once.
func TestExploreRefusedInTheWorker(t *testing.T) {
	p := newLoopback()
	var last exercise.ExploreState
	p.link.Explore(doc.Exercise{ID: "x-goal", Kind: doc.ExerciseGoal}, 1, func(st exercise.ExploreState) { last = st })
	p.pump()
	if last.Phase != exercise.PhaseNone || len(p.link.explorations) > 0 {
		t.Errorf("got %+v, %d kept", last, len(p.link.explorations))
	}
}

// waitDone waits for the notification that the exploration is over.
func waitDone(t *testing.T, done <-chan exercise.ExploreState) exercise.ExploreState {
	t.Helper()
	select {
	case st := <-done:
		return st
	case <-time.After(time.Minute):
		t.Fatal("the exploration on the page never ended")
	}
	return exercise.ExploreState{}
}

func notifyDone(done chan<- exercise.ExploreState) func(exercise.ExploreState) {
	return func(st exercise.ExploreState) {
		if st.Done() {
			done <- st
		}
	}
}

// When the worker fails, an exploration under way starts again on the
// page and finds the same script.
func TestExploreFallsBackToThePage(t *testing.T) {
	ex := attack("sequence-check")
	p := newLoopback()
	inWorker := p.link.Explore(ex, 1, func(exercise.ExploreState) {})
	p.pump()
	passes(t, ex, inWorker.State())

	q := newLoopback()
	done := make(chan exercise.ExploreState, 1)
	x := q.link.Explore(ex, 1, notifyDone(done))
	q.link.Fail(errors.New("the worker stopped"))
	st := waitDone(t, done)
	if !x.OnPage() || st.Script != inWorker.State().Script {
		t.Errorf("on the page %v, script\n%s\nin the worker\n%s", x.OnPage(), st.Script, inWorker.State().Script)
	}
	// A link that failed before explores on the page from the start.
	done2 := make(chan exercise.ExploreState, 1)
	y := q.link.Explore(ex, 1, notifyDone(done2))
	if st := waitDone(t, done2); !y.OnPage() || st.Script != inWorker.State().Script {
		t.Errorf("after the failure: on the page %v, %+v", y.OnPage(), st)
	}
}

// On the page, Stop ends the exploration at its next slice.
func TestExploreOnThePageStops(t *testing.T) {
	done := make(chan exercise.ExploreState, 1)
	x := ExploreOnPage(attack("coordinator-epoch"), 1, notifyDone(done))
	x.Stop()
	if st := waitDone(t, done); st.Phase != exercise.PhaseStop || st.Script != "" {
		t.Errorf("got %+v", st)
	}
	done2 := make(chan exercise.ExploreState, 1)
	ex := attack("lso-bound")
	ExploreOnPage(ex, 1, notifyDone(done2))
	passes(t, ex, waitDone(t, done2))
}
