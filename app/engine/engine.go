package engine

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

// Checkpoints. A session cannot be copied (it holds closures), but a run
// is deterministic, so a session replayed to step i is the state at step
// i. The engine keeps a pool of sessions parked at steps spread over the
// history, at least checkpointEvents trace events apart and at most
// maxTargets of them, built in idle time (Idle); to show a step it takes
// the parked session nearest at or before it and advances it, so going
// back costs at most the spacing of the checkpoints, never a replay from
// the start. A session advanced past its checkpoint leaves a hole, which
// Idle fills again, from the session just below it, so the holes move
// away from where the learner is.
const (
	checkpointEvents = 300
	// maxTargets is what a parked session costs against what a seek
	// replays: each is a whole cluster, about 1 MB of Go heap in the
	// middle of a 10,000-event history, and the heap budget is 30 MB
	// (issue 13; BenchmarkEngineHeap). Sixteen keep that history at
	// about 21 MB (29 made 35 in the worker), and a seek replays at most
	// about 640 events (about 1.5 ms natively, 3 under wasm;
	// BenchmarkEngineSeek), against 50 ms; twelve saved 4 MB more but
	// made the mean seek half as slow again.
	maxTargets = 16
	// spareSessions is how many sessions are kept beyond the
	// checkpoints: the cursor and a few left where the learner went.
	spareSessions = 4
	maxPool       = maxTargets + spareSessions
	// buildEvents bounds the background work of building the checkpoints
	// of a history, about targets × length / 2 events replayed: a longer
	// history gets fewer, wider-spaced checkpoints.
	buildEvents = 150_000
)

// idleEvents is how many events Idle runs between two looks at the
// clock: a visible step can hold hundreds (replication between two
// client messages).
const idleEvents = 32

// warmSteps is how many steps before the position Idle keeps the states
// of, once the position has stayed for warmAfter, so that stepping back
// shows a cached state at once. (Not sooner: a learner scrubbing back
// needs the checkpoint the warming would take.)
const (
	warmSteps = 16
	warmAfter = 250 * time.Millisecond
)

// The states of recently shown steps are cached: a snapshot costs about
// a millisecond natively and several in the browser. The cache is small
// because a snapshot of a long history is large (80 kB at 10,000 events).
const (
	stateCacheSize = 64
	// stateCacheEvents bounds the cache by the history's length too: a
	// snapshot grows with the logs (270 kB at 28,000 events).
	stateCacheEvents = 300_000
)

// cacheSize is how many states the cache keeps for this history.
func (e *sessionEngine) cacheSize() int {
	return max(warmSteps+8, min(stateCacheSize, stateCacheEvents/max(1, len(e.events))))
}

// A move back also keeps the states of up to replayKeep steps before its
// target, passed on the way (a learner stepping back goes there next),
// as long as taking them costs less than replayKeepBudget.
const (
	replayKeep       = 8
	replayKeepBudget = 3 * time.Millisecond
)

// step is what the page needs to know about one pause point without
// replaying to it.
type step struct {
	events  int      // length of the trace
	line    int      // script line running or about to run (0: finished)
	now     sim.Time // virtual clock
	results int      // expectations checked so far
	digest  string   // of the trace up to here
}

// posState is the cluster at one position, as the cards and the inspector
// read it. The violations cost a check of the whole history, so they are
// computed only when asked for (violOK).
type posState struct {
	snap   Snapshot
	viol   []check.Violation
	violOK bool
	// answers are the queries asked at this position (Query), which a
	// page asks again at every render.
	answers map[string]answer
}

// answer is one query's result.
type answer struct {
	value string
	err   error
}

// history is one loaded script and its run.
type history struct {
	src     string
	script  *scenario.Script
	events  []sim.Event
	names   *sim.Names // what events' node codes stand for
	steps   []step     // steps[i] is the state after i steps; len(steps) = Len()+1
	results []scenario.Result
	runErr  *ScriptError
}

// parked is a session stopped after step steps.
type parked struct {
	s    *scenario.Session
	step int
}

