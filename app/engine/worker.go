package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"txnlab/core/check"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// The engine in a Web Worker (issue 13): the page keeps only what it
// draws, and the simulation, its checkpoints and Go's collector marking
// them run on the worker's thread, so no move of the learner waits for
// them. The page holds a Remote per playground, all over one Link; the
// worker holds a Server with the sessionEngine of each. The protocol:
//
//	page → worker  {op: "run", eng, id, script}     Begin; reply "run" when done
//	               {op: "act", eng, id, gen, pos, stmt}  BeginAct at pos
//	               {op: "state", eng, gen, pos, snap, viol, q}  the state at pos
//	               {op: "at", eng, gen, pos}          moved where the state is held
//	               {op: "drop", eng}                 forget an engine
//	               {op: "explore", eng, x, seed}     explore for an exercise (explore.go)
//	               {op: "explore-stop", eng}         stop that exploration
//	worker → page  {op: "ready"}                     the worker runs
//	               {op: "busy"}                      still at work (every second)
//	               {op: "run", eng, id, gen, hist, err | msg}
//	               {op: "state", eng, gen, pos, snap, viol, ok, ans}
//	               {op: "idle", eng, more: false}    background work done
//	               {op: "explore", eng, xs}          how the exploration stands
//	               {op: "metrics", …}                a series (metrics.go)
//
// After a step (a move of one position) the worker sends, unasked
// ("pre"), the state of the step after it in the same direction: the
// learner's next Step or Step back then draws its state at once.
//
// A history crosses once per script (hist: the events and the per-step
// table Pos, Line, Now, Digest and Results read), then each move's state
// (the snapshot, and the violations and query answers when asked). gen
// names the history a state belongs to: a reply of an older one is
// dropped.

// request is one message from the page.
type request struct {
	Op      string   `json:"op"`
	Eng     int      `json:"eng"`
	ID      int      `json:"id,omitempty"`
	Gen     int      `json:"gen,omitempty"`
	Script  string   `json:"script,omitempty"`
	Stmt    string   `json:"stmt,omitempty"`
	Pos     int      `json:"pos"`
	Snap    bool     `json:"snap,omitempty"`
	Viol    bool     `json:"viol,omitempty"`
	Queries []string `json:"q,omitempty"`
	// X is the exercise to explore for, Seed the first run's seed
	// (op explore).
	X    *doc.Exercise `json:"x,omitempty"`
	Seed uint64        `json:"seed,omitempty"`
}

// reply is one message from the worker.
type reply struct {
	Op  string `json:"op"`
	Eng int    `json:"eng"`
	ID  int    `json:"id,omitempty"`
	Gen int    `json:"gen,omitempty"`

	Hist   *wireHistory `json:"hist,omitempty"`
	Err    *ScriptError `json:"err,omitempty"`
	ErrMsg string       `json:"msg,omitempty"`

	Pos  int       `json:"pos"`
	Snap *Snapshot `json:"snap,omitempty"`
	// Seq numbers the states sent to the engine; Snap's lists are cut
	// to what follows the Keep entries of state Base's (wire.go).
	Seq  int   `json:"seq,omitempty"`
	Base int   `json:"base,omitempty"`
	Keep []int `json:"keep,omitempty"`
	// Pre marks a state sent unasked (Server.prefetch).
	Pre     bool                  `json:"pre,omitempty"`
	Viol    []check.Violation     `json:"viol,omitempty"`
	ViolOK  bool                  `json:"ok,omitempty"`
	Answers map[string]wireAnswer `json:"ans,omitempty"`
	More    bool                  `json:"more,omitempty"`
	// XS is how an exploration stands (op explore).
	XS *exercise.ExploreState `json:"xs,omitempty"`
	// Met is a history's metrics (op metrics).
	Met *wireMetrics `json:"met,omitempty"`
}

// wireHistory is a loaded script's history and the position to show.
type wireHistory struct {
	Src     string            `json:"src"`
	Events  wireEvents        `json:"events"`
	Names   []string          `json:"names,omitempty"` // the events' node names, by code
	Steps   wireSteps         `json:"steps"`
	Results []scenario.Result `json:"results"`
	RunErr  *ScriptError      `json:"runErr,omitempty"`
	Pos     int               `json:"pos"`
}

// wireSteps are a history's steps on the wire: each field a list of
// every step's, a space between two (numbers in decimal). An object per
// step was most of what the page decoded of a history's reply before
// its events: the reply's JSON of a 10,000-event history (1,855 steps)
// took 10.1–14.3 ms under Node and 1,949 allocations; with the steps as
// JSON lists of numbers 7.2–7.8 ms; as strings, read and split, 3.4–4.1
// ms and 87 allocations.
type wireSteps struct {
	Events  string `json:"e"` // the trace's length
	Lines   string `json:"l"`
	Now     string `json:"n"`
	Results string `json:"r"`
	Digests string `json:"d"`
}

