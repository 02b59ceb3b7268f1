package playground

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/core/check"
)

// Long histories are shown progressively, so that no frame waits for
// work a learner cannot see yet. A move (a step, a scrub) draws what the
// history alone gives — the diagram, the trace, the position — in its
// frame; the cluster state at the new position, which may need part of
// the history replayed, comes in the next frame; the invariants, which
// read the whole history so far, once the position has stayed still for a
// moment (or at once while their tab is open). Between frames the engine
// parks sessions along the history (Engine.Idle), which keeps every later
// move short. A short history (every library scenario) is shown all at
// once, as before.
// painting is the full playground's progressive drawing: the violations
// last drawn (shownViol, of position shownViolPos), when the position
// last moved, what is queued (a settle, the violations' timer, the
// engine's idle work, what runs after the next paint or in the next
// frame) and the browser callbacks that run the queues.
type painting struct {
	shownViol    []check.Violation
	shownViolPos int
	movedAt      time.Time
	settleQueued bool
	violTimer    bool
	idleQueued   bool
	paintQueue   []func(app.Context) bool
	onFrame      app.Func
	onPainted    app.Func
	// frameQueue is run in the next requestAnimationFrame callback
	// (beforePaint), by onLayout.
	frameQueue []func()
	onLayout   app.Func
}

const (
	// progressiveEvents is the history length from which the page shows
	// a move progressively.
	progressiveEvents = 2000
	// settleSlice is the work done towards a position's state between
	// two frames: a state that needs a long replay comes after a few
	// frames rather than in one long one.
	settleSlice = 12 * time.Millisecond
	// violationsDelay is how long a position stays before its
	// invariants are checked.
	violationsDelay = 250 * time.Millisecond
	// idleSlice is the background work done between two frames while
	// the learner moves; restSlice once the position has stayed for
	// restAfter (a frame may then take longer: nothing moves on screen).
	idleSlice = 3 * time.Millisecond
	restSlice = 10 * time.Millisecond
	restAfter = 400 * time.Millisecond
)

// progressive reports whether the loaded history is shown progressively.
func (p *playground) progressive() bool {
	return app.IsClient && p.page.hasCtx && len(p.run.engine.History()) >= progressiveEvents
}

// snapshot is the cluster state to draw: the one at the position, or,
// while a long history's is not computed yet, the last one drawn (and its
// computation is queued for after this frame).
func (p *playground) snapshot() engine.Snapshot {
	later := stateLater(p.run.engine)
	if p.run.engine.StateCost() == 0 || !p.progressive() && !later {
		p.run.shownSnap, p.run.shownPos = p.run.engine.Snapshot(), p.run.engine.Pos()
		return p.run.shownSnap
	}
	if later {
		// The engine's worker is asked; its reply re-renders the page.
		if snap := p.run.engine.Snapshot(); !p.run.shownSnap.Valid {
			p.run.shownSnap = snap
		}
		if !p.progressive() {
			return p.run.shownSnap
		}
	}
	p.queueSettle()
	return p.run.shownSnap
}

// violations are the invariant violations to draw and whether they are
// the position's (rather than the last ones drawn, while a long history's
// are not checked yet).
func (p *playground) violations() ([]check.Violation, bool) {
	if !p.progressive() || p.run.engine.ViolationsReady() || (p.view.tab == panels.TabInvariants && p.run.engine.StateCost() == 0) {
		p.paint.shownViol, p.paint.shownViolPos = p.run.engine.Violations(), p.run.engine.Pos()
		return p.paint.shownViol, true
	}
	p.queueSettle()
	return p.paint.shownViol, false
}

// queueSettle computes the position's state after the next paint.
func (p *playground) queueSettle() {
	if p.paint.settleQueued {
		return
	}
	p.paint.settleQueued = true
	p.afterPaint(p.settle)
}

// settle computes what the page drew stale: the cluster state first (in a
// frame of its own), then, once the position has stayed for
// violationsDelay, the invariants; then it resumes the background work.
// It reports whether it changed what is drawn.
func (p *playground) settle(ctx app.Context) bool {
	p.paint.settleQueued = false
	if p.run.busy {
		return false
	}
	if p.run.engine.StateCost() > 0 {
		p.run.engine.Idle(settleSlice) // the state at the position comes first
		p.queueSettle()
		if p.run.engine.StateCost() > 0 {
			return false // more frames to go
		}
		p.paint.movedAt = time.Now()
		return true
	}
	if !p.run.engine.ViolationsReady() {
		if wait := violationsDelay - time.Since(p.paint.movedAt); wait > 0 {
			if !p.paint.violTimer {
				p.paint.violTimer = true
				ctx.After(wait, func(ctx app.Context) {
					p.paint.violTimer = false
					ctx.PreventUpdate()
					p.queueSettle()
				})
			}
			p.idle()
			return false
		}
		p.run.engine.Violations()
		p.idle()
		return true
	}
	p.idle()
	return false
}

