package app

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/sim"
)

// Export: the diagram as a standalone SVG and as Mermaid text, the trace
// as JSON, the script as a .scenario file — each of the history up to the
// current step, as shown (the filters apply to the diagrams).

func (p *playground) renderExport() app.UI {
	item := func(label, title string, h app.EventHandler) app.UI {
		return app.Li().Body(app.Button().Type("button").Class("menu-item").Title(tr(p.lang, title)).OnClick(h).Text(tr(p.lang, label)))
	}
	return app.Details().Class("export").Body(
		app.Summary().Class("tool").Text(tr(p.lang, "Export")),
		app.Ul().Class("menu").Body(
			item("Diagram (SVG)", "The whole diagram up to this step, as an SVG file", p.onExportSVG),
			item("Diagram (Mermaid)", "A Mermaid sequenceDiagram of the history up to this step", p.onExportMermaid),
			item("Trace (JSON)", "Every event up to this step, with the digest", p.onExportJSON),
			item("Script (.scenario)", "The script in the editor, to run with txnlab run", p.onExportScript),
			item("Copy a link to this script", "A link that holds the whole script and reproduces this session", p.onShare),
		),
	)
}

func (p *playground) exportName(ext string) string {
	name := strings.ReplaceAll(p.slug, "/", "-")
	if name == "" {
		name = "playground"
	}
	return name + ext
}

func (p *playground) onExportSVG(ctx app.Context, e app.Event) {
	download(ctx, p.exportName(".svg"), "image/svg+xml", diagramSVG(p.engine.History(), p.engine.Events(), p.filter))
}

func (p *playground) onExportMermaid(ctx app.Context, e app.Event) {
	download(ctx, p.exportName(".mmd"), "text/plain", mermaid(p.engine.Events(), p.filter))
}

func (p *playground) onExportJSON(ctx app.Context, e app.Event) {
	doc := map[string]any{
		"script": p.engine.Script(),
		"step":   p.engine.Pos(),
		"steps":  p.engine.Len(),
		"digest": p.engine.Digest(),
		"events": p.engine.Events(),
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	download(ctx, p.exportName(".json"), "application/json", string(b))
}

func (p *playground) onExportScript(ctx app.Context, e app.Event) {
	download(ctx, p.exportName(".scenario"), "text/plain", p.script)
}

// download saves text as a file through a blob URL and a throwaway link.
func download(ctx app.Context, name, mime, content string) {
	if !app.IsClient {
		return
	}
	w := app.Window()
	blob := w.Get("Blob").New([]any{content}, map[string]any{"type": mime})
	url := w.Get("URL").Call("createObjectURL", blob)
	a := w.Get("document").Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	a.Call("click")
	// Revoking at once can cancel the download in some browsers.
	ctx.After(2*time.Second, func(ctx app.Context) { w.Get("URL").Call("revokeObjectURL", url) })
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

// diagramSVG draws every row of the diagram up to the current step as a
// standalone SVG document, every label in full.
func diagramSVG(history, events []sim.Event, f diagramFilter) string {
	l := layoutOf(history, events, len(events), f)
	l.wholeWidth(events) // every label whole: no one scrolls a file
	var b strings.Builder
	h := headHeight + l.Height
	fmt.Fprintf(&b, `<svg xmlns="%s" width="%d" height="%d" viewBox="0 0 %d %d">`+"\n", svgNS, l.Width, h, l.Width, h)
	b.WriteString("<style>" + exportStyle + "</style>\n")
	writeShape(&b, arrowDefs())
	writeShape(&b, laneHeads(l, Snapshot{}))
	fmt.Fprintf(&b, `<g transform="translate(0,%d)">`+"\n", headHeight)
	for _, s := range drawRows(l, events, 0, l.NowRow+1, 0) {
		writeShape(&b, s)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.String()
}

func writeShape(b *strings.Builder, s shape) {
	b.WriteString("<" + s.Tag)
	for _, a := range s.Attrs {
		b.WriteString(" " + a.K + `="` + html.EscapeString(a.V) + `"`)
	}
	if s.Text == "" && len(s.Kids) == 0 {
		b.WriteString("/>\n")
		return
	}
	b.WriteString(">")
	b.WriteString(html.EscapeString(s.Text))
	for _, k := range s.Kids {
		writeShape(b, k)
	}
	b.WriteString("</" + s.Tag + ">\n")
}

// Mermaid renders a history as the page's Mermaid export does with the
// default filter (no replication traffic): `txnlab run --format mermaid`
// prints the same diagram the learner downloads.
func Mermaid(events []sim.Event) string { return mermaid(events, diagramFilter{}) }

// mermaid renders the shown history as a Mermaid sequenceDiagram:
// requests solid, responses dashed, lost messages with a cross, state
// changes, appends and lifecycle as notes over their node.
func mermaid(events []sim.Event, f diagramFilter) string {
	var b strings.Builder
	b.WriteString("sequenceDiagram\n")
	for _, ln := range lanesOf(events, f) {
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
		if !f.shows(e) {
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
			fmt.Fprintf(&b, "    %s%s%s: %s\n", mermaidID(e.Node), arrow, mermaidID(e.Peer), mermaidText(messageText(e)))
		case sim.KindState, sim.KindAppend, sim.KindElection:
			if hasLane(e.Node) {
				text, _ := noteText(e)
				fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(e.Node), mermaidText(text))
			}
		case sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume:
			fmt.Fprintf(&b, "    Note over %s: %s\n", mermaidID(e.Node), strings.ToUpper(e.Kind.String()))
		}
	}
	return b.String()
}

// mermaidID makes a node name a Mermaid participant id.
func mermaidID(n sim.NodeID) string {
	return strings.NewReplacer("-", "_", ".", "_", "(", "_", ")", "_").Replace(string(n))
}

// mermaidText escapes what Mermaid reads as syntax in a message text.
func mermaidText(s string) string {
	return strings.NewReplacer(";", "#59;", "#", "#35;", ":", "#58;").Replace(s)
}
