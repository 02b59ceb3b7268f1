package playground

import (
	"sort"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/uitext"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/internal/escape"
)

// Virtualisation: rows are drawn in chunks, so scrolling re-renders only
// when a chunk boundary is crossed, with a margin above and below the
// visible rows so a fast scroll does not show a gap.
const (
	chunkRows    = 16
	overscanRows = 16
)

// diagramState is what drawing the sequence diagram of an engine needs
// besides the engine: the learner's view (filter, selection, scroll) and
// the layouts computed from the history. The full playground and the
// lessons' embedded playgrounds each embed one, so the diagram's
// components (diagramView, rowChunk, laneHeadsView, traceList) point at
// this and never at a page.
type diagramState struct {
	engine engine.Engine

	// scrollID is the id of the diagram's scrolling box, unique on the
	// page; describedBy the id of its text alternative, if any; lang the
	// page's language ("": English).
	scrollID, describedBy, lang string

	filter    diagram.Filter
	scrollTop int // of the diagram, for drawing only the rows on screen
	// domScrollTop is the diagram's scrollTop as last set or seen (-1:
	// unknown); scrollSeq counts the scrolls asked (scrollDiagram).
	domScrollTop int
	scrollSeq    int
	viewH        int
	// drawn is the window of rows the diagram's box last drew, and
	// redraws counts the times the page found that the box must draw
	// another (diagramBox): the box redraws itself on a scroll, the page
	// when it moves the scroll position.
	drawn    [2]int
	redraws  int
	selected int64           // the message shown in the message panel
	histGen  int             // counts the histories loaded, for components that draw from one
	laid     *diagram.Layout // the diagram of laidKey, computed once per position
	laidKey  layoutKey
	full     *diagram.Layout // the whole history's diagram, of fullKey (pos 0)
	fullKey  layoutKey

	// shownSnap is the cluster state drawn (the lane heads, the cards),
	// of position shownPos: while a long history's state at the position
	// is computed, the last one drawn (idle.go).
	shownSnap engine.Snapshot
	shownPos  int
}

// newDiagramState is the view of a diagram nothing has scrolled yet.
func newDiagramState(e engine.Engine, scrollID string) diagramState {
	return diagramState{engine: e, scrollID: scrollID, viewH: 560, domScrollTop: -1}
}

// layoutKey identifies a computed layout.
type layoutKey struct {
	script string
	pos    int
	filter diagram.Filter
}

// layout is the diagram of the current position, computed once per
// position and filter however often the page renders, as a prefix of the
// whole history's layout, computed once per script and filter.
func (p *diagramState) layout() *diagram.Layout {
	k := layoutKey{p.engine.Script(), p.engine.Pos(), p.filter}
	if p.laid == nil || p.laidKey != k {
		full := layoutKey{script: k.script, filter: k.filter}
		if p.full == nil || p.fullKey != full {
			p.fullKey, p.full = full, diagram.FullLayout(
				diagram.LanesOf(p.filter, diagram.Run{Names: p.engine.Names(), Events: p.engine.History()}), p.engine.Names(), p.engine.History(), p.filter)
			p.full.Words = uitext.DiagramWords(p.lang)
			// A lesson shows several diagrams: each its own arrowheads.
			p.full.Markers = p.scrollID + "-"
		}
		last := 0
		if p.engine.Pos() > 0 {
			last = p.engine.EventsAt(p.engine.Pos() - 1)
		}
		// Over the last position's layout: nothing keeps it (the
		// components ask layout() at each render).
		p.laidKey, p.laid = k, p.full.AtInto(p.laid, len(p.engine.Events()), last)
	}
	return p.laid
}

// window is the range of rows to draw for the diagram's scroll position.
func (p *diagramState) window() (from, to int) {
	first := p.scrollTop / diagram.RowHeight
	from = first/chunkRows*chunkRows - overscanRows
	visible := max(p.viewH-diagram.HeadHeight, diagram.RowHeight) / diagram.RowHeight
	to = from + overscanRows + chunkRows + visible + overscanRows
	return max(0, from), to
}