// idle runs the engine's background work a slice per frame until there is
// none left. It changes nothing on screen.
func (p *playground) idle() {
	if p.paint.idleQueued || !app.IsClient || !p.page.hasCtx {
		return
	}
	p.paint.idleQueued = true
	setIdleMark(false)
	p.afterPaint(func(ctx app.Context) bool {
		p.paint.idleQueued = false
		if p.run.busy || p.paint.settleQueued {
			return false // a run or a settle goes first; it resumes this
		}
		slice := idleSlice
		if time.Since(p.paint.movedAt) > restAfter && !p.run.playing {
			slice = restSlice
		}
		more := p.run.engine.Idle(slice)
		if more {
			p.idle()
		}
		setIdleMark(!more)
		return false
	})
}

// idleMark is the data-idle last set (0: none yet, 1: busy, 2: done):
// the background work sets it at every slice, and each set is a change
// of the document element's attributes (the profile of a move counted
// 0.4 ms of them) whatever its value.
var idleMark int

// setIdleMark says on the document element (data-idle) whether the
// background work is done, for the benchmarks to wait for.
func setIdleMark(done bool) {
	m := 1
	if done {
		m = 2
	}
	if m == idleMark {
		return
	}
	idleMark = m
	v := "busy"
	if done {
		v = "done"
	}
	if d := app.Window().Get("document").Get("documentElement"); d.Truthy() {
		d.Get("dataset").Set("idle", v)
	}
}

// moved notes that the position changed, for violationsDelay.
func (p *playground) moved() {
	p.paint.movedAt = time.Now()
	p.idle()
}

// afterPaint runs f on the UI goroutine once the browser has drawn the
// next frame (a requestAnimationFrame callback runs before the frame is
// drawn, and a task it queues runs after); the page updates if f reports
// it changed what is drawn.
func (p *playground) afterPaint(f func(app.Context) bool) {
	if !app.IsClient || !p.page.hasCtx {
		return
	}
	p.paint.paintQueue = append(p.paint.paintQueue, f)
	if len(p.paint.paintQueue) > 1 {
		return // already waiting for this frame
	}
	if p.paint.onFrame == nil {
		p.paint.onPainted = app.FuncOf(func(this app.Value, args []app.Value) any {
			if !p.page.hasCtx {
				// The page went while this frame was pending
				// (releaseIdle): let the callbacks go now.
				p.paint.onFrame.Release()
				p.paint.onPainted.Release()
				p.paint.onFrame, p.paint.onPainted = nil, nil
				return nil
			}
			p.page.ctx.Dispatch(func(ctx app.Context) {
				fns := p.paint.paintQueue
				p.paint.paintQueue = nil
				update := false
				for _, f := range fns {
					update = f(ctx) || update
				}
				if !update {
					ctx.PreventUpdate()
				}
			})
			return nil
		})
		p.paint.onFrame = app.FuncOf(func(this app.Value, args []app.Value) any {
			app.Window().Call("setTimeout", p.paint.onPainted, 0)
			return nil
		})
	}
	app.Window().Call("requestAnimationFrame", p.paint.onFrame)
}

// beforePaint runs f in the next requestAnimationFrame callback: the
// place to read and set the geometry of elements (scroll positions,
// sizes). Right after go-app's render, a read lays the page out before
// its time, and the frame lays it out again if anything changes in
// between; in the frame's callback the browser lays it out once, for the
// read and the frame alike. The functions run in the order given, outside
// go-app's UI goroutine's dispatch: they must touch only the DOM and the
// fields they own.
func (p *playground) beforePaint(f func()) {
	if !app.IsClient {
		return
	}
	p.paint.frameQueue = append(p.paint.frameQueue, f)
	if len(p.paint.frameQueue) > 1 {
		return // already waiting for this frame
	}
	if p.paint.onLayout == nil {
		p.paint.onLayout = app.FuncOf(func(this app.Value, args []app.Value) any {
			fns := p.paint.frameQueue
			p.paint.frameQueue = nil
			for _, f := range fns {
				f()
			}
			return nil
		})
	}
	app.Window().Call("requestAnimationFrame", p.paint.onLayout)
}

// releaseIdle lets the JavaScript callbacks go when the page goes.
func (p *playground) releaseIdle() {
	// onLayout is kept: a frame already requested may still call it.
	// So may onFrame and onPainted while paints are queued: releasing them
	// then made the browser call a released function ("call to released
	// function", found by TestBrowserFuzz); onPainted lets them go once
	// that frame is drawn.
	p.paint.frameQueue = nil
	if p.paint.onFrame != nil && len(p.paint.paintQueue) == 0 {
		p.paint.onFrame.Release()
		p.paint.onPainted.Release()
		p.paint.onFrame, p.paint.onPainted = nil, nil
	}
	p.paint.paintQueue = nil
	p.page.hasCtx = false
}
