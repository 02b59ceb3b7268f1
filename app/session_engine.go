package app

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"txnlab/core/check"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// scriptFile names the playground's script in core error messages. The
// page shows line and column itself, so the name only has to be short.
const scriptFile = "playground"

// maxHistorySteps bounds a history. The core bounds every statement; this
// bounds the number of pause points the page keeps, so a script of
// thousands of waiting statements cannot exhaust the browser's memory.
const maxHistorySteps = 200_000

// Snapshot cache: a cluster snapshot costs about a millisecond natively
// and several in the browser, and rebuilding the cursor to go back costs
// a replay from the start, so the states of recently shown positions are
// kept, and a replay that goes back also keeps the few positions before
// its target, where a learner stepping back goes next.
const (
	stateCacheSize = 512
	replayKeep     = 16
)

// step is what the page needs to know about one pause point without
// replaying to it.
type step struct {
	events  int      // length of the trace
	line    int      // script line running or about to run (0: finished)
	now     sim.Time // virtual clock
	results int      // expectations checked so far
}

// posState is the cluster at one position, as the cards and the inspector
// read it.
type posState struct {
	snap Snapshot
	viol []check.Violation
}

// history is one loaded script and its run.
type history struct {
	src     string
	script  *scenario.Script
	events  []sim.Event
	steps   []step // steps[i] is the state after i steps; len(steps) = Len()+1
	results []scenario.Result
	runErr  *ScriptError
}

// sessionEngine is the Engine over core/scenario. Loading a script runs a
// session to the end once with StepVisible and records every pause point,
// so Events, Seek and StepBack are slices of that one trace. The cluster
// state at a position comes from a second session, the cursor, replayed to
// that position on demand: kept while the page moves forward, rebuilt from
// the start when it moves back.
type sessionEngine struct {
	history
	pos int

	// run is a load in progress; nil when none.
	run *loadRun

	cursor     *scenario.Session
	cursorStep int
	states     map[int]*posState

	digestAt int
	digest   string
}

// loadRun is a script being run to the end, possibly over several slices.
type loadRun struct {
	src    string
	script *scenario.Script
	s      *scenario.Session
	steps  []step
	// act is set when the run carries out an Act.
	act *pendingAct
}

// pendingAct is what finishing an Act needs: the statement and the line it
// landed on. The history to go back to if it cannot run is the engine's
// own, which a run replaces only when it completes.
type pendingAct struct {
	stmt string
	line int
}

// newSessionEngine returns an engine with nothing loaded.
func newSessionEngine() *sessionEngine {
	e := &sessionEngine{history: history{steps: []step{{}}}}
	e.reset()
	return e
}

// reset drops everything derived from the current history.
func (e *sessionEngine) reset() {
	e.cursor, e.cursorStep = nil, 0
	e.states = map[int]*posState{}
	e.digestAt = -1
}

// Load parses and runs script in one go.
func (e *sessionEngine) Load(script string) error {
	if err := e.Begin(script); err != nil {
		return err
	}
	return e.finish()
}

// Act inserts stmt and runs the result in one go.
func (e *sessionEngine) Act(stmt string) error {
	if err := e.BeginAct(stmt); err != nil {
		return err
	}
	return e.finish()
}

func (e *sessionEngine) finish() error {
	for {
		if done, err := e.Work(time.Hour); done {
			return err
		}
	}
}

func (e *sessionEngine) Begin(src string) error {
	script, err := scenario.Parse(scriptFile, src)
	if err != nil {
		return toScriptError(err)
	}
	s := scenario.NewSession(scriptFile, script)
	e.run = &loadRun{src: src, script: script, s: s, steps: []step{{line: s.Line()}}}
	return nil
}

// BeginAct inserts stmt at the current moment. The rewritten script must
// replay the same history up to this moment (the core's InsertNow promises
// it); the new history then continues with stmt.
func (e *sessionEngine) BeginAct(stmt string) error {
	if e.script == nil {
		return errors.New("load a script first")
	}
	if e.pos == 0 {
		// Before the cluster statement ran there is nothing to act on, and
		// a statement inserted there would precede it.
		return errors.New("step once first: the cluster does not exist yet")
	}
	if e.runErr != nil && e.pos == e.Len() {
		return fmt.Errorf("the script stops with an error at line %d: fix that line first", e.runErr.Line)
	}
	stmt = strings.TrimSpace(stmt)
	newSrc, line, err := e.sessionAt(e.pos, e.pos).InsertNow(e.src, stmt)
	if err != nil {
		return err
	}
	if err := e.Begin(newSrc); err != nil {
		var se *ScriptError
		if errors.As(err, &se) {
			return fmt.Errorf("%s: %s", stmt, se.Msg)
		}
		return err
	}
	e.run.act = &pendingAct{stmt: stmt, line: line}
	return nil
}

func (e *sessionEngine) Busy() (int, bool) {
	if e.run == nil {
		return 0, false
	}
	return len(e.run.steps) - 1, true
}

