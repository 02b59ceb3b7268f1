package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// The fuzz budget keeps one execution to a few tens of milliseconds.
const (
	fuzzSteps      = 20_000   // simulation events (and statements) per script
	fuzzVirtual    = sim.Hour // virtual time the script may ask for
	fuzzPartitions = 24       // user partitions, summed over topics
	fuzzStatements = 300      // statements per script
	fuzzWait       = 10 * sim.Minute
)

// withinBudget rejects, before running, a script that asks for more
// virtual time or a bigger cluster than a fuzz execution can afford.
// Every waiting statement counts at its bound: an action or a wait at
// 10 minutes, a run at its for=.
func withinBudget(s *scenario.Script) bool {
	if len(s.Statements) > fuzzStatements {
		return false
	}
	var t sim.Time
	parts := 0
	for _, st := range s.Statements {
		switch st := st.(type) {
		case *scenario.AdvanceStmt:
			t += st.By
		case *scenario.RunStmt:
			t += st.For
		case *scenario.RunUntilStmt:
			t += st.For
		case *scenario.DelayStmt:
			if st.By > fuzzVirtual {
				return false
			}

		case *scenario.TopicStmt:
			parts += st.Partitions
		case *scenario.WaitStmt:
			t += fuzzWait
		case *scenario.ProducerActionStmt:
			if !st.Background {
				t += fuzzWait / 10 // most calls return within max.block.ms
			}
		}
	}
	return t <= fuzzVirtual && parts <= fuzzPartitions
}

// mayViolate reports whether a script may legitimately end with a
// violation: it switches a mechanism off, says it shows one (expect
// violation), or can make Kafka 3.5's own hanging transaction — a
// produce held up past delivery.timeout.ms lands after its transaction
// ended, leaving a record no marker will close, which the checker
// rightly reports with nothing broken (KIP-890 fixed it in 3.6+).
func mayViolate(script *scenario.Script) bool {
	for _, st := range script.Statements {
		switch st := st.(type) {
		case *scenario.BreakStmt, *scenario.ExpectViolationStmt:
			return true
		case *scenario.DelayStmt:
			if st.Match.API == protocol.Produce && !st.Match.Response && st.By >= 10*sim.Second {
				return true
			}
		case *scenario.ProducerStmt:
			if st.Given.Has("delivery.timeout.ms") || st.Given.Has("request.timeout.ms") {
				return true
			}
		}
	}
	return false
}

// interpret runs a parsed script within the fuzz step budget.
func interpret(script *scenario.Script) *scenario.Session {
	s := scenario.NewSession("fuzz", script)
	for steps := 0; !s.Done() && steps < fuzzSteps; steps++ {
		s.Step()
	}
	return s
}

// FuzzInterpret runs arbitrary scripts through the interpreter with a
// bounded budget. It must never panic, a script must give the same
// trace twice, and unless it may legitimately violate an invariant
// (mayViolate) the checker must find nothing (the run need not end
// healed, so the liveness checks stay off). The seed corpus (testdata/fuzz/FuzzInterpret) holds generated
// scripts with and without faults and the committed scenarios.
func FuzzInterpret(f *testing.F) {
	for seed := uint64(1); seed <= 4; seed++ {
		f.Add(Generate(Options{Seed: seed, Actions: 8}).Script())
	}
	f.Fuzz(func(t *testing.T, src string) {
		script, err := scenario.Parse("fuzz", src)
		if err != nil || !withinBudget(script) {
			return
		}
		s := interpret(script)
		if s.Cluster == nil {
			return
		}
		vs := s.Cluster.Check(false)
		if len(vs) > 0 && !mayViolate(script) {
			t.Fatalf("violation with nothing broken: %v\nscript:\n%s", vs[0], src)
		}
		script2, _ := scenario.Parse("fuzz", src)
		again := interpret(script2)
		if a, b := s.Cluster.World.Trace.Digest(), again.Cluster.World.Trace.Digest(); a != b {
			t.Fatalf("same script, different traces: %s vs %s\nscript:\n%s", a, b, src)
		}
	})
}

// TestWriteFuzzCorpus regenerates the committed seed corpus of
// FuzzInterpret when TXNLAB_WRITE_CORPUS=1: short generated scripts
// (with and without a broken mechanism) and the project's scenarios.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("TXNLAB_WRITE_CORPUS") != "1" {
		t.Skip("set TXNLAB_WRITE_CORPUS=1 to rewrite testdata/fuzz/FuzzInterpret")
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzInterpret")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, src string) {
		body := "go test fuzz v1\nstring(" + strconv.Quote(src) + ")\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for seed := uint64(1); seed <= 6; seed++ {
		write(fmt.Sprintf("generated-%d", seed), Generate(Options{Seed: seed, Actions: 10}).Script())
	}
	for i, m := range classic {
		write("broken-"+m.Name, Generate(Options{Seed: uint64(100 + i), Break: m, Actions: 8}).Script())
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "scenarios", "*.scenario"))
	more, _ := filepath.Glob(filepath.Join("..", "..", "scenarios", "*", "*.scenario"))
	for _, f := range append(files, more...) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := "scenario-" + filepath.Base(f)
		if filepath.Base(filepath.Dir(f)) == "broken" {
			name = "scenario-broken-" + filepath.Base(f)
		}
		write(name, string(src))
	}
}