// stepsOnWire is steps as they cross.
func stepsOnWire(steps []step) wireSteps {
	var e, l, n, r, d []byte
	for i, st := range steps {
		if i > 0 {
			e, l, n, r, d = append(e, ' '), append(l, ' '), append(n, ' '), append(r, ' '), append(d, ' ')
		}
		e = strconv.AppendInt(e, int64(st.events), 10)
		l = strconv.AppendInt(l, int64(st.line), 10)
		n = strconv.AppendInt(n, int64(st.now), 10)
		r = strconv.AppendInt(r, int64(st.results), 10)
		d = append(d, st.digest...)
	}
	return wireSteps{Events: string(e), Lines: string(l), Now: string(n), Results: string(r), Digests: string(d)}
}

// steps is stepsOnWire undone. Lists of different lengths, or a value
// that is not a number, are an error.
func (w wireSteps) steps() ([]step, error) {
	if w == (wireSteps{}) {
		return nil, nil
	}
	out := make([]step, 0, strings.Count(w.Digests, " ")+1)
	for d := range strings.SplitSeq(w.Digests, " ") {
		out = append(out, step{digest: d})
	}
	for _, f := range []struct {
		name, list string
		set        func(*step, int64)
	}{
		{"events", w.Events, func(s *step, v int64) { s.events = int(v) }},
		{"lines", w.Lines, func(s *step, v int64) { s.line = int(v) }},
		{"clock", w.Now, func(s *step, v int64) { s.now = sim.Time(v) }},
		{"results", w.Results, func(s *step, v int64) { s.results = int(v) }},
	} {
		i := 0
		for v := range strings.SplitSeq(f.list, " ") {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || i == len(out) {
				return nil, fmt.Errorf("a history's steps: %s %q is not one number per step (%d)", f.name, v, len(out))
			}
			f.set(&out[i], n)
			i++
		}
		if i != len(out) {
			return nil, fmt.Errorf("a history's steps: %d %s for %d steps", i, f.name, len(out))
		}
	}
	return out, nil
}

// wireAnswer is a query's answer on the wire.
type wireAnswer struct {
	V string `json:"v"`
	E string `json:"e,omitempty"`
}

// Server is the worker's side: the engines of every playground of the
// page, fed by Receive and advanced by Work.
type Server struct {
	reply   func([]byte)
	engines map[int]*served
	queue   []request
	// used lists the engines, the one last asked something last: the
	// background work goes to it first.
	used []int
	// explorers are the explorations in progress, by the page's id.
	explorers map[int]*exploring
	// movedAt is when the page last asked for a position's state or
	// said where it is: the learner is stepping or scrubbing.
	movedAt time.Time
	// background is whether the work Work left is only background
	// work (Idle: checkpoints, warm states).
	background bool
}

// While the learner moves, the worker does its background work in
// slices spaced moveRest apart (a quarter of its time), until moveQuiet
// after the last move; a move the page asks for, a run, an exploration
// are served at once whatever the spacing. On a machine of two cores the
// page's main thread, its compositor and the worker share them: a worker
// replaying checkpoints at full speed while the learner scrubbed or
// stepped back made the page's frames wait for a core (BENCHMARKS.md,
// "The worker rests while the learner moves": BenchmarkSeek's slowest
// step back and slowest scrub fell by about a third). The checkpoints
// then come later, which costs a scrub's median a few milliseconds.
const moveQuiet = 300 * time.Millisecond

// moveRest is a variable only so that a test can make it an hour: a
// move must still be answered at once (a message cuts a rest short).
var moveRest = 24 * time.Millisecond

// Rest is how long the worker may wait before its next slice of work
// when work remains: moveRest while the learner moves and only
// background work is left, else a millisecond (a turn of the event
// loop, for the page's next message). A message already queued is never
// made to wait, however it got there.
func (s *Server) Rest() time.Duration {
	if s.background && len(s.queue) == 0 && time.Since(s.movedAt) < moveQuiet {
		return moveRest
	}
	return time.Millisecond
}

// served is one playground's engine in the worker.
type served struct {
	e     servedEngine
	gen   int
	run   int  // the id of the run in progress, 0 when none
	idler bool // background work may remain that the page was not told is done
	// sent is the last state sent, the one the next is cut against, and
	// sentSeq its number.
	sent    Snapshot
	sentSeq int
	// has is the positions of this history whose state the page was
	// sent; ahead the one to send unasked next, -1 when none; last the
	// position last asked.
	has   map[int]bool
	ahead int
	last  int
	// metGen is the history whose metrics the page asked for, 0 when
	// none (metrics.go).
	metGen int
}

