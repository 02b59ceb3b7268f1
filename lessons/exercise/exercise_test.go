package exercise

import (
	"reflect"
	"strings"
	"testing"

	"txnlab/lessons/doc"
)

// abortGoal is a goal exercise: end the open transaction by aborting it,
// and let the markers land.
var abortGoal = doc.Exercise{
	ID:   "x-test-abort",
	Kind: doc.ExerciseGoal,
	Start: `cluster brokers=3
topic orders partitions=1
producer p transactional.id=t1
p init
p begin
p send orders/0 k=a
`,
	Goal:     []string{"expect txn t1 state=CompleteAbort", "expect partition orders/0 lso=2"},
	MaxAdded: 2,
	Allow:    []string{"abort", "commit", "run", "advance", "wait"},
}

const abortSolution = abortStart + "p abort\nrun\n"

const abortStart = `cluster brokers=3
topic orders partitions=1
producer p transactional.id=t1
p init
p begin
p send orders/0 k=a
`

// dupAttack is an attack exercise: with the sequence check off, make a
// retried produce land twice.
var dupAttack = doc.Exercise{
	ID:   "x-test-dup",
	Kind: doc.ExerciseAttack,
	Start: `cluster brokers=1
topic audit partitions=1
producer p1
p1 send audit/0 k1=v1
`,
	Break: "sequence-check",
}

const dupSolution = `cluster brokers=1
topic audit partitions=1
producer p1
drop Produce.response count=1
p1 send audit/0 k1=v1
`

// filterAttack breaks the aborted filter in both runs (its config), so
// the run with lso-bound on still reads an aborted record: the checker
// reports it there too.
var filterAttack = doc.Exercise{
	ID:     "x-test-filter",
	Kind:   doc.ExerciseAttack,
	Start:  "cluster brokers=1\n",
	Break:  "lso-bound",
	Config: "break=aborted-filter",
}

const readAborted = `cluster brokers=1
topic orders partitions=1
producer p transactional.id=t1
consumer c isolation.level=read_committed
c assign orders/0
p init
p begin
p send orders/0 k=a
p abort
run
c poll
`

