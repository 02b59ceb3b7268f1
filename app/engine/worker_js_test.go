//go:build js && wasm

package engine

import (
	"encoding/json"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"txnlab/core/workload"
)

// TestServeWorkerAnswersAMoveDuringARest runs the worker's own loop
// (ServeWorker, as a browser's Web Worker runs it, under Node) and
// checks that a move the learner makes while the worker rests between
// background slices is answered at once: the page's message cuts the
// rest short. The rest is made an hour long, so a worker that waited it
// out would not answer before the test's deadline.
func TestServeWorkerAnswersAMoveDuringARest(t *testing.T) {
	defer func(d time.Duration) { moveRest = d }(moveRest)
	moveRest = time.Hour
	rests := make(chan time.Duration, 1024)
	resting = func(d time.Duration) {
		select {
		case rests <- d:
		default:
		}
	}
	defer func() { resting = nil }()

	// The page's postMessage is JavaScript that keeps what it is given,
	// as a browser's is: a Go function there would let this test's
	// goroutine run inside the worker's slice, where a browser delivers
	// nothing.
	self := js.Global()
	self.Set("postMessage", js.Global().Get("Function").New("m", "(globalThis.workerPosted ||= []).push(m)"))
	go ServeWorker(Warm{})

	// await waits for the worker's next reply of op, failing after
	// deadline: the replies of a 10,000-event run take a few seconds
	// under Node, an hour's rest would take an hour.
	await := func(op, what string) reply {
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			posted := self.Get("workerPosted")
			self.Set("workerPosted", js.Undefined())
			for i := 0; posted.Truthy() && i < posted.Length(); i++ {
				v := posted.Index(i)
				b := MessageBytes(v)
				var r reply
				if err := decodeReply(b, &r); err != nil {
					t.Fatalf("a reply that does not decode: %v", err)
				}
				if r.Op == "fail" {
					t.Fatalf("the worker failed: %+v", r)
				}
				if r.Op == op {
					// Put back what came after it.
					rest := js.Global().Get("Array").New()
					for j := i + 1; j < posted.Length(); j++ {
						rest.Call("push", posted.Index(j))
					}
					self.Set("workerPosted", rest)
					return r
				}
			}
			time.Sleep(5 * time.Millisecond) // the worker's turn
		}
		t.Fatalf("no %q reply from the worker: %s", op, what)
		return reply{}
	}
	ask := func(q request) {
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		self.Get("onmessage").Invoke(map[string]any{"data": string(b)})
	}

	await("ready", "it never started")
	ask(request{Op: "run", Eng: 1, ID: 1, Script: workload.Script(workload.ForEvents(10000))})
	run := await("run", "the run never ended")
	if run.Hist == nil {
		t.Fatalf("the run's reply carries no history: %+v", run)
	}
	steps := len(strings.Fields(run.Hist.Steps.Events)) - 1

	// The first move: answered, then the worker rests an hour between
	// its background slices.
	for len(rests) > 0 {
		<-rests
	}
	ask(request{Op: "state", Eng: 1, Gen: run.Gen, Pos: steps / 2, Snap: true})
	await("state", "the first move was not answered")
	for {
		select {
		case d := <-rests:
			if d != time.Hour {
				continue // a slice that began before the move was noted
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("the worker never rested after a move: the test needs background work left after a jump")
		}
		break
	}

	// The second move comes during that rest.
	ask(request{Op: "state", Eng: 1, Gen: run.Gen, Pos: steps / 3, Snap: true})
	await("state", "a move during the worker's rest waited the rest out")
}
