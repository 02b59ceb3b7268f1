package engine

import (
	"time"

	"txnlab/core/check"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// Remote is the engine a page gets from its Link: the engine in the
// worker (a remoteEngine) while the worker answers, and, once it fails,
// an engine of the page's own, put at the same script and position with
// the run in progress begun again, so nothing a learner did is lost.
//
// It is only that swap: every method is the current engine's, one
// delegation each, but for the ones the swap changes (LeftWorker; Load,
// Act and Work, whose run may cross from the worker to the page while it
// runs). They are written out rather than promoted from an embedded
// field, which would give Remote's value type a copy of each as well:
// 4.5 kB more of the brotli wasm (go-app's reflection keeps every
// method of a type it can reach).
type Remote struct {
	// cur is the engine answering now: worker, then the page's own.
	cur engine
	// worker is the engine in the worker, which the Link feeds.
	worker *remoteEngine
	// left is set when cur became the page's own.
	left bool
	// runErr is the error of the run begun again on the page, which
	// its Begin returned at once: Work reports it when the run is done.
	runErr error
}

// engine is an Engine that can say whether a query's answer is at hand.
type engine interface {
	Engine
	// QueryReady reports whether Query(q) at the position is its
	// answer rather than the last one known.
	QueryReady(q string) bool
}

var (
	_ engine = (*remoteEngine)(nil)
	_ engine = (*sessionEngine)(nil)
)

// fallBack moves r to an engine on the page, at the same script and
// position, with the run in progress started again.
func (r *Remote) fallBack() {
	if r.left {
		return
	}
	e := newSessionEngine()
	r.runErr = r.worker.replayOn(e)
	r.cur, r.left = e, true
}

// LeftWorker reports whether r runs on the page (the worker failed).
func (r *Remote) LeftWorker() bool { return r.left }

// Load is Begin, then waiting for the run's end, on the page when the
// worker fails meanwhile.
func (r *Remote) Load(script string) error {
	if err := r.Begin(script); err != nil {
		return err
	}
	return complete(r, r.wait)
}

// Act is BeginAct, then waiting for the run's end, as Load.
func (r *Remote) Act(stmt string) error {
	if err := r.BeginAct(stmt); err != nil {
		return err
	}
	return complete(r, r.wait)
}

// Work is the current engine's, reporting at the end of a run begun
// again on the page the error its Begin gave.
func (r *Remote) Work(budget time.Duration) (bool, error) {
	done, err := r.cur.Work(budget)
	if done && r.runErr != nil {
		err, r.runErr = r.runErr, nil
	}
	return done, err
}

// wait waits for the worker's reply; once the engine is on the page
// there is nothing to wait for, its Work runs the run.
func (r *Remote) wait() error {
	if r.left {
		return nil
	}
	return r.worker.wait()
}

// The rest of the Engine is the current engine's, one delegation each.

// Script is the current engine's (Engine.Script).
func (r *Remote) Script() string { return r.cur.Script() }

// Len is the current engine's (Engine.Len).
func (r *Remote) Len() int { return r.cur.Len() }

// Pos is the current engine's (Engine.Pos).
func (r *Remote) Pos() int { return r.cur.Pos() }

// Step is the current engine's (Engine.Step).
func (r *Remote) Step() bool { return r.cur.Step() }

// StepBack is the current engine's (Engine.StepBack).
func (r *Remote) StepBack() { r.cur.StepBack() }

// Seek is the current engine's (Engine.Seek).
func (r *Remote) Seek(i int) { r.cur.Seek(i) }

// Events is the current engine's (Engine.Events).
func (r *Remote) Events() []sim.Event { return r.cur.Events() }

// History is the current engine's (Engine.History).
func (r *Remote) History() []sim.Event { return r.cur.History() }

// Names is the current engine's (Engine.Names).
func (r *Remote) Names() *sim.Names { return r.cur.Names() }

// EventsAt is the current engine's (Engine.EventsAt).
func (r *Remote) EventsAt(i int) int { return r.cur.EventsAt(i) }

// Digest is the current engine's (Engine.Digest).
func (r *Remote) Digest() string { return r.cur.Digest() }

// Line is the current engine's (Engine.Line).
func (r *Remote) Line() int { return r.cur.Line() }

// Now is the current engine's (Engine.Now).
func (r *Remote) Now() sim.Time { return r.cur.Now() }

// Snapshot is the current engine's (Engine.Snapshot).
func (r *Remote) Snapshot() Snapshot { return r.cur.Snapshot() }

// StateCost is the current engine's (Engine.StateCost).
func (r *Remote) StateCost() int { return r.cur.StateCost() }

// Results is the current engine's (Engine.Results).
func (r *Remote) Results() []scenario.Result { return r.cur.Results() }

// Violations is the current engine's (Engine.Violations).
func (r *Remote) Violations() []check.Violation { return r.cur.Violations() }

// ViolationsReady is the current engine's (Engine.ViolationsReady).
func (r *Remote) ViolationsReady() bool { return r.cur.ViolationsReady() }

// Idle is the current engine's (Engine.Idle).
func (r *Remote) Idle(budget time.Duration) bool { return r.cur.Idle(budget) }

// Err is the current engine's (Engine.Err).
func (r *Remote) Err() *ScriptError { return r.cur.Err() }

// Begin is the current engine's (Engine.Begin).
func (r *Remote) Begin(script string) error { return r.cur.Begin(script) }

// BeginAct is the current engine's (Engine.BeginAct).
func (r *Remote) BeginAct(stmt string) error { return r.cur.BeginAct(stmt) }

// Busy is the current engine's (Engine.Busy).
func (r *Remote) Busy() (int, bool) { return r.cur.Busy() }

// StepAfterLine is the current engine's (Engine.StepAfterLine).
func (r *Remote) StepAfterLine(line int) int { return r.cur.StepAfterLine(line) }

// Query is the current engine's (Engine.Query).
func (r *Remote) Query(q string) (string, error) { return r.cur.Query(q) }

// Metrics is the current engine's (Engine.Metrics).
func (r *Remote) Metrics() (Metrics, bool) { return r.cur.Metrics() }

// StateLater is the current engine's (Engine.StateLater).
func (r *Remote) StateLater() bool { return r.cur.StateLater() }

// Notify is the current engine's (Engine.Notify).
func (r *Remote) Notify(changed func()) { r.cur.Notify(changed) }

// QueryReady is the current engine's: whether Query(q) is its answer
// at the position rather than the last one known.
func (r *Remote) QueryReady(q string) bool { return r.cur.QueryReady(q) }
