package app

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/sim"
)

// svgNS must be set on every SVG element: go-app v10 creates an element in
// the namespace it is given, and an <svg> child created in the HTML
// namespace is silently not drawn.
const svgNS = "http://www.w3.org/2000/svg"

// Virtualisation: rows are drawn in chunks, so scrolling re-renders only
// when a chunk boundary is crossed, with a margin above and below the
// visible rows so a fast scroll does not show a gap.
const (
	chunkRows    = 16
	overscanRows = 16
)

// layoutKey identifies a computed layout.
type layoutKey struct {
	script string
	pos    int
	filter diagramFilter
}

// layout is the diagram of the current position, computed once per
// position and filter however often the page renders, as a prefix of the
// whole history's layout, computed once per script and filter.
func (p *playground) layout() *layout {
	k := layoutKey{p.engine.Script(), p.engine.Pos(), p.filter}
	if p.laid == nil || p.laidKey != k {
		full := layoutKey{script: k.script, filter: k.filter}
		if p.full == nil || p.fullKey != full {
			p.fullKey, p.full = full, fullLayout(lanesOf(p.engine.History(), p.filter), p.engine.History(), p.filter)
		}
		last := 0
		if p.engine.Pos() > 0 {
			last = p.engine.EventsAt(p.engine.Pos() - 1)
		}
		p.laidKey, p.laid = k, p.full.at(len(p.engine.Events()), last)
	}
	return p.laid
}

// window is the range of rows to draw for the diagram's scroll position.
func (p *playground) window() (from, to int) {
	first := p.scrollTop / rowHeight
	from = first/chunkRows*chunkRows - overscanRows
	visible := max(p.viewH-headHeight, rowHeight) / rowHeight
	to = from + overscanRows + chunkRows + visible + overscanRows
	return max(0, from), to
}

// followNewest scrolls the diagram so its newest row is in view after the
// render, and starts the travelling-message animation while playing.
func (p *playground) followNewest(ctx app.Context) {
	l := p.layout()
	bottom := l.Height
	visible := p.viewH - headHeight
	switch {
	case bottom > p.scrollTop+visible:
		p.scrollTop = max(0, bottom-visible+rowHeight/2)
	case bottom < p.scrollTop+rowHeight:
		p.scrollTop = max(0, bottom-visible/2)
	}
	p.scrollDiagram(ctx, p.scrollTop)
	line := p.engine.Line()
	playing := p.playing
	if app.IsClient {
		ctx.Defer(func(ctx app.Context) {
			revealLine(line)
			if tr := app.Window().GetElementByID("trace"); tr.Truthy() {
				tr.Set("scrollTop", tr.Get("scrollHeight"))
			}
			if playing && !p.reducedMotion {
				startTravellers()
			}
		})
	}
}

// scrollDiagram sets the diagram's scroll position after the render.
func (p *playground) scrollDiagram(ctx app.Context, top int) {
	p.scrollTop = top
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if d := app.Window().GetElementByID("diagram-scroll"); d.Truthy() && d.Get("scrollTop").Int() != top {
			d.Set("scrollTop", top)
		}
	})
}

func (p *playground) measureDiagram() {
	if d := app.Window().GetElementByID("diagram-scroll"); d.Truthy() {
		if h := d.Get("clientHeight").Int(); h > 0 {
			p.viewH = h
		}
	}
}

// onDiagramScroll redraws only when the rows to draw change.
func (p *playground) onDiagramScroll(ctx app.Context, e app.Event) {
	from, to := p.window()
	p.scrollTop = ctx.JSSrc().Get("scrollTop").Int()
	if h := ctx.JSSrc().Get("clientHeight").Int(); h > 0 {
		p.viewH = h
	}
	if f, t := p.window(); f == from && t == to {
		ctx.PreventUpdate()
	}
}

// startTravellers restarts the animation of the newest messages: a dot
// moving along each arrow. SMIL's begin="indefinite" plus beginElement
// restarts it for every step, where a CSS animation would need an inline
// style the Content-Security-Policy forbids.
func startTravellers() {
	list := app.Window().Get("document").Call("querySelectorAll", ".traveller animateMotion")
	for i := 0; i < list.Length(); i++ {
		list.Index(i).Call("beginElement")
	}
}

func (p *playground) selectMsg(id int64) {
	if p.selected == id {
		p.selected = 0
		return
	}
	p.selected = id
}

func (p *playground) onCloseMessage(ctx app.Context, e app.Event) { p.selected = 0 }

func (p *playground) onFilterReplication(ctx app.Context, e app.Event) {
	p.filter.Replication = ctx.JSSrc().Get("checked").Bool()
	p.followNewest(ctx)
}

func (p *playground) onFilterFetch(ctx app.Context, e app.Event) {
	p.filter.HideFetch = ctx.JSSrc().Get("checked").Bool()
	p.followNewest(ctx)
}