func TestGrade(t *testing.T) {
	withBreak := func(ex doc.Exercise, allow ...string) *doc.Exercise {
		ex.Allow, ex.MaxAdded = allow, 0
		return &ex
	}
	fencingOnly := dupAttack
	fencingOnly.Catches = []string{"fencing"}
	for _, tc := range []struct {
		name   string
		ex     *doc.Exercise
		script string
		check  func(t *testing.T, r *Result)
	}{
		{"goal reached", &abortGoal, abortSolution, func(t *testing.T, r *Result) {
			want := []Expectation{{Text: abortGoal.Goal[0], Held: true}, {Text: abortGoal.Goal[1], Held: true}}
			if !r.Passed || r.Added != 2 || r.Err != nil || len(r.Limits) > 0 || !reflect.DeepEqual(r.Goals, want) {
				t.Errorf("got %+v", r)
			}
		}},
		{"a start statement moved is not added", &abortGoal,
			strings.Replace(abortSolution, "topic orders partitions=1\nproducer p transactional.id=t1\n", "producer p transactional.id=t1\ntopic orders partitions=1\n", 1),
			func(t *testing.T, r *Result) {
				if r.Added != 2 || !r.Passed {
					t.Errorf("added %d, passed %v, limits %+v, err %v", r.Added, r.Passed, r.Limits, r.Err)
				}
			}},
		{"goal line not held, with the run's value", &abortGoal, abortStart + "p abort\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Goals[0].Held || r.Goals[0].Actual != "state=PrepareAbort" || r.Goals[0].Expected != "state=CompleteAbort" {
				t.Errorf("got %+v", r.Goals)
			}
		}},
		{"the wrong outcome", &abortGoal, abortStart + "p commit\nrun\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Goals[0].Held || r.Goals[0].Actual != "state=CompleteCommit" || !r.Goals[1].Held {
				t.Errorf("got %+v", r.Goals)
			}
		}},
		{"the learner's own expect fails", &abortGoal, abortSolution + "expect txn t1 state=Empty\n", func(t *testing.T, r *Result) {
			if r.Passed || len(r.Goals) != 3 || !r.Goals[2].Own || r.Goals[2].Held || r.Goals[2].Line != 9 || r.Goals[2].Actual != "state=CompleteAbort" {
				t.Errorf("got %+v", r.Goals)
			}
			if r.Added != 2 {
				t.Errorf("an expectation counted as added: %d", r.Added)
			}
		}},
		{"the learner's own expect holds", &abortGoal, abortSolution + "expect txn t1 state=CompleteAbort\n", func(t *testing.T, r *Result) {
			if !r.Passed || len(r.Goals) != 3 || !r.Goals[2].Held {
				t.Errorf("got %+v", r)
			}
		}},
		{"a parse error names its line and column", &abortGoal, abortStart + "p abort\np frobnicate\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Err == nil || r.Err.Line != 8 || r.Err.Col != 3 || r.Err.Runtime || r.Goals != nil {
				t.Errorf("got %+v, err %+v", r, r.Err)
			}
		}},
		{"a statement that cannot apply stops the run", &abortGoal, abortStart + "resume p\np abort\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Err == nil || r.Err.Line != 7 || r.Err.Col != 1 || !strings.Contains(r.Err.Msg, "not paused") || !r.Err.Runtime {
				t.Errorf("got %+v", r.Err)
			}
		}},
		{"too many statements added", &abortGoal, abortStart + "advance 1s\np abort\nrun\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Added != 3 || !reflect.DeepEqual(r.Limits, []Limit{{Kind: LimitAdded, Added: 3, Max: 2}}) {
				t.Errorf("got added %d, limits %+v", r.Added, r.Limits)
			}
			if !r.Goals[0].Held {
				t.Errorf("the goal is still evaluated: %+v", r.Goals)
			}
		}},
		{"a verb not allowed", &abortGoal, abortStart + "pause p\np abort\n", func(t *testing.T, r *Result) {
			if r.Passed || !reflect.DeepEqual(r.Limits, []Limit{{Kind: LimitVerb, Line: 7, Verb: "pause"}}) {
				t.Errorf("got %+v", r.Limits)
			}
		}},
		{"break in a goal exercise that allows any verb", withBreak(abortGoal), abortStart + "break epoch-fencing\np abort\nrun\n", func(t *testing.T, r *Result) {
			if r.Passed || !reflect.DeepEqual(r.Limits, []Limit{{Kind: LimitBreak, Line: 7, Verb: "break"}}) {
				t.Errorf("got %+v", r.Limits)
			}
		}},
		{"break where the goal exercise allows it", withBreak(abortGoal, "break", "abort", "run"), abortStart + "break epoch-fencing\np abort\nrun\n", func(t *testing.T, r *Result) {
			if !r.Passed || len(r.Limits) > 0 {
				t.Errorf("got %+v", r)
			}
		}},
		{"a goal line on a transactional id the script no longer has", &abortGoal, "cluster brokers=3\ntopic orders partitions=1\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Goals[0].Held || r.Goals[0].Actual != "absent" || r.Goals[0].Err != "" {
				t.Errorf("got %+v", r.Goals)
			}
		}},
		{"a goal line that cannot be evaluated: no cluster", &abortGoal, "# nothing yet\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Goals[0].Held || r.Goals[0].Err == "" {
				t.Errorf("got %+v", r.Goals)
			}
		}},
		{"attack succeeds", &dupAttack, dupSolution, func(t *testing.T, r *Result) {
			want := []AttackRun{{Broken: true, Violated: []string{"no-duplicates", "durability"}, Caught: true, Findings: []string{
				`p1's record "v1" (producer 0, sequence 0) is in audit/0 2 times`,
				`p1's record "v1" was acknowledged at audit/0@1 but the log holds it at offset 0`}}, {}}
			if !r.Passed || !reflect.DeepEqual(r.Runs, want) || !reflect.DeepEqual(r.Catches, []string{"no-duplicates"}) || r.Added != 1 {
				t.Errorf("got %+v", r)
			}
		}},
		{"attack that breaks nothing", &dupAttack, dupAttack.Start, func(t *testing.T, r *Result) {
			if r.Passed || len(r.Runs) != 2 || r.Runs[0].Caught || len(r.Runs[0].Violated) != 0 {
				t.Errorf("got %+v", r)
			}
		}},
		{"attack that shows another invariant than the one counted", &fencingOnly, dupSolution, func(t *testing.T, r *Result) {
			if r.Passed || r.Runs[0].Caught || !reflect.DeepEqual(r.Runs[0].Violated, []string{"no-duplicates", "durability"}) {
				t.Errorf("got %+v", r)
			}
		}},
		{"attack with break in the script", &dupAttack, "cluster brokers=1\nbreak sequence-check\n" + strings.TrimPrefix(dupSolution, "cluster brokers=1\n"), func(t *testing.T, r *Result) {
			if r.Passed || !reflect.DeepEqual(r.Limits, []Limit{{Kind: LimitBreak, Line: 2, Verb: "break"}}) {
				t.Errorf("got %+v", r.Limits)
			}
		}},
		{"attack with restore in the script", &dupAttack, dupSolution + "restore sequence-check\n", func(t *testing.T, r *Result) {
			if r.Passed || !reflect.DeepEqual(r.Limits, []Limit{{Kind: LimitBreak, Line: 6, Verb: "restore"}}) {
				t.Errorf("got %+v", r.Limits)
			}
		}},
		{"attack whose run with the mechanism on shows a violation too", &filterAttack, readAborted, func(t *testing.T, r *Result) {
			read := []string{`c received "a" at orders/0@0 from p's transaction #1, which aborted`}
			want := []AttackRun{{Broken: true, Violated: []string{"read-committed"}, Caught: true, Findings: read}, {Violated: []string{"read-committed"}, Caught: true, Findings: read}}
			if r.Passed || !reflect.DeepEqual(r.Runs, want) {
				t.Errorf("got %+v", r.Runs)
			}
		}},
		{"attack whose script fails in the broken run", &dupAttack, "cluster brokers=1\ntopic audit partitions=1\nproducer p1\nresume p1\n", func(t *testing.T, r *Result) {
			if r.Passed || r.Err == nil || !r.Err.Broken || r.Err.Line != 4 || len(r.Runs) != 0 {
				t.Errorf("got %+v err %+v", r, r.Err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Grade(tc.ex, tc.script)
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, r)
		})
	}
}

