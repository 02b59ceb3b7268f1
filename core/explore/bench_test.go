package explore

import "testing"

// BenchmarkGenerate measures whole explorer runs (generate, run, judge)
// over a fixed range of seeds: b.N runs, seeds 1..b.N.
func BenchmarkGenerate(b *testing.B) {
	steps := 0
	for i := 0; i < b.N; i++ {
		r := Generate(Options{Seed: uint64(i + 1)})
		steps += r.Steps
	}
	b.ReportMetric(float64(steps)/float64(b.N), "events/run")
}