// svgUI renders a shape with go-app, XMLNS on every element.
func (p *playground) svgUI(s shape) app.UI {
	e := app.Elem(s.Tag).XMLNS(svgNS)
	for _, a := range s.Attrs {
		e = e.Attr(a.K, a.V)
	}
	if s.Msg != 0 {
		id := s.Msg
		e = e.TabIndex(0).Attr("role", "button").
			OnClick(func(ctx app.Context, ev app.Event) { p.selectMsg(id) }, scoped(id)).
			On("keydown", func(ctx app.Context, ev app.Event) {
				if ev.Get("key").String() == "Enter" {
					p.selectMsg(id)
					return
				}
				ctx.PreventUpdate()
			}, scoped(id))
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

// arrowDefs are the arrowheads, one per colour: SVG markers do not inherit
// the line's colour.
func arrowDefs() shape {
	head := func(id string) shape {
		return el("marker", "id", "head-"+id, "viewBox", "0 0 10 10", "refX", "9", "refY", "5",
			"markerWidth", "7", "markerHeight", "7", "orient", "auto-start-reverse").
			with(el("path", "class", "head head-"+id, "d", "M0,0 L10,5 L0,10 z"))
	}
	return el("defs").with(head("request"), head("response"), head("error"))
}

// laneHeads draws the node names above the lifelines, with the node's
// state at this step.
func laneHeads(l *layout, snap Snapshot) shape {
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
	g := el("g", "class", "lane-heads")
	for _, ln := range l.Lanes {
		class := "lane-head lane-" + kindClass(ln.Kind)
		if st := status[string(ln.Node)]; st != "" && st != "up" {
			class += " " + st
		}
		w := max(int(float64(len(ln.Node))*7.4)+20, 70)
		g = g.with(el("g", "class", class, "data-lane", string(ln.Node)).with(
			el("rect", "x", itoa(ln.X-w/2), "y", "6", "width", itoa(w), "height", "26", "rx", "6"),
			el("text", "x", itoa(ln.X), "y", "24", "text-anchor", "middle").text(string(ln.Node)),
		))
	}
	return g
}

func (p *playground) renderStage() app.UI {
	l := p.layout()
	events := p.engine.Events()
	from, to := p.window()
	rows := drawRows(l, events, from, to, p.selected)
	if p.playing && !p.reducedMotion {
		rows = append(rows, travellers(l, events)...)
	}
	body := append([]shape{arrowDefs()}, rows...)
	bodyUI := make([]app.UI, len(body))
	for i, s := range body {
		bodyUI[i] = p.svgUI(s)
	}
	head := laneHeads(l, p.engine.Snapshot())

	return app.Div().Class("stage-body").Body(
		app.Div().Class("diagram-panel").Body(
			app.Div().Class("diagram-tools").Body(
				app.Label().Class("check").Body(
					app.Input().Type("checkbox").Checked(p.filter.Replication).OnChange(p.onFilterReplication),
					app.Text(" Show replication"),
				),
				app.Label().Class("check").Body(
					app.Input().Type("checkbox").Checked(p.filter.HideFetch).OnChange(p.onFilterFetch),
					app.Text(" Hide Fetch polling"),
				),
				app.Span().Class("legend").Aria("hidden", "true").Body(
					app.Span().Class("key request").Text("request"),
					app.Span().Class("key response").Text("response"),
					app.Span().Class("key error").Text("error"),
					app.Span().Class("key lost").Text("✕ lost"),
				),
				p.renderExport(),
			),
			app.Div().ID("diagram-scroll").Class("diagram-scroll").OnScroll(p.onDiagramScroll).Body(
				app.Elem("svg").XMLNS(svgNS).Class("sequence-head").Aria("hidden", "true").
					Attr("width", itoa(l.Width)).Attr("height", itoa(headHeight)).
					Attr("viewBox", "0 0 "+itoa(l.Width)+" "+itoa(headHeight)).
					Body(p.svgUI(head)),
				app.Elem("svg").XMLNS(svgNS).Class("sequence").
					Attr("width", itoa(l.Width)).Attr("height", itoa(l.Height)).
					Attr("viewBox", "0 0 "+itoa(l.Width)+" "+itoa(l.Height)).
					Attr("role", "img").
					Aria("label", "Sequence diagram").
					Aria("describedby", "trace-heading").
					DataSet("rows", l.NowRow).
					DataSet("arrows", len(l.Arrows)).
					// The rows drawn, so a test can tell when a scroll has
					// been drawn.
					DataSet("first", from).DataSet("last", min(to, l.NowRow+1)).
					Body(bodyUI...),
				app.If(l.NowRow == 0, func() app.UI {
					return app.P().Class("diagram-empty").Text("Nothing has happened yet: press Step or Play.")
				}),
			),
		),
		p.renderMessagePanel(),
	)
}

// travellers are dots that run along the arrows sent in the newest step.
func travellers(l *layout, events []sim.Event) []shape {
	var out []shape
	for _, i := range l.Newest {
		a := &l.Arrows[i]
		d, _, _ := arrowPath(l, &events[a.Send], a)
		out = append(out, el("circle", "class", "traveller", "r", "5", "cx", "0", "cy", "0").with(
			el("animateMotion", "path", d, "dur", "0.6s", "begin", "indefinite", "fill", "freeze"),
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

func (p *playground) renderMessagePanel() app.UI {
	if p.selected == 0 {
		return app.Aside().Class("message-panel empty").Aria("label", "Message").Body(
			app.H2().Text("Message"),
			app.P().Text("Click an arrow to see every field of that request or response."),
		)
	}
	events := p.engine.Events()
	send, end := findMessage(events, p.selected)
	panel := app.Aside().Class("message-panel").Aria("label", "Message").ID("message-panel")
	closeBtn := app.Button().Type("button").Class("tool close").Aria("label", "Close message").OnClick(p.onCloseMessage).Text("✕")
	if send == nil {
		return panel.Body(
			app.Div().Class("panel-head").Body(app.H2().Text("Message"), closeBtn),
			app.P().Text("This message has not been sent yet at this step."),
		)
	}
	kind := "request"
	if send.Resp {
		kind = "response"
	}
	fate := "in flight"
	switch {
	case end == nil:
	case end.Kind == sim.KindDeliver:
		fate = "delivered at " + end.At.String()
	default:
		fate = "lost at " + end.At.String() + ": " + end.Text
	}
	var related app.UI
	if send.Resp && send.ReplyTo != 0 {
		related = app.Button().Type("button").Class("link").OnClick(func(ctx app.Context, e app.Event) { p.selected = send.ReplyTo }, scoped(send.ReplyTo)).
			Text(fmt.Sprintf("the request it answers (#%d)", send.ReplyTo))
	} else {
		for i := range events {
			if r := &events[i]; r.Kind == sim.KindSend && r.Resp && r.ReplyTo == send.MsgID {
				id := r.MsgID
				related = app.Button().Type("button").Class("link").OnClick(func(ctx app.Context, e app.Event) { p.selected = id }, scoped(id)).
					Text(fmt.Sprintf("its response (#%d)", id))
				break
			}
		}
	}
	fields := messageFields(send.Msg)
	raw, _ := json.MarshalIndent(send.Msg, "", "  ")
	return panel.DataSet("msg", send.MsgID).Body(
		app.Div().Class("panel-head").Body(
			app.H2().Text(send.API+" "+kind),
			closeBtn,
		),
		app.Dl().Class("message-meta").Body(
			app.Dt().Text("from → to"), app.Dd().Text(string(send.Node)+" → "+string(send.Peer)),
			app.Dt().Text("sent"), app.Dd().Text(send.At.String()),
			app.Dt().Text("fate"), app.Dd().Text(fate),
			app.If(send.Error != "", func() app.UI {
				return app.Div().Class("meta-error").Body(app.Dt().Text("error"), app.Dd().Text(send.Error))
			}),
			app.If(related != nil, func() app.UI {
				return app.Div().Body(app.Dt().Text("see also"), app.Dd().Body(related))
			}),
		),
		app.Table().Class("fields").Body(
			app.Caption().Class("visually-hidden").Text("Fields"),
			app.TBody().Body(app.Range(fields).Slice(func(i int) app.UI {
				f := fields[i]
				return app.Tr().Class("depth-"+strconv.Itoa(min(f.Depth, 5))).Body(
					app.Th().Scope("row").Text(f.Name),
					app.Td().Text(f.Value),
				)
			})),
		),
		app.Details().Class("raw").Body(
			app.Summary().Text("JSON"),
			app.Pre().Text(string(raw)),
		),
	)
}

func (p *playground) renderTrace() app.UI {
	events := p.engine.Events()
	const shown = 200
	var idx []int
	for i := range events {
		if p.filter.shows(&events[i]) {
			idx = append(idx, i)
		}
	}
	skipped := max(0, len(idx)-shown)
	idx = idx[skipped:]
	return app.Section().Class("trace").Aria("labelledby", "trace-heading").Body(
		app.H2().ID("trace-heading").Text("Trace (the diagram as text)"),
		app.If(skipped > 0, func() app.UI {
			return app.P().Class("muted").Text(fmt.Sprintf("%d earlier events not listed; the export has them all.", skipped))
		}),
		app.Ol().ID("trace").Attr("start", skipped+1).Body(
			app.Range(idx).Slice(func(i int) app.UI {
				e := &events[idx[i]]
				c := "ev-" + e.Kind.String()
				if e.Error != "" {
					c += " error"
				}
				return app.Li().Class(c).Text(strings.TrimSpace(e.Line()))
			}),
		),
	)
}
