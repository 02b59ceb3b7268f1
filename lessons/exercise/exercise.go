// Package exercise judges a learner's script against a lesson's exercise
// (docs/lessons.md, "Exercises") by running it: a goal exercise runs the
// script once and evaluates its goal; an attack exercise runs it with a
// safety mechanism switched off, where the checker must name the
// guarantee that fell, and again with it on, where it must name nothing.
// The limits (how many statements the learner added to the start, which
// verbs) are read from the parsed scripts, never from their text.
//
// It links no renderer and does no I/O, so the page's wasm grades in
// slices between frames (Start, Work, Result) and the tests grade every
// exercise of the course with Grade.
package exercise

import (
	"errors"
	"slices"
	"strings"

	"txnlab/core/safety"
	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// File is the name scripts are parsed under: errors name it.
const File = "exercise"

// MaxEvents bounds the history of each run: a learner's `run for 10h`
// stops with an error naming its line instead of filling the tab's
// memory. Every exercise of the course runs in a few thousand events.
const MaxEvents = 300_000

// The kinds of broken limit.
const (
	// LimitAdded: more statements added to the start than MaxAdded.
	LimitAdded = "added"
	// LimitVerb: an added statement uses a verb the exercise does not
	// allow.
	LimitVerb = "verb"
	// LimitBreak: a break or restore statement where none may be (every
	// attack, and a goal exercise that does not allow them).
	LimitBreak = "break"
)

// Limit is one limit the script breaks.
type Limit struct {
	Kind string
	// Line is the statement's line (LimitVerb, LimitBreak); Verb its
	// verb.
	Line int    `json:",omitempty"`
	Verb string `json:",omitempty"`
	// Added and Max are the statements added and the bound
	// (LimitAdded).
	Added int `json:",omitempty"`
	Max   int `json:",omitempty"`
}

// Expectation is one goal line, or one of the learner's own expects, as
// the run left it.
type Expectation struct {
	// Text is the expect statement.
	Text string
	// Own marks an expect the learner wrote (Line is then its line);
	// otherwise it is a goal line of the exercise.
	Own  bool `json:",omitempty"`
	Line int  `json:",omitempty"`
	Held bool
	// Expected and Actual are what the expectation wanted and what the
	// run had, where it says ("" when it holds or has no value).
	Expected string `json:",omitempty"`
	Actual   string `json:",omitempty"`
	// Err says why a goal line could not be evaluated (the script
	// removed a client it names, or never got as far as a cluster).
	Err string `json:",omitempty"`
}

// ScriptError is an error of the learner's script: where, and what.
type ScriptError struct {
	Line, Col int
	Msg       string
	// Runtime marks an error met while running (a statement that could
	// not apply then) rather than while parsing.
	Runtime bool `json:",omitempty"`
	// Broken is set when it happened in an attack's run with the
	// mechanism off (and not in the run with it on).
	Broken bool `json:",omitempty"`
}

// Error renders "line:col: msg".
func (e *ScriptError) Error() string {
	return scenario.Pos{Line: e.Line, Col: e.Col}.String() + ": " + e.Msg
}

// AttackRun is what the checker reported in one of an attack's runs.
type AttackRun struct {
	// Broken is the run with the mechanism switched off.
	Broken bool
	// Violated are the invariants the checker reports at the run's end,
	// in its order.
	Violated []string
	// Findings are the checker's first finding for each of Violated, in
	// its words (English; a page says them in its language): what the
	// attack made happen.
	Findings []string `json:",omitempty"`
	// Caught is set when one of them is one the exercise counts
	// (Exercise.Catches): what the broken run must show.
	Caught bool
}

// Result is the verdict on a script, with all a learner needs to see
// why.
type Result struct {
	// Passed: the script reached the exercise's goal within its limits.
	Passed bool
	// Err is the script's error: it does not parse, or a statement
	// could not apply (the run stopped there).
	Err *ScriptError `json:",omitempty"`
	// Added is how many statements the script adds to the start
	// (expectations not counted).
	Added int
	// Limits are the limits broken.
	Limits []Limit `json:",omitempty"`
	// Goals are the goal lines, then (goal exercises) the learner's own
	// expectations, as the run left them.
	Goals []Expectation `json:",omitempty"`
	// Runs are an attack's two runs: broken first, then with the
	// mechanism on (only those that ran).
	Runs []AttackRun `json:",omitempty"`
	// Catches are the invariants the attack counts.
	Catches []string `json:",omitempty"`
}

// Catches are the invariants an attack exercise counts: its own list, or
// the mechanism's (safety.Mechanism.Catches).
func Catches(ex *doc.Exercise) []string {
	if len(ex.Catches) > 0 {
		return ex.Catches
	}
	if m, ok := safety.MechanismByName(ex.Break); ok && m.Catches != nil {
		return []string{m.Catches.Name}
	}
	return nil
}

// Final reports whether an exercise's runs are judged with the liveness
// checks on: an attack on a liveness mechanism (safety.Mechanism.Liveness),
// whose anomaly only they see. Its start heals and settles the cluster.
func Final(ex *doc.Exercise) bool {
	m, ok := safety.MechanismByName(ex.Break)
	return ex.Kind == doc.ExerciseAttack && ok && m.Liveness
}

// Check is a script being judged. A host that must not block calls Work
// in slices; Grade runs it whole.
type Check struct {
	ex     *doc.Exercise
	script *scenario.Script
	res    *Result
	// runs are the sessions to run in order (one for a goal, two for an
	// attack), at is the one running.
	runs []*scenario.Session
	at   int
	done bool
	// final judges the runs with the liveness checks on: an attack on a
	// liveness mechanism, whose anomaly only they see.
	final bool
}

// Start parses the learner's script, checks its limits and prepares its
// run(s). An exercise that cannot be judged (a start, a setting or a
// mechanism of the lesson that does not parse) is an error; anything
// wrong with the learner's script is in the Result.
func Start(ex *doc.Exercise, script string) (*Check, error) {
	c := &Check{ex: ex, res: &Result{}}
	var settings []scenario.Settings
	switch ex.Kind {
	case doc.ExerciseGoal:
		settings = []scenario.Settings{{}}
	case doc.ExerciseAttack:
		m, ok := scenario.MechanismByName(ex.Break)
		if !ok {
			return nil, errors.New("exercise " + ex.ID + ": unknown mechanism " + ex.Break)
		}
		on, err := scenario.ParseSettings(ex.Config)
		if err != nil {
			return nil, errors.New("exercise " + ex.ID + ": config: " + err.Error())
		}
		broken := on
		broken.Break = append(slices.Clone(on.Break), m)
		settings = []scenario.Settings{broken, on}
		c.res.Catches = Catches(ex)
		c.final = Final(ex)
	default:
		return nil, errors.New("exercise " + ex.ID + ": unknown kind " + ex.Kind)
	}
	start, err := scenario.Parse(File, ex.Start)
	if err != nil {
		return nil, errors.New("exercise " + ex.ID + ": start: " + err.Error())
	}
	parsed, err := scenario.Parse(File, script)
	if err != nil {
		c.res.Err = scriptError(err)
		c.done = true
		return c, nil
	}
	c.script = parsed
	c.res.Added, c.res.Limits = limits(ex, start, parsed)
	for _, st := range settings {
		s := scenario.NewSession(File, st.Apply(parsed))
		s.MaxEvents = MaxEvents
		c.runs = append(c.runs, s)
	}
	return c, nil
}

// Work runs at most n steps (scenario.Session.Step) and reports whether
// the judging is over; Result then holds the verdict.
func (c *Check) Work(n int) bool {
	for ; n > 0 && !c.done; n-- {
		s := c.runs[c.at]
		if !s.Done() {
			s.Step()
			continue
		}
		c.finish(s)
	}
	if !c.done && c.runs[c.at].Done() {
		c.finish(c.runs[c.at])
	}
	return c.done
}

// Progress is how far the judging is: the run in progress (0-based) of
// how many, and the line it is at.
func (c *Check) Progress() (run, runs, line int) {
	if c.done || len(c.runs) == 0 {
		return len(c.runs), len(c.runs), 0
	}
	return c.at, len(c.runs), c.runs[c.at].Line()
}

// finish judges a finished run and moves to the next.
func (c *Check) finish(s *scenario.Session) {
	attack := c.ex.Kind == doc.ExerciseAttack
	broken := attack && c.at == 0
	if s.Err != nil {
		e := scriptError(s.Err)
		e.Runtime, e.Broken = true, broken
		c.res.Err = e
		c.done = true
		c.verdict()
		return
	}
	if c.at == 0 {
		c.res.Goals = c.goals(s, !attack)
	}
	if attack {
		run := AttackRun{Broken: broken}
		seen := map[string]bool{}
		for _, v := range s.Cluster.Check(c.final) {
			if !seen[v.Invariant] {
				seen[v.Invariant] = true
				run.Violated = append(run.Violated, v.Invariant)
				run.Findings = append(run.Findings, v.Message)
			}
		}
		for _, inv := range run.Violated {
			run.Caught = run.Caught || slices.Contains(c.res.Catches, inv)
		}
		c.res.Runs = append(c.res.Runs, run)
	}
	c.at++
	if c.at >= len(c.runs) {
		c.done = true
		c.verdict()
	}
}

// goals evaluates the goal lines at the end of the run, then lists the
// learner's own expectations (own: a goal exercise's; an attack's are
// the learner's notes, which hold in one run and not the other).
func (c *Check) goals(s *scenario.Session, own bool) []Expectation {
	var out []Expectation
	for _, g := range c.ex.Goal {
		e := Expectation{Text: g}
		switch r, err := s.Holds(g); {
		case err != nil:
			e.Err = err.Error()
		default:
			e.Held = r.OK
			if !r.OK {
				e.Expected, e.Actual = r.Expected, r.Actual
			}
		}
		out = append(out, e)
	}
	if own {
		for _, r := range s.Results {
			e := Expectation{Text: r.Line, Own: true, Line: r.Pos.Line, Held: r.OK}
			if !r.OK {
				e.Expected, e.Actual = r.Expected, r.Actual
			}
			out = append(out, e)
		}
	}
	return out
}

// verdict decides Passed from what the runs left.
func (c *Check) verdict() {
	r := c.res
	ok := r.Err == nil && len(r.Limits) == 0 && c.at == len(c.runs)
	for _, g := range r.Goals {
		ok = ok && g.Held
	}
	if c.ex.Kind == doc.ExerciseAttack {
		ok = ok && len(r.Runs) == 2 && r.Runs[0].Caught && len(r.Runs[1].Violated) == 0
	}
	r.Passed = ok
}

// Result is the verdict; complete once Work has reported true.
func (c *Check) Result() *Result { return c.res }

// Grade judges a script in one go.
func Grade(ex *doc.Exercise, script string) (*Result, error) {
	c, err := Start(ex, script)
	if err != nil {
		return nil, err
	}
	for !c.Work(1 << 16) {
	}
	return c.Result(), nil
}

// scriptError is the first error of a parse or a run, with its place.
func scriptError(err error) *ScriptError {
	var list scenario.ErrorList
	if errors.As(err, &list) && len(list) > 0 {
		return &ScriptError{Line: list[0].Pos.Line, Col: list[0].Pos.Col, Msg: list[0].Msg}
	}
	var e *scenario.Error
	if errors.As(err, &e) {
		return &ScriptError{Line: e.Pos.Line, Col: e.Pos.Col, Msg: e.Msg}
	}
	return &ScriptError{Msg: err.Error()}
}

// Verb is the word that names what a statement does: its first word, or
// for a client's call the call (`p send …` is `send`).
func Verb(st scenario.Stmt) string {
	f := strings.Fields(st.String())
	switch st.(type) {
	case *scenario.ProducerActionStmt, *scenario.ConsumerActionStmt:
		if len(f) > 1 {
			return f[1]
		}
	}
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// limits counts the statements the script adds to the start and lists
// the limits they break. A statement of the start kept, wherever it now
// stands, is not added (the same canonical text, as often as the start
// has it); expectations change nothing in the run and are never counted.
func limits(ex *doc.Exercise, start, script *scenario.Script) (int, []Limit) {
	pool := map[string]int{}
	for _, st := range start.Statements {
		pool[st.String()]++
	}
	attack := ex.Kind == doc.ExerciseAttack
	added := 0
	var out []Limit
	for _, st := range script.Statements {
		verb := Verb(st)
		if _, isRestore := st.(*scenario.RestoreStmt); attack && (isRestore || isBreak(st)) {
			// Never in an attack, start or not: the runs decide what is
			// broken.
			out = append(out, Limit{Kind: LimitBreak, Line: st.Position().Line, Verb: verb})
			continue
		}
		if scenario.IsExpect(st) {
			continue
		}
		if k := st.String(); pool[k] > 0 {
			pool[k]--
			continue
		}
		added++
		_, isRestore := st.(*scenario.RestoreStmt)
		switch {
		case len(ex.Allow) == 0 && (isBreak(st) || isRestore):
			out = append(out, Limit{Kind: LimitBreak, Line: st.Position().Line, Verb: verb})
		case len(ex.Allow) > 0 && !slices.Contains(ex.Allow, verb):
			out = append(out, Limit{Kind: LimitVerb, Line: st.Position().Line, Verb: verb})
		}
	}
	if ex.MaxAdded > 0 && added > ex.MaxAdded {
		out = append([]Limit{{Kind: LimitAdded, Added: added, Max: ex.MaxAdded}}, out...)
	}
	return added, out
}

func isBreak(st scenario.Stmt) bool {
	_, ok := st.(*scenario.BreakStmt)
	return ok
}