// follow scrolls the diagram so its newest row is in view after the
// render.
func (p *diagramState) follow(ctx app.Context) {
	l := p.layout()
	bottom := l.Height
	visible := p.viewH - diagram.HeadHeight
	switch {
	case bottom > p.scrollTop+visible:
		p.scrollTop = max(0, bottom-visible+diagram.RowHeight/2)
	case bottom < p.scrollTop+diagram.RowHeight:
		p.scrollTop = max(0, bottom-visible/2)
	}
	p.scrollDiagram(ctx, p.scrollTop)
}

// mounted notes that the diagram's box was just put in the page, where
// it is scrolled to its top: a scroll set there would lay out the whole
// page (a lesson's, in the task of its playground's first run) for
// nothing. Both playgrounds call it from their OnMount.
func (p *diagramState) mounted() { p.domScrollTop = 0 }

// scrollDiagram sets the diagram's scroll position right after the
// render. Setting scrollTop lays the page out there (2-5 ms of a step's
// task), but in the next animation frame it lost to scrolls made before
// the render: their scroll events come in that frame, before its
// callbacks, and looked like the learner's (a link to the evidence,
// followed just after a scroll, left its arrow out of view). Of several
// scrolls asked in one render, the last is set.
func (p *diagramState) scrollDiagram(ctx app.Context, top int) {
	p.scrollTop = top
	if !app.IsClient {
		return
	}
	p.scrollSeq++
	seq := p.scrollSeq
	ctx.Defer(func(ctx app.Context) {
		// Reading scrollTop would lay the page out before its time: the
		// value the element has is known from the last set and the
		// scroll events.
		if top == p.domScrollTop || seq != p.scrollSeq {
			return
		}
		if d := app.Window().GetElementByID(p.scrollID); d.Truthy() {
			d.Set("scrollTop", top)
			p.domScrollTop = top
		}
	})
}

func (p *diagramState) measureDiagram() {
	if d := app.Window().GetElementByID(p.scrollID); d.Truthy() {
		if h := d.Get("clientHeight").Int(); h > 0 {
			p.viewH = h
		}
	}
}

// onDiagramScroll redraws the diagram's box (and only it: diagramBox)
// when the rows to draw are not those drawn.
func (p *diagramState) onDiagramScroll(ctx app.Context, e app.Event) {
	p.scrollTop = ctx.JSSrc().Get("scrollTop").Int()
	p.domScrollTop = p.scrollTop
	if h := ctx.JSSrc().Get("clientHeight").Int(); h > 0 {
		p.viewH = h
	}
	if from, to := p.window(); p.drawn == [2]int{from, to} {
		ctx.PreventUpdate()
	}
}

// startTravellers restarts the animation of the newest messages: a dot
// moving along each arrow. SMIL's begin="indefinite" plus beginElement
// restarts it for every step, where a CSS animation would need an inline
// style the Content-Security-Policy forbids.
// Only the diagram in box scrollID: a lesson has several.
func startTravellers(scrollID string) {
	list := app.Window().Get("document").Call("querySelectorAll", "#"+scrollID+" .traveller animateMotion")
	for i := 0; i < list.Length(); i++ {
		list.Index(i).Call("beginElement")
	}
}

func (p *diagramState) selectMsg(id int64) {
	if p.selected == id {
		p.selected = 0
		return
	}
	p.selected = id
}

