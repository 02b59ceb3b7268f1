package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"

	"txnlab/core/workload"
)

// The prototype's page and worker (cmd/engineworker's host). The page
// either starts a worker that runs the engine, or runs the engine on its
// own thread, and drives it the same way: __proto.seek asks for a
// position, receives it, and decodes what a page would draw from (the new
// events and the cluster state) on the page's thread.
const protoPage = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>engine prototype</title>
<script src="wasm_exec.js"></script>
<script>
const mode = new URLSearchParams(location.search).get("mode");
let pending = null;
const settle = m => { const p = pending; pending = null; p(m); };
window.__proto = {mode, times: [], bytes: 0};
if (mode === "worker") {
	const w = new Worker("worker.js");
	__proto.ready = new Promise(r => { w.onmessage = e => { if (e.data === "ready") { w.onmessage = e => settle(e.data); r(); } }; });
	__proto.send = req => new Promise(r => { pending = r; w.postMessage(req); });
} else {
	// The engine on the page's thread, as the playground runs it today.
	window.engineReply = m => settle(m);
	__proto.ready = new Promise(r => { window.engineReady = r; });
	const go = new Go();
	WebAssembly.instantiateStreaming(fetch("engine.wasm"), go.importObject).then(x => go.run(x.instance));
	__proto.send = req => new Promise(r => { pending = r; setTimeout(() => engineRequest(req), 0); });
}
// load runs a script and decodes its history, as a page would once per
// script.
__proto.load = async script => {
	const m = await __proto.send({op: "load", script});
	const t0 = performance.now();
	const history = m.error ? [] : JSON.parse(m.history);
	return {steps: m.steps || 0, error: m.error || "", events: history.length, decodeMs: performance.now() - t0, bytes: (m.history || "").length};
};
__proto.seek = async pos => {
	const t0 = performance.now();
	const m = await __proto.send({op: "seek", pos});
	JSON.parse(m.snapshot);
	__proto.bytes += m.snapshot.length;
	__proto.times.push(performance.now() - t0);
	return m.pos;
};
const pause = ms => new Promise(r => setTimeout(r, ms));
// The moves of BenchmarkSeek: 30 steps back from the end at a learner's
// pace, a drag from the end to the start, 10 jumps.
__proto.moves = async n => {
	for (let i = 1; i <= 30; i++) { await __proto.seek(n - i); await pause(150); }
	for (let k = 1; k <= 60; k++) { await __proto.seek(n - Math.floor(k * n / 60)); await pause(16); }
	for (const f of [0.9, 0.1, 0.7, 0.3, 0.5, 0.95, 0.05, 0.6, 0.4, 0.8]) { await __proto.seek(Math.floor(f * n)); await pause(150); }
	return __proto.times;
};
</script>`

const protoWorker = `importScripts("wasm_exec.js");
self.engineReply = m => postMessage(m);
self.engineReady = () => postMessage("ready");
onmessage = e => engineRequest(e.data);
const go = new Go();
WebAssembly.instantiateStreaming(fetch("engine.wasm"), go.importObject).then(x => go.run(x.instance));
`

// buildEngineProto builds cmd/engineworker and writes the prototype's
// files into a directory to serve; it returns the directory and the
// engine's brotli size.
func buildEngineProto(tb testing.TB) (dir string, brotliBytes int) {
	tb.Helper()
	dir = tb.TempDir()
	wasm := filepath.Join(dir, "engine.wasm")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./cmd/engineworker")
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("building cmd/engineworker: %v\n%s", err, out)
	}
	wasmExec, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		tb.Fatal(err)
	}
	for name, body := range map[string]string{"index.html": protoPage, "worker.js": protoWorker, "wasm_exec.js": string(wasmExec)} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		tb.Fatal(err)
	}
	var br countWriter
	w := brotli.NewWriterLevel(&br, 9)
	w.Write(raw)
	w.Close()
	return dir, int(br)
}

// evalLong evaluates a promise that may take a minute (eval allows 10 s).
func evalLong[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 2*time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %.60s: %v", expr, err)
	}
	return v
}

// countWriter counts what is written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// BenchmarkEngineInWorker is issue 13's measured prototype: the
// 10,000-event history of BenchmarkSeek, the same moves, with the engine
// (cmd/engineworker: app/engine and the whole core, no UI) once on the
// page's thread and once in a Web Worker. It reports the longest task of
// the page's main thread while moving, each move's round trip (ask,
// answer, decode the new events and the cluster state as JSON), the bytes
// that crossed, and the engine's Go heap after a collection. The page
// draws nothing: the figures are the engine's share of a frame, and what
// moving it off the page's thread leaves there. Between two moves the
// engine does its background work in slices, as the site's worker does
// (a move can wait for a slice, or for a collection begun in one).
func BenchmarkEngineInWorker(b *testing.B) {
	if skipReason != "" {
		b.Skip(skipReason)
	}
	dir, brBytes := buildEngineProto(b)
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()
	script, _ := json.Marshal(workload.Script(events10k))
	b.Logf("engine.wasm: %.2f MB brotli (quality 9)", float64(brBytes)/1e6)
	for _, mode := range []string{"page", "worker"} {
		b.Run(mode, func(b *testing.B) {
			br := newBenchBrowser(b)
			br.do(chromedp.Navigate(srv.URL + "/index.html?mode=" + mode))
			eval[any](br, `__proto.ready`, chromedp.EvalAwaitPromise)
			load := evalLong[struct {
				Steps    int     `json:"steps"`
				Error    string  `json:"error"`
				Events   int     `json:"events"`
				DecodeMs float64 `json:"decodeMs"`
				Bytes    float64 `json:"bytes"`
			}](br, `__proto.load(`+string(script)+`)`)
			if load.Error != "" || load.Steps < 1000 {
				b.Fatalf("load: %d steps, error %q", load.Steps, load.Error)
			}
			b.Logf("%s: history of %d events, %.1f MB of JSON, decoded on the page in %.0f ms", mode, load.Events, load.Bytes/1e6, load.DecodeMs)
			b.ReportMetric(load.DecodeMs, "ms/history-decode")
			var times, tasks []float64
			for b.Loop() {
				tasks = mainThreadTasks(br, func() {
					times = evalLong[[]float64](br, fmt.Sprintf(`__proto.moves(%d)`, load.Steps))
				})
			}
			stats := eval[struct {
				Heap    float64 `json:"heap"`
				Sys     float64 `json:"sys"`
				GCs     int     `json:"gcs"`
				PauseMs float64 `json:"pauseMs"`
			}](br, `__proto.send({op: "stats"})`, chromedp.EvalAwaitPromise)
			bytes := eval[float64](br, `__proto.bytes`)
			m, t := summarize(times), summarize(tasks)
			b.Logf("%s: %d steps; move p50 %.1f ms, max %.1f; main-thread task max %.1f ms; %.1f MB crossed; engine heap %.1f MB, %d collections",
				mode, load.Steps, m.p50, m.max, t.max, bytes/1e6, stats.Heap/1e6, stats.GCs)
			b.ReportMetric(m.p50, "ms/move-p50")
			b.ReportMetric(m.max, "ms/move-max")
			b.ReportMetric(t.max, "ms/main-task-max")
			b.ReportMetric(bytes/float64(max(1, len(times)))/1e3, "kB/move")
			b.ReportMetric(stats.Heap/1e6, "MB/engine-heap")
			b.ReportMetric(float64(brBytes)/1e6, "MB/engine-brotli")
			b.ReportMetric(0, "ns/op")
		})
	}
}
