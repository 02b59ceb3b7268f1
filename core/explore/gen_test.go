package explore

import (
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// The generator is deterministic per seed, its scripts are valid, and
// replaying the finished text gives the very run it was built from.
func TestGenerateDeterministicAndReplayable(t *testing.T) {
	for seed := uint64(1); seed <= 25; seed++ {
		a := Generate(Options{Seed: seed})
		b := Generate(Options{Seed: seed})
		if a.Err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, a.Err, a.Script())
		}
		if !slices.Equal(a.Lines, b.Lines) || fmt.Sprint(a.Violations) != fmt.Sprint(b.Violations) {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		if _, err := scenario.Parse("gen", a.Script()); err != nil {
			t.Fatalf("seed %d: the script does not parse: %v", seed, err)
		}
		o := Exec(a.Script(), 0, true)
		if o.Err != nil || fmt.Sprint(o.Violations) != fmt.Sprint(a.Violations) || o.Steps != a.Steps {
			t.Fatalf("seed %d: replay differs: err=%v steps %d vs %d, %v vs %v", seed, o.Err, o.Steps, a.Steps, o.Violations, a.Violations)
		}
	}
}

// With nothing broken the explorer finds nothing (a short smoke run; the
// long one is `txnlab explore --runs 10000`, see docs/reliability.md).
func TestExploreNothingBroken(t *testing.T) {
	runs := 40
	if testing.Short() {
		runs = 10
	}
	rep := Explore(Config{Runs: runs, Seed: 1, KeepGoing: true}, nil)
	if rep.Invalid > 0 {
		t.Fatalf("%d invalid scripts; first: %v\n%s", rep.Invalid, rep.FirstInvalid.Err, rep.FirstInvalid.Script())
	}
	if rep.First != nil {
		t.Fatalf("violation with nothing broken: %v\n%s", rep.First.Violations[0], rep.First.Script())
	}
}

