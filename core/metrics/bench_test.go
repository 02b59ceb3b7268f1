package metrics

import (
	"testing"

	"txnlab/core/scenario"
	"txnlab/scenarios"
)

// BenchmarkSeries compares a library run with and without sampling every
// metric at each step (what the playground's Metrics panel replays).
func BenchmarkSeries(b *testing.B) {
	for _, name := range []string{"find-and-abort-hanging", "consume-transform-produce"} {
		sc, _ := scenarios.Get(name)
		script, err := scenario.Parse(name, sc.Script)
		if err != nil {
			b.Fatal(err)
		}
		for _, sample := range []bool{false, true} {
			label := name + "/run"
			if sample {
				label = name + "/run+metrics"
			}
			b.Run(label, func(b *testing.B) {
				for range b.N {
					s := scenario.NewSession(name, script)
					var series Series
					for !s.Done() {
						s.Step()
						if sample && s.Cluster != nil {
							series.Record(s.Cluster)
						}
					}
				}
			})
		}
	}
}
