package playground

import (
	"txnlab/app/engine"
	"txnlab/app/uitext"
)

// runner is what a playground is made of, whichever page shows it: the
// script and its editor, the engine and the diagram's view, the position
// played, the undo of replaced scripts, the run in progress. The full
// playground and a lesson's playground each hold one as their field run
// (p.run.engine, s.run.script), so a field means the same in both, a
// reader sees which state is the run's and which the page's own, and a
// child drawn from it (the transport, the cards, the inspector, the
// metrics panel) is given what it shows and reports through funcs rather
// than pointing back at either page.
type runner struct {
	// diagramState holds the engine and the diagram's view
	// (diagram_state.go).
	diagramState
	// player plays the history (player.go).
	player
	// undoStack holds the scripts an action, a revert or a load replaced.
	undoStack

	// editorText is what the textarea was last given from outside (a
	// scenario, an action). Typing changes script only: re-rendering the
	// textarea's value on every keystroke would move the caret.
	editorText string
	// script is what the editor holds now; scriptErr its parse error,
	// which leaves the engine on the last script that parsed; editGen
	// counts the edits, so a pending rerun knows a newer one came.
	script    string
	scriptErr *engine.ScriptError
	editGen   int

	// busyGen identifies the run in progress; a newer run supersedes it.
	busyGen int
	busy    bool
	// posAtRunEnd is the position in the old history just before a run
	// ended and replaced it.
	posAtRunEnd int

	// actionMsg is what the last button said.
	actionMsg     []uitext.Piece
	reducedMotion bool
}

// newRunner is a runner of engine e whose diagram scrolls in the element
// scrollID, keeping at most undoMax replaced scripts.
func newRunner(e engine.Engine, scrollID string, undoMax int) runner {
	return runner{diagramState: newDiagramState(e, scrollID), undoStack: undoStack{max: undoMax}}
}