// sessionEngine is the Engine over core/scenario. Loading a script runs a
// session to the end once with StepVisible and records every pause point,
// so Events, Seek and StepBack are slices of that one trace. The cluster
// state at a position comes from a session stopped there: the parked
// session nearest before it (see Checkpoints), advanced to it.
type sessionEngine struct {
	history
	pos int

	// run is a load in progress; nil when none.
	run *loadRun

	pool    []*parked
	cursor  *parked // the session last advanced: its trace is its own
	targets []int   // the steps Idle keeps a checkpoint at, ascending
	spacing int     // trace events between two targets
	// build is the session Idle is advancing to buildTo, keeping the
	// states from keepFrom on; it is in pool. buildState: the job is the
	// state at the position, and the session becomes the cursor.
	build             *parked
	buildTo, keepFrom int
	buildState        bool

	states map[int]*posState

	// replayed is how many trace events the last sessionAt replayed, for
	// the tests.
	replayed int
	// movedAt is when the position last changed: Idle warms the steps
	// before it only once it has stayed for warmAfter; warmed is the
	// position it last warmed the steps before.
	movedAt time.Time
	warmed  int
	// loads counts the histories loaded: the worker names a history by
	// it (worker.go).
	loads int
	// met samples the operator's metrics (metrics.go).
	met *metricsJob
}

// loadRun is a script being run to the end, possibly over several slices.
type loadRun struct {
	src    string
	script *scenario.Script
	s      *scenario.Session
	steps  []step
	digest sim.Digester
	hashed int // trace events added to digest
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

// New returns an engine with nothing loaded: every page that shows a run
// holds one of its own.
func New() Engine { return newSessionEngine() }

// StateLater is false: the engine on the page answers at once.
func (e *sessionEngine) StateLater() bool { return false }

// Notify does nothing: nothing comes later.
func (e *sessionEngine) Notify(func()) {}

// LeftWorker is false: this engine never ran in a worker.
func (e *sessionEngine) LeftWorker() bool { return false }

// newSessionEngine returns an engine with nothing loaded.
func newSessionEngine() *sessionEngine {
	var d sim.Digester
	e := &sessionEngine{history: history{steps: []step{{digest: d.Sum()}}}}
	e.reset()
	return e
}

// reset drops everything derived from the current history.
func (e *sessionEngine) reset() {
	e.pool, e.cursor, e.build = nil, nil, nil
	e.states = map[int]*posState{}
	e.targets, e.spacing = nil, 0
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
	l := &loadRun{src: src, script: script, s: s}
	l.steps = []step{{line: s.Line(), digest: l.digest.Sum()}}
	e.run = l
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
			trace := &l.s.Cluster.World.Trace
			st.events = trace.Len()
			for ; l.hashed < trace.Len(); l.hashed++ {
				l.digest.Add(trace.Names(), trace.At(l.hashed))
			}
		}
		st.digest = l.digest.Sum()
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
		trace := &l.s.Cluster.World.Trace
		h.events = trace.Events(0)
		h.names = l.s.Cluster.World.Names()
		// The finished session stays as the cursor at the end: its
		// trace now reads the history's events, so the worker does
		// not hold two copies of them (1.4 MB at 10,000 events).
		trace.ShareWith(h.events)
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
	e.loads++
	e.reset()
	e.plan()
	// The finished session is a cursor at the end for free (its trace is
	// the history's).
	e.cursor = &parked{s: l.s, step: len(l.steps) - 1}
	e.pool = []*parked{e.cursor}
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

// StepAfterLine is stepAfterLine for the pages.
func (e *sessionEngine) StepAfterLine(line int) int { return e.stepAfterLine(line) }

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
	e.movedAt = time.Now()
	return true
}

func (e *sessionEngine) StepBack() { e.Seek(e.pos - 1) }

func (e *sessionEngine) Seek(i int) {
	e.pos = max(0, min(i, e.Len()))
	e.movedAt = time.Now()
}

