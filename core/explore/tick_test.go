package explore

import (
	"slices"
	"testing"

	"txnlab/core/safety"
)

// TestMinimizeTick checks the tick a browser shrinks in slices with: a
// tick that always answers true changes nothing, and one that answers
// false ends the shrink at once with no more candidates run.
func TestMinimizeTick(t *testing.T) {
	m := safety.SequenceCheck
	r := Generate(Options{Seed: 1, Break: m})
	if len(r.Violations) == 0 {
		t.Fatalf("seed 1 with %s broken found nothing", m.Name)
	}
	inv := Target(r, m)
	plain := Minimize(r, m, inv, 400)
	ticks := 0
	ticked := MinimizeTick(r, m, inv, 400, func(tries int) bool {
		if tries != ticks {
			t.Fatalf("tick %d was told %d tries", ticks, tries)
		}
		ticks++
		return true
	})
	if !slices.Equal(plain.Lines, ticked.Lines) || plain.Tries != ticked.Tries {
		t.Errorf("a tick that never stops changed the shrink: %d tries %v, with it %d tries %v", plain.Tries, plain.Lines, ticked.Tries, ticked.Lines)
	}
	if ticks != ticked.Tries {
		t.Errorf("%d ticks for %d candidates", ticks, ticked.Tries)
	}
	stopAt := 3
	stopped := MinimizeTick(r, m, inv, 400, func(tries int) bool { return tries < stopAt })
	if stopped.Tries != stopAt {
		t.Errorf("stopped at %d tries, want %d", stopped.Tries, stopAt)
	}
	if len(stopped.Lines) < len(plain.Lines) {
		t.Errorf("a stopped shrink (%d lines) went further than a whole one (%d)", len(stopped.Lines), len(plain.Lines))
	}
}