// svgUI renders a shape with go-app, XMLNS on every element.
func (p *diagramState) svgUI(s diagram.Shape) app.UI {
	e := app.Elem(s.Tag).XMLNS(diagram.SVGNS)
	for _, a := range s.Attrs {
		e = e.Attr(a.K, a.V)
	}
	if s.Msg != 0 {
		id := s.Msg
		e = e.TabIndex(0).Attr("role", "button").
			OnClick(func(ctx app.Context, ev app.Event) { p.selectMsg(id) }, panels.Scoped(id)).
			On("keydown", func(ctx app.Context, ev app.Event) {
				if ev.Get("key").String() == "Enter" {
					p.selectMsg(id)
					return
				}
				ctx.PreventUpdate()
			}, panels.Scoped(id))
	}
	var kids []app.UI
	if s.Text != "" {
		kids = append(kids, app.Text(s.Text))
	}
	for _, k := range s.Kids {
		kids = append(kids, p.svgUI(k))
	}
	return e.Body(kids...)
}

// renderDiagram is the diagram's scrolling box: the lane heads, the rows
// in view, and empty (a hint) while nothing has happened. travel animates
// the newest messages. The lane heads show shownSnap: the caller takes
// the snapshot it wants drawn first.
//
// The box is a component of its own (diagramBox) so that a scroll redraws
// the box alone; the clicks and keys that select an arrow are handled
// around it, by the caller's component, since the message panel draws the
// selection.
func (p *diagramState) renderDiagram(travel bool, empty string) app.UI {
	if from, to := p.window(); p.drawn != [2]int{from, to} {
		p.redraws++
	}
	return app.Div().Class("diagram-events").OnClick(p.onDiagramClick).OnKeyDown(p.onDiagramKey).Body(
		&diagramBox{Gen: p.histGen, Pos: p.engine.Pos(), Filter: p.filter, Redraw: p.redraws,
			Selected: p.selected, Travel: travel, Lang: p.lang, StatePos: p.shownPos, Empty: empty, d: p},
	)
}

// diagramBox is the diagram's scrolling box. Its fields are everything it
// draws from, so the page redraws it when one changes; its own scroll
// handler redraws it alone (go-app's UpdateIsolator): scrolling a long
// history re-rendered the whole playground, editor and panels included,
// at every chunk of rows it brought into view.
type diagramBox struct {
	app.Compo
	Gen, Pos int
	Filter   diagram.Filter
	Redraw   int // diagramState.redraws: the rows to draw moved
	Selected int64
	Travel   bool
	Lang     string
	StatePos int
	Empty    string
	d        *diagramState
}

// IsolatesUpdates keeps a scroll's redraw inside the box: nothing around
// it draws from the scroll position.
func (b *diagramBox) IsolatesUpdates() {}

func (b *diagramBox) Render() app.UI {
	p := b.d
	from, to := p.window()
	p.drawn = [2]int{from, to}
	_, name := uitext.LocalName(p.lang, "Sequence diagram", p.scrollID+"-name")
	return app.Div().ID(p.scrollID).Class("diagram-scroll").OnScroll(p.onDiagramScroll).Body(
		name,
		&laneHeadsView{Gen: p.histGen, Filter: p.filter, StatePos: p.shownPos, d: p},
		&diagramView{Gen: p.histGen, Pos: p.engine.Pos(), Filter: p.filter, From: from, To: to,
			Selected: p.selected, Travel: b.Travel, Lang: p.lang, d: p},
		app.If(p.layout().NowRow == 0, func() app.UI {
			return app.P().Class("diagram-empty").Text(b.Empty)
		}),
	)
}

// diagramView is the sequence diagram's rows on screen. Its fields are
// what it draws from (the history, the position, the filter, the rows in
// view, the selection, the animation), so go-app redraws it only when one
// changes: not when only the cluster's state arrives (idle.go).
//
// The rows are drawn in chunks of chunkRows rows, each a component whose
// SVG is markup the browser parses in one go (app.Raw): building a few
// hundred SVG elements one attribute at a time through syscall/js costs
// tens of milliseconds in a long history; a chunk whose rows did not
// change is not redrawn at all. Clicks and keys on the arrows are handled
// once, on the diagram, for whichever arrow they reach.
type diagramView struct {
	app.Compo
	Gen      int
	Pos      int
	Filter   diagram.Filter
	From, To int
	Selected int64
	Travel   bool
	Lang     string // of the label
	d        *diagramState
}

