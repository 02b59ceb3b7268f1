package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"txnlab/core/check"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// Link is the page's side of the worker: the engines of the page's
// playgrounds (each a Remote over a remoteEngine), sending with send and
// fed by Receive. When the worker fails (Fail), every Remote carries on
// with an engine of its own on the page, so nothing a learner does is
// lost.
type Link struct {
	send    func([]byte)
	engines map[int]*Remote
	next    int
	// wait, when set, blocks until a reply may have arrived (Load and
	// Act, which are synchronous); without it they fail.
	wait  func()
	fault error
	// started is whether the worker said it runs; heard when it last
	// said anything, asked when the page first asked since.
	started      bool
	heard, asked time.Time
	// explorations are the explorations in the worker, by id (explore.go).
	explorations map[int]*Exploration
}

// NewLink returns the page's side of a worker that receives with send.
// wait, if not nil, blocks the calling goroutine until the next message
// arrives (Receive); only Load and Act need it.
func NewLink(send func([]byte), wait func()) *Link {
	return &Link{send: send, wait: wait, engines: map[int]*Remote{}}
}

// Engine returns a new engine over the link, on the page at once when
// the worker failed already; notify, when set (Notify), is called
// whenever a reply changes what it answers.
func (l *Link) Engine() *Remote {
	l.next++
	w := &remoteEngine{link: l, id: l.next, states: map[int]*remoteState{}, lastAnswers: map[string]answer{}}
	w.steps = []step{{digest: (&sim.Digester{}).Sum()}}
	r := &Remote{cur: w, worker: w}
	l.engines[w.id] = r
	if l.fault != nil {
		r.fallBack()
	}
	return r
}

// Fault is the error that stopped the worker, nil while it runs.
func (l *Link) Fault() error { return l.fault }

// Fail stops using the worker: each engine replays its script on the
// page and carries on there.
func (l *Link) Fail(err error) {
	if l.fault != nil {
		return
	}
	l.fault = err
	for _, r := range l.engines {
		notify := r.worker.notify
		r.fallBack()
		if notify != nil {
			notify()
		}
	}
	for id, x := range l.explorations {
		delete(l.explorations, id)
		x.fallBack()
	}
}

// Started reports whether the worker said it runs: a failure after
// that is a worker that stopped, before it one that could not start.
func (l *Link) Started() bool { return l.started }

// waiting reports whether an engine waits for a reply of the worker.
func (l *Link) waiting() bool {
	if l.fault != nil {
		return false // every engine is on the page
	}
	for _, r := range l.engines {
		if w := r.worker; w.running || w.sentOK || w.metricsWaiting() {
			return true
		}
	}
	return len(l.explorations) > 0
}

// Stalled reports whether the worker has said nothing for longer than
// limit while the page waits for it: a worker that stopped without a
// word (killed, or stuck in a loop). A worker at work says it is
// (op busy) about once a second.
func (l *Link) Stalled(now time.Time, limit time.Duration) bool {
	if l.fault != nil || !l.waiting() {
		return false
	}
	last := l.heard
	if l.asked.After(last) {
		last = l.asked
	}
	return now.Sub(last) > limit
}

// Receive handles a message from the worker.
func (l *Link) Receive(msg []byte) {
	l.heard, l.asked = time.Now(), time.Time{}
	var m reply
	if err := decodeReply(msg, &m); err != nil {
		l.Fail(fmt.Errorf("a reply of the engine's worker: %w", err))
		return
	}
	switch m.Op {
	case "ready":
		l.started = true
		return
	case "busy":
		return
	case "fail":
		l.Fail(errors.New(m.ErrMsg))
		return
	case "explore":
		if x, ok := l.explorations[m.Eng]; ok {
			x.receive(m)
		}
		return
	}
	r, ok := l.engines[m.Eng]
	if !ok || l.fault != nil {
		return // an engine now on the page reads nothing of the worker
	}
	if w := r.worker; w.receive(m) && w.notify != nil {
		w.notify()
	}
}

