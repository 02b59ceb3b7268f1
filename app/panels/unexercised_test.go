package panels

import (
	"maps"
	"testing"

	"txnlab/app/engine"
	"txnlab/core/safety"
	"txnlab/core/workload"
	"txnlab/scenarios"
)

// TestUnexercisedReadsTheWorkersHistory: the break tab's scan gives the
// same answer over a history that crossed from the worker, whose
// messages the page keeps encoded, as over the engine's own, for every
// library script; and over the library every mechanism is exercised by
// some script, so that the answers compared are not all "never".
func TestUnexercisedReadsTheWorkersHistory(t *testing.T) {
	exercised := map[string]bool{}
	for _, sc := range scenarios.All() {
		local := engine.New()
		local.Load(sc.Script)
		remote := engine.NewLoopback()
		remote.Load(sc.Script)
		want, got := Unexercised(local.History()), Unexercised(remote.History())
		if !maps.Equal(got, want) {
			t.Errorf("%s: through the worker %v, on the page %v", sc.Slug, got, want)
		}
		for _, m := range safety.Mechanisms {
			if _, never := want[m.Name]; !never && len(local.History()) > 0 {
				exercised[m.Name] = true
			}
		}
	}
	for _, m := range safety.Mechanisms {
		if !exercised[m.Name] {
			t.Errorf("no library script exercises %s", m.Name)
		}
	}
}

// BenchmarkUnexercised is the break tab's scan over the browser
// benchmarks' longest history (10,000 messages) as the page holds it,
// its messages encoded: the task that opens the break tab. Under Node,
// as the page runs it:
//
//	GOOS=js GOARCH=wasm go test -run '^$' -bench Unexercised ./app/panels/
func BenchmarkUnexercised(b *testing.B) {
	e := engine.NewLoopback()
	if err := e.Load(workload.Script(workload.ForMessages(10_000))); err != nil {
		b.Fatal(err)
	}
	h := e.History()
	for b.Loop() {
		Unexercised(h)
	}
}
