package playground

import (
	"testing"
	"time"
)

// A frame's turns share its budget, but the first always runs with all of
// it, or a loaded machine could put a playground's run off for ever.
func TestEveryFrameMovesItsFirstTurn(t *testing.T) {
	for _, c := range []struct {
		name    string
		first   bool
		spent   time.Duration
		atLeast time.Duration
		runs    bool
	}{
		{"first turn, frame fresh", true, 0, turnBudget, true},
		{"first turn after a slow render", true, 3 * turnBudget, turnBudget, true},
		{"whole turn first after a slow render", true, turnBudget, turnBudget / 2, true},
		{"later turn, budget left", false, turnBudget / 4, turnBudget / 2, true},
		{"later turn, budget spent", false, turnBudget, 0, false},
		{"later turn, frame overrun", false, 2 * turnBudget, 0, false},
	} {
		left := budgetLeft(c.first, c.spent)
		if runs := left > 0; runs != c.runs {
			t.Errorf("%s: budget %v, runs %v, want runs %v", c.name, left, runs, c.runs)
		}
		if c.runs && left < c.atLeast {
			t.Errorf("%s: budget %v, want at least %v", c.name, left, c.atLeast)
		}
	}
}