func (l *Link) request(q request) {
	b, err := json.Marshal(q)
	if err != nil {
		l.Fail(err)
		return
	}
	if l.asked.IsZero() {
		l.asked = time.Now()
	}
	l.send(b)
}

// remoteEngine is an Engine whose simulation runs in the worker, and
// only there: it talks to the worker and to nothing else. It answers
// what the history gives (Pos, Len, Line, Now, Digest, Results, Events,
// History, EventsAt, StepAfterLine) from the history it received once
// per script; the cluster state, the violations and the query answers at
// a position come a reply later (StateCost, ViolationsReady say when),
// and the page is notified when they do. When the worker fails, the
// Remote around it leaves it for an engine on the page (fallback.go).
type remoteEngine struct {
	link *Link
	id   int
	// notify re-renders the page when a reply arrived.
	notify func()

	history
	loaded bool
	gen    int
	pos    int

	// The run in progress: its id, the statement of an action, and its
	// reply once it came.
	runID   int
	running bool
	runSrc  string
	runStmt string
	done    *reply
	// decoding decodes the history of reply decodingOf, a slice per Work.
	decoding   *eventDecoder
	decodingOf *reply
	// decodingSteps are decodingOf's steps, read before its events.
	decodingSteps []step

	states map[int]*remoteState
	// recv is the last state received, which the next is cut against
	// (wire.go), and recvSeq its number.
	recv        Snapshot
	recvSeq     int
	shownSnap   Snapshot
	shownViol   []check.Violation
	lastAnswers map[string]answer
	queries     []string
	// sent is the state request last sent, not answered yet.
	sent    request
	sentOK  bool
	toldPos int // the position the worker was last told of
	idleFor int // the gen whose background work the worker does

	// met is the series of the operator's metrics (metrics.go).
	met remoteMetrics
}

// remoteState is what the page received of one position.
type remoteState struct {
	snap    Snapshot
	snapOK  bool
	viol    []check.Violation
	violOK  bool
	answers map[string]answer
}

// Notify sets what to call when a reply changes what r answers.
func (r *remoteEngine) Notify(f func()) { r.notify = f }

// LeftWorker is false: this engine only ever runs in the worker (the
// Remote around it is what leaves).
func (r *remoteEngine) LeftWorker() bool { return false }

// StateLater is true: a position's state comes a reply after the move.
func (r *remoteEngine) StateLater() bool { return true }

// replayOn puts e where r stands: the same script at the same position,
// with the run in progress begun again. The error is that run's, which
// Begin or BeginAct refused at once: its Work is to report it.
func (r *remoteEngine) replayOn(e Engine) error {
	if r.loaded {
		_ = e.Load(r.src) // a runtime error: the history up to it is loaded
		e.Seek(r.pos)
	}
	if !r.running {
		return nil
	}
	if r.runStmt != "" {
		return e.BeginAct(r.runStmt)
	}
	return e.Begin(r.runSrc)
}

func (r *remoteEngine) receive(m reply) bool {
	switch m.Op {
	case "run":
		if !r.running || m.ID != r.runID {
			return false // superseded by a newer run
		}
		r.done = &m
		return true
	case "state":
		if m.Snap != nil {
			// Every state is made whole, of an older history too: the
			// next is cut against it.
			if m.Base != r.recvSeq {
				r.link.Fail(fmt.Errorf("the engine's worker sent state %d against %d, the page has %d", m.Seq, m.Base, r.recvSeq))
				return true
			}
			if err := untrimSnapshot(r.recv, m.Snap, m.Keep); err != nil {
				r.link.Fail(err)
				return true
			}
			r.recv, r.recvSeq = *m.Snap, m.Seq
		}
		if m.Gen != r.gen {
			return false
		}
		st := r.state(m.Pos)
		if m.Snap != nil {
			st.snap, st.snapOK = *m.Snap, true
			if !m.Pre || m.Pos == r.pos {
				r.shownSnap = st.snap
			}
		}
		if m.ViolOK {
			st.viol, st.violOK = m.Viol, true
			r.shownViol = st.viol
		}
		for q, a := range m.Answers {
			if st.answers == nil {
				st.answers = map[string]answer{}
			}
			ans := answer{value: a.V}
			if a.E != "" {
				ans.err = errors.New(a.E)
			}
			st.answers[q] = ans
			r.lastAnswers[q] = ans
		}
		if m.Pre {
			return m.Pos == r.pos // sent ahead of the move
		}
		if r.sentOK && r.sent.Pos == m.Pos {
			r.sentOK = false
		}
		r.idleFor = r.gen
		return m.Pos == r.pos
	case "metrics":
		return r.receiveMetrics(m)
	case "idle":
		if m.Gen == r.gen {
			r.idleFor = -1
		}
		return false
	}
	return false
}

