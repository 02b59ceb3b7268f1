package lessons

import (
	"errors"
	"strconv"
	"strings"

	"txnlab/core/scenario"
	"txnlab/lessons/answer"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// Running a course: Load checks what can be checked by reading (the
// format, the ids, the twins); Check runs what a learner would run. It is
// what the course's own tests assert of the shipped lessons and what
// `txnlab course check DIR` asserts of an instructor's: a lesson cannot
// claim what the simulation does not do.

// Checked counts what Check ran.
type Checked struct {
	Scenarios, Questions, Exercises int // runs, counting each variant and language
}

// Check runs every scenario block of the course (every expect must hold
// and every fact answer, in every variant), decides every question
// against its run (the marked answer must be what the run says) and
// judges every exercise (its solution passes, each wrong attempt fails),
// in every language. It returns what does not hold, each at its lesson
// file's line, sorted; nil when all holds.
func (c *Course) Check() (ErrorList, Checked) {
	var errs ErrorList
	var n Checked
	for _, slug := range c.slugs {
		for _, lang := range doc.Langs {
			p, ok := c.pages[pageKey{lang, slug}]
			if !ok {
				continue
			}
			e, k := checkScenarios(p.file, p.lesson)
			errs, n.Scenarios = append(errs, e...), n.Scenarios+k
			e, k = checkQuestions(p.file, p.lesson)
			errs, n.Questions = append(errs, e...), n.Questions+k
			e, k = checkExercises(p.file, p.lesson)
			errs, n.Exercises = append(errs, e...), n.Exercises+k
		}
	}
	if sorted(errs) == nil {
		return nil, n
	}
	return errs, n
}

// variantName is how a check names a variant of a varied block (""
// for a block that does not vary).
func variantName(vary []doc.Var, v int) string {
	if len(vary) == 0 {
		return ""
	}
	return " (variant " + variantText(vary, v) + ")"
}

// checkScenarios runs every scenario block of a lesson, in every
// variant.
func checkScenarios(file string, l *doc.Lesson) (errs ErrorList, n int) {
	for _, sc := range l.Scenarios {
		for v := 0; v < doc.Variants(sc.Vary); v++ {
			n++
			vals := doc.Draw(sc.Vary, v)
			name := "scenario " + sc.ID + variantName(sc.Vary, v)
			at := func(line int, msg string) {
				errs = append(errs, &Error{File: file, Line: line, Msg: name + ": " + msg})
			}
			script, err := scenario.Parse(sc.ID, sc.Filled(vals).Script)
			if err != nil {
				at(sc.Line+scriptLine(err), err.Error())
				continue
			}
			s := scenario.NewSession(sc.ID, script)
			s.Run()
			if s.Err != nil {
				at(sc.Line+scriptLine(s.Err), "the run stops: "+s.Err.Error())
			}
			for _, r := range s.Results {
				if !r.OK {
					at(sc.Line+r.Pos.Line, "expect "+strings.TrimPrefix(r.Line, "expect ")+" does not hold (expected "+r.Expected+", actual "+r.Actual+")")
				}
			}
			for _, f := range sc.Facts {
				if _, err := s.Query(doc.Fill(f, vals)); err != nil {
					at(sc.Line, "fact "+strconv.Quote(f)+": "+err.Error())
				}
			}
		}
	}
	return errs, n
}

// scriptLine is the script's line an error of the scenario language
// names (0: none).
func scriptLine(err error) int {
	var se *scenario.Error
	if errors.As(err, &se) {
		return se.Pos.Line
	}
	return 0
}

// checkQuestions decides every question of a lesson against its run, in
// every variant: in variant 0, the one the server shows, as marked; in
// the others, a single-choice question has exactly one choice that holds
// and a number question a value.
func checkQuestions(file string, l *doc.Lesson) (errs ErrorList, n int) {
	for i := range l.Questions {
		sc, ok := l.ScenarioByID(l.Questions[i].Scenario)
		if !ok {
			continue // Load reports the unknown scenario
		}
		for v := 0; v < doc.Variants(sc.Vary); v++ {
			vals := doc.Draw(sc.Vary, v)
			q := l.Questions[i].Filled(vals)
			name := "question " + q.ID + variantName(sc.Vary, v)
			out, err := answer.Decide(&q, sc.Filled(vals).Script)
			if err != nil {
				errs = append(errs, &Error{File: file, Line: q.Line, Msg: name + ": " + err.Error()})
				continue
			}
			n++
			for _, msg := range decidedProblems(&q, out, v == 0) {
				errs = append(errs, &Error{File: file, Line: q.Line, Msg: name + ": " + msg})
			}
		}
	}
	return errs, n
}

// decidedProblems is what is wrong with a question's run: marked says
// whether its [x] marks must agree with the run (the variant the server
// shows). The page's answer is what the simulation did, so a mark the
// run contradicts would grade a learner wrong for being right.
func decidedProblems(q *doc.Question, out *answer.Outcome, marked bool) []string {
	var problems []string
	var right, holds []string
	for ci, ch := range q.Choices {
		if marked && out.Holds[ci] != ch.Right {
			problems = append(problems, "choice "+ch.Key+" is marked right="+strconv.FormatBool(ch.Right)+
				", but in the run it holds="+strconv.FormatBool(out.Holds[ci]))
		}
		if ch.Right {
			right = append(right, ch.Key)
		}
		if out.Holds[ci] {
			holds = append(holds, ch.Key)
		}
	}
	switch {
	case q.Answer != "":
		if out.Value == "" || out.Value == "—" {
			problems = append(problems, "the answer {"+q.Answer+"} has no value in the run ("+strconv.Quote(out.Value)+")")
		}
		if !out.RightValue(out.Value) {
			problems = append(problems, "the run's own value "+strconv.Quote(out.Value)+" is not graded right")
		}
	case marked && !out.Right(q, right):
		problems = append(problems, "the marked answer "+strings.Join(right, ",")+" is not graded right")
	case !q.Multiple && len(holds) != 1:
		problems = append(problems, strconv.Itoa(len(holds))+" choices hold ("+strings.Join(holds, ",")+"); a single-choice question needs exactly one in every variant")
	case q.Multiple && len(holds) == 0:
		problems = append(problems, "no choice holds")
	}
	for _, p := range out.Evidence {
		if strings.HasPrefix(p.Code, "{") {
			problems = append(problems, "evidence shows a query's text "+strconv.Quote(p.Code)+" instead of its value")
		}
		if p.Query != "" {
			problems = append(problems, "evidence slot {"+p.Query+"} left unfilled")
		}
	}
	return problems
}

// checkExercises judges every exercise of a lesson as the page would:
// the reference solution must pass and every wrong attempt must fail.
func checkExercises(file string, l *doc.Lesson) (errs ErrorList, n int) {
	for i := range l.Exercises {
		ex := &l.Exercises[i]
		n++
		at := func(msg string) {
			errs = append(errs, &Error{File: file, Line: ex.Line, Msg: "exercise " + ex.ID + ": " + msg})
		}
		res, err := exercise.Grade(ex, ex.Solution)
		switch {
		case err != nil:
			at(err.Error())
			continue
		case !res.Passed:
			at("the solution does not pass: " + verdict(res))
		}
		if len(ex.Wrong) == 0 {
			at("no wrong attempt")
		}
		for j, w := range ex.Wrong {
			if res, err := exercise.Grade(ex, w); err == nil && res.Passed {
				at("wrong attempt " + strconv.Itoa(j+1) + " passes")
			}
		}
	}
	return errs, n
}

// verdict says in a line why a script did not pass an exercise.
func verdict(r *exercise.Result) string {
	var parts []string
	if r.Err != nil {
		parts = append(parts, "error "+r.Err.Error())
	}
	for _, l := range r.Limits {
		parts = append(parts, "limit "+l.Kind+" "+l.Verb)
	}
	for _, g := range r.Goals {
		if !g.Held {
			parts = append(parts, "not held: "+g.Text+" (actual "+g.Actual+g.Err+")")
		}
	}
	for _, run := range r.Runs {
		parts = append(parts, "broken="+strconv.FormatBool(run.Broken)+" violated "+strings.Join(run.Violated, ","))
	}
	return strings.Join(parts, "; ")
}
