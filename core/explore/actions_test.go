package explore

import (
	"testing"

	"txnlab/core/scenario"
)

// Any number of actions gives valid scripts: the zombie motif stops short
// of a 33rd client (seed 26 declared one at 600 actions), and the actions
// stop short of the line limit, the liveness phase included (seed 3 wrote
// line 5,001 at 4,950 actions).
func TestManyActionsStayValid(t *testing.T) {
	for _, c := range []struct {
		seed    uint64
		actions int
	}{{26, 600}, {3, 100_000}} {
		r := Generate(Options{Seed: c.seed, Actions: c.actions})
		if r.Err != nil {
			t.Errorf("seed %d, %d actions: %v", c.seed, c.actions, r.Err)
		}
		if len(r.Lines) > scenario.MaxLines {
			t.Errorf("seed %d, %d actions: %d lines", c.seed, c.actions, len(r.Lines))
		}
	}
}
