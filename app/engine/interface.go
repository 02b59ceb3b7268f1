// Package engine is the simulation behind the playground pages: the
// [Engine] interface they drive and its implementation over core/scenario
// ([New]), which records a script's whole history once and keeps parked
// sessions (checkpoints) so that any position's cluster state is a short
// replay away.
//
// It is its own package so that every page that shows a run — the full
// playground and the lessons' embedded playgrounds — shares one engine
// and nothing of the components: it imports no go-app, and could be
// driven by a test or a tool alone.
package engine

import (
	"fmt"
	"time"

	"txnlab/core/check"
	"txnlab/core/cluster"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// Engine is the simulation as the playground drives it. The pages never
// reach past it: they ask it for the trace, a snapshot and the script, and
// they change the world only through Act, which writes a statement into
// the script. So a session in the browser is always a script that can be
// saved and replayed, as the design asks.
//
// A history is the whole run of a loaded script, computed deterministically
// when the script loads, and a step is the smallest unit the UI can stop
// at: a statement boundary or the instant before a message between clients
// and brokers is delivered. Positions run from 0 (nothing has happened) to
// Len() (the run is over). Because the same script always gives the same
// history, moving back may replay: the UI never asks for anything it could
// not ask again.
//
// Every method runs on go-app's UI goroutine, so an implementation needs no
// locks; a method that would run long must be cut into steps instead.
type Engine interface {
	// Load replaces the script, runs it to the end and rewinds to 0. A
	// mistake in the script is returned as a *ScriptError so the editor
	// can point at it. After a parse error the previous history stays
	// loaded; after a runtime error (ScriptError.Runtime) the new history
	// up to that statement is loaded and viewable.
	Load(script string) error

	// Script is the text of the loaded history.
	Script() string

	// Len is the number of steps in the loaded history.
	Len() int

	// Pos is the number of steps taken, from 0 to Len().
	Pos() int

	// Step takes one step and reports whether there was one to take.
	Step() bool

	// StepBack returns to Pos()-1; at 0 it does nothing.
	StepBack()

	// Seek moves to position i, clamped to [0, Len()].
	Seek(i int)

	// Events is the trace up to Pos(), oldest first. The slice belongs to
	// the engine and is valid until its next call.
	Events() []sim.Event

	// History is the whole trace of the loaded script, as Events is at
	// Len(): the page lays out its lanes from it so that a lifeline never
	// moves while stepping.
	History() []sim.Event

	// Names names the nodes whose codes the events carry (the World's
	// table of the run that made the history; nil before a cluster).
	Names() *sim.Names

	// EventsAt is the length of the trace after step i.
	EventsAt(i int) int

	// Digest identifies Events(): the CLI prints the same digest for the
	// same script, which is how a learner can trust the two agree.
	Digest() string

	// Line is the 1-based script line running or about to run at Pos(),
	// 0 when the script has finished.
	Line() int

	// Now is the virtual clock at Pos().
	Now() sim.Time

	// Snapshot is the cluster's state at Pos(); Valid is false before the
	// cluster statement ran.
	Snapshot() Snapshot

	// StateCost is how many trace events Snapshot at Pos() would replay,
	// 0 when the state is at hand. Replaying a long stretch takes longer
	// than a frame: a page may then show the position first and the
	// state a frame later.
	StateCost() int

	// Results are the expectations checked up to Pos().
	Results() []scenario.Result

	// Violations are the invariant violations in the history up to Pos().
	// Checking them reads the whole history so far.
	Violations() []check.Violation

	// ViolationsReady reports whether Violations at Pos() is at hand.
	ViolationsReady() bool

	// Idle does background work that makes later moves cheaper (parking
	// sessions along the history) for about budget of wall-clock time,
	// and reports whether any remains. A page calls it between frames
	// while nothing else runs.
	Idle(budget time.Duration) (more bool)

	// Err is the runtime error that stopped the loaded script, if any.
	Err() *ScriptError

	// Begin parses script and starts running it; Work continues the run
	// and, when it completes, the new history replaces the old one at
	// position 0 (Load is Begin then Work until done). A parse error is
	// returned at once and changes nothing. Until the run completes the
	// old history stays loaded and viewable, so a page can run a long
	// script in slices between frames and never freeze.
	Begin(script string) error

	// BeginAct is Act cut the same way: it writes stmt into the script
	// at Pos() and starts running the result; Work finishes the action.
	BeginAct(stmt string) error

	// Work runs the run begun by Begin or BeginAct for about budget of
	// wall-clock time and reports whether it is complete. When it is, err
	// is Load's or Act's result.
	Work(budget time.Duration) (done bool, err error)

	// Busy reports whether a run is in progress and how many steps it has
	// taken so far, for a progress indicator.
	Busy() (steps int, busy bool)

	// StepAfterLine is the first step at which the statement on line
	// (1-based) has run, Len() when it never runs: where a page stops to
	// show "what line N did".
	StepAfterLine(line int) int

	// Query evaluates a query of the scenario language (what an
	// expectation reads, as "app.state") on the cluster at Pos(). Like
	// Snapshot it may replay part of the history.
	Query(q string) (string, error)

	// Metrics is the loaded history's series of the operator's metrics
	// (core/metrics), sampled after every event as `txnlab metrics`
	// samples them. It is computed when first asked for, in slices:
	// until it is complete, ready is false and the page asks again (the
	// engine in the worker notifies the page when it comes).
	Metrics() (m Metrics, ready bool)

	// Act writes stmt into the script at the moment Pos() stands for (a
	// statement boundary, or inside a waiting statement split around the
	// message about to be delivered), reloads the script and moves to the
	// step right after stmt ran. If stmt cannot run there, the previous
	// script and history are kept and the error says why.
	Act(stmt string) error

	// StateLater reports whether the state at a position (Snapshot,
	// Violations, Query, Metrics) comes a reply after the move, as it
	// does from the engine in the worker: the page then draws the last
	// state it had until the function given to Notify is called.
	StateLater() bool

	// Notify sets what to call when an answer that came later arrived
	// (a state, a run's end, the engine leaving its worker); an engine
	// that answers at once never calls it.
	Notify(changed func())

	// LeftWorker reports whether the engine ran in the worker and now
	// runs on the page, because the worker failed: the page says so.
	LeftWorker() bool
}

// Snapshot is the cluster state the cards and the inspector read.
type Snapshot struct {
	cluster.Snapshot
	// Valid is false before the cluster exists (position 0).
	Valid bool
}

// ScriptError is a mistake in a scenario script at a place the editor can
// show. Line and Col start at 1, as editors count.
type ScriptError struct {
	Line, Col int
	Msg       string
	// Runtime marks an error met while running (a statement that cannot
	// apply at that moment) rather than while parsing: the history up to
	// it is loaded.
	Runtime bool
}

// Error renders the error as compilers do, so it reads the same in the
// browser and in the CLI.
func (e *ScriptError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}
