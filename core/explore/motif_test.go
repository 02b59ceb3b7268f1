package explore

import (
	"testing"

	"txnlab/core/safety"
)

// TestEveryMechanismIsProvoked: the explorer knows how to provoke every
// mechanism of core/safety's table, so `txnlab explore --break NAME`
// leans towards its anomaly rather than waiting for chance.
func TestEveryMechanismIsProvoked(t *testing.T) {
	for _, m := range safety.Mechanisms {
		if provoke[m].motif == nil {
			t.Errorf("no motif provokes %s", m)
		}
	}
	if len(provoke) != len(safety.Mechanisms) {
		t.Errorf("%d provocations for %d mechanisms", len(provoke), len(safety.Mechanisms))
	}
}
