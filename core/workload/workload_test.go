package workload_test

import (
	"fmt"
	"runtime"
	"testing"

	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/core/workload"
)

// run runs a generated script to the end, failing on a script error or a
// failed expectation.
func run(t *testing.T, src string) *scenario.Session {
	t.Helper()
	script, err := scenario.Parse("workload", src)
	if err != nil {
		t.Fatalf("the generated script does not parse: %v", err)
	}
	s := scenario.NewSession("workload", script)
	s.Run()
	if s.Err != nil {
		t.Fatalf("script error: %v", s.Err)
	}
	for _, r := range s.Results {
		if !r.OK {
			t.Fatalf("failed expectation: %s", r)
		}
	}
	return s
}

func messages(evs []sim.Event) int {
	n := 0
	for i := range evs {
		if evs[i].Kind == sim.KindSend {
			n++
		}
	}
	return n
}

// Every generated size parses, runs with every expectation holding, and
// reaches the size asked for.
func TestSizes(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("sizes are checked natively: the scripts are the same text everywhere, and a run the same history")
	}
	cases := []struct {
		name  string
		c     workload.Config
		count func([]sim.Event) int
		want  int
	}{
		{"10000 events", workload.ForEvents(10000), func(e []sim.Event) int { return len(e) }, 10000},
		{"3000 messages", workload.ForMessages(3000), messages, 3000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := run(t, workload.Script(tc.c))
			got := tc.count(s.Cluster.World.Trace.Events(0))
			if got < tc.want*9/10 || got > tc.want*11/10 {
				t.Errorf("%d, want %d ± 10 %% (%d rounds)", got, tc.want, tc.c.Rounds)
			}
		})
	}
}

// The same configuration gives the same script and the same history.
func TestDeterministic(t *testing.T) {
	c := workload.ForEvents(4000)
	a, b := workload.Script(c), workload.Script(c)
	if a != b {
		t.Fatal("two scripts for one configuration differ")
	}
	if x, y := run(t, a).Cluster.World.Trace.Digest(), run(t, b).Cluster.World.Trace.Digest(); x != y {
		t.Fatalf("digests %s and %s for one script", x, y)
	}
}

// The other shapes parse: the benchmark's heavy load and one with drops
// (core/scenario runs both).
func TestShapesParse(t *testing.T) {
	for i, c := range []workload.Config{workload.Heavy,
		{Seed: 2, Brokers: 4, Topics: 2, Partitions: 4, Producers: 5, Consumers: 2, Rounds: 12, Drops: true, TxnTimeout: "15m"}} {
		if _, err := scenario.Parse(fmt.Sprint("shape", i), workload.Script(c)); err != nil {
			t.Errorf("%+v: %v", c, err)
		}
	}
}

func TestSmallestSize(t *testing.T) {
	if c := workload.ForEvents(10); c.Rounds < 3 {
		t.Errorf("%d rounds: the faults need three", c.Rounds)
	}
}
