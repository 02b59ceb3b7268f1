package exercise

import (
	"strings"
	"testing"
	"time"

	"txnlab/core/safety"
	"txnlab/lessons/doc"
)

// attackOn is an attack exercise on m with no limits: what the explorer
// finds must pass it.
func attackOn(m *safety.Mechanism) *doc.Exercise {
	ex := &doc.Exercise{ID: "x-test-" + m.Name, Kind: doc.ExerciseAttack, Break: m.Name, Start: "cluster brokers=3\n"}
	if m.TV2 {
		ex.Config = "transaction.version=2"
	}
	return ex
}

// TestExplorerFindsEveryMechanismsAttack runs "Let the explorer try" on
// an attack for each mechanism, one unit at a time as a page does, and
// grades what it found.
func TestExplorerFindsEveryMechanismsAttack(t *testing.T) {
	for _, m := range safety.Mechanisms {
		t.Run(m.Name, func(t *testing.T) {
			ex := attackOn(m)
			e, err := NewExplorer(ex, 0, 50, 0)
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			units := 0
			for !e.Work(1) {
				units++
				if st := e.State(); st.Phase == PhaseShrink && st.Tries > st.MaxTries {
					t.Fatalf("%d tries of %d", st.Tries, st.MaxTries)
				}
			}
			st := e.State()
			if st.Phase != PhaseFound {
				t.Fatalf("phase %s after %d runs", st.Phase, st.Runs)
			}
			if strings.Contains(st.Script, "break ") || strings.Contains(st.Script, "expect violation") {
				t.Errorf("the script keeps the explorer's break or expectation:\n%s", st.Script)
			}
			res, err := Grade(ex, st.Script)
			if err != nil || !res.Passed {
				t.Fatalf("the explorer's script does not pass: %+v %v\n%s", res, err, st.Script)
			}
			t.Logf("%s: found at run %d (seed %d), %d -> %d statements in %d tries, %d units, %s natively",
				m.Name, st.Runs, st.Seed, st.Original, strings.Count(st.Script, "\n"), st.Tries, units, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestExplorerStops: Stop during the shrink ends it at once, and a
// stopped explorer does no more work.
func TestExplorerStops(t *testing.T) {
	e, err := NewExplorer(attackOn(safety.EpochBump), 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for e.State().Phase != PhaseShrink || e.State().Tries < 3 {
		if e.Work(1) {
			t.Fatalf("over before the shrink: %+v", e.State())
		}
	}
	e.Stop()
	st := e.State()
	if st.Phase != PhaseStop || !e.Work(10) || e.State() != st {
		t.Errorf("after Stop: %+v, then %+v", st, e.State())
	}
	s2, _ := NewExplorer(attackOn(safety.EpochBump), 0, 0, 0)
	s2.Stop()
	if s2.State().Phase != PhaseStop || s2.State().Runs != 0 {
		t.Errorf("stopped before it began: %+v", s2.State())
	}
}

// TestExplorerGivesUp: a bound of runs that shows nothing the exercise
// counts ends in PhaseNone (a broken LSO bound never makes markers
// disagree, and three runs are all it gets).
func TestExplorerGivesUp(t *testing.T) {
	ex := attackOn(safety.LSOBound)
	ex.Catches = []string{"marker-consistency"}
	e, err := NewExplorer(ex, 0, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	for !e.Work(1) {
	}
	if st := e.State(); st.Phase != PhaseNone || st.Runs != 3 || st.Script != "" {
		t.Errorf("got %+v", st)
	}
}

func TestNewExplorerRefuses(t *testing.T) {
	for name, ex := range map[string]*doc.Exercise{
		"goal":      &abortGoal,
		"mechanism": {ID: "x", Kind: doc.ExerciseAttack, Break: "seatbelts"},
		"config":    {ID: "x", Kind: doc.ExerciseAttack, Break: "lso-bound", Config: "kafka=9"},
	} {
		if _, err := NewExplorer(ex, 0, 0, 0); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestLearnerScript(t *testing.T) {
	ex := &doc.Exercise{Config: "transaction.version=2"}
	got := LearnerScript(ex, []string{"cluster brokers=1", "break epoch-bump", "config transaction.version=2",
		"config transaction.max.timeout.ms=1m", "topic t partitions=1", "", "restore epoch-bump", "expect violation read-committed", "expect t/0 hw=1"})
	want := "cluster brokers=1\nconfig transaction.max.timeout.ms=1m\ntopic t partitions=1\nexpect t/0 hw=1\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