func (d *diagramView) Render() app.UI {
	p := d.d
	l := p.layout()
	events := p.engine.Events()
	to := min(d.To, l.NowRow+1)
	// The dots' box is there when none travels too: go-app matches
	// children by position, and one coming and going at Play and Pause
	// would move every chunk after it and have them all drawn again.
	var dots []diagram.Shape
	if d.Travel {
		dots = travellers(l, events)
	}
	kids := []app.UI{app.Raw(frameSVG(l)), nowLine(l), app.Raw(rawSVG("travellers", dots))}
	// Arrows from above the chunks drawn that reach into them.
	firstRow := d.From / chunkRows * chunkRows
	var long []diagram.Shape
	for i := range l.Arrows {
		a := &l.Arrows[i]
		if a.FromRow >= firstRow {
			break // arrows are in the order of their rows
		}
		if a.ToRow >= firstRow {
			long = append(long, diagram.DrawArrow(l, events, a, d.Selected))
		}
	}
	kids = append(kids, app.Raw(rawSVG("long-arrows", long)))
	for c := d.From / chunkRows; c*chunkRows < to; c++ {
		now := -1 // the chunk does not change with the position
		if open := chunkOpenAt(l, c); open {
			now = l.NowRow
		}
		sel := int64(0)
		if d.Selected != 0 && chunkHasMsg(l, c, events, d.Selected) {
			sel = d.Selected
		}
		kids = append(kids, &rowChunk{Gen: d.Gen, Filter: d.Filter, C: c, Now: now, Selected: sel, d: p})
	}
	// No viewBox: its user units are CSS pixels anyway, and one that
	// grows with the history at every step is a new transform for the
	// browser to give everything drawn in it.
	return app.Elem("svg").XMLNS(diagram.SVGNS).Class("sequence").
		Attr("width", itoa(l.Width)).Attr("height", itoa(l.Height)).
		Attr("role", "img").
		Aria("label", "Sequence diagram").
		Aria("labelledby", uitext.LabelledBy(d.Lang, "Sequence diagram", p.scrollID+"-name")).
		Aria("describedby", p.describedBy).
		DataSet("rows", l.NowRow).
		DataSet("arrows", len(l.Arrows)).
		// The rows drawn, so a test can tell when a scroll has
		// been drawn.
		DataSet("first", max(0, d.From)).DataSet("last", to).
		Body(kids...)
}

// rowChunk is rows [C×chunkRows, (C+1)×chunkRows) of the diagram: their
// notes and the arrows sent in them. Now is the position's last row when
// the chunk depends on it (it holds that row, or an arrow still in
// flight), else -1, so a chunk of the past is drawn once.
type rowChunk struct {
	app.Compo
	Gen      int
	Filter   diagram.Filter
	C        int
	Now      int
	Selected int64
	d        *diagramState
}

func (c *rowChunk) Render() app.UI {
	l := c.d.layout()
	return app.Raw(rawSVG("rows", drawChunk(l, c.d.engine.Events(), c.C, c.Selected)))
}

// chunkArrows is the range of arrows sent in chunk c's rows.
func chunkArrows(l *diagram.Layout, c int) (from, to int) {
	lo, hi := c*chunkRows, (c+1)*chunkRows
	from = sort.Search(len(l.Arrows), func(i int) bool { return l.Arrows[i].FromRow >= lo })
	to = sort.Search(len(l.Arrows), func(i int) bool { return l.Arrows[i].FromRow >= hi })
	return from, to
}

// chunkOpenAt reports whether chunk c changes with the position: it holds
// the last row, or an arrow still in flight.
func chunkOpenAt(l *diagram.Layout, c int) bool {
	if (c+1)*chunkRows > l.NowRow {
		return true
	}
	from, to := chunkArrows(l, c)
	for i := from; i < to; i++ {
		if l.Arrows[i].InFlight {
			return true
		}
	}
	return false
}