// servedEngine is what the worker asks of an engine: the Engine, and
// what only the worker needs. The Server reads nothing else of it (an
// interface, so that it cannot).
type servedEngine interface {
	Engine
	// Loads counts the histories loaded: the page names a history by it.
	Loads() int
	// Cancel drops the run in progress, whose page asked for another.
	Cancel()
	// MetricsWithin is Metrics, working for about budget.
	MetricsWithin(budget time.Duration) (Metrics, bool)
	// onWire is the loaded history as it crosses to the page.
	onWire() (*wireHistory, error)
}

var _ servedEngine = (*sessionEngine)(nil)

// prefetchHeld bounds served.has: past it the worker forgets what the
// page holds (the page's cache keeps 64 states, the nearest) and
// prefetches again.
const prefetchHeld = 48

// NewServer returns a worker's side that sends its replies with reply.
func NewServer(reply func([]byte)) *Server {
	return &Server{reply: reply, engines: map[int]*served{}, explorers: map[int]*exploring{}}
}

// Ready tells the page the worker runs.
func (s *Server) Ready() { s.send(reply{Op: "ready"}) }

// Receive queues a message from the page; Work handles it.
func (s *Server) Receive(msg []byte) {
	var r request
	if err := json.Unmarshal(msg, &r); err != nil {
		return // not ours: the page only sends requests
	}
	if r.Op == "state" || r.Op == "at" {
		s.movedAt = time.Now()
	}
	s.queue = append(s.queue, r)
}

func (s *Server) send(r reply) {
	b, err := encodeReply(r)
	if err != nil {
		b, _ = json.Marshal(reply{Op: r.Op, Eng: r.Eng, ID: r.ID, Gen: r.Gen, ErrMsg: "encoding the reply: " + err.Error()})
	}
	s.reply(b)
}

func (s *Server) engine(id int) *served {
	sv, ok := s.engines[id]
	if !ok {
		sv = &served{e: newSessionEngine(), ahead: -1}
		s.engines[id] = sv
	}
	for i, u := range s.used {
		if u == id {
			s.used = append(s.used[:i], s.used[i+1:]...)
			break
		}
	}
	s.used = append(s.used, id)
	return sv
}

// Work handles the queued messages (of several moves of one engine, only
// the last: the page has left the others), then advances the runs in
// progress and the background work for about budget, and reports whether
// any work remains.
func (s *Server) Work(budget time.Duration) bool {
	start := time.Now()
	s.background = false
	q := s.queue
	s.queue = nil
	last := map[int]int{} // engine → index of its last state request
	for i, r := range q {
		if r.Op == "state" {
			if j, ok := last[r.Eng]; ok && q[j].Gen == r.Gen && q[j].Pos == r.Pos {
				q[i].Snap = q[i].Snap || q[j].Snap
				q[i].Viol = q[i].Viol || q[j].Viol
				q[i].Queries = append(q[j].Queries, q[i].Queries...)
			}
			last[r.Eng] = i
		}
	}
	for i, r := range q {
		switch r.Op {
		case "run":
			sv := s.engine(r.Eng)
			if err := sv.e.Begin(r.Script); err != nil {
				s.finish(r.Eng, sv, r.ID, err)
				continue
			}
			sv.run = r.ID
		case "act":
			sv := s.engine(r.Eng)
			if r.Gen != sv.gen {
				s.send(reply{Op: "run", Eng: r.Eng, ID: r.ID, Gen: sv.gen, ErrMsg: "the history changed: try again"})
				continue
			}
			sv.e.Seek(r.Pos)
			if err := sv.e.BeginAct(r.Stmt); err != nil {
				sv.e.Cancel()
				sv.run = 0
				s.send(reply{Op: "run", Eng: r.Eng, ID: r.ID, Gen: sv.gen, ErrMsg: err.Error()})
				continue
			}
			sv.run = r.ID
		case "state":
			if last[r.Eng] == i {
				s.state(r)
			}
		case "at":
			if sv := s.engine(r.Eng); r.Gen == sv.gen {
				sv.moved(r.Pos)
			}
		case "drop":
			delete(s.engines, r.Eng)
		case "explore", "explore-stop":
			s.exploreRequest(r)
		case "metrics":
			s.askMetrics(r)
		}
	}
	more := false
	for id, sv := range s.engines {
		if sv.run == 0 {
			continue
		}
		done, err := sv.e.Work(max(time.Millisecond, budget-time.Since(start)))
		if done {
			s.finish(id, sv, sv.run, err)
		} else {
			more = true
		}
	}
	if more {
		return true
	}
	if s.workMetrics(budget - time.Since(start)) {
		return true
	}
	if s.explore(budget - time.Since(start)) {
		return true
	}
	if len(s.queue) == 0 && s.prefetch() {
		return true
	}
	for i := len(s.used) - 1; i >= 0; i-- {
		id := s.used[i]
		sv, ok := s.engines[id]
		if !ok || !sv.idler {
			continue
		}
		if left := budget - time.Since(start); left <= 0 || sv.e.Idle(left) {
			s.background = true
			return true
		}
		sv.idler = false
		s.send(reply{Op: "idle", Eng: id, Gen: sv.gen})
	}
	return len(s.queue) > 0
}

