package exercise

import (
	"errors"
	"iter"
	"slices"
	"strings"

	"txnlab/core/explore"
	"txnlab/core/safety"
	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// The explorer for an attack exercise ("Let the explorer try"): what
// `txnlab explore --break MECHANISM` does, cut into units a browser runs
// between frames or between a worker's messages. It generates random
// fault schedules with the mechanism broken until the checker reports
// one of the invariants the exercise counts, shrinks that schedule
// (explore.MinimizeTick; a unit ends at any of its pauses), and turns
// the result into a script the learner can put in the editor: one this
// package's grader passes.

// The explorer's phases.
const (
	PhaseSearch = "search" // generating and judging random schedules
	PhaseShrink = "shrink" // shrinking the one that showed the anomaly
	PhaseFound  = "found"  // Script is a passing attack
	PhaseNone   = "none"   // MaxRuns schedules showed nothing usable
	PhaseStop   = "stopped"
)

// Default bounds of one exploration.
const (
	DefaultMaxRuns  = 200
	DefaultMaxTries = 4000
)

// ExploreState is what the explorer has done so far: what a progress bar
// and the found script need. It crosses from the worker to the page as
// JSON.
type ExploreState struct {
	Phase string
	// Runs are the schedules generated so far, of MaxRuns.
	Runs, MaxRuns int
	// Tries are the shrink's candidates run so far, of MaxTries.
	Tries, MaxTries int
	// Seed is the seed of the schedule being shrunk or found
	// (`txnlab explore --break M --seed SEED --runs 1` replays it), and
	// Original its length in statements.
	Seed     uint64 `json:",omitempty"`
	Original int    `json:",omitempty"`
	// Invariant is what the found schedule violates, Violation the
	// checker's message.
	Invariant string `json:",omitempty"`
	Violation string `json:",omitempty"`
	// Script is the shrunk attack, ready for the exercise's editor.
	Script string `json:",omitempty"`
}

// Done reports whether the exploration is over.
func (s ExploreState) Done() bool {
	return s.Phase == PhaseFound || s.Phase == PhaseNone || s.Phase == PhaseStop
}

// Explorer is one exploration for an attack exercise.
type Explorer struct {
	ex      *doc.Exercise
	mech    *safety.Mechanism
	cfg     explore.Config
	catches []string
	state   ExploreState
	// next resumes the exploration (a coroutine over run) to its next
	// pause, stop ends it; both nil before the first unit and after
	// the last.
	next func() (struct{}, bool)
	stop func()
}

// NewExplorer prepares an exploration for an attack exercise, from seed
// (0 is 1, the CLI's default); maxRuns and maxTries bound it (0: the
// defaults).
func NewExplorer(ex *doc.Exercise, seed uint64, maxRuns, maxTries int) (*Explorer, error) {
	if ex.Kind != doc.ExerciseAttack {
		return nil, errors.New("exercise " + ex.ID + ": only an attack has an explorer")
	}
	m, ok := safety.MechanismByName(ex.Break)
	if !ok {
		return nil, errors.New("exercise " + ex.ID + ": unknown mechanism " + ex.Break)
	}
	st, err := scenario.ParseSettings(ex.Config)
	if err != nil {
		return nil, errors.New("exercise " + ex.ID + ": config: " + err.Error())
	}
	if seed == 0 {
		seed = 1
	}
	if maxRuns <= 0 {
		maxRuns = DefaultMaxRuns
	}
	if maxTries <= 0 {
		maxTries = DefaultMaxTries
	}
	e := &Explorer{ex: ex, mech: m, catches: Catches(ex),
		cfg:   explore.Config{Runs: maxRuns, Seed: seed, Break: m, Config: configWords(st)},
		state: ExploreState{Phase: PhaseSearch, MaxRuns: maxRuns, MaxTries: maxTries}}
	return e, nil
}

// configWords are the config settings of an exercise as the words of a
// config statement ("" for none): what the explorer writes after its
// cluster line.
func configWords(st scenario.Settings) string {
	if len(st.Config) == 0 {
		return ""
	}
	return strings.TrimPrefix((&scenario.ConfigStmt{Settings: st.Config}).String(), "config ")
}

// State is what the explorer has done so far.
func (e *Explorer) State() ExploreState { return e.state }

// Work does at most n units and reports whether the exploration is over.
// A unit ends at the next pause: a generated schedule or a shrink
// candidate, or a few thousand simulation steps of one (a candidate
// can run for half a second in a browser, longer than a page may go
// without a frame).
func (e *Explorer) Work(n int) bool {
	if e.next == nil && !e.state.Done() {
		e.next, e.stop = iter.Pull(e.run)
	}
	for ; n > 0 && !e.state.Done(); n-- {
		if _, more := e.next(); !more {
			e.next, e.stop = nil, nil
			break
		}
	}
	return e.state.Done()
}

// Stop ends the exploration where it is.
func (e *Explorer) Stop() {
	if !e.state.Done() {
		e.state.Phase = PhaseStop
	}
	if e.stop != nil {
		e.stop()
		e.next, e.stop = nil, nil
	}
}

// run is the whole exploration, pausing (yield) between its units: it
// searches until a schedule shows an invariant the exercise counts,
// shrinks it, and keeps the result when the exercise's grader passes it.
func (e *Explorer) run(yield func(struct{}) bool) {
	pause := func() bool { return yield(struct{}{}) }
	for !e.state.Done() {
		if e.state.Runs >= e.state.MaxRuns {
			e.state.Phase = PhaseNone
			return
		}
		opts := e.cfg.RunOptions(e.state.Runs)
		opts.Pause = pause
		r := explore.Generate(opts)
		e.state.Runs++
		if e.state.Done() {
			return // stopped during the run
		}
		if inv := e.caught(r); inv != "" {
			e.shrink(r, inv, yield)
		}
		if !e.state.Done() && !pause() {
			return
		}
	}
}

// caught is the invariant r violates that the exercise counts ("" for
// none): the mechanism's own when it is one of them.
func (e *Explorer) caught(r *explore.Run) string {
	if r.Err != nil || r.Exhausted {
		return ""
	}
	if inv := explore.Target(r, e.mech); slices.Contains(e.catches, inv) {
		return inv
	}
	for _, v := range r.Violations {
		if slices.Contains(e.catches, v.Invariant) {
			return v.Invariant
		}
	}
	return ""
}

// shrink shrinks the schedule r, which violates inv; once it is over,
// the shrunk script is judged as the learner's would be, and the search
// goes on when it does not pass.
func (e *Explorer) shrink(r *explore.Run, inv string, yield func(struct{}) bool) {
	e.state.Phase, e.state.Seed, e.state.Original, e.state.Invariant, e.state.Tries = PhaseShrink, r.Seed, len(r.Lines), inv, 0
	sh := explore.MinimizeTick(r, e.mech, inv, e.state.MaxTries, func(tries int) bool {
		e.state.Tries = tries
		return yield(struct{}{})
	})
	if e.state.Done() {
		return // stopped
	}
	e.state.Tries = sh.Tries
	// A body only the liveness checks judge comes with the phase that
	// heals and settles it, as the grader of a liveness mechanism's
	// attack wants.
	script := LearnerScript(e.ex, sh.Settled())
	res, err := Grade(e.ex, script)
	if err == nil && res.Err == nil && len(res.Runs) == 2 && res.Runs[0].Caught && len(res.Runs[1].Violated) == 0 {
		e.state.Phase, e.state.Script, e.state.Violation = PhaseFound, script, sh.Violation
		return
	}
	// The shrunk schedule does not attack as the exercise judges (only
	// the liveness checks saw it, or it needs what the exercise's
	// config changes): look further.
	e.state.Phase, e.state.Seed, e.state.Original, e.state.Invariant = PhaseSearch, 0, 0, ""
}

// LearnerScript turns the explorer's lines into a script for the
// exercise's editor: without the break (the exercise's runs switch the
// mechanism off and on), without the explorer's own `expect violation`,
// and without a config line that only repeats the exercise's config.
func LearnerScript(ex *doc.Exercise, lines []string) string {
	st, _ := scenario.ParseSettings(ex.Config)
	repeat := ""
	if w := configWords(st); w != "" {
		repeat = "config " + w
	}
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		switch {
		case len(f) == 0:
		case f[0] == "break" || f[0] == "restore":
		case f[0] == "expect" && len(f) > 1 && f[1] == "violation":
		case repeat != "" && l == repeat:
		default:
			out = append(out, l)
		}
	}
	return explore.Join(out)
}
