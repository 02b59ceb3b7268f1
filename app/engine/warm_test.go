package engine

import (
	"testing"

	"txnlab/scenarios"
)

// TestWarmUpReadsTheWholeRun: the worker's warm-up runs a library script
// through the page's side of the protocol to its end and draws it at its
// end, middle, first step and start, as a playground does, and every piece of it
// finishes without a panic (the worker would drop one silently, and the
// page would compile that code itself again).
func TestWarmUpReadsTheWholeRun(t *testing.T) {
	var scripts []string
	for _, s := range scenarios.All() {
		scripts = append(scripts, s.Script)
	}
	local := newSessionEngine()
	if err := local.Load(scripts[0]); err != nil {
		t.Fatal(err)
	}
	drawn := map[int]int{}
	w := Warm{Scripts: scripts, Draw: func(e Engine) {
		drawn[e.Pos()] = len(e.History())
	}}
	pieces := w.pieces()
	for i, piece := range pieces {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("warm-up piece %d panicked: %v", i, p)
				}
			}()
			piece()
		}()
	}
	n, events := local.Len(), len(local.History())
	for _, pos := range []int{n, n / 2, 1, 0} {
		if got, ok := drawn[pos]; !ok {
			t.Errorf("the warm run was not drawn at %d of its %d steps", pos, n)
		} else if got != events {
			t.Errorf("at %d, the warm run drew a history of %d events, want %d", pos, got, events)
		}
	}
	if want := 6 + warmRuns + (len(scripts)-1-warmRuns+7)/8; len(pieces) != want {
		t.Errorf("%d pieces, want %d: the run, four reads, a step, %d more runs, the parses", len(pieces), want, warmRuns)
	}
}