// Teeth: with each mechanism broken, the explorer finds its anomaly and
// shrinks it to a short scenario that `expect violation` reproduces. A
// KIP-890 defense is broken under transaction version 2, and its shrunk
// script keeps the break and the protocol line.
func TestExploreFindsEveryBrokenMechanism(t *testing.T) {
	if testing.Short() {
		t.Skip("shrinking takes a few seconds")
	}
	for _, m := range safety.Mechanisms {
		t.Run(m.Name, func(t *testing.T) {
			rep := Explore(Config{Runs: 200, Seed: 1, Break: m}, nil)
			if rep.First == nil {
				t.Fatalf("no violation in %d runs", rep.Runs)
			}
			inv := Target(rep.First, m)
			if inv != m.Catches.Name {
				t.Errorf("found %s, expected %s", inv, m.Catches)
			}
			sh := Minimize(rep.First, m, inv, 0)
			doc := Document(m, inv, sh, "test", len(rep.First.Lines))
			if m.TV2 {
				if !strings.Contains(doc, "\nbreak "+m.Name+"\n") || !strings.Contains(doc, "\nconfig transaction.version=2\n") {
					t.Errorf("the shrunk script lost its break or protocol line:\n%s", doc)
				}
			} else {
				if n := strings.Count(doc, "\n"); n > docLines(m) {
					t.Errorf("shrunk to %d lines:\n%s", n, doc)
				}
				// A liveness mechanism's anomaly is one only the
				// final check sees; any other's shows as it stands.
				if sh.Final != m.Liveness {
					t.Fatalf("only the final check sees it: %v, for a mechanism whose Liveness is %v:\n%s", sh.Final, m.Liveness, doc)
				}
			}
			o := Exec(doc, 0, false)
			if o.Err != nil || o.Session.Failed() != 0 {
				t.Fatalf("the shrunk scenario does not reproduce (err %v, %d failed):\n%s", o.Err, o.Session.Failed(), doc)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	in := []string{
		"cluster brokers=3",
		"producer p4 transactional.id=tx-c",
		"consumer c2 isolation.level=read_committed",
		"p4 init &",
		"wait p4",
		"p4 send orders/0 k7=v7 k9=v9",
		"pause c2",
		"crash coordinator(tx-c)",
		"drop Produce.response to=p4 count=1",
	}
	want := []string{
		"cluster brokers=3",
		"producer p1 transactional.id=tx-a",
		"consumer c1 isolation.level=read_committed",
		"p1 init &",
		"wait p1",
		"p1 send orders/0 k1=v1 k2=v2",
		"pause c1",
		"crash coordinator(tx-a)",
		"drop Produce.response to=p1 count=1",
	}
	if got := Canonical(in); !slices.Equal(got, want) {
		t.Fatalf("Canonical:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestVariantsSimplify(t *testing.T) {
	cases := map[string]string{
		"p1 commit &":                   "p1 commit",
		"drop Produce.response count=3": "drop Produce.response",
		"advance 70s":                   "advance 100ms",
		"p1 send orders/0 k1=v1 k2=v2":  "p1 send orders/0 k2=v2",
		"c1 assign orders/0 orders/1":   "c1 assign orders/1",
		"cluster brokers=4 seed=9":      "cluster brokers=4",
		"producer p1 transactional.id=t transaction.timeout.ms=5s": "producer p1 transactional.id=t",
	}
	for in, want := range cases {
		if !slices.Contains(variants(in), want) {
			t.Errorf("variants(%q) = %q, want it to contain %q", in, variants(in), want)
		}
	}
}

func TestShape(t *testing.T) {
	a := Shape(`c1 received "v1" at orders/0@0 from p1's transaction #1, which aborted`)
	b := Shape(`c3 received "v19" at audit/2@4 from p7's transaction #12, which aborted`)
	c := Shape(`c1 received "v1" at orders/0@0 from p1's transaction #1 before its commit was even sent`)
	d := Shape(`"v1" at payments/0@0 was written with epoch 0 at 37ms, after epoch 1 of tx-c was granted at 34ms, and it was committed`)
	e := Shape(`"v25" at orders/1@3 was written with epoch 2 at 9ms, after epoch 3 of tx-a was granted at 4ms, and it was committed`)
	if a != b || a == c || d != e {
		t.Fatalf("shapes: %q %q %q %q %q", a, b, c, d, e)
	}
}

// docLines is how many lines a shrunk scenario of a classic mechanism
// may have: 25, and for a liveness mechanism the line that says only the
// liveness checks see it and the liveness phase.
func docLines(m *safety.Mechanism) int {
	if m.Liveness {
		return 25 + 7
	}
	return 25
}

// The library's broken-mechanism examples are the explorer's shrunk
// scenarios: one per mechanism, at most docLines lines, and `expect
// violation` (a liveness mechanism's `expect liveness violation`) holds
// when they run.
func TestBrokenLibrary(t *testing.T) {
	for _, m := range classic {
		path := filepath.Join("..", "..", "scenarios", "broken", m.Name+".scenario")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := strings.Count(string(src), "\n"); n > docLines(m) {
			t.Errorf("%s: %d lines", path, n)
		}
		expect := "expect violation "
		if m.Liveness {
			expect = "expect liveness violation "
		}
		if !strings.Contains(string(src), "break "+m.Name+"\n") || !strings.Contains(string(src), expect+m.Catches.Name+"\n") {
			t.Errorf("%s: does not break %s or say `%s%s`", path, m, expect, m.Catches)
		}
		o := Exec(string(src), 0, false)
		if o.Err != nil || o.Session.Failed() != 0 {
			t.Errorf("%s: err %v, %d failed expectation(s)", path, o.Err, o.Session.Failed())
		}
	}
}

// The generator overlaps a producer's sends, so that the explorer tries
// the in-flight window (several batches of one partition on the wire,
// reordered by delays, drops and crashes) and not only one batch at a
// time: some runs must have two Produce requests of one producer to one
// partition unanswered at once.
func TestGeneratorOverlapsSends(t *testing.T) {
	overlapping := 0
	for seed := uint64(1); seed <= 60; seed++ {
		r := Generate(Options{Seed: seed})
		if r.Err != nil {
			t.Fatalf("seed %d: %v", seed, r.Err)
		}
		o := Exec(r.Script(), 0, true)
		if o.Err != nil {
			t.Fatalf("seed %d: replay: %v", seed, o.Err)
		}
		if maxInFlight(o.Session.Cluster.World.Trace.All()) >= 2 {
			overlapping++
		}
	}
	t.Logf("%d of 60 runs overlapped", overlapping)
	if overlapping < 15 {
		t.Errorf("only %d of 60 runs had two batches of one producer and partition in flight at once", overlapping)
	}
}

// maxInFlight is the most Produce requests of one producer to one
// partition sent and not yet answered (or lost) at any point of a trace.
func maxInFlight(events iter.Seq2[int, *sim.Event]) int {
	type key struct {
		from sim.NodeID
		tp   protocol.TopicPartition
	}
	open := map[int64]key{}
	count := map[key]int{}
	most := 0
	for _, e := range events {
		switch {
		case e.Kind == sim.KindSend && !e.Resp && e.API == protocol.Produce:
			req, ok := e.Msg.(*protocol.ProduceRequest)
			if !ok || len(req.Partitions) != 1 {
				continue
			}
			k := key{e.Node, req.Partitions[0].TopicPartition}
			open[e.MsgID] = k
			count[k]++
			most = max(most, count[k])
		case e.Kind == sim.KindDrop || (e.Kind == sim.KindSend && e.Resp):
			id := e.MsgID
			if e.Resp {
				id = e.ReplyTo
			}
			if k, ok := open[id]; ok {
				delete(open, id)
				count[k]--
			}
		}
	}
	return most
}
