package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/sim"
)

// svgNS must be set on every SVG element: go-app v10 creates an element in
// the namespace it is given, and an <svg> child created in the HTML
// namespace is silently not drawn.
const svgNS = "http://www.w3.org/2000/svg"

// Diagram geometry, in SVG user units.
const (
	laneWidth   = 190 // between two lifelines
	laneMargin  = 100 // left of the first lifeline
	rightMargin = 260 // right of the last: notes are written to the right
	headHeight  = 44  // node names above the first row
	rowHeight   = 30  // one drawn event
	footHeight  = 16
)

func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

func num(v int) string { return strconv.Itoa(v) }

// lanes lists the nodes in the order they first appear, so a lifeline never
// moves once drawn and appending an event only appends to the DOM.
func lanes(events []sim.Event) []sim.NodeID {
	var order []sim.NodeID
	seen := map[sim.NodeID]bool{}
	add := func(n sim.NodeID) {
		if n != "" && !seen[n] {
			seen[n] = true
			order = append(order, n)
		}
	}
	for i := range events {
		add(events[i].Node)
		add(events[i].Peer)
	}
	return order
}

// drawn reports whether an event gets a row. A delivery only completes the
// arrow its send already drew, so it takes no row of its own.
func drawn(e *sim.Event) bool { return e.Kind != sim.KindDeliver }

// sequenceDiagram draws the trace as one lifeline per node and a row per
// event. Its text alternative is the trace list, which it points to.
func sequenceDiagram(events []sim.Event, describedBy string) app.UI {
	nodes := lanes(events)
	x := make(map[sim.NodeID]int, len(nodes))
	for i, n := range nodes {
		x[n] = laneMargin + i*laneWidth
	}
	rows := 0
	for i := range events {
		if drawn(&events[i]) {
			rows++
		}
	}
	width := laneMargin + max(len(nodes)-1, 1)*laneWidth + rightMargin
	height := headHeight + rows*rowHeight + footHeight

	body := []app.UI{
		svg("defs").Body(
			svg("marker").ID("arrowhead").
				Attr("viewBox", "0 0 10 10").Attr("refX", "10").Attr("refY", "5").
				Attr("markerWidth", "7").Attr("markerHeight", "7").
				Attr("orient", "auto-start-reverse").
				Body(svg("path").Class("arrowhead").Attr("d", "M0,0 L10,5 L0,10 z")),
		),
	}
	for _, n := range nodes {
		body = append(body,
			svg("text").Class("lane-name").Attr("x", num(x[n])).Attr("y", "22").Attr("text-anchor", "middle").Text(string(n)),
			svg("line").Class("lifeline").
				Attr("x1", num(x[n])).Attr("y1", "32").Attr("x2", num(x[n])).Attr("y2", num(height)),
		)
	}
	row := 0
	for i := range events {
		e := &events[i]
		if !drawn(e) {
			continue
		}
		body = append(body, eventRow(e, x, headHeight+row*rowHeight+rowHeight/2))
		row++
	}

	return svg("svg").
		Class("sequence").
		Attr("viewBox", "0 0 "+num(width)+" "+num(height)).
		Attr("width", num(width)).Attr("height", num(height)).
		Attr("role", "img").
		Aria("label", "Sequence diagram").
		Aria("describedby", describedBy).
		Body(body...)
}

// eventRow draws one event at height y: an arrow for a message, a marked
// note for everything that happens on one node.
func eventRow(e *sim.Event, x map[sim.NodeID]int, y int) app.UI {
	from, to := x[e.Node], x[e.Peer]
	switch e.Kind {
	case sim.KindSend, sim.KindDrop:
		class := "message"
		if e.Resp {
			class += " response"
		}
		if e.Error != "" {
			class += " error"
		}
		label := e.API
		if e.Msg != nil {
			label += " " + e.Msg.Summary()
		}
		end := to
		if e.Kind == sim.KindDrop {
			class += " dropped"
			end = (from + to) / 2
		}
		g := []app.UI{
			svg("line").Class(class).
				Attr("x1", num(from)).Attr("y1", num(y)).Attr("x2", num(end)).Attr("y2", num(y)).
				Attr("marker-end", "url(#arrowhead)"),
			svg("text").Class("message-label").
				Attr("x", num((from+to)/2)).Attr("y", num(y-6)).Attr("text-anchor", "middle").
				Text(label),
		}
		if e.Kind == sim.KindDrop {
			g = append(g, svg("text").Class("drop-mark").
				Attr("x", num(end)).Attr("y", num(y+5)).Attr("text-anchor", "middle").Text("✕"))
		}
		return svg("g").Class("row").DataSet("index", e.Index).Body(g...)
	default:
		text := e.Kind.String()
		switch {
		case e.Kind == sim.KindState:
			text = e.Subject + ": " + e.From + " → " + e.To
		case e.Text != "":
			text = e.Text
			if e.Subject != "" {
				text = e.Subject + " " + text
			}
		}
		return svg("g").Class("row note "+e.Kind.String()).DataSet("index", e.Index).Body(
			svg("circle").Class("note-dot").Attr("cx", num(from)).Attr("cy", num(y)).Attr("r", "4"),
			svg("text").Class("note-label").Attr("x", num(from+10)).Attr("y", num(y+4)).Text(text),
		)
	}
}