// state is what r holds of position i, made when missing; the cache is
// bounded as the engine's own is.
func (r *remoteEngine) state(i int) *remoteState {
	if st, ok := r.states[i]; ok {
		return st
	}
	if len(r.states) >= stateCacheSize {
		far, dist := -1, -1
		for k := range r.states {
			if d := max(k-i, i-k); d > dist {
				far, dist = k, d
			}
		}
		delete(r.states, far)
	}
	st := &remoteState{}
	r.states[i] = st
	return st
}

// ask requests what is missing at the position: the snapshot when snap,
// the violations when viol, and the answers of the queries asked so far.
func (r *remoteEngine) ask(snap, viol bool) {
	if !r.loaded {
		return
	}
	st := r.states[r.pos]
	if st == nil {
		st = &remoteState{}
	}
	q := request{Op: "state", Eng: r.id, Gen: r.gen, Pos: r.pos, Snap: snap && !st.snapOK, Viol: viol && !st.violOK}
	for _, s := range r.queries {
		if _, ok := st.answers[s]; !ok {
			q.Queries = append(q.Queries, s)
		}
	}
	if !q.Snap && !q.Viol && len(q.Queries) == 0 {
		if snap && r.pos != r.toldPos {
			// Nothing to ask, but the worker sends the next step's
			// state ahead of a step.
			r.link.request(request{Op: "at", Eng: r.id, Gen: r.gen, Pos: r.pos})
			r.toldPos = r.pos
		}
		return
	}
	r.toldPos = r.pos
	if r.sentOK && r.sent.Gen == q.Gen && r.sent.Pos == q.Pos &&
		(!q.Snap || r.sent.Snap) && (!q.Viol || r.sent.Viol) && len(q.Queries) <= len(r.sent.Queries) {
		return // asked already
	}
	r.sent, r.sentOK = q, true
	r.link.request(q)
}

func (r *remoteEngine) moved() { r.ask(true, false) }

// install makes the history of a run's reply, whose steps are steps,
// its events evs and names their table, the loaded one.
func (r *remoteEngine) install(h *wireHistory, steps []step, evs []sim.Event, names *sim.Names, gen int) error {
	if len(steps) == 0 {
		return errors.New("a history without steps")
	}
	r.history = history{src: h.Src, events: evs, names: names, steps: steps, results: h.Results, runErr: h.RunErr}
	r.loaded, r.gen = true, gen
	r.pos = max(0, min(h.Pos, r.Len()))
	r.states = map[int]*remoteState{}
	r.shownSnap, r.shownViol = Snapshot{}, nil
	r.sentOK = false
	r.idleFor = gen
	r.moved()
	return nil
}

// Load is Begin, then waiting for the worker's reply.
func (r *remoteEngine) Load(script string) error {
	if err := r.Begin(script); err != nil {
		return err
	}
	return complete(r, r.wait)
}

// Act is BeginAct, then waiting for the worker's reply.
func (r *remoteEngine) Act(stmt string) error {
	if err := r.BeginAct(stmt); err != nil {
		return err
	}
	return complete(r, r.wait)
}

// complete works e's run to its end (Load and Act are synchronous),
// calling wait while the run waits for a reply.
func complete(e Engine, wait func() error) error {
	for {
		if done, err := e.Work(time.Hour); done {
			return err
		}
		if err := wait(); err != nil {
			return err
		}
	}
}

