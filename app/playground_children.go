package app

import (
	"sort"
	"time"
	"txnlab/app/panels"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/diagram"
)

// The full playground's children, wired: what each is given to show and
// what its funcs do. The children's files (cards.go, inspector.go,
// narrate.go, metrics_panel.go, shortcuts.go) know nothing of the
// playground, so a lesson's playground or the presenter can compose them
// from its own runner.

func (p *playground) renderCluster() app.UI {
	p.snapshot()
	return panels.NewCluster(p.lang, p.histGen, p.shownPos, &p.shownSnap, p.act)
}

func (p *playground) renderInspector() app.UI {
	p.snapshot()
	_, current := p.violations()
	return panels.NewInspector(panels.InspectorView{Lang: p.lang, Gen: p.histGen, StatePos: p.shownPos, ViolPos: p.shownViolPos, Current: current, Tab: p.tab,
		Snap: &p.shownSnap, Viol: &p.shownViol, Engine: p.engine},
		panels.InspectorHooks{Unexercised: p.unexercised, OnTab: p.setTab, Follow: p.followEvent, Act: p.act})
}

// setTab is how the inspector reports a tab chosen.
func (p *playground) setTab(id string) { p.tab = id }

// followEvent brings event idx into view: the step it happened in, its
// row in the diagram (shown, should a filter hide it), its message in the
// message panel, and the diagram and the panel on screen.
func (p *playground) followEvent(ctx app.Context, idx int) {
	hist := p.engine.History()
	if idx < 0 || idx >= len(hist) {
		return
	}
	e := &hist[idx]
	p.stop()
	// The link itself may be gone after the render (the violations of an
	// earlier step are other ones), and go-app drops what an unmounted
	// element deferred: defer on the page's own context.
	if p.hasCtx {
		ctx = p.ctx
	}
	if !p.filter.Shows(e) {
		p.filter.HideFetch = false
		if !p.filter.Shows(e) {
			p.filter.Replication = true
		}
	}
	p.engine.Seek(panels.StepOfEvent(p.engine, idx))
	if e.MsgID != 0 {
		p.selected = e.MsgID
	}
	p.followNewest(ctx)
	if app.IsClient {
		p.measureDiagram()
	}
	l := p.layout()
	if row := sort.SearchInts(l.Rows, idx); row < len(l.Rows) {
		visible := max(p.viewH-diagram.HeadHeight, diagram.RowHeight)
		p.scrollDiagram(ctx, max(0, diagram.RowY(row)-visible/2))
	}
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		doc := app.Window().Get("document")
		for _, sel := range []string{"#" + p.scrollID, "#message-panel"} {
			if el := doc.Call("querySelector", sel); el.Truthy() {
				el.Call("scrollIntoView", map[string]any{"block": "nearest"})
			}
		}
	})
}

// unexercised is panels.Unexercised(History()), once per history.
func (p *playground) unexercised() map[string]string {
	return panels.UnexercisedOf(p.engine, p.histGen)
}

// renderNarration is the live region. It is visually hidden: the
// diagram, the status line and the cards say the same to the eye.
func (p *playground) renderNarration() app.UI {
	return app.Div().ID("narration").Class("visually-hidden").
		Role("status").Aria("live", "polite").Aria("atomic", "true").
		Text(panels.Narration(p.lang, p.engine, p.filter))
}

// renderMetrics is the panel, closed until the learner opens it.
func (p *playground) renderMetrics() app.UI {
	ready := false
	if p.mx.Open {
		_, ready = p.engine.Metrics()
		if !ready && !stateLater(p.engine) && p.hasCtx && !p.mx.Polling {
			// The page's own engine replays in slices: come back for
			// the next one after a frame.
			p.mx.Polling = true
			p.ctx.After(time.Millisecond, func(app.Context) { p.mx.Polling = false })
		}
	}
	return panels.NewMetrics(panels.MetricsView{Gen: p.histGen, Lang: p.lang, Open: p.mx.Open, Ready: ready, Pos: p.engine.Pos(),
		Engine: p.engine, Charts: &p.mx, CSVName: p.exportName("-metrics.csv")}, p.metricsToggled, download)
}

// metricsToggled is how the panel reports that the learner opened or
// closed it: the playground asks the engine for the series.
func (p *playground) metricsToggled(open bool) {
	p.mx.Open = open
	if p.hasCtx {
		p.ctx.Dispatch(func(app.Context) {})
	}
}

// openHelp shows the help dialog and puts the focus on its close button.
func (p *playground) openHelp(ctx app.Context) {
	p.helpOpen = true
	ctx.Defer(func(ctx app.Context) {
		d := app.Window().GetElementByID("shortcuts")
		if !d.Truthy() {
			return
		}
		if !d.Get("open").Truthy() && d.Get("showModal").Truthy() {
			d.Call("showModal")
		}
		if c := app.Window().GetElementByID("shortcuts-close"); c.Truthy() {
			c.Call("focus")
		}
	})
}

func (p *playground) renderShortcuts() app.UI {
	return panels.NewShortcuts(p.lang, p.helpOpen, p.helpClosed)
}

// helpClosed is how the help reports that it closed.
func (p *playground) helpClosed() { p.helpOpen = false }

// helpButton opens the help for a pointer or a keyboard user who does not
// know the `?` yet.
func (p *playground) helpButton() app.UI {
	return app.Button().Type("button").Class("tool shortcuts-button").
		Attr("aria-keyshortcuts", "?").DataSet("action", "shortcuts").
		OnClick(func(ctx app.Context, e app.Event) { p.openHelp(ctx) }).
		Text(tr(p.lang, "keys.open"))
}
