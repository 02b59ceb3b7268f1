package explore

import (
	"testing"
)

func TestGenerateSmoke(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := Generate(Options{Seed: seed})
		if r.Err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, r.Err, r.Script())
		}
		if len(r.Violations) > 0 {
			t.Errorf("seed %d: %v\n%s", seed, r.Violations, r.Script())
		}
		t.Logf("seed %d: %d lines %d steps exhausted=%v", seed, len(r.Lines), r.Steps, r.Exhausted)
	}
}
