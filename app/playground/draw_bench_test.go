package playground

import (
	"testing"

	"txnlab/app/engine"
	"txnlab/core/workload"
	"txnlab/diagram"
)

// BenchmarkDrawChunks draws, as a chunk's Render does, every chunk of
// the diagram of BenchmarkDiagramFrames' history (10,000 messages,
// replication shown) at its end: the Go a scroll or a step runs for the
// rows it brings into view, natively and under wasm.
//
//	go test -run '^$' -bench DrawChunks ./app/playground
func BenchmarkDrawChunks(b *testing.B) {
	e := engine.New()
	if err := e.Load(workload.Script(workload.ForMessages(10_000))); err != nil {
		b.Fatal(err)
	}
	e.Seek(e.Len())
	d := newDiagramState(e, "d")
	d.filter = diagram.Filter{Replication: true}
	l := d.layout()
	chunks := (len(l.Rows) + chunkRows - 1) / chunkRows
	b.ReportAllocs()
	bytes := 0
	for b.Loop() {
		for c := range chunks {
			bytes += len(rawSVG("rows", drawChunk(l, e.Events(), c, 0)))
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*chunks)/1000, "µs/chunk")
	b.ReportMetric(float64(len(l.Arrows))/float64(chunks), "arrows/chunk")
	b.ReportMetric(float64(bytes)/float64(b.N*chunks), "B/chunk")
}

// BenchmarkTraceStep draws, as the trace does at each step forward
// through BenchmarkDiagramFrames' history, its newest list: the Go a
// step runs for the trace, with its items kept (traceLines) and, for
// comparison, drawn anew each time.
//
//	go test -run '^$' -bench TraceStep ./app/playground
func BenchmarkTraceStep(b *testing.B) {
	e := engine.New()
	if err := e.Load(workload.Script(workload.ForMessages(10_000))); err != nil {
		b.Fatal(err)
	}
	d := newDiagramState(e, "d")
	d.filter = diagram.Filter{Replication: true}
	d.layout()
	rows := len(d.full.Rows)
	for _, kept := range []bool{true, false} {
		name := "kept"
		if !kept {
			name = "anew"
		}
		b.Run(name, func(b *testing.B) {
			var lines *traceLines
			if kept {
				lines = new(traceLines)
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = n%rows + 1 // one row more, as a step forward shows
				from := (n - 1) / traceAlign * traceAlign
				(&traceList{Gen: 1, Lang: "zh", From: from, To: n, d: &d, lines: lines}).Render()
			}
		})
	}
}

// BenchmarkEditorRender renders the editor of BenchmarkDiagramFrames'
// script (its 10,000 messages' statements) at a position, as every move
// does: the editor marks the executing line and the expectations.
//
//	go test -run '^$' -bench EditorRender ./app/playground
func BenchmarkEditorRender(b *testing.B) {
	p := NewPlayground()
	src := workload.Script(workload.ForMessages(10_000))
	p.setEditor(ctx, src)
	p.startLoad(ctx, src, nil)
	p.run.engine.Seek(p.run.engine.Len() / 2)
	b.ReportAllocs()
	for b.Loop() {
		p.renderEditor()
	}
}