// finish replies to a run that completed: with the new history, or,
// when it was kept (an action that cannot run), the error alone.
func (s *Server) finish(id int, sv *served, runID int, err error) {
	sv.run = 0
	r := reply{Op: "run", Eng: id, ID: runID}
	var se *ScriptError
	if errors.As(err, &se) {
		r.Err = se
	} else if err != nil {
		r.ErrMsg = err.Error()
	}
	if sv.e.Loads() != sv.gen {
		sv.gen = sv.e.Loads()
		h, encErr := sv.e.onWire()
		if encErr != nil {
			r.Err, r.ErrMsg = nil, encErr.Error()
		} else {
			r.Hist = h
		}
		sv.idler = true
		sv.has, sv.ahead = nil, -1
	}
	r.Gen = sv.gen
	s.send(r)
}

// prefetch sends, for the engine last asked, the state of the step after
// a step the learner took (the next Step or Step back), so that it is on
// the page before the move: one state, then it reports whether it sent
// one. A scrub's jumps are not followed.
func (s *Server) prefetch() bool {
	for i := len(s.used) - 1; i >= 0; i-- {
		sv, ok := s.engines[s.used[i]]
		if !ok || sv.ahead < 0 || sv.run != 0 {
			continue
		}
		pos := sv.ahead
		sv.ahead = -1
		if sv.has[pos] || pos < 0 || pos > sv.e.Len() {
			continue
		}
		sv.e.Seek(pos)
		s.sendState(s.used[i], sv, true, nil)
		return true
	}
	return false
}

// state answers what the page asked of a position.
func (s *Server) state(r request) {
	sv := s.engine(r.Eng)
	if r.Gen != sv.gen {
		return // asked of a history replaced since: the page asks again
	}
	if r.Pos != sv.e.Pos() {
		sv.e.Seek(r.Pos)
	}
	sv.moved(sv.e.Pos())
	s.sendState(r.Eng, sv, r.Snap, &r)
}

// moved notes the page's position: after a step, the state of the next
// one the same way is to be sent ahead.
func (sv *served) moved(pos int) {
	if d := pos - sv.last; d == 1 || d == -1 {
		sv.ahead = pos + d
	} else {
		sv.ahead = -1
	}
	sv.last = pos
}

// sendState sends the state at the engine's position: the snapshot when
// snap, and what r asks besides (prefetched when r is nil).
func (s *Server) sendState(id int, sv *served, snap bool, r *request) {
	out := reply{Op: "state", Eng: id, Gen: sv.gen, Pos: sv.e.Pos(), Pre: r == nil}
	if snap {
		full := sv.e.Snapshot()
		cut, keep := trimSnapshot(sv.sent, full)
		out.Snap, out.Keep, out.Base = &cut, keep, sv.sentSeq
		sv.sentSeq++
		out.Seq, sv.sent = sv.sentSeq, full
		if sv.has == nil || len(sv.has) >= prefetchHeld {
			sv.has = map[int]bool{}
		}
		sv.has[sv.e.Pos()] = true
	}
	if r == nil {
		s.send(out)
		return
	}
	if r.Viol {
		out.Viol, out.ViolOK = sv.e.Violations(), true
	}
	for _, q := range r.Queries {
		if out.Answers == nil {
			out.Answers = map[string]wireAnswer{}
		}
		v, err := sv.e.Query(q)
		a := wireAnswer{V: v}
		if err != nil {
			a.E = err.Error()
		}
		out.Answers[q] = a
	}
	sv.idler = true
	s.send(out)
}

// onWire is the loaded history as it crosses to the page, at the
// position the engine stands at.
func (e *sessionEngine) onWire() (*wireHistory, error) {
	evs, err := encodeEvents(e.names, e.events)
	if err != nil {
		return nil, err
	}
	h := &wireHistory{Src: e.src, Events: wireEvents{list: evs}, Names: encodeNames(e.names), Results: e.results, RunErr: e.runErr, Pos: e.pos}
	h.Steps = stepsOnWire(e.steps)
	return h, nil
}

// Loads counts the histories loaded: the worker names a history by it.
func (e *sessionEngine) Loads() int { return e.loads }

// Cancel drops the run in progress, if any; the loaded history stays.
// (The worker's page asked for another run; the page's engine never
// needs to: a new Begin replaces a run.)
func (e *sessionEngine) Cancel() { e.run = nil }
