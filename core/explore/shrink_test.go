package explore

import (
	"testing"
)

func TestShrinkFound(t *testing.T) {
	n := 0
	for seed := uint64(1); seed <= 400 && n < 6; seed++ {
		r := Generate(Options{Seed: seed})
		if len(r.Violations) == 0 {
			continue
		}
		n++
		inv := r.Violations[0].Invariant
		final := !Exec(r.Script(), 0, false).Has(inv)
		lines := r.Lines
		if final {
			lines = lines[:r.Body]
		}
		sh := Shrink(lines, ShrinkOptions{Invariant: inv, Final: final})
		t.Logf("seed %d: %s (final=%v) %d -> %d lines in %d tries\n%s\n%s", seed, inv, final, len(r.Lines), len(sh.Lines), sh.Tries, Join(sh.Lines), sh.Violation)
	}
}
