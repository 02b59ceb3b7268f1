package lessons

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// exerciseProblems judges every exercise of every lesson of c, in both
// languages, as the page would (checkExercises, which Course.Check
// runs): the reference solution must pass and every wrong attempt must
// fail. It returns what does not hold, and how many exercises it judged.
func exerciseProblems(c *Course) (problems []string, n int) {
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			l, _ := c.Lesson(lang, m.Slug)
			errs, k := checkExercises(c.pages[pageKey{lang, m.Slug}].file, l)
			for _, e := range errs {
				problems = append(problems, e.Error())
			}
			n += k
		}
	}
	return problems, n
}

// TestEveryExerciseIsJudgedAsItSays: in the shipped course, in both
// languages, every exercise's solution passes and every wrong attempt
// fails (docs/lessons.md, "Exercises").
func TestEveryExerciseIsJudgedAsItSays(t *testing.T) {
	problems, n := exerciseProblems(embedded(t))
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d exercises judged (both languages)", n)
}

// TestExerciseJudgingCatchesAWrongLesson runs the same judging on a
// small course of its own, as written and with each exercise's solution
// and first wrong attempt swapped: the swap must be reported for every
// exercise in both languages.
func TestExerciseJudgingCatchesAWrongLesson(t *testing.T) {
	c, err := Load(os.DirFS("testdata/exercises"))
	if err != nil {
		t.Fatal(err)
	}
	problems, n := exerciseProblems(c)
	if n != 4 || len(problems) > 0 {
		t.Fatalf("%d exercises judged, problems %v", n, problems)
	}
	for _, lang := range doc.Langs {
		l, _ := c.Lesson(lang, "01-do")
		for i := range l.Exercises {
			ex := &l.Exercises[i]
			ex.Solution, ex.Wrong[0] = ex.Wrong[0], ex.Solution
		}
	}
	problems, _ = exerciseProblems(c)
	want := 0
	for _, p := range problems {
		if strings.Contains(p, "the solution does not pass") || strings.Contains(p, "wrong attempt 1 passes") {
			want++
		}
	}
	if want != 8 || len(problems) != 8 {
		t.Errorf("swapped solutions: %d problems, want 8 (a failing solution and a passing wrong attempt for each of 4):\n%s", len(problems), strings.Join(problems, "\n"))
	}
}

// explorerProblems runs "Let the explorer try" (natively, as the page's
// worker would) on every attack exercise of c, in both languages: it
// must find a shrunk attack the exercise's runs judge as one. Whether
// that script also keeps within the exercise's limits is logged, not
// required (docs/lessons.md: the card then names the limit).
func explorerProblems(t *testing.T, c *Course) (problems []string, n int) {
	t.Helper()
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			l, _ := c.Lesson(lang, m.Slug)
			for i := range l.Exercises {
				ex := &l.Exercises[i]
				if ex.Kind != doc.ExerciseAttack {
					continue
				}
				n++
				name := l.Slug + "/" + string(lang) + "/" + ex.ID
				e, err := exercise.NewExplorer(ex, 0, 0, 0)
				if err != nil {
					problems = append(problems, name+": "+err.Error())
					continue
				}
				for !e.Work(64) {
				}
				st := e.State()
				if st.Phase != exercise.PhaseFound {
					problems = append(problems, name+": the explorer found nothing in "+strconv.Itoa(st.Runs)+" schedules")
					continue
				}
				res, err := exercise.Grade(ex, st.Script)
				if err != nil {
					problems = append(problems, name+": "+err.Error())
					continue
				}
				t.Logf("%s: the explorer's attack (seed %d, %d statements) %s", name, st.Seed, strings.Count(st.Script, "\n"),
					map[bool]string{true: "passes", false: "breaks the limits: " + verdict(res)}[res.Passed])
			}
		}
	}
	return problems, n
}

// TestTheExplorerFindsEveryAttack: every attack exercise of the shipped
// course, and of the small course of the tests, can be shown an attack
// by the explorer.
func TestTheExplorerFindsEveryAttack(t *testing.T) {
	small, err := Load(os.DirFS("testdata/exercises"))
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]*Course{"the course": embedded(t), "testdata/exercises": small} {
		problems, n := explorerProblems(t, c)
		for _, p := range problems {
			t.Errorf("%s: %s", name, p)
		}
		t.Logf("%s: %d attack exercises explored (both languages)", name, n)
		if name == "testdata/exercises" && n != 2 {
			t.Errorf("%s: %d attacks explored, want 2", name, n)
		}
	}
}