// chunkHasMsg reports whether message id is drawn in chunk c.
func chunkHasMsg(l *diagram.Layout, c int, events []sim.Event, id int64) bool {
	from, to := chunkArrows(l, c)
	for i := from; i < to; i++ {
		if events[l.Arrows[i].Send].MsgID == id {
			return true
		}
	}
	return false
}

// drawFrame draws what spans the whole diagram: the arrowheads, the
// lifelines and the spans of nodes down or paused. Its lifelines reach
// "100%" of the diagram's height (frameSVG), so that a step, which
// makes the diagram taller, leaves the frame's markup as it was: drawn
// to the height, the frame was markup the browser parsed again at every
// step. The line of now and the travelling dots are drawn apart
// (nowLine, travellers).
func drawFrame(l *diagram.Layout) []diagram.Shape {
	return append([]diagram.Shape{diagram.ArrowDefs(l.Markers)}, diagram.DrawLanes(l, true)...)
}

// frameSVG is drawFrame's markup: a nested <svg> as tall as the diagram,
// against which the lifelines' "100%" is measured.
func frameSVG(l *diagram.Layout) string {
	return nestedSVG("frame", `width="100%" height="100%"`, drawFrame(l))
}

// nowLine is the dashed line of now: an element of its own, so a step
// changes its two coordinates rather than markup to parse.
func nowLine(l *diagram.Layout) app.UI {
	y := itoa(diagram.RowY(l.NowRow) - diagram.RowHeight/2)
	return app.Elem("line").XMLNS(diagram.SVGNS).Class("now-line").
		Attr("x1", "0").Attr("y1", y).Attr("x2", itoa(l.Width)).Attr("y2", y)
}

// drawChunk draws chunk c's notes and the arrows sent in it.
func drawChunk(l *diagram.Layout, events []sim.Event, c int, selected int64) []diagram.Shape {
	from, to := chunkArrows(l, c)
	out := make([]diagram.Shape, 0, chunkRows+to-from)
	for r := c * chunkRows; r < (c+1)*chunkRows && r < len(l.Rows); r++ {
		if s, ok := diagram.DrawNote(l, &events[l.Rows[r]], r); ok {
			out = append(out, s)
		}
	}
	for i := from; i < to; i++ {
		out = append(out, diagram.DrawArrow(l, events, &l.Arrows[i], selected))
	}
	return out
}

// rawSVG writes shapes as a nested <svg> of class class, which draws
// its content in the diagram's own coordinates: markup the browser
// parses into SVG elements (app.Raw parses in HTML, where an <svg> root
// switches to SVG). An arrow is focusable and a button, as svgUI makes it.
func rawSVG(class string, shapes []diagram.Shape) string {
	// A fixed size: one relative to the diagram's, which grows at every
	// step, would lay every chunk out again at every step.
	return nestedSVG(class, `width="1" height="1"`, shapes)
}

// nestedSVG writes shapes as a nested <svg> of class class and size size
// (its width and height attributes), drawing outside it.
func nestedSVG(class, size string, shapes []diagram.Shape) string {
	var b strings.Builder
	// Room for an arrow's markup (a few hundred bytes, its title and
	// label the most) per shape: a builder grown from nothing copied
	// the chunk's markup over and over.
	b.Grow(64 + 600*len(shapes))
	b.WriteString(`<svg class="`)
	b.WriteString(class)
	b.WriteString(`" `)
	b.WriteString(size)
	b.WriteString(` overflow="visible">`)
	for _, s := range shapes {
		writeRaw(&b, s)
	}
	b.WriteString("</svg>")
	return b.String()
}

func writeRaw(b *strings.Builder, s diagram.Shape) {
	b.WriteByte('<')
	b.WriteString(s.Tag)
	for _, a := range s.Attrs {
		b.WriteByte(' ')
		b.WriteString(a.K)
		b.WriteString(`="`)
		escape.WriteHTML(b, a.V)
		b.WriteByte('"')
	}
	if s.Msg != 0 {
		b.WriteString(` tabindex="0" role="button"`)
	}
	b.WriteByte('>')
	escape.WriteHTML(b, s.Text)
	for _, k := range s.Kids {
		writeRaw(b, k)
	}
	b.WriteString("</")
	b.WriteString(s.Tag)
	b.WriteByte('>')
}

