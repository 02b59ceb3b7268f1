package playground

import (
	"time"
	"txnlab/app/engine"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// player plays a history: one step of the engine every interval until the
// end or a stop. The full playground and a lesson's playground embed one.
// Speed changes only how fast the learner watches, never what happens.
type player struct {
	playing bool
	// playGen invalidates ticks scheduled by an earlier play, so Pause
	// then Play never runs two timers.
	playGen int
	// quiet, when set, tells the steps the learner would see nothing
	// happen at (quietStep): playback passes them without a pause, so
	// long waits (timeouts, backoffs) take one tick. Step and the
	// scrubber still reach every one of them.
	quiet func(e engine.Engine, pos int) bool
}

// stop ends the playback.
func (pl *player) stop() {
	pl.playing = false
	pl.playGen++
}

// play starts the playback; at the end it replays from the start, as
// media players do. moved draws each step.
func (pl *player) play(ctx app.Context, e engine.Engine, interval func() time.Duration, moved func(app.Context)) {
	if pl.playing || e.Len() == 0 {
		return
	}
	if e.Pos() >= e.Len() {
		e.Seek(0)
	}
	pl.stop()
	pl.playing = true
	pl.tick(ctx, pl.playGen, e, interval, moved)
}

func (pl *player) tick(ctx app.Context, gen int, e engine.Engine, interval func() time.Duration, moved func(app.Context)) {
	ctx.After(interval(), func(ctx app.Context) {
		if !pl.playing || gen != pl.playGen {
			return
		}
		e.Step()
		for pl.quiet != nil && e.Pos() < e.Len() && pl.quiet(e, e.Pos()) {
			e.Step()
		}
		moved(ctx)
		if e.Pos() >= e.Len() {
			pl.playing = false
			return
		}
		pl.tick(ctx, gen, e, interval, moved)
	})
}

// undoStack holds the scripts an action, a revert, a load or a reset
// replaced, newest last, bounded by max (0: unbounded) so a long session
// does not keep every script it ever had.
type undoStack struct {
	undo []string
	max  int
}

// pushUndo keeps s, unless it is already the newest.
func (u *undoStack) pushUndo(s string) {
	if n := len(u.undo); n > 0 && u.undo[n-1] == s {
		return
	}
	u.undo = append(u.undo, s)
	if u.max > 0 && len(u.undo) > u.max {
		u.undo = u.undo[1:]
	}
}

// popUndo takes the newest script back, if any.
func (u *undoStack) popUndo() (string, bool) {
	n := len(u.undo)
	if n == 0 {
		return "", false
	}
	s := u.undo[n-1]
	u.undo = u.undo[:n-1]
	return s, true
}