func (e *sessionEngine) Events() []sim.Event { return e.events[:e.steps[e.pos].events] }

func (e *sessionEngine) History() []sim.Event { return e.events }

func (e *sessionEngine) Names() *sim.Names { return e.names }

func (e *sessionEngine) EventsAt(i int) int { return e.steps[max(0, min(i, e.Len()))].events }

func (e *sessionEngine) Digest() string { return e.steps[e.pos].digest }

func (e *sessionEngine) Line() int { return e.steps[e.pos].line }

func (e *sessionEngine) Now() sim.Time { return e.steps[e.pos].now }

func (e *sessionEngine) Results() []scenario.Result { return e.results[:e.steps[e.pos].results] }

func (e *sessionEngine) Err() *ScriptError { return e.runErr }

func (e *sessionEngine) Snapshot() Snapshot { return e.stateAt(e.pos).snap }

func (e *sessionEngine) StateCost() int {
	if _, ok := e.states[e.pos]; ok || e.script == nil {
		return 0
	}
	from := 0
	for _, p := range e.pool {
		if p.step <= e.pos {
			from = max(from, e.steps[p.step].events)
		}
	}
	return e.steps[e.pos].events - from + 1 // + 1: a snapshot to take
}

func (e *sessionEngine) Violations() []check.Violation {
	st := e.stateAt(e.pos)
	if !st.violOK {
		if s := e.sessionAt(e.pos, e.pos); s.Cluster != nil {
			st.viol = s.Cluster.Check(false)
		}
		st.violOK = true
	}
	return st.viol
}

func (e *sessionEngine) ViolationsReady() bool {
	st, ok := e.states[e.pos]
	return (ok && st.violOK) || e.script == nil
}

// Query evaluates q on the session stopped at Pos(); the answer is kept
// with the position's state, so asking again at every render is free.
func (e *sessionEngine) Query(q string) (string, error) {
	if e.script == nil {
		return "", errors.New("no script is loaded")
	}
	st := e.stateAt(e.pos)
	if a, ok := st.answers[q]; ok {
		return a.value, a.err
	}
	v, err := e.sessionAt(e.pos, e.pos).Query(q)
	if st.answers == nil {
		st.answers = map[string]answer{}
	}
	st.answers[q] = answer{v, err}
	return v, err
}

// stateAt is the cluster at step i, from the cache or a session.
func (e *sessionEngine) stateAt(i int) *posState {
	if st, ok := e.states[i]; ok {
		return st
	}
	if e.script == nil {
		return &posState{violOK: true}
	}
	keepFrom := i
	if e.cursor == nil || e.cursor.step > i {
		keepFrom = i - replayKeep // going back
	}
	return e.keep(i, e.sessionAt(i, keepFrom))
}

