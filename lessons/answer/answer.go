// Package answer decides a lesson's question by running its scenario: the
// run stops where the question says, each choice's expectations are
// evaluated there, and the evidence sentence is filled in from the same
// state. The browser calls it when a learner checks an answer, and the
// tests call it for every question of every lesson, so what the page says
// happened is what the simulation did.
package answer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// Run is a question's scenario being run to its stop point. A host that
// must not block (a browser tab) calls Work in slices; Decide runs it
// whole.
type Run struct {
	q       *doc.Question
	session *scenario.Session
	stop    int // the script line after which the run stops; 0: the end
}

// Start parses the scenario's script and prepares the run.
func Start(q *doc.Question, script string) (*Run, error) {
	parsed, err := scenario.Parse(q.Scenario+".scenario", script)
	if err != nil {
		return nil, err
	}
	return &Run{q: q, session: scenario.NewSession(q.Scenario+".scenario", parsed), stop: q.Stop}, nil
}

// atStop reports whether the run has reached its stop point: the script is
// done, or the statement running or next to start lies past the stop line
// (Line is the running statement's while one runs, which began at or
// before the stop line).
func (r *Run) atStop() bool {
	s := r.session
	return s.Done() || r.stop > 0 && s.Line() > r.stop
}

// Work runs at most n events and reports whether the stop point is
// reached.
func (r *Run) Work(n int) bool {
	for i := 0; i < n; i++ {
		if r.atStop() {
			return true
		}
		r.session.Step()
	}
	return r.atStop()
}

// Outcome is what the run decided.
type Outcome struct {
	// Holds has, for each choice in order, whether all its expectations
	// hold at the stop point: whether it is what happened.
	Holds []bool
	// Evidence is the evidence sentence's parts with every query replaced
	// by its value (as a Code part).
	Evidence []doc.EvidencePart
	// Clock is the virtual time at the stop point.
	Clock string
	// Value is the value of the question's Answer query at the stop
	// point, for a question answered by typing it ("" otherwise).
	Value string
}

// Right reports whether picked (choice keys) is exactly the set of choices
// that hold.
func (o *Outcome) Right(q *doc.Question, picked []string) bool {
	if len(picked) == 0 {
		return false
	}
	for i, c := range q.Choices {
		if o.Holds[i] != slices.Contains(picked, c.Key) {
			return false
		}
	}
	return true
}

// RightValue reports whether typed is the question's Answer: the same
// number (3, 3.0 and " 3 " are one), or the same text once spaces are
// trimmed and folded.
func (o *Outcome) RightValue(typed string) bool {
	a, b := strings.Join(strings.Fields(typed), " "), strings.Join(strings.Fields(o.Value), " ")
	if a == "" {
		return false
	}
	if x, err := strconv.ParseFloat(a, 64); err == nil {
		if y, err := strconv.ParseFloat(b, 64); err == nil {
			return x == y
		}
	}
	return strings.EqualFold(a, b)
}

// Outcome evaluates the choices and the evidence at the stop point. Call
// it once Work has reported true.
func (r *Run) Outcome() (*Outcome, error) {
	s := r.session
	if s.Err != nil {
		return nil, s.Err
	}
	out := &Outcome{}
	for _, c := range r.q.Choices {
		all := len(c.When) > 0
		for _, w := range c.When {
			res, err := s.Holds(w)
			if err != nil {
				return nil, fmt.Errorf("choice %s: %s: %w", c.Key, w, err)
			}
			all = all && res.OK
		}
		out.Holds = append(out.Holds, all)
	}
	for _, p := range r.q.Evidence {
		if p.Query == "" {
			out.Evidence = append(out.Evidence, p)
			continue
		}
		v, err := s.Query(p.Query)
		if err != nil {
			return nil, fmt.Errorf("evidence {%s}: %w", p.Query, err)
		}
		out.Evidence = append(out.Evidence, doc.EvidencePart{Code: v})
	}
	out.Clock, _ = s.Query("clock")
	if r.q.Answer != "" {
		v, err := s.Query(r.q.Answer)
		if err != nil {
			return nil, fmt.Errorf("answer {%s}: %w", r.q.Answer, err)
		}
		out.Value = v
	}
	return out, nil
}

// Decide runs the question's scenario to its stop point in one go and
// evaluates it.
func Decide(q *doc.Question, script string) (*Outcome, error) {
	r, err := Start(q, script)
	if err != nil {
		return nil, err
	}
	for !r.Work(1 << 16) {
	}
	return r.Outcome()
}
