package panels

import (
	"maps"
	"testing"
	"time"

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
		remote := workerEngine()
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
	e := workerEngine()
	if err := e.Load(workload.Script(workload.ForMessages(10_000))); err != nil {
		b.Fatal(err)
	}
	h := e.History()
	for b.Loop() {
		Unexercised(h)
	}
}

// workerEngine is an engine whose history comes from a worker's server
// in the same process, its messages delivered as the browser would.
func workerEngine() engine.Engine {
	var toWork, toPage [][]byte
	var link *engine.Link
	server := engine.NewServer(func(b []byte) { toPage = append(toPage, b) })
	pump := func() {
		for {
			for len(toWork) > 0 {
				m := toWork[0]
				toWork = toWork[1:]
				server.Receive(m)
			}
			more := server.Work(time.Hour)
			for len(toPage) > 0 {
				m := toPage[0]
				toPage = toPage[1:]
				link.Receive(m)
			}
			if !more && len(toWork)+len(toPage) == 0 {
				return
			}
		}
	}
	link = engine.NewLink(func(b []byte) { toWork = append(toWork, b) }, pump)
	return link.Engine()
}
