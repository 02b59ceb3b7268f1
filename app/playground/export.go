package playground

import (
	"encoding/json"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/uitext"
	"txnlab/core/sim"
	"txnlab/diagram"
)

// Export: the diagram as a standalone SVG and as Mermaid text, the trace
// as JSON, the script as a .scenario file — each of the history up to the
// current step, as shown (the filters apply to the diagrams).

func (p *playground) renderExport() app.UI {
	item := func(label, title string, h app.EventHandler) app.UI {
		return app.Li().Body(app.Button().Type("button").Class("menu-item").Title(uitext.Tr(p.run.lang, title)).OnClick(h).Text(uitext.Tr(p.run.lang, label)))
	}
	return app.Details().Class("export").Body(
		app.Summary().Class("tool").Text(uitext.Tr(p.run.lang, "Export")),
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
	name := strings.ReplaceAll(p.lib.slug, "/", "-")
	switch {
	case p.edited():
		// The learner's own script is not the library's scenario.
		name = "your-script"
	case name == "":
		name = "playground"
	}
	return name + ext
}

func (p *playground) onExportSVG(ctx app.Context, e app.Event) {
	browser.Download(ctx, p.exportName(".svg"), "image/svg+xml", diagram.SVGIn(p.run.engine.Names(), p.run.engine.History(), p.run.engine.Events(), p.run.filter, uitext.DiagramWords(p.run.lang)))
}

func (p *playground) onExportMermaid(ctx app.Context, e app.Event) {
	browser.Download(ctx, p.exportName(".mmd"), "text/plain", diagram.MermaidIn(p.run.engine.Names(), p.run.engine.Events(), p.run.filter, uitext.DiagramWords(p.run.lang)))
}

func (p *playground) onExportJSON(ctx app.Context, e app.Event) {
	doc := map[string]any{
		"script": p.run.engine.Script(),
		"step":   p.run.engine.Pos(),
		"steps":  p.run.engine.Len(),
		"digest": p.run.engine.Digest(),
		"events": sim.Export{Names: p.run.engine.Names(), Events: p.run.engine.Events()},
	}
	b, _ := json.MarshalIndent(doc, "", "  ")
	browser.Download(ctx, p.exportName(".json"), "application/json", string(b))
}

func (p *playground) onExportScript(ctx app.Context, e app.Event) {
	browser.Download(ctx, p.exportName(".scenario"), "text/plain", p.run.script)
}
