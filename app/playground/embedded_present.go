package playground

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/panels"
)

// presentStepAction asks the embedded playground of a presented lesson
// to move (a presentStep); presentEdgeAction is its answer when it
// cannot, being at an end: the lesson moves to the next (+1) or
// previous (-1) block.
const (
	PresentStepAction = "txnlab.present.step"
	PresentEdgeAction = "txnlab.present.edge"
)

// PresentStep is a move asked of the presented playground ID: "next",
// "back", "home" or "end".
type PresentStep struct {
	ID   string // the scenario block's id
	Move string // next, back, home or end
}

// onPresentStep carries out a presenter's move on this playground.
func (s *ScenarioPlayground) onPresentStep(ctx app.Context, a app.Action) {
	req, ok := a.Value.(PresentStep)
	if !ok || req.ID != s.ID {
		ctx.PreventUpdate()
		return
	}
	edge := func(d int) { ctx.NewActionWithValue(PresentEdgeAction, d) }
	if !s.lazy.started {
		if req.Move == "back" {
			edge(-1)
			return
		}
		s.unobserve()
		s.load(ctx, s.run.script, nil) // the first step of a guarded playground runs it
		return
	}
	if s.run.busy {
		return
	}
	pos, n := s.run.engine.Pos(), s.run.engine.Len()
	switch req.Move {
	case "next":
		if pos >= n {
			edge(1)
			return
		}
		s.move(ctx, func() { s.run.engine.Step() })
	case "back":
		if pos == 0 {
			edge(-1)
			return
		}
		s.move(ctx, s.run.engine.StepBack)
	case "home":
		s.move(ctx, func() { s.run.engine.Seek(0) })
	case "end":
		s.move(ctx, func() { s.run.engine.Seek(n) })
	}
}

// renderPresenterCaption is the presented playground's caption: the
// step in words beside the script's line.
func (s *ScenarioPlayground) renderPresenterCaption() app.UI {
	if !s.Presenting || !s.lazy.started || s.run.busy {
		return app.Text("")
	}
	return presenterCaption(s.Lang, s.run.engine, panels.Narration(s.Lang, s.run.engine, s.run.filter))
}
