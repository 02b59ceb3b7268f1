package playground

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/class"
	"txnlab/app/site"
)

// ClassBlockNote is the lesson block the instructor's page moved last:
// its id, its script ("" for the lesson's own) and its step. The lesson's
// class tick sends it; it is the page's, not a component's, because the
// embedded playgrounds update on their own (IsolatesUpdates).
var ClassBlockNote struct {
	ID, Script string
	Step       int
}

// classNoteBlock notes s's step for the class, on the instructor's page.
func classNoteBlock(s *ScenarioPlayground) {
	c := class.Current()
	if c == nil || !c.Teacher || c.Ended || s.run.busy || !s.lazy.started {
		return
	}
	script := s.run.engine.Script()
	if script == s.Script {
		script = ""
	}
	ClassBlockNote.ID, ClassBlockNote.Script, ClassBlockNote.Step = s.ID, script, s.run.engine.Pos()
}

// classStepAction asks the embedded playground of a student's lesson
// page to show the instructor's step (a classBlockStep).
const classStepAction = "txnlab.class.step"

type classBlockStep struct {
	ID, Script string
	Step       int
}

// FollowClassBlock asks the lesson's playgrounds for the instructor's
// block and step, on a student's page following the class.
func FollowClassBlock(ctx app.Context, s class.State) {
	if s.Block != "" {
		ctx.NewActionWithValue(classStepAction, classBlockStep{ID: s.Block, Script: s.Script, Step: s.Step})
	}
}

// onClassStep shows the instructor's step on this playground: it runs
// the instructor's script first if it has not, and comes into view when
// the instructor moved to it from another block.
func (s *ScenarioPlayground) onClassStep(ctx app.Context, a app.Action) {
	req, ok := a.Value.(classBlockStep)
	if !ok || req.ID != s.ID {
		ctx.PreventUpdate()
		return
	}
	s.followClass(ctx, req)
}

// followClassOnMount catches up with the instructor when the playground
// mounts after the class's state came (a page that has just navigated to
// the instructor's lesson).
func (s *ScenarioPlayground) followClassOnMount(ctx app.Context) {
	c := class.Current()
	if c == nil || c.Teacher || !c.Following || c.Ended || c.State.Block != s.ID ||
		c.State.Lesson != site.LessonSlugOf(app.Window().URL().Path) {
		return
	}
	s.followClass(ctx, classBlockStep{ID: c.State.Block, Script: c.State.Script, Step: c.State.Step})
}

func (s *ScenarioPlayground) followClass(ctx app.Context, req classBlockStep) {
	c := class.Current()
	if c == nil || c.Teacher || !c.Following {
		ctx.PreventUpdate()
		return
	}
	if s.run.busy {
		// A run on its way (its own, as it came into view): follow
		// once it is in.
		ctx.After(100*time.Millisecond, func(ctx app.Context) { s.followClass(ctx, req) })
		return
	}
	src := req.Script
	if src == "" {
		src = s.Script
	}
	if c.Followed != s.ID {
		c.Followed = s.ID
		if app.IsClient {
			s.JSValue().Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	}
	seek := func(ctx app.Context) {
		// The newest step the instructor is at, which may have moved
		// while this ran.
		at := req.Step
		if st := c.State; st.Block == s.ID {
			at = st.Step
		}
		s.run.engine.Seek(at)
	}
	if !s.lazy.started || s.run.engine.Script() != src {
		s.unobserve()
		s.setEditor(ctx, src)
		s.load(ctx, src, seek)
		return
	}
	if s.run.engine.Pos() == req.Step {
		ctx.PreventUpdate()
		return
	}
	s.move(ctx, func() { seek(ctx) })
}
