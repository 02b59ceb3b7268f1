package playground

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// A lesson page holds a dozen playgrounds, and each runs its script as it
// comes into view: a fast scroll brings several at once. Their work
// (parsing the script, polling for the worker's reply, decoding the
// history it brings) goes in turns that share one budget per frame,
// rather than each on its own timer: on WebAssembly Go returns to the
// browser only once no goroutine can run, so playgrounds that each slept
// a millisecond between slices of 12 ms kept one task of the page going
// for hundreds of milliseconds while they all loaded.
//
// After each frame is drawn, the turns queued run in order, each given
// what is left of turnBudget; those that find nothing left wait for the
// next frame.
const turnBudget = 8 * time.Millisecond

// turn is work queued for a frame: f runs in ctx's component with the
// time it may take.
type turn struct {
	ctx app.Context
	f   func(ctx app.Context, budget time.Duration)
}

// turns is the page's queue of turns (the UI runs on one thread).
var turns struct {
	queue       []turn
	start       time.Time // when this frame's turns began
	waiting     bool      // a frame is requested
	frame, task app.Func
}

// TakeTurn runs f after the next frame, within what is left of the
// frame's budget then: the way every slice of work on a page with
// playgrounds (a run, a comparison, a question's or an exercise's check)
// gets the thread. A Go timer is no substitute: on WebAssembly Go runs a
// timer that is due without returning to the browser, so slices chained
// by short timers become one long task.
func TakeTurn(ctx app.Context, f func(ctx app.Context, budget time.Duration)) {
	if !app.IsClient {
		ctx.Dispatch(func(ctx app.Context) { f(ctx, time.Hour) })
		return
	}
	turns.queue = append(turns.queue, turn{ctx, f})
	if turns.waiting {
		return
	}
	turns.waiting = true
	if turns.frame == nil {
		// A requestAnimationFrame callback runs before the frame is
		// drawn; a task it queues, after.
		turns.task = app.FuncOf(func(this app.Value, args []app.Value) any {
			runTurns()
			return nil
		})
		turns.frame = app.FuncOf(func(this app.Value, args []app.Value) any {
			app.Window().Call("setTimeout", turns.task, 0)
			return nil
		})
	}
	app.Window().Call("requestAnimationFrame", turns.frame)
}

// takeWholeTurn runs f in a frame with at least half its budget left
// when f begins (else first in the next frame), and leaves none to the
// turns after it in that frame: for work
// whose cost is mostly go-app's render after it (an embedded
// playground's first drawing of a history), which the budget does not
// see.
func takeWholeTurn(ctx app.Context, f func(ctx app.Context)) {
	var whole func(ctx app.Context, budget time.Duration)
	whole = func(ctx app.Context, budget time.Duration) {
		if app.IsClient && budget < turnBudget/2 {
			// The turns before it used the frame: it goes first in
			// the next, before the turns that will have queued again.
			ctx.PreventUpdate()
			TakeTurn(ctx, whole)
			q := turns.queue
			last := q[len(q)-1]
			copy(q[1:], q[:len(q)-1])
			q[0] = last
			return
		}
		f(ctx)
		turns.start = time.Now().Add(-turnBudget)
	}
	TakeTurn(ctx, whole)
}

// runTurns runs the turns queued, in order, while the budget lasts; the
// others are queued for the next frame.
func runTurns() {
	turns.waiting = false
	q := turns.queue
	turns.queue = nil
	for i, t := range q {
		t.ctx.Dispatch(func(ctx app.Context) {
			if i == 0 {
				turns.start = time.Now()
			}
			left := budgetLeft(i == 0, time.Since(turns.start))
			if left <= 0 {
				ctx.PreventUpdate()
				TakeTurn(t.ctx, t.f)
				return
			}
			t.f(ctx, left)
		})
	}
}

// budgetLeft is what a frame's turn may take once the turns before it in
// the frame have spent what they did. The frame's first turn always has
// the whole budget: go-app may render between two dispatches, and on a
// loaded machine a frame whose budget was gone before any turn began
// would put every turn off again, a playground's run with them (its
// drawing is a whole turn, which waits for half a frame's budget).
func budgetLeft(first bool, spent time.Duration) time.Duration {
	if first {
		return turnBudget
	}
	return turnBudget - spent
}
