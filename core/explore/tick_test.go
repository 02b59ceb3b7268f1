package explore

import (
	"slices"
	"testing"

	"txnlab/core/safety"
)

// TestMinimizeTick checks the tick a browser shrinks in slices with: it
// comes before each candidate and between its runs, a tick that always
// answers true changes nothing, and one that answers false ends the
// shrink at once with no more candidates run.
func TestMinimizeTick(t *testing.T) {
	m := safety.SequenceCheck
	r := Generate(Options{Seed: 1, Break: m})
	if len(r.Violations) == 0 {
		t.Fatalf("seed 1 with %s broken found nothing", m.Name)
	}
	inv := Target(r, m)
	plain := Minimize(r, m, inv, 400)
	ticks, last, within := 0, 0, 0
	ticked := MinimizeTick(r, m, inv, 400, func(tries int) bool {
		if tries != last && tries != last+1 {
			t.Fatalf("tick %d was told %d tries after %d", ticks, tries, last)
		}
		if ticks > 0 && tries == last {
			within++ // a pause inside a candidate's runs
		}
		ticks, last = ticks+1, tries
		return true
	})
	if !slices.Equal(plain.Lines, ticked.Lines) || plain.Tries != ticked.Tries {
		t.Errorf("a tick that never stops changed the shrink: %d tries %v, with it %d tries %v", plain.Tries, plain.Lines, ticked.Tries, ticked.Lines)
	}
	if ticks-within != ticked.Tries {
		t.Errorf("%d ticks before a candidate for %d candidates", ticks-within, ticked.Tries)
	}
	if within == 0 {
		t.Errorf("no tick between the runs of a candidate (%d seeds each): a page would wait for all of them", DefaultShrinkSeeds)
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

// TestGeneratePause: a run's pause hook is called as it goes, one that
// always answers true changes nothing, and one that answers false ends
// the run there with an error rather than a finding.
func TestGeneratePause(t *testing.T) {
	opts := Options{Seed: 1, Break: safety.CoordinatorEpoch}
	plain := Generate(opts)
	pauses := 0
	opts.Pause = func() bool { pauses++; return true }
	paused := Generate(opts)
	if !slices.Equal(plain.Lines, paused.Lines) || plain.Steps != paused.Steps || len(plain.Violations) != len(paused.Violations) {
		t.Errorf("a pause that never stops changed the run: %d steps, with it %d", plain.Steps, paused.Steps)
	}
	if want := plain.Steps / pauseSteps; pauses != want {
		t.Errorf("%d pauses in %d steps, want %d (one every %d)", pauses, plain.Steps, want, pauseSteps)
	}
	opts.Pause = func() bool { return false }
	stopped := Generate(opts)
	if stopped.Err == nil || len(stopped.Violations) != 0 || stopped.Steps != pauseSteps {
		t.Errorf("a pause that stops: err %v, %d violations after %d steps; want an error after %d", stopped.Err, len(stopped.Violations), stopped.Steps, pauseSteps)
	}
}