// Work runs the load in progress for about budget. The clock is read only
// here, to cut the run into slices; the simulation never sees it.
func (e *sessionEngine) Work(budget time.Duration) (bool, error) {
	l := e.run
	if l == nil {
		return true, nil
	}
	start := time.Now()
	for !l.s.Done() && len(l.steps) <= maxHistorySteps {
		l.s.StepVisible()
		st := step{line: l.s.Line(), now: l.s.Now(), results: len(l.s.Results)}
		if l.s.Cluster != nil {
			st.events = l.s.Cluster.World.Trace.Len()
		}
		l.steps = append(l.steps, st)
		if time.Since(start) >= budget {
			break
		}
	}
	if !l.s.Done() && len(l.steps) <= maxHistorySteps {
		return false, nil
	}
	e.run = nil
	h := history{src: l.src, script: l.script, steps: l.steps, results: l.s.Results}
	if l.s.Cluster != nil {
		h.events = l.s.Cluster.World.Trace.Events(0)
	}
	switch {
	case l.s.Err != nil:
		h.runErr = &ScriptError{Line: l.s.Err.Pos.Line, Col: l.s.Err.Pos.Col, Msg: l.s.Err.Msg, Runtime: true}
	case !l.s.Done():
		h.runErr = &ScriptError{Line: l.s.Line(), Col: 1, Runtime: true,
			Msg: fmt.Sprintf("the playground stops a history at %d steps", maxHistorySteps)}
	}
	if a := l.act; a != nil && h.runErr != nil && h.runErr.Line == a.line {
		// The action itself cannot run at this moment: keep what the
		// learner had, and say why.
		return true, fmt.Errorf("%s: %s", a.stmt, h.runErr.Msg)
	}
	e.history, e.pos = h, 0
	e.reset()
	// The finished session is a cursor at the end for free.
	e.cursor, e.cursorStep = l.s, len(l.steps)-1
	if a := l.act; a != nil {
		// A later line failing because of the action (resuming a client
		// the learner crashed, say) is the consequence to show: the new
		// script stays, and Err reports that line.
		e.Seek(e.stepAfterLine(a.line))
		return true, nil
	}
	if h.runErr != nil {
		return true, h.runErr
	}
	return true, nil
}

// stepAfterLine finds the first step at which the statement on line has
// run: it is running or next while steps[i].line == line, and has run once
// the line moves on. Statements before it have smaller line numbers, so
// the first match is the moment it starts.
func (e *sessionEngine) stepAfterLine(line int) int {
	i := 0
	for i < len(e.steps) && e.steps[i].line != line {
		i++
	}
	for i < len(e.steps) && e.steps[i].line == line {
		i++
	}
	return min(i, e.Len())
}

// toScriptError turns the core's first parse error into the editor's.
func toScriptError(err error) *ScriptError {
	var se *scenario.Error
	if errors.As(err, &se) {
		return &ScriptError{Line: se.Pos.Line, Col: se.Pos.Col, Msg: se.Msg}
	}
	return &ScriptError{Line: 1, Col: 1, Msg: err.Error()}
}

func (e *sessionEngine) Script() string { return e.src }
func (e *sessionEngine) Len() int       { return len(e.steps) - 1 }
func (e *sessionEngine) Pos() int       { return e.pos }

func (e *sessionEngine) Step() bool {
	if e.pos >= e.Len() {
		return false
	}
	e.pos++
	return true
}

func (e *sessionEngine) StepBack() { e.Seek(e.pos - 1) }

func (e *sessionEngine) Seek(i int) { e.pos = max(0, min(i, e.Len())) }

func (e *sessionEngine) Events() []sim.Event { return e.events[:e.steps[e.pos].events] }

func (e *sessionEngine) History() []sim.Event { return e.events }

func (e *sessionEngine) EventsAt(i int) int { return e.steps[max(0, min(i, e.Len()))].events }

func (e *sessionEngine) Digest() string {
	if e.digestAt != e.pos {
		e.digest, e.digestAt = sim.DigestOf(e.Events()), e.pos
	}
	return e.digest
}

func (e *sessionEngine) Line() int { return e.steps[e.pos].line }

func (e *sessionEngine) Now() sim.Time { return e.steps[e.pos].now }

func (e *sessionEngine) Results() []scenario.Result { return e.results[:e.steps[e.pos].results] }

func (e *sessionEngine) Err() *ScriptError { return e.runErr }

func (e *sessionEngine) Snapshot() Snapshot { return e.stateAt(e.pos).snap }

func (e *sessionEngine) Violations() []check.Violation { return e.stateAt(e.pos).viol }

// stateAt is the cluster at step i, from the cache or the cursor.
func (e *sessionEngine) stateAt(i int) *posState {
	if st, ok := e.states[i]; ok {
		return st
	}
	if e.script == nil {
		return &posState{}
	}
	keepFrom := i
	if e.cursor == nil || e.cursorStep > i {
		keepFrom = i - replayKeep
	}
	s := e.sessionAt(i, keepFrom)
	return e.keep(i, s)
}

// keep records the cursor's state as the state at step i.
func (e *sessionEngine) keep(i int, s *scenario.Session) *posState {
	if len(e.states) >= stateCacheSize {
		// Forget the position farthest from this one: the page moves
		// mostly one step at a time.
		far, dist := -1, -1
		for k := range e.states {
			if d := max(k-i, i-k); d > dist {
				far, dist = k, d
			}
		}
		delete(e.states, far)
	}
	st := &posState{}
	if s.Cluster != nil {
		st.snap = Snapshot{Snapshot: s.Cluster.Snapshot(), Valid: true}
		st.viol = s.Cluster.Check(false)
	}
	e.states[i] = st
	return st
}

// sessionAt returns the cursor session stopped at step i, replaying it
// from the start when it is past i and keeping the states from keepFrom
// on. Replaying is deterministic, so the cursor's trace is the recorded
// one up to i.
func (e *sessionEngine) sessionAt(i, keepFrom int) *scenario.Session {
	if e.cursor == nil || e.cursorStep > i {
		e.cursor, e.cursorStep = scenario.NewSession(scriptFile, e.script), 0
	}
	for e.cursorStep < i && !e.cursor.Done() {
		e.cursor.StepVisible()
		e.cursorStep++
		if e.cursorStep >= keepFrom && e.cursorStep < i {
			if _, ok := e.states[e.cursorStep]; !ok {
				e.keep(e.cursorStep, e.cursor)
			}
		}
	}
	return e.cursor
}