// TestWorkInSlices checks that judging one step at a time, as the page
// does between frames, gives what judging in one go gives.
func TestWorkInSlices(t *testing.T) {
	for _, tc := range []struct {
		ex     *doc.Exercise
		script string
	}{{&abortGoal, abortSolution}, {&dupAttack, dupSolution}, {&abortGoal, abortStart + "resume p\n"}} {
		whole, err := Grade(tc.ex, tc.script)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Start(tc.ex, tc.script)
		if err != nil {
			t.Fatal(err)
		}
		slices, lastRun := 0, 0
		for !c.Work(1) {
			slices++
			run, runs, _ := c.Progress()
			if run < lastRun || runs != len(c.runs) {
				t.Fatalf("progress went back: run %d of %d after %d", run, runs, lastRun)
			}
			lastRun = run
		}
		if slices < 10 {
			t.Errorf("%s: done in %d slices of one step", tc.ex.ID, slices)
		}
		if !reflect.DeepEqual(c.Result(), whole) {
			t.Errorf("%s: in slices %+v, whole %+v", tc.ex.ID, c.Result(), whole)
		}
		if run, runs, line := c.Progress(); run != runs || line != 0 {
			t.Errorf("done, yet progress says run %d of %d at line %d", run, runs, line)
		}
	}
}

// TestStartRefusesABadExercise: what is wrong with the lesson is an
// error, not a verdict on the learner.
func TestStartRefusesABadExercise(t *testing.T) {
	for name, ex := range map[string]doc.Exercise{
		"kind":      {ID: "x", Kind: "quiz", Start: "cluster\n"},
		"mechanism": {ID: "x", Kind: doc.ExerciseAttack, Break: "seatbelts", Start: "cluster\n"},
		"config":    {ID: "x", Kind: doc.ExerciseAttack, Break: "lso-bound", Config: "kafka=9", Start: "cluster\n"},
		"start":     {ID: "x", Kind: doc.ExerciseGoal, Start: "cluster\nfrobnicate\n"},
	} {
		if _, err := Start(&ex, "cluster\n"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCatchesDefaultsToTheMechanisms(t *testing.T) {
	if got := Catches(&dupAttack); !reflect.DeepEqual(got, []string{"no-duplicates"}) {
		t.Errorf("got %v", got)
	}
	own := doc.Exercise{Break: "sequence-check", Catches: []string{"durability", "no-duplicates"}}
	if got := Catches(&own); !reflect.DeepEqual(got, own.Catches) {
		t.Errorf("got %v", got)
	}
}