// keep records s's state as the state at step i.
func (e *sessionEngine) keep(i int, s *scenario.Session) *posState {
	if len(e.states) >= e.cacheSize() {
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
	st := &posState{violOK: s.Cluster == nil}
	if s.Cluster != nil {
		st.snap = Snapshot{Snapshot: s.Cluster.Snapshot(), Valid: true}
	}
	e.states[i] = st
	return st
}

// sessionAt returns a session stopped at step i: the parked session
// nearest at or before i, advanced to i, or a new one when none is. It
// becomes the cursor. Replaying is deterministic, so its trace is the
// recorded one up to i. The states of the steps from keepFrom on that it
// passes are kept (within replayKeepBudget).
func (e *sessionEngine) sessionAt(i, keepFrom int) *scenario.Session {
	var best *parked
	for _, p := range e.pool {
		if p.step <= i && (best == nil || p.step > best.step) {
			best = p
		}
	}
	if best == nil {
		best = &parked{s: scenario.NewSession(scriptFile, e.script)}
		e.pool = append(e.pool, best)
	}
	if best == e.build {
		e.build = nil // Idle picks its target again
	}
	e.setCursor(best)
	e.replayed = e.steps[i].events - e.steps[best.step].events
	var kept time.Duration
	for best.step < i && !best.s.Done() {
		best.s.StepVisible()
		e.follow(best.s)
		best.step++
		if best.step >= keepFrom && best.step < i && kept < replayKeepBudget {
			if _, ok := e.states[best.step]; !ok {
				start := time.Now()
				e.keep(best.step, best.s)
				kept += time.Since(start)
			}
		}
	}
	e.trim()
	return best.s
}

// setCursor makes p the session that moves with the page. The one it
// replaces stays parked where it is and gives its trace back (see share).
func (e *sessionEngine) setCursor(p *parked) {
	if e.cursor == p {
		return
	}
	if e.cursor != nil {
		e.share(e.cursor)
	}
	e.cursor = p
}

// share points a parked session's full trace blocks at the history's
// events, which they equal (the run is deterministic), so the pool does
// not hold one copy of the history per session. The trace keeps growing
// in blocks of its own (sim.Trace.ShareWith): the history is never
// written.
func (e *sessionEngine) share(p *parked) {
	if p.s.Cluster == nil {
		return
	}
	w := p.s.Cluster.World
	if n := e.steps[p.step].events; w.Trace.Len() == n && n <= len(e.events) {
		w.Trace.ShareWith(e.events)
	}
}

// follow has a replaying session's trace take the history's events
// rather than record its own (sim.Trace.Follow), once its cluster, and
// so its trace, exists: a replay is the history's run again.
func (e *sessionEngine) follow(s *scenario.Session) {
	if s.Cluster != nil {
		s.Cluster.World.Trace.Follow(e.events)
	}
}

// plan chooses the steps Idle keeps a checkpoint at: every spacing trace
// events, spacing at least checkpointEvents and wide enough for at most
// maxTargets checkpoints (fewer in a history so long that building them
// would replay more than buildEvents).
func (e *sessionEngine) plan() {
	total := len(e.events)
	targets := maxTargets
	if total > 0 {
		targets = min(maxTargets, max(8, 2*buildEvents/total))
	}
	e.spacing = max(checkpointEvents, (total+targets-1)/targets)
	e.targets = nil
	next := e.spacing
	for i, st := range e.steps {
		if st.events >= next && i < e.Len() {
			e.targets = append(e.targets, i)
			next = st.events + e.spacing
		}
	}
}

// coverer is the parked session that serves target t: one at t or a
// little after it (within a quarter of the spacing), nil when none.
func (e *sessionEngine) coverer(t int) *parked {
	var best *parked
	for _, p := range e.pool {
		if p == e.build || p.step < t || e.steps[p.step].events-e.steps[t].events > e.spacing/4 {
			continue
		}
		if best == nil || p.step < best.step {
			best = p
		}
	}
	return best
}

// Idle does background work for about budget of wall-clock time and
// reports whether any remains: first the state at the position, when it
// is not at hand (so a page can compute it over several frames rather
// than in one long one); then the states of the steps just before it
// (warmSteps); then the checkpoints that are missing, the one nearest
// before the position first (where a learner going back goes next), then
// those after it.
func (e *sessionEngine) Idle(budget time.Duration) bool {
	if e.run != nil || e.script == nil {
		return false
	}
	start := time.Now()
	for {
		if _, ok := e.states[e.pos]; !ok {
			if !e.buildState || e.buildTo != e.pos || e.build == nil || e.build.step > e.pos {
				e.startState()
			}
		} else if e.build == nil && !e.startBuild() {
			return false
		}
		b := e.build
		for b.step < e.buildTo && !b.s.Done() {
			more := b.s.StepVisibleSome(idleEvents)
			e.follow(b.s)
			if !more {
				if time.Since(start) >= budget {
					return true
				}
				continue
			}
			b.step++
			if _, ok := e.states[b.step]; !ok && b.step >= e.keepFrom && b.step < e.buildTo {
				e.keep(b.step, b.s)
			}
			if time.Since(start) >= budget {
				return true
			}
		}
		e.build = nil
		if _, ok := e.states[b.step]; !ok && b.step >= e.keepFrom {
			e.keep(b.step, b.s)
		}
		if e.buildState {
			e.setCursor(b)
		} else {
			e.share(b)
		}
		e.trim()
		if time.Since(start) >= budget {
			return true
		}
	}
}

// startState makes the next job the state at the position, from the
// session sessionAt would take.
func (e *sessionEngine) startState() {
	var best *parked
	for _, p := range e.pool {
		if p.step <= e.pos && (best == nil || p.step > best.step) {
			best = p
		}
	}
	if best == nil {
		best = &parked{s: scenario.NewSession(scriptFile, e.script)}
		e.pool = append(e.pool, best)
	}
	e.build, e.buildTo, e.keepFrom, e.buildState = best, e.pos, e.pos, true
}

// missing is the target Idle builds next, or -1: the nearest one at or
// before the position, else the nearest after it.
func (e *sessionEngine) missing() int {
	below, above := -1, -1
	for _, t := range e.targets {
		if e.coverer(t) != nil {
			continue
		}
		if t <= e.pos {
			below = t
		} else if above < 0 {
			above = t
		}
	}
	if below >= 0 {
		return below
	}
	return above
}

// startBuild picks the next job: the states of the warmSteps steps
// before the position when they are not all kept, else the next missing
// target; and the session to advance for it: the parked session nearest
// before it that is not the cursor and not a checkpoint nearer the
// position than this target (so a hole moves away from the learner, never
// towards), else a new session.
func (e *sessionEngine) startBuild() bool {
	t, keepFrom := e.missing(), e.Len()+1
	warm := max(1, e.pos-warmSteps)
	if time.Since(e.movedAt) < warmAfter || e.warmed == e.pos {
		warm = e.pos
	}
	for i := warm; i < e.pos; i++ {
		if _, ok := e.states[i]; !ok {
			t, keepFrom = e.pos-1, warm
			e.warmed = e.pos // once per position, whatever the cache keeps
			break
		}
	}
	if t < 0 {
		return false
	}
	covers := map[*parked]int{}
	for _, u := range e.targets {
		if p := e.coverer(u); p != nil {
			covers[p] = u
		}
	}
	dist := func(i int) int { return max(i-e.pos, e.pos-i) }
	var from *parked
	for _, p := range e.pool {
		if p == e.cursor || p.step > min(t, keepFrom) || (from != nil && p.step <= from.step) {
			continue
		}
		if u, ok := covers[p]; ok && dist(u) <= dist(t) {
			continue
		}
		from = p
	}
	if from == nil {
		from = &parked{s: scenario.NewSession(scriptFile, e.script)}
		e.pool = append(e.pool, from)
	}
	e.build, e.buildTo, e.keepFrom, e.buildState = from, t, keepFrom, false
	return true
}

// trim drops parked sessions beyond the checkpoints and spareSessions: first those that serve no
// target, farthest from the position first. The cursor and the build
// stay.
func (e *sessionEngine) trim() {
	limit := len(e.targets) + spareSessions
	if len(e.pool) <= limit {
		return
	}
	serving := map[*parked]bool{}
	for _, t := range e.targets {
		if p := e.coverer(t); p != nil {
			serving[p] = true
		}
	}
	for len(e.pool) > limit {
		drop := -1
		for i, p := range e.pool {
			if p == e.cursor || p == e.build {
				continue
			}
			if drop < 0 || worse(p, e.pool[drop], serving, e.pos) {
				drop = i
			}
		}
		if drop < 0 {
			return
		}
		e.pool = append(e.pool[:drop], e.pool[drop+1:]...)
	}
}

// worse tells whether p is a better session to drop than q.
func worse(p, q *parked, serving map[*parked]bool, pos int) bool {
	if serving[p] != serving[q] {
		return !serving[p]
	}
	return max(p.step-pos, pos-p.step) > max(q.step-pos, pos-q.step)
}

// QueryReady is true: the engine on the page answers a query at once.
func (e *sessionEngine) QueryReady(string) bool { return true }