// msgTarget is the message id of the arrow an event reached, 0 if none.
func msgTarget(e app.Event) int64 {
	t := e.Get("target")
	if !t.Truthy() || !t.Get("closest").Truthy() {
		return 0
	}
	g := t.Call("closest", "[data-msg]")
	if !g.Truthy() {
		return 0
	}
	id, _ := strconv.ParseInt(g.Call("getAttribute", "data-msg").String(), 10, 64)
	return id
}

// onDiagramClick selects the message of the arrow clicked.
func (p *diagramState) onDiagramClick(ctx app.Context, e app.Event) {
	if id := msgTarget(e); id != 0 {
		p.selectMsg(id)
		return
	}
	ctx.PreventUpdate()
}

// onDiagramKey selects the message of the focused arrow on Enter or
// Space, as a button does (the arrows are role=button).
func (p *diagramState) onDiagramKey(ctx app.Context, e app.Event) {
	if k := e.Get("key").String(); k == "Enter" || k == " " {
		if id := msgTarget(e); id != 0 {
			e.PreventDefault() // Space would scroll the page
			p.selectMsg(id)
			return
		}
	}
	ctx.PreventUpdate()
}

// laneHeadsView is the node names above the lifelines, with the state
// of each node as the cluster panel shows it (StatePos).
type laneHeadsView struct {
	app.Compo
	Gen      int
	Filter   diagram.Filter
	StatePos int
	d        *diagramState
}

func (h *laneHeadsView) Render() app.UI {
	l := h.d.layout()
	return app.Elem("svg").XMLNS(diagram.SVGNS).Class("sequence-head").Aria("hidden", "true").
		Attr("width", itoa(l.Width)).Attr("height", itoa(diagram.HeadHeight)).
		Attr("viewBox", "0 0 "+itoa(l.Width)+" "+itoa(diagram.HeadHeight)).
		Body(h.d.svgUI(diagram.LaneHeads(l, laneStatus(h.d.shownSnap))))
}

// laneStatus is each node's state in snap, by name, as the lane heads
// show it (nothing when snap is not taken yet).
func laneStatus(snap engine.Snapshot) map[string]string {
	status := map[string]string{}
	if snap.Valid {
		for _, b := range snap.Brokers {
			status[b.Name] = b.Status
		}
		for _, pr := range snap.Producers {
			status[pr.Name] = pr.Status
		}
		for _, c := range snap.Consumers {
			status[c.Name] = c.Status
		}
	}
	return status
}

// itoa is strconv.Itoa, short for the many coordinates of the SVG markup.
func itoa(v int) string { return strconv.Itoa(v) }

// travellers are dots that run along the arrows sent in the newest step.
func travellers(l *diagram.Layout, events []sim.Event) []diagram.Shape {
	var out []diagram.Shape
	for _, i := range l.Newest {
		a := &l.Arrows[i]
		d, _, _ := diagram.ArrowPath(l, &events[a.Send], a)
		out = append(out, diagram.El("circle", "class", "traveller", "r", "5", "cx", "0", "cy", "0").With(
			diagram.El("animateMotion", "path", d, "dur", "0.6s", "begin", "indefinite", "fill", "freeze"),
		))
	}
	return out
}

// findMessage returns the send event of a message and, when they are in
// the trace so far, its delivery or drop.
func findMessage(events []sim.Event, id int64) (send, end *sim.Event) {
	for i := range events {
		e := &events[i]
		if e.MsgID != id {
			continue
		}
		switch e.Kind {
		case sim.KindSend:
			send = e
		case sim.KindDeliver, sim.KindDrop:
			end = e
		}
	}
	return send, end
}
