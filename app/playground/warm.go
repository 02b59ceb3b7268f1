package playground

import (
	"txnlab/app/engine"
	"txnlab/scenarios"
)

// Warm is what the engine's worker warms the page's code with while it
// waits for its first request (engine.ServeWorker): the library's
// scripts in the library's order (by name: abort.scenario is the one
// run), and WarmDraw.
func Warm() engine.Warm {
	w := engine.Warm{Draw: WarmDraw}
	for _, s := range scenarios.All() {
		w.Scripts = append(w.Scripts, s.Script)
	}
	return w
}

// WarmDraw draws e at its position as a playground draws it, but into
// nothing: the diagram's layout, its frame, rows and lane heads, and the
// trace's lines, as markup and go-app elements never mounted. The
// engine's worker calls it on its warm-up run (Warm) so that Chrome has
// compiled this code, for the page too, before the page's first
// playground needs it; none of it touches the document.
func WarmDraw(e engine.Engine) {
	d := newDiagramState(e, "warm")
	d.shownSnap = e.Snapshot()
	l := d.layout()
	events := e.Events()
	frameSVG(l)
	rawSVG("travellers", travellers(l, events))
	for c := 0; c*chunkRows <= l.NowRow; c++ {
		(&rowChunk{C: c, d: &d}).Render()
	}
	(&diagramView{From: 0, To: l.NowRow + 1, d: &d}).Render()
	(&laneHeadsView{d: &d}).Render()
	(&traceList{From: 0, To: len(d.full.Rows), d: &d}).Render()
}
