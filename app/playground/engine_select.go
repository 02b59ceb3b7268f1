package playground

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// newEngine is the one place that chooses the simulation behind every
// playground: in the browser, the engine in the page's shared Web Worker
// (workerEngine, issue 13), else — natively, pre-rendering, no Worker,
// ?engine=page, or a worker that failed to start — the core on the
// page's own thread, through the session adapter.
func newEngine() engine.Engine {
	if e := workerEngine(); e != nil {
		return e
	}
	return engine.New()
}

// listenEngine has the page re-render when the engine's worker answered
// (the state of a position comes a reply after the move).
func listenEngine(e engine.Engine, changed func()) { e.Notify(changed) }

// engineFault is why the page's engines left the worker for the page's
// own thread, nil when they did not.
func engineFault(e engine.Engine) error {
	if e.LeftWorker() {
		return workerFault()
	}
	return nil
}

// renderEngineFault says, when the engine left its worker, that it runs
// on the page now: the learner loses nothing, but should know why long
// histories may stutter.
func renderEngineFault(l doc.Lang, e engine.Engine) app.UI {
	if engineFault(e) == nil {
		return nil
	}
	key := "pg.engine.fallback"
	if workerStarted() {
		key = "pg.engine.stopped"
	}
	return app.P().Class("notice").Role("status").DataSet("engine-fault", "worker").Text(uitext.Tr(l, key))
}

// stateLater reports whether e answers a position's state a reply after
// the move (the engine in the worker): the page then draws the last
// state it had, marked as of its own position, until the reply comes.
func stateLater(e engine.Engine) bool { return e.StateLater() }
