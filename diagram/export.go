package diagram

import (
	"fmt"
	"strings"

	"txnlab/core/sim"
	"txnlab/internal/escape"
)

// SVGNS must be set on every SVG element: go-app v10 creates an element in
// the namespace it is given, and an <svg> child created in the HTML
// namespace is silently not drawn.
const SVGNS = "http://www.w3.org/2000/svg"

// ArrowDefs are the arrowheads, one per colour (SVG markers do not inherit
// the line's colour), their ids begun with markers (Layout.Markers).
func ArrowDefs(markers string) Shape {
	head := func(id string) Shape {
		return El("marker", "id", markers+"head-"+id, "viewBox", "0 0 10 10", "refX", "9", "refY", "5",
			"markerWidth", "7", "markerHeight", "7", "orient", "auto-start-reverse").
			With(El("path", "class", "head head-"+id, "d", "M0,0 L10,5 L0,10 z"))
	}
	return El("defs").With(head("request"), head("response"), head("error"))
}

// LaneHeads draws the node names above the lifelines, with each node's
// state at this step (status, by node name: "" or "up" draw as up).
func LaneHeads(l *Layout, status map[string]string) Shape {
	g := El("g", "class", "lane-heads")
	for _, ln := range l.Lanes {
		class := "lane-head lane-" + kindClass(ln.Kind)
		if st := status[ln.Node]; st != "" && st != "up" {
			class += " " + st
		}
		w := max(int(float64(len(ln.Node))*7.4)+20, 70)
		g = g.With(El("g", "class", class, "data-lane", ln.Node).With(
			El("rect", "x", itoa(ln.X-w/2), "y", "6", "width", itoa(w), "height", "26", "rx", "6"),
			El("text", "x", itoa(ln.X), "y", "24", "text-anchor", "middle").WithText(ln.Node),
		))
	}
	return g
}

// exportStyle makes the SVG file readable on its own, outside the page's
// stylesheet.
const exportStyle = `
svg { font: 11px ui-monospace, "DejaVu Sans Mono", Menlo, monospace; background: #fff; }
.lifeline { stroke: #d5dae3; stroke-width: 2; }
.lifeline-down { fill: #5b6678; opacity: .35; }
.lifeline-paused { fill: #bf8700; opacity: .25; }
.lane-head rect { fill: #eef2f8; stroke: #9aa5b5; }
.lane-head text { font: 600 13px system-ui, sans-serif; fill: #1b2230; }
.arrow .shaft { stroke: #1f6feb; stroke-width: 1.5; }
.arrow.response .shaft { stroke: #6e40c9; stroke-dasharray: 6 4; }
.arrow.error .shaft { stroke: #cf222e; }
.arrow.in-flight .shaft { stroke-dasharray: 2 4; }
.arrow .hit { stroke: transparent; }
.head-request { fill: #1f6feb; } .head-response { fill: #6e40c9; } .head-error { fill: #cf222e; }
.message-label { fill: #1b2230; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.arrow.error .message-label { fill: #cf222e; }
.drop-mark { fill: #cf222e; font-weight: 700; font-size: 14px; }
.note-label { fill: #5b6678; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.pill { fill: #f1f5ff; stroke: #c9d6f2; }
.append.marker .pill { fill: #e8f7ee; stroke: #9bd3af; }
.append.txnlog .pill { fill: #fff6e0; stroke: #e3c77a; }
.note-dot { fill: #9aa5b5; }
.lifecycle-dot { fill: #fff; stroke: #cf222e; stroke-width: 2; }
.lifecycle-mark { fill: #cf222e; font-weight: 700; }
.expect.ok .note-label { fill: #1a7f37; } .expect.failed .note-label { fill: #cf222e; }
.now-line { stroke: #bf8700; stroke-dasharray: 4 4; }
`

// SVG draws every row of the diagram up to the current step as a
// standalone SVG document, every label in full, in English; names is the
// run's table.
func SVG(names *sim.Names, history, events []sim.Event, f Filter) string {
	return SVGIn(names, history, events, f, nil)
}

// SVGIn is SVG with the diagram's words and the core's notes in words'
// language (nil: English): a Chinese page exports a Chinese diagram.
func SVGIn(names *sim.Names, history, events []sim.Event, f Filter, words *Words) string {
	l := LayoutOf(names, history, events, len(events), f)
	l.Words = words
	l.wholeWidth(events) // every label whole: no one scrolls a file
	var b strings.Builder
	h := HeadHeight + l.Height
	fmt.Fprintf(&b, `<svg xmlns="%s" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", SVGNS, l.Width, h, l.Width, h)
	b.WriteString("<style>" + exportStyle + "</style>\n")
	writeShape(&b, ArrowDefs(l.Markers))
	writeShape(&b, LaneHeads(l, nil))
	fmt.Fprintf(&b, `<g transform="translate(0,%d)">`+"\n", HeadHeight)
	for _, s := range DrawRows(l, events, 0, l.NowRow+1, 0) {
		writeShape(&b, s)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

func writeShape(b *strings.Builder, s Shape) {
	b.WriteString("<" + s.Tag)
	for _, a := range s.Attrs {
		b.WriteString(" " + a.K + `="` + escape.HTML(a.V) + `"`)
	}
	if s.Text == "" && len(s.Kids) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">")
	b.WriteString(escape.HTML(s.Text))
	for _, k := range s.Kids {
		writeShape(b, k)
	}
	b.WriteString("</" + s.Tag + ">\n")
}

// Mermaid renders the shown history as a Mermaid sequenceDiagram:
// requests solid, responses dashed, lost messages with a cross, state
// changes, appends and lifecycle as notes over their node; in English.
// names is the run's table.
func Mermaid(names *sim.Names, events []sim.Event, f Filter) string {
	return MermaidIn(names, events, f, nil)
}

// MermaidIn is Mermaid with the notes in words' language (nil: English).
func MermaidIn(names *sim.Names, events []sim.Event, f Filter, words *Words) string {
	w := words.words()
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, ln := range LanesOf(f, Run{names, events}) {
		fmt.Fprintf(&b, "    participant %s\n", mermaidID(ln.Node))
	}
	dropped := map[int64]bool{}
	for i := range events {
		if events[i].Kind == sim.KindDrop {
			dropped[events[i].MsgID] = true
		}
	}
	for i := range events {
		e := &events[i]
		if !f.Shows(e) {
			continue
		}
		switch e.Kind {
		case sim.KindSend:
			arrow := "->>"
			if e.Resp {
				arrow = "-->>"
			}
			if dropped[e.MsgID] {
				arrow = "-x"
				if e.Resp {
					arrow = "--x"
				}
			}
			fmt.Fprintf(&b, "    %s%s%s: %s\n", mermaidID(names.Name(e.Node)), arrow, mermaidID(names.Name(e.Peer)), mermaidText(MessageText(e)))
		case sim.KindState, sim.KindAppend, sim.KindElection:
			if hasLane(names.Name(e.Node)) {
				text, _ := noteText(names, e, w)
				fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(names.Name(e.Node)), mermaidText(text))
			}
		case sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume:
			fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(names.Name(e.Node)), mermaidText(strings.ToUpper(w.Lifecycle(e.Kind))))
		}
	}
	return b.String()
}

// mermaidID makes a node name a Mermaid participant id.
func mermaidID(n string) string {
	return strings.NewReplacer("-", "_", ".", "_", "(", "_", ")", "_").Replace(n)
}

// mermaidText escapes what Mermaid reads as syntax in a message text.
func mermaidText(s string) string {
	return strings.NewReplacer(";", "#59;", "#", "#35;", ":", "#58;").Replace(s)
}
