// Package explore generates random but valid fault schedules as scenario
// scripts, runs them, judges them with the invariant checker, and shrinks
// a failing one to a short script that reproduces the violation.
//
// Everything here is deterministic: the same seed gives the same script,
// the same run and the same shrunk result. Randomness comes from
// sim.NewRand streams derived with sim.DeriveSeed.
package explore

import (
	"strconv"
	"strings"

	"txnlab/core/check"
	"txnlab/core/scenario"
)

// Budget bounds one execution so no script can hang the explorer or a
// fuzz worker: the number of simulation events over the whole script.
// The interpreter's per-statement bound (cluster.MaxStepsPerStatement) is
// far larger; this one is for running thousands of scripts.
const DefaultStepBudget = 400_000

// Outcome is what executing one script gave.
type Outcome struct {
	// Err is a parse or script error (the script is not valid).
	Err error
	// Steps counts the simulation events run; Exhausted is set when the
	// budget stopped the run before its end.
	Steps     int
	Exhausted bool
	// Violations found by the checker at the end; Final says whether the
	// liveness checks were on.
	Violations []check.Violation
	Session    *scenario.Session
}

// Has reports whether a violation of inv (any when "") was found.
func (o *Outcome) Has(inv string) bool {
	for _, v := range o.Violations {
		if inv == "" || v.Invariant == inv {
			return true
		}
	}
	return false
}

// Exec parses and runs a script within a step budget (<= 0: the
// default), then judges the history. final turns the liveness checks on:
// pass it only for scripts that end healed and quiescent.
func Exec(src string, budget int, final bool) *Outcome {
	if budget <= 0 {
		budget = DefaultStepBudget
	}
	script, err := scenario.Parse("explore", src)
	if err != nil {
		return &Outcome{Err: err}
	}
	s := scenario.NewSession("explore", script)
	o := &Outcome{Session: s}
	for !s.Done() {
		if o.Steps >= budget {
			o.Exhausted = true
			break
		}
		s.Step()
		o.Steps++
	}
	if s.Err != nil {
		o.Err = s.Err
		return o
	}
	if s.Cluster != nil {
		o.Violations = s.Cluster.Check(final)
	}
	return o
}

// Lines splits a script into its lines, dropping blank and comment-only
// lines.
func Lines(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// Join renders lines as a script.
func Join(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}

func itoa(n int) string { return strconv.Itoa(n) }