// wait blocks until a reply of the worker may have arrived. A worker
// that failed sends none.
func (r *remoteEngine) wait() error {
	if err := r.link.fault; err != nil {
		return fmt.Errorf("the engine's worker failed: %w", err)
	}
	if r.link.wait == nil {
		return errors.New("the engine's worker cannot be waited for here")
	}
	r.link.wait()
	return nil
}

// Begin parses on the page, so that a mistake is shown at once, and has
// the worker run the script.
func (r *remoteEngine) Begin(src string) error {
	// With no run in flight, the run is asked for first: the worker runs
	// while the page parses (a first parse, of code not yet compiled, is
	// tens of ms on a cold load), and a script that does not parse is
	// answered here, its run left to fail unread. With one in flight, a
	// script that does not parse must not reach the worker, which would
	// drop that run for it.
	if r.running {
		if _, err := scenario.Parse(scriptFile, src); err != nil {
			return toScriptError(err)
		}
		r.askRun(src)
		return nil
	}
	r.askRun(src)
	if _, err := scenario.Parse(scriptFile, src); err != nil {
		r.runID++ // the reply to the run asked for is not read
		r.running = false
		return toScriptError(err)
	}
	return nil
}

// askRun has the worker run src, as the page's next run.
func (r *remoteEngine) askRun(src string) {
	r.runID++
	r.running, r.runSrc, r.runStmt, r.done = true, src, "", nil
	r.link.request(request{Op: "run", Eng: r.id, ID: r.runID, Script: src})
}

// BeginAct checks what the page can, and has the worker write and run
// the action.
func (r *remoteEngine) BeginAct(stmt string) error {
	if !r.loaded {
		return errors.New("load a script first")
	}
	if r.pos == 0 {
		return errors.New("step once first: the cluster does not exist yet")
	}
	if r.runErr != nil && r.pos == r.Len() {
		return fmt.Errorf("the script stops with an error at line %d: fix that line first", r.runErr.Line)
	}
	stmt = strings.TrimSpace(stmt)
	r.runID++
	r.running, r.runSrc, r.runStmt, r.done = true, "", stmt, nil
	r.link.request(request{Op: "act", Eng: r.id, ID: r.runID, Gen: r.gen, Pos: r.pos, Stmt: stmt})
	return nil
}

// Work reports whether the worker's reply to the run came; the run
// itself goes on in the worker, whatever budget says.
func (r *remoteEngine) Work(budget time.Duration) (bool, error) {
	if !r.running {
		return true, nil
	}
	m := r.done
	if m == nil {
		return false, nil
	}
	if m.Hist != nil {
		// The events are decoded within the budget, the rest at the
		// next call: a history of a few thousand events takes the
		// page's thread longer than a frame to decode.
		if r.decodingOf != m {
			steps, err := m.Hist.Steps.steps()
			var names *sim.Names
			if err == nil {
				names, err = decodeNames(m.Hist.Names)
			}
			if err != nil {
				// The run is still to do: the engine on the page
				// that takes over runs it (Link.Fail).
				r.link.Fail(err)
				return false, nil
			}
			n := 0 // the events, the last step's trace length
			if k := len(steps); k > 0 {
				n = steps[k-1].events
			}
			r.decoding, r.decodingOf, r.decodingSteps = newEventDecoder(m.Hist.Events.raw, n, names), m, steps
		}
		finished, err := r.decoding.more(time.Now().Add(budget))
		if err == nil && !finished {
			return false, nil
		}
		evs, names := r.decoding.out, r.decoding.names
		steps := r.decodingSteps
		r.decoding, r.decodingOf, r.decodingSteps = nil, nil, nil
		if err == nil {
			err = r.install(m.Hist, steps, evs, names, m.Gen)
		}
		if err != nil {
			// As above: the page runs the script itself.
			r.link.Fail(err)
			return false, nil
		}
		r.running, r.done = false, nil
	} else {
		r.running, r.done = false, nil
	}
	switch {
	case m.Err != nil:
		return true, m.Err
	case m.ErrMsg != "":
		return true, errors.New(m.ErrMsg)
	}
	return true, nil
}

