package explore

import (
	"testing"

	"txnlab/core/safety"
)

// TestEveryMechanismIsProvoked: the explorer knows the motif every
// mechanism of core/safety's table names, so `txnlab explore --break
// NAME` leans towards its anomaly rather than waiting for chance; a
// mechanism naming an unknown motif is named here, and every motif
// serves some mechanism.
func TestEveryMechanismIsProvoked(t *testing.T) {
	used := map[string]bool{}
	for _, m := range safety.Mechanisms {
		used[m.Provoke.Motif] = true
		if motifs[m.Provoke.Motif] == nil {
			t.Errorf("%s names motif %q, which core/explore's motifs table lacks", m, m.Provoke.Motif)
		}
	}
	for name := range motifs {
		if !used[name] {
			t.Errorf("motif %q provokes no mechanism of core/safety's table", name)
		}
	}
}

// TestUnknownMotifProvokesNothing: a mechanism whose motif the explorer
// does not know still explores (unbiased), rather than crashing on a nil
// function.
func TestUnknownMotifProvokesNothing(t *testing.T) {
	m := *safety.LSOBound
	m.Provoke.Motif = "no-such-motif"
	rep := Explore(Config{Runs: 2, Seed: 1, Break: &m, KeepGoing: true}, nil)
	if rep.Runs != 2 {
		t.Errorf("%d runs", rep.Runs)
	}
}
