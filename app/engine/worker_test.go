package engine

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"txnlab/core/workload"
)

// TestServerRestsBetweenBackgroundSlicesWhileTheLearnerMoves: once a
// history is loaded the worker builds its checkpoints in the background;
// while the page keeps asking for states (a learner stepping or
// scrubbing) it spaces those slices moveRest apart, leaving the cores to
// the page, and goes back to full speed moveQuiet after the last move. A
// run, and a move itself, are never held back.
func TestServerRestsBetweenBackgroundSlicesWhileTheLearnerMoves(t *testing.T) {
	var replies []reply
	s := NewServer(func(b []byte) {
		var r reply
		if err := decodeReply(b, &r); err != nil {
			t.Fatalf("a reply that does not decode: %v", err)
		}
		replies = append(replies, r)
	})
	ask := func(q request) {
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		s.Receive(b)
	}
	// work runs slices until want says stop, failing if the work ends first.
	work := func(what string, want func() bool) {
		for i := 0; !want(); i++ {
			if !s.Work(8*time.Millisecond) || i > 100_000 {
				t.Fatalf("the worker had nothing left to do before %s", what)
			}
		}
	}
	replied := func(op string) func() bool {
		return func() bool {
			for _, r := range replies {
				if r.Op == op {
					return true
				}
			}
			return false
		}
	}

	ask(request{Op: "run", Eng: 1, ID: 1, Script: workload.Script(workload.ForEvents(10000))})
	if !s.Work(time.Millisecond) {
		t.Fatal("a run of 10,000 events was done within a millisecond")
	}
	if got := s.Rest(); got != time.Millisecond {
		t.Errorf("during a run the worker rests %v between slices, want 1ms", got)
	}
	work("the run's reply", replied("run"))
	var gen, steps int
	for _, r := range replies {
		if r.Op == "run" {
			if r.Hist == nil {
				t.Fatalf("the run's reply carries no history: %+v", r)
			}
			gen, steps = r.Gen, len(strings.Fields(r.Hist.Steps.Events))-1
		}
	}
	if !s.Work(time.Millisecond) {
		t.Fatal("no background work after loading a history: the test needs checkpoints to build")
	}
	if got := s.Rest(); got != time.Millisecond {
		t.Errorf("with no move yet the worker rests %v between background slices, want 1ms", got)
	}

	// The learner moves: the move is answered in the next slice, and the
	// background work that follows is spaced out.
	replies = nil
	asked := time.Now()
	ask(request{Op: "state", Eng: 1, Gen: gen, Pos: steps / 2, Snap: true})
	more := s.Work(8 * time.Millisecond)
	if !replied("state")() {
		t.Fatal("the state the page asked for was not sent in the slice after the request")
	}
	if !more {
		t.Fatal("no background work left after a jump: the test needs some")
	}
	if s.movedAt.Before(asked) {
		t.Fatal("the worker did not note the learner's move")
	}
	s.movedAt = time.Now() // as if the slice had been quick, on a loaded machine too
	if got := s.Rest(); got != moveRest {
		t.Errorf("right after a move the worker rests %v between background slices, want %v", got, moveRest)
	}

	// A message already queued is not made to wait.
	ask(request{Op: "state", Eng: 1, Gen: gen, Pos: steps / 4, Snap: true})
	if got := s.Rest(); got != time.Millisecond {
		t.Errorf("with a move queued the worker rests %v, want 1ms", got)
	}
	more = s.Work(8 * time.Millisecond)
	s.movedAt = time.Now()
	if !more || s.Rest() != moveRest {
		t.Fatalf("after the queued move: background work left %v, rest %v, want %v", more, s.Rest(), moveRest)
	}

	// A while after the last move, full speed again.
	s.movedAt = time.Now().Add(-moveQuiet)
	if got := s.Rest(); got != time.Millisecond {
		t.Errorf("%v after the last move the worker rests %v between background slices, want 1ms", moveQuiet, got)
	}

	// A new run while the learner moves is not held back.
	ask(request{Op: "state", Eng: 1, Gen: gen, Pos: steps / 3, Snap: true})
	ask(request{Op: "run", Eng: 1, ID: 2, Script: workload.Script(workload.ForEvents(10000)) + "\n# edited\n"})
	if !s.Work(time.Millisecond) {
		t.Fatal("a run of 10,000 events was done within a millisecond")
	}
	if got := s.Rest(); got != time.Millisecond {
		t.Errorf("during a run asked for while the learner moves the worker rests %v, want 1ms", got)
	}
}