// Busy reports a run in progress; its steps are counted in the worker.
func (r *remoteEngine) Busy() (int, bool) {
	return 0, r.running
}

func (r *remoteEngine) Script() string {
	return r.src
}

func (r *remoteEngine) Len() int {
	return len(r.steps) - 1
}

func (r *remoteEngine) Pos() int {
	return r.pos
}

func (r *remoteEngine) Step() bool {
	if r.pos >= r.Len() {
		return false
	}
	r.pos++
	r.moved()
	return true
}

func (r *remoteEngine) StepBack() { r.Seek(r.Pos() - 1) }

func (r *remoteEngine) Seek(i int) {
	r.pos = max(0, min(i, r.Len()))
	r.moved()
}

func (r *remoteEngine) Events() []sim.Event {
	return r.events[:r.steps[r.pos].events]
}

func (r *remoteEngine) History() []sim.Event {
	return r.events
}

func (r *remoteEngine) Names() *sim.Names {
	return r.names
}

func (r *remoteEngine) EventsAt(i int) int {
	return r.steps[max(0, min(i, r.Len()))].events
}

func (r *remoteEngine) Digest() string {
	return r.steps[r.pos].digest
}

func (r *remoteEngine) Line() int {
	return r.steps[r.pos].line
}

func (r *remoteEngine) Now() sim.Time {
	return r.steps[r.pos].now
}

func (r *remoteEngine) Results() []scenario.Result {
	return r.results[:r.steps[r.pos].results]
}

func (r *remoteEngine) Err() *ScriptError {
	return r.runErr
}

func (r *remoteEngine) StepAfterLine(line int) int {
	i := 0
	for i < len(r.steps) && r.steps[i].line != line {
		i++
	}
	for i < len(r.steps) && r.steps[i].line == line {
		i++
	}
	return min(i, r.Len())
}

// Snapshot is the state at the position when it came, else the last one
// that did (StateCost is then above 0).
func (r *remoteEngine) Snapshot() Snapshot {
	if st, ok := r.states[r.pos]; ok && st.snapOK {
		return st.snap
	}
	r.ask(true, false)
	return r.shownSnap
}

// StateCost is 0 when the state at the position came, 1 while it is
// asked for.
func (r *remoteEngine) StateCost() int {
	if st, ok := r.states[r.pos]; !r.loaded || ok && st.snapOK {
		return 0
	}
	return 1
}

func (r *remoteEngine) Violations() []check.Violation {
	if st, ok := r.states[r.pos]; ok && st.violOK || !r.loaded {
		if !r.loaded {
			return nil
		}
		return st.viol
	}
	r.ask(false, true)
	return r.shownViol
}

func (r *remoteEngine) ViolationsReady() bool {
	st, ok := r.states[r.pos]
	return !r.loaded || ok && st.violOK
}

// Query is the answer at the position when it came; until then the last
// answer to the same query, or an ellipsis.
func (r *remoteEngine) Query(q string) (string, error) {
	if !r.loaded {
		return "", errors.New("no script is loaded")
	}
	if st, ok := r.states[r.pos]; ok {
		if a, ok := st.answers[q]; ok {
			return a.value, a.err
		}
	}
	known := false
	for _, s := range r.queries {
		known = known || s == q
	}
	if !known && len(r.queries) < 256 {
		r.queries = append(r.queries, q)
	}
	r.ask(false, false)
	if a, ok := r.lastAnswers[q]; ok {
		return a.value, a.err
	}
	return "…", nil
}

// QueryReady reports whether Query(q) at the position is its answer.
func (r *remoteEngine) QueryReady(q string) bool {
	if !r.loaded {
		return true
	}
	st, ok := r.states[r.pos]
	if !ok {
		return false
	}
	_, ok = st.answers[q]
	return ok
}

// Idle reports whether the worker still does background work for this
// history; the work itself is the worker's.
func (r *remoteEngine) Idle(budget time.Duration) bool {
	return r.loaded && r.idleFor == r.gen
}
