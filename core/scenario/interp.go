package scenario

import (
	"fmt"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Result is the outcome of one expectation.
type Result struct {
	Pos      Pos
	Line     string
	OK       bool
	Expected string `json:",omitempty"`
	Actual   string `json:",omitempty"`
}

// String renders the result as the CLI prints it.
func (r Result) String() string {
	if r.OK {
		return fmt.Sprintf("ok   %d: %s", r.Pos.Line, r.Line)
	}
	return fmt.Sprintf("FAIL %d: %s\n       expected: %s\n       actual:   %s", r.Pos.Line, r.Line, r.Expected, r.Actual)
}

// Session runs a script statement by statement and, inside a statement
// that waits, event by event: a UI can step through it, a CLI runs it to
// the end. The same script and seed always give the same trace.
type Session struct {
	Script  *Script
	File    string
	Cluster *cluster.Cluster
	Results []Result
	// Err is the first script error met while running (a statement that
	// cannot apply, such as resuming a client that is not paused); the
	// run stops there.
	Err *Error
	// SeedOverride, when non-zero, replaces the cluster statement's seed.
	SeedOverride uint64
	// MaxEvents bounds the history: a script whose trace grows past it
	// stops with an error naming the line, instead of exhausting memory.
	// NewSession sets DefaultMaxEvents; a browser host may set less.
	MaxEvents int
	// MaxStepsPerStatement bounds the events one statement may run; past
	// it the run stops with an error naming the line (0:
	// cluster.MaxStepsPerStatement).
	MaxStepsPerStatement int
	// MaxPending bounds the events waiting in the queue (messages in
	// flight and timers): a client that resends faster than time passes
	// fills it without the history growing as fast (0: no bound).
	MaxPending int
	// MaxWork bounds the events the whole run may dispatch, traced or
	// not, so that a long script of long waits cannot hold the host for
	// minutes (0: no bound).
	MaxWork int64
	// MaxClock bounds the virtual time a run may reach (0: no bound).
	MaxClock sim.Time
	// work counts the events dispatched so far (MaxWork).
	work int64

	pc     int
	active *wait
	// midStep: StepVisibleSome stopped inside a visible step.
	midStep bool
	// deliveries is the array every statement lists its deliveries in
	// (see wait.delivered), emptied for each: a new list per statement
	// regrew from nothing every time.
	deliveries []deliveryKey
}

// freshDeliveries returns the delivery list, empty, for a statement
// starting (only one statement is active at a time).
func (s *Session) freshDeliveries() []deliveryKey {
	s.deliveries = s.deliveries[:0]
	return s.deliveries
}

// wait is a statement in progress: it holds until done() or the limit.
type wait struct {
	stmt  Stmt
	done  func() bool
	limit sim.Time
	// advanceTo is set for `advance`: the clock jumps there at the end.
	advanceTo sim.Time
	isAdvance bool
	onLimit   *sim.Note
	steps     int
	// start is when the statement began; delivered lists the visible
	// deliveries since then, so the playground can name the exact moment
	// a learner paused at (run until … nth=N). A list, counted only when
	// the playground asks (deliveredLike): counting into a map keyed by
	// two node names hashed them at every delivery.
	start     sim.Time
	delivered []deliveryKey
	untilSeen *int // run until: matching messages let through so far
}

type deliveryKey struct {
	api      protocol.APIKey
	response bool
	from, to sim.NodeID
}

func keyOf(env *sim.Envelope) deliveryKey {
	return deliveryKey{env.Msg.APIKey(), env.Msg.IsResponse(), env.From, env.To}
}

// deliveredLike counts the statement's visible deliveries of messages
// like env (same API, direction, sender and receiver).
func (a *wait) deliveredLike(env *sim.Envelope) int {
	k, n := keyOf(env), 0
	for _, d := range a.delivered {
		if d == k {
			n++
		}
	}
	return n
}

// NewSession prepares a script for running, with the host's run-time
// bounds (limits.go): the browser's are lower than the CLI's.
func NewSession(file string, s *Script) *Session {
	return &Session{Script: s, File: file, MaxEvents: DefaultMaxEvents,
		MaxPending: DefaultMaxPending, MaxWork: DefaultMaxWork, MaxClock: MaxClock}
}

// Done reports whether every statement has run (or an error stopped it).
func (s *Session) Done() bool {
	return s.Err != nil || (s.active == nil && s.pc >= len(s.Script.Statements))
}

// Line is the 1-based line of the statement running or about to run, 0
// when done.
func (s *Session) Line() int {
	if s.active != nil {
		return s.active.stmt.Position().Line
	}
	if s.pc < len(s.Script.Statements) {
		return s.Script.Statements[s.pc].Position().Line
	}
	return 0
}

// Failed counts failed expectations.
func (s *Session) Failed() int {
	n := 0
	for _, r := range s.Results {
		if !r.OK {
			n++
		}
	}
	return n
}

// Run runs the whole script, then checks every replica's offsets
// (assertAll).
func (s *Session) Run() {
	for !s.Done() {
		s.Step()
	}
	s.assertAll()
}

// Step does one unit of work: starts the next statement, or runs one
// event of the statement in progress.
func (s *Session) Step() {
	if s.Done() {
		return
	}
	if s.active != nil {
		st := s.active.stmt
		s.stepActive()
		s.assertAfter(st)
		return
	}
	st := s.Script.Statements[s.pc]
	s.pc++
	if err := s.apply(st); err != nil {
		s.Err = err
	}
	s.assertAfter(st)
}

// StepToNextEvent steps until the trace grows (or the script ends), the
// unit of the UI's Step button.
func (s *Session) StepToNextEvent(visible func(e *sim.Event) bool) {
	start := 0
	if s.Cluster != nil {
		start = s.Cluster.Trace().Len()
	}
	for !s.Done() {
		s.Step()
		if s.Cluster == nil {
			continue
		}
		trace := s.Cluster.Trace()
		for i := start; i < trace.Len(); i++ {
			if visible == nil || visible(trace.At(i)) {
				return
			}
		}
		start = trace.Len()
	}
}

func (s *Session) stepActive() {
	a := s.active
	w := s.Cluster
	if a.done != nil && a.done() {
		s.active = nil
		return
	}
	bound := s.MaxStepsPerStatement
	if bound <= 0 {
		bound = cluster.MaxStepsPerStatement
	}
	if a.steps >= bound {
		// An error, not a silent stop: the clock would be short of what
		// the statement asked, and every later line would run on a
		// history the script did not describe.
		s.Err = s.errorf(a.stmt, "stopped after %d events (the per-statement bound) at %s; run for less time or fix what keeps retrying", a.steps, w.Now().Human())
		s.active = nil
		return
	}
	next, ok := w.Peek()
	if s.passesClock(a, next, ok) {
		return
	}
	if !ok || next.At > a.limit {
		if a.isAdvance {
			w.AdvanceTo(a.advanceTo, 0)
		} else if a.limit > w.Now() && (!ok || next.At > a.limit) {
			w.AdvanceTo(a.limit, 0)
		}
		if a.onLimit != nil && !(a.done != nil && a.done()) {
			w.Note(sim.NoNode, "", a.onLimit.Code, a.onLimit.Args...)
		}
		s.active = nil
		return
	}
	if next.Env != nil && !next.Env.Internal {
		a.delivered = append(a.delivered, keyOf(next.Env))
		s.deliveries = a.delivered // the next statement reuses the array
	}
	w.Step()
	a.steps++
	s.work++
	if s.MaxEvents > 0 && w.Trace().Len() > s.MaxEvents {
		s.Err = s.errorf(a.stmt, "the history passed %d events here; run for less time or fix what keeps retrying", s.MaxEvents)
		s.active = nil
		return
	}
	if s.MaxPending > 0 && w.QueueLen() > s.MaxPending {
		s.Err = s.errorf(a.stmt, "more than %d events wait to run at %s (messages in flight and timers): something resends faster than time passes; a zero timeout or backoff?", s.MaxPending, w.Now().Human())
		s.active = nil
		return
	}
	if s.MaxWork > 0 && s.work > s.MaxWork {
		s.Err = s.errorf(a.stmt, "the run passed %d events in all (the bound on a script's work) at %s; advance or run for less time", s.MaxWork, w.Now().Human())
		s.active = nil
		return
	}
	if a.done != nil && a.done() {
		s.active = nil
	}
}

func (s *Session) errorf(st Stmt, format string, args ...any) *Error {
	return &Error{File: s.File, Pos: st.Position(), Msg: fmt.Sprintf(format, args...)}
}

// apply starts one statement (its own apply, in its family's file),
// creating the default cluster first when the script did not start with
// a cluster statement. A statement that cannot apply returns an error and
// changes nothing.
func (s *Session) apply(st Stmt) *Error {
	if _, isCluster := st.(*ClusterStmt); !isCluster && s.Cluster == nil {
		if err := s.startCluster(DefaultCluster()); err != nil {
			return s.errorf(st, "%v", err)
		}
	}
	return st.apply(s)
}

func (s *Session) waitFor(st Stmt, done func() bool, d sim.Time, onLimit *sim.Note) {
	w := s.Cluster
	s.active = &wait{stmt: st, done: done, limit: w.Now() + d, onLimit: onLimit, start: w.Now(), delivered: s.freshDeliveries()}
	if done() {
		s.active = nil
	}
}
