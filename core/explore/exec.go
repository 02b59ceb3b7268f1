// Package explore generates random but valid fault schedules as scenario
// scripts, runs them, judges them with the invariant checker, and shrinks
// a failing one to a short script that reproduces the violation.
//
// Everything here is deterministic: the same seed gives the same script,
// the same run and the same shrunk result. Randomness comes from
// sim.NewRand streams derived with sim.DeriveSeed.
package explore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"txnlab/core/check"
	"txnlab/core/safety"
	"txnlab/core/scenario"
)

// Budget bounds one execution so no script can hang the explorer or a
// fuzz worker: the number of simulation events over the whole script.
// The interpreter's per-statement bound (cluster.MaxStepsPerStatement) is
// far larger; this one is for running thousands of scripts.
const DefaultStepBudget = 400_000

// Quiescence is the explorer's own liveness verdict, next to the
// checker's invariants: after the liveness phase (heal, restart, resume,
// run) the cluster must go quiet. A hot loop or a request retried for
// ever fails it.
const Quiescence = "quiescence"

// judge is the checker's verdict, plus quiescence when final.
func judge(s *scenario.Session, final bool) []check.Violation {
	vs := s.Cluster.Check(final)
	if final && !s.Cluster.World.Idle() {
		if msg := check.KafkaHang(s.Cluster.CheckInput(true)); msg != "" {
			vs = append(vs, check.Violation{Invariant: Quiescence, Anomaly: safety.UnreplicatedTxnState.Name, Message: msg})
		} else {
			vs = append(vs, check.Violation{Invariant: Quiescence,
				Message: "the healed cluster still has work outstanding after the final run: something never goes quiet"})
		}
	}
	return vs
}

// Outcome is what executing one script gave.
type Outcome struct {
	// Panic is the message of a panic in the simulation ("" when none).
	Panic string
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
	return execSeed(src, budget, final, 0, nil)
}

// errPaused ends a run whose pause hook asked to stop.
var errPaused = errors.New("stopped")

// pauseSteps is how many steps a run takes between two calls of its
// pause hook: about 2 ms natively, 10 ms in a browser, so that a page
// running a shrink in slices gets its frames back within one (a whole
// candidate can take half a second there).
const pauseSteps = 2000

// stopsAt reports whether a run that has taken steps steps must end
// there: its pause hook (nil: none) is due and answers false.
func stopsAt(pause func() bool, steps int) bool {
	return pause != nil && steps%pauseSteps == 0 && !pause()
}

// execSeed is Exec under another seed than the cluster statement's (0:
// that one). pause, when set, is called every pauseSteps steps; when it
// returns false the run ends with errPaused.
func execSeed(src string, budget int, final bool, seed uint64, pause func() bool) *Outcome {
	if budget <= 0 {
		budget = DefaultStepBudget
	}
	script, err := scenario.Parse("explore", src)
	if err != nil {
		return &Outcome{Err: err}
	}
	s := scenario.NewSession("explore", script)
	s.SeedOverride = seed
	o := &Outcome{Session: s}
	defer func() {
		if r := recover(); r != nil {
			o.Panic = fmt.Sprint(r)
			o.Err = fmt.Errorf("panic at line %d: %v", s.Line(), r)
		}
	}()
	for !s.Done() {
		if o.Steps >= budget {
			o.Exhausted = true
			break
		}
		s.Step()
		o.Steps++
		if stopsAt(pause, o.Steps) {
			o.Err = errPaused
			return o
		}
	}
	if s.Err != nil {
		o.Err = s.Err
		return o
	}
	if s.Cluster != nil {
		o.Violations = judge(s, final && !o.Exhausted)
	}
	return o
}

// ExecFinal judges a hand-written scenario the way the explorer judges
// its own runs: the script, then the liveness phase the explorer appends
// (heal, restart crashed brokers, resume, wait, run, advance past the
// transaction timeout, polls), then every check with the liveness checks
// on. Without that phase a script that ends with work still scheduled
// (an expired id's hourly scan, a retry) would be called not quiescent.
// The script must parse as it stands; its expectations run too (in the
// Session's Results).
//
// A script that judges its own end with `expect liveness` or `expect
// liveness violation` (what Document writes for a violation only the
// liveness checks see) already ends healed and quiet: it is judged as it
// stands, its phase not run twice.
func ExecFinal(src string, budget int) *Outcome {
	if _, err := scenario.Parse("explore", src); err != nil {
		return &Outcome{Err: err}
	}
	lines := Lines(src)
	if len(lines) > 0 && strings.HasPrefix(lines[len(lines)-1], "expect liveness") {
		return Exec(src, budget, true)
	}
	r, sess := replay(lines, budget, 0, nil)
	return &Outcome{Panic: r.Panic, Err: r.Err, Steps: r.Steps, Exhausted: r.Exhausted, Violations: r.Violations, Session: sess}
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
