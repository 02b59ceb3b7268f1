package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"txnlab/core/workload"
)

// TestProfileMoves is a tool, not a test: with PROFILE=1 it samples the
// page's CPU (CDP Profiler) while it steps back and scrubs a 10,000-event
// history and logs the functions by self and total time. Build the wasm
// with its names kept (no -ldflags=-s -w) to read Go's function names.
func TestProfileMoves(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	n := loadHistory(br, workload.Script(events10k))
	br.click(button("Run to end"))
	waitPosition(br, n)
	waitBackground(br)
	prof := func(what string, f func()) {
		if _, err := chromedp.Call(br.ctx, profiler.Enable, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		chromedp.Call(br.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
		if _, err := chromedp.Call(br.ctx, profiler.Start, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		f()
		res, err := chromedp.Call(br.ctx, profiler.Stop, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		logProfile(t, what, res.Profile)
	}
	var ts []float64
	prof("step back", func() {
		for i := 1; i <= 30; i++ {
			tm := measure2(br, `document.querySelector('button[aria-label="Step back"]').click()`,
				fmt.Sprintf(`__positionIs(%d)`, n-i), fmt.Sprintf(`__shows(%d)`, n-i))
			ts = append(ts, tm.Paint)
			time.Sleep(150 * time.Millisecond)
		}
	})
	t.Logf("step back: %v", summarize(ts))
	var tp, tf []float64
	prof("scrub", func() {
		for k := 1; k <= 60; k++ {
			i := n - k*n/60
			tm := measure2(br, scrubTo(i),
				fmt.Sprintf(`__positionIs(%d)`, i), fmt.Sprintf(`__shows(%d)`, i))
			tp, tf = append(tp, tm.First), append(tf, tm.Paint)
		}
	})
	t.Logf("scrub: pos %v state %v", summarize(tp), summarize(tf))
}

func logProfile(t testing.TB, what string, p *profiler.Profile) {
	if dir := os.Getenv("PROFILE_OUT"); dir != "" {
		// The whole profile, for DevTools or a script: what.cpuprofile.
		if b, err := json.Marshal(p); err == nil {
			os.WriteFile(filepath.Join(dir, strings.ReplaceAll(what, " ", "-")+".cpuprofile"), b, 0o644)
		}
	}
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, nd := range p.Nodes {
		byID[nd.ID] = nd
		for _, c := range nd.Children {
			parent[c] = nd.ID
		}
	}
	name := func(nd *profiler.ProfileNode) string {
		n := nd.CallFrame.FunctionName
		if n == "" {
			n = "(anon " + nd.CallFrame.URL + ")"
		}
		return n
	}
	self, total := map[string]float64{}, map[string]float64{}
	callers := map[string]float64{} // leaf ← first app or go-app frame
	leaves := map[string]bool{"syscall/js.valueGet": true, "syscall/js.valueSet": true, "syscall/js.valueCall": true, "(program)": true, "replaceChild": true}
	var all float64
	for i, s := range p.Samples {
		dt := float64(p.TimeDeltas[i]) / 1000
		if i+1 < len(p.TimeDeltas) {
			dt = float64(p.TimeDeltas[i+1]) / 1000
		}
		all += dt
		nd := byID[s]
		self[name(nd)] += dt
		if leaves[name(nd)] {
			chain := []string{}
			for id := parent[s]; id != 0 && len(chain) < 3; id = parent[id] {
				n := name(byID[id])
				if strings.HasPrefix(n, "txnlab_app") || (strings.HasPrefix(n, "github.com_maxence") && !strings.Contains(n, "value") && !strings.Contains(n, "Value")) {
					chain = append(chain, n)
				}
			}
			callers[name(nd)+" ← "+strings.Join(chain, " ← ")] += dt
		}
		seen := map[string]bool{}
		for id := s; ; {
			n := name(byID[id])
			if !seen[n] {
				seen[n] = true
				total[n] += dt
			}
			pid, ok := parent[id]
			if !ok {
				break
			}
			id = pid
		}
	}
	top := func(m map[string]float64, k int) string {
		type kv struct {
			k string
			v float64
		}
		var l []kv
		for a, b := range m {
			l = append(l, kv{a, b})
		}
		sort.Slice(l, func(i, j int) bool { return l[i].v > l[j].v })
		var sb strings.Builder
		for i := 0; i < k && i < len(l); i++ {
			fmt.Fprintf(&sb, "  %8.1f ms  %s\n", l[i].v, l[i].k)
		}
		return sb.String()
	}
	t.Logf("%s: %.0f ms sampled\nself:\n%s\ntotal:\n%s", what, all, top(self, 45), top(total, 90))
	t.Logf("leaf callers:\n%s", top(callers, 40))
}

// TestProfileLoad is TestProfileMoves for a cold load (PROFILE=1): from
// the navigation to the first step taken, as BenchmarkTimeToInteractive
// measures it; PROFILE_PATH=/playground?engine=page loads another address.
func TestProfileLoad(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	ctx, done := coldPage(t)
	defer done()
	chromedp.Call(ctx, profiler.Enable, cdp.Empty{})
	chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 1000})
	if os.Getenv("NOPROF") == "" {
		if _, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
	}
	path := "/playground"
	if p := os.Getenv("PROFILE_PATH"); p != "" {
		path = p // e.g. /playground?engine=page
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(baseURL+path)); err != nil {
		t.Fatal(err)
	}
	ms, err := chromedp.Run(ctx, chromedp.Poll[float64](`window.__tti`, chromedp.WithPollingInterval(20*time.Millisecond)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		res = profiler.StopResult{Profile: &profiler.Profile{}}
	}
	t.Logf("time to interactive %.0f ms; %s", ms, loadTimes(ctx))
	logProfile(t, "load", res.Profile)
}

// loadTimes is when the page's resources arrived and its
// DOMContentLoaded, from the navigation's start.
func loadTimes(ctx context.Context) string {
	v, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(Object.assign({marks: performance.getEntriesByType("mark").map(m => [m.name, Math.round(m.startTime)])}, {resp: performance.getEntriesByType("resource").filter(e => e.name.includes("wasm")).map(e => [e.startTime, e.responseEnd]), dcl: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd}))`))
	return v
}

// TestProfileFrames profiles BenchmarkDiagramFrames's stepping (PROFILE=1).
func TestProfileFrames(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	n := openLongDiagram(br)
	chromedp.Call(br.ctx, profiler.Enable, cdp.Empty{})
	chromedp.Call(br.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 500})
	chromedp.Call(br.ctx, profiler.Start, cdp.Empty{})
	stepBackAndForth(br, n)
	time.Sleep(300 * time.Millisecond)
	res, err := chromedp.Call(br.ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	logProfile(t, "frames", res.Profile)
}

// TestProfileDiagramSteps is a tool, not a test: with PROFILE=1 it steps
// BenchmarkDiagramFrames' history (10,000 arrows, replication shown)
// back and forth under a CDP trace and logs, for the longest tasks of the
// page's main thread, what ran inside them (script, style, layout,
// paint, V8's collector), then the page's CPU profile of the same moves.
func TestProfileDiagramSteps(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	n := openLongDiagram(br)
	profileLongTasks(br, "diagram steps", 6, func() { stepBackAndForth(br, n) })
}

// profileLongTasks runs f under a CDP trace and the page's CPU profile
// (sampled every 200 µs) and logs, for the k longest main-thread tasks,
// their time and what ran inside them, then the profile as logProfile
// does, under what.
func profileLongTasks(br *browser, what string, k int, f func()) {
	t := br.t
	t.Helper()
	if _, err := chromedp.Call(br.ctx, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	chromedp.Call(br.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
	chromedp.Call(br.ctx, profiler.Start, cdp.Empty{})
	var res profiler.StopResult
	tasks := longestTasks(br, k, func() {
		f()
		var err error
		if res, err = chromedp.Call(br.ctx, profiler.Stop, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
	})
	for _, tk := range tasks {
		t.Logf("task %.1f ms at %.0f+%.0f: %s\n%s", tk.ms, tk.ts, tk.dur, tk.inside, inTask(res.Profile, tk))
	}
	logProfile(t, what, res.Profile)
}

// TestProfileDiagramScroll is a tool, not a test: with PROFILE=1 it
// scrolls BenchmarkDiagramFrames' history as that benchmark does, after
// its steps, under a CDP trace and the page's CPU profile, and logs what
// ran inside the longest main-thread tasks.
func TestProfileDiagramScroll(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	n := openLongDiagram(br)
	stepBackAndForth(br, n)
	time.Sleep(300 * time.Millisecond) // the last state and invariants
	profileLongTasks(br, "diagram scroll", 6, func() { scrollLongDiagram(br) })
}

// longTask is a task of the page's main thread and what ran inside it:
// the time of each kind of event it contains, longest first.
type longTask struct {
	ms, ts, dur float64 // ts and dur in µs of the trace's clock
	inside      string
}

// inTask is the time each Go function of the UI took inside the task,
// from the profile's samples in the task's time range (the profile and
// the trace read the same clock).
func inTask(p *profiler.Profile, tk longTask) string {
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, nd := range p.Nodes {
		byID[nd.ID] = nd
		for _, c := range nd.Children {
			parent[c] = nd.ID
		}
	}
	total := map[string]float64{}
	ts := p.StartTime
	for i, s := range p.Samples {
		ts += float64(p.TimeDeltas[i])
		if ts < tk.ts || ts > tk.ts+tk.dur {
			continue
		}
		dt := 0.2
		if os.Getenv("PROFILE_SELF") != "" {
			// Each sample's own function (its leaf), whatever its name:
			// what the task's time is spent on rather than under.
			total["self "+byID[s].CallFrame.FunctionName] += dt
		}
		seen := map[string]bool{}
		for id := s; ; {
			n := byID[id].CallFrame.FunctionName
			if !seen[n] && (strings.HasPrefix(n, "txnlab") || strings.HasPrefix(n, "runtime.gc") || strings.HasPrefix(n, "encoding_json.Unmarshal") || strings.Contains(n, "UpdateComponentRoot") || strings.Contains(n, "executeDefers") || n == "(program)" || strings.Contains(n, "mallocgc")) {
				seen[n] = true
				total[n] += dt
			}
			pid, ok := parent[id]
			if !ok {
				break
			}
			id = pid
		}
	}
	names := make([]string, 0, len(total))
	for n := range total {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return total[names[i]] > total[names[j]] })
	var sb strings.Builder
	for _, n := range names[:min(40, len(names))] {
		fmt.Fprintf(&sb, "      %6.1f ms %s\n", total[n], n)
	}
	return sb.String()
}

// longestTasks runs f under a trace of the page's work and returns its k
// longest main-thread tasks (BY_CPU=1: by CPU time).
func longestTasks(b *browser, k int, f func()) []longTask {
	evs := traceMain(b, []string{"toplevel", "__metadata", "devtools.timeline", "v8", "blink.user_timing", "v8.wasm", "disabled-by-default-v8.compile", "disabled-by-default-v8.wasm.turbofan", "disabled-by-default-v8.wasm.detailed"}, f)
	var tasks []traceEvent
	for _, e := range evs {
		if isTask(e) {
			tasks = append(tasks, e)
		}
	}
	// BY_CPU=1 orders them by the thread's own time instead: on a
	// loaded machine a task's duration counts its waits for a core.
	byCPU := os.Getenv("BY_CPU") != ""
	sort.Slice(tasks, func(i, j int) bool {
		if byCPU {
			return tasks[i].Tdur > tasks[j].Tdur
		}
		return tasks[i].Dur > tasks[j].Dur
	})
	var out []longTask
	for _, tk := range tasks[:min(k, len(tasks))] {
		by := map[string]float64{}
		for _, e := range evs {
			if e.Ph == "X" && !isTask(e) && e.Ts >= tk.Ts && e.Ts+e.Dur <= tk.Ts+tk.Dur {
				by[e.Name] += e.Dur / 1000
			}
		}
		names := make([]string, 0, len(by))
		for n := range by {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return by[names[i]] > by[names[j]] })
		var sb strings.Builder
		fmt.Fprintf(&sb, "CPU %.1f; ", tk.Tdur/1000)
		for _, n := range names[:min(8, len(names))] {
			fmt.Fprintf(&sb, "%s %.1f; ", n, by[n])
		}
		out = append(out, longTask{tk.Dur / 1000, tk.Ts, tk.Dur, sb.String()})
	}
	return out
}

// TestProfileLessonPage is a tool, not a test: with PROFILE=1 it does
// what BenchmarkLessonPage does on lesson 03's page (scroll down while
// its playgrounds run, run the guarded ones, step one, scroll up) under
// a CDP trace and the page's CPU profile, and logs what ran inside the
// longest main-thread tasks.
func TestProfileLessonPage(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	br.open("/lessons/03-transaction-protocols")
	// NOPROF=1 traces without the CPU profile, whose sampling and code
	// logging lengthen the tasks it samples.
	prof := os.Getenv("NOPROF") == ""
	if prof {
		if _, err := chromedp.Call(br.ctx, profiler.Enable, cdp.Empty{}); err != nil {
			t.Fatal(err)
		}
		chromedp.Call(br.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
		chromedp.Call(br.ctx, profiler.Start, cdp.Empty{})
	}
	res := profiler.StopResult{Profile: &profiler.Profile{}}
	tasks := longestTasks(br, 8, func() {
		lessonPageMoves(br)
		if prof {
			var err error
			if res, err = chromedp.Call(br.ctx, profiler.Stop, cdp.Empty{}); err != nil {
				t.Fatal(err)
			}
		}
	})
	for _, tk := range tasks {
		t.Logf("task %.1f ms at %.0f+%.0f: %s\n%s", tk.ms, tk.ts, tk.dur, tk.inside, inTask(res.Profile, tk))
	}
	logProfile(t, "lesson page", res.Profile)
}

// TestProfileFirstPlaygroundCores is a tool, not a test: with PROFILE=1
// it does what BenchmarkLessonFirstPlayground does (read lesson 03's
// first screen, then run and step its first playground) and logs who had
// the cores during the page's longest tasks (logCores). LESSON_PAGE=1
// does what BenchmarkLessonPage does instead (scroll at once).
func TestProfileFirstPlaygroundCores(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	br.open("/lessons/03-transaction-protocols")
	if os.Getenv("LESSON_PAGE") != "" {
		logCores(br, 5, func() { lessonPageMoves(br) })
		return
	}
	time.Sleep(readingFirstScreen)
	logCores(br, 3, func() { firstPlaygroundMoves(br) })
}

// logCores runs f under a trace of every thread and logs, for the k
// longest tasks of the page's main thread, the CPU time each thread used
// while the task ran. A task whose wall time is far above its own CPU
// time waited for a core: the log says who had them (the engine's
// worker, V8's compile jobs on ThreadPoolForegroundWorker threads, the
// compositor).
func logCores(br *browser, k int, f func()) {
	t := br.t
	evs, names := traceThreads(br, []string{"toplevel", "__metadata", "v8.wasm"}, f)
	var tasks []traceEvent
	for _, e := range evs {
		if isTask(e) && names[threadOf(e)] == "CrRendererMain" {
			tasks = append(tasks, e)
		}
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].Dur > tasks[j].Dur })
	for _, tk := range tasks[:min(k, len(tasks))] {
		// Each thread's outermost events (its tasks, and V8's compile
		// jobs) overlapping the task, their CPU time prorated to the
		// overlap.
		cpu := map[string]float64{}
		for _, e := range evs {
			top := isTask(e) || e.Name == "ThreadPool_RunTask"
			if !top || e.Dur <= 0 || e.Ts+e.Dur < tk.Ts || e.Ts > tk.Ts+tk.Dur {
				continue
			}
			overlap := min(e.Ts+e.Dur, tk.Ts+tk.Dur) - max(e.Ts, tk.Ts)
			cpu[names[threadOf(e)]] += e.Tdur / 1000 * overlap / e.Dur
		}
		var parts []string
		for n, ms := range cpu {
			if ms >= 0.5 {
				parts = append(parts, fmt.Sprintf("%s %.1f", n, ms))
			}
		}
		sort.Strings(parts)
		t.Logf("task %.1f ms (its CPU %.1f); CPU ms of each thread meanwhile: %s", tk.Dur/1000, tk.Tdur/1000, strings.Join(parts, ", "))
	}
}

// TestProfileStepMarkup is a tool, not a test: with PROFILE=1 it steps a
// history back 20 times and forward 20 times from its end, as
// BenchmarkDiagramFrames does, and logs the markup the page put into the
// document meanwhile (a MutationObserver: the nodes added and the length
// of their markup), by what was added where. Unlike a task's time it is
// the same at every run: what the browser had to parse, style and lay
// out. PROFILE_SCENARIO=slug steps a library scenario instead of the
// 10,000-message history.
func TestProfileStepMarkup(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	var n int
	if slug := os.Getenv("PROFILE_SCENARIO"); slug != "" {
		openScenario(br, slug)
		n = runToEnd(br)
		waitBackground(br)
	} else {
		n = openLongDiagram(br)
	}
	eval[bool](br, `(window.__markup = {nodes: 0, bytes: 0, by: {}}, new MutationObserver(ms => {
		for (const m of ms) for (const a of m.addedNodes) {
			const len = a.nodeType === 1 ? a.outerHTML.length : (a.textContent || "").length;
			const where = m.target.getAttribute && (m.target.getAttribute("class") || m.target.id || m.target.tagName);
			const k = (a.nodeType === 1 ? a.tagName + "." + (a.getAttribute("class") || "") : "#text") + " in " + where;
			window.__markup.nodes++; window.__markup.bytes += len; window.__markup.by[k] = (window.__markup.by[k] || 0) + len;
		}
	}).observe(document.body, {childList: true, subtree: true}), true)`)
	stepBackAndForth(br, n)
	t.Logf("over 40 steps: %d nodes added, %d bytes of markup; the most by what went where:\n%s",
		eval[int](br, `window.__markup.nodes`), eval[int](br, `window.__markup.bytes`),
		eval[string](br, `Object.entries(window.__markup.by).sort((a, b) => b[1] - a[1]).slice(0, 12).map(e => e[1] + "\t" + e[0]).join("\n")`))
}

// workerLog wraps the page's Worker constructor, before the page runs,
// so that every message to and from the engine's worker is logged with
// its time in window.__wlog ("→12.3 {op…" and "←15.0 {op… 12843 B"): a
// move's worker round trip beside its drawing.
const workerLog = `(() => {
	const W = window.Worker;
	window.__wlog = [];
	window.Worker = function (url, opts) {
		const w = new W(url, opts);
		const post = w.postMessage.bind(w);
		w.postMessage = (m, ...rest) => {
			window.__wlog.push("→" + performance.now().toFixed(1) + " " + (typeof m === "string" ? m.slice(0, 60) : "(module)"));
			return post(m, ...rest);
		};
		w.addEventListener("message", (m) => {
			const d = m.data, s = typeof d === "string" ? d : new TextDecoder().decode(d.subarray(0, 60));
			window.__wlog.push("←" + performance.now().toFixed(1) + " " + s.slice(0, 40) + " " + (d.length || d.byteLength) + " B");
		});
		return w;
	};
})()`

// TestProfileScrubWorker is a tool, not a test: with PROFILE=1 it scrubs
// a 10,000-event history as BenchmarkSeek does (the drag from its end,
// then the jumps; JUMPS=1: each jump's main-thread tasks instead) and,
// for each move whose state came later than SLOW ms (70 unless set),
// logs the page's long animation frames (their scripts and forced
// layouts) and the messages to and from the engine's worker: whether
// the page drew slowly or waited for the worker's state.
func TestProfileScrubWorker(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	slow := 70.0
	if s, err := strconv.ParseFloat(os.Getenv("SLOW"), 64); err == nil {
		slow = s
	}
	br := newBenchBrowser(t)
	if _, err := chromedp.Call(br.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: workerLog}); err != nil {
		t.Fatal(err)
	}
	br.open("/playground")
	waitIdle(br)
	n, _ := pasteScript(br, workload.Script(events10k))
	br.click(button("Run to end"))
	waitPosition(br, n)
	waitBackground(br)
	eval[any](br, `window.__loaf = []; new PerformanceObserver(l => { for (const e of l.getEntries()) window.__loaf.push(e.toJSON()); }).observe({type: "long-animation-frame"}); 1`)
	// BenchmarkSeek's moves: the drag from the end, then the jumps.
	var seq []int
	for k := 1; k <= 60; k++ {
		seq = append(seq, n-k*n/60)
	}
	for _, f := range []float64{0.9, 0.1, 0.7, 0.3, 0.5, 0.95, 0.05, 0.6, 0.4, 0.8} {
		seq = append(seq, int(f*float64(n)))
	}
	jumps := os.Getenv("JUMPS") != ""
	for k, i := range seq {
		if k >= 60 {
			time.Sleep(150 * time.Millisecond) // as BenchmarkSeek waits between jumps
		}
		if jumps {
			// What each jump's main-thread tasks are made of (with
			// BENCH_BREAKDOWN=1, the three longest, inside).
			if k < 60 {
				measure2(br, scrubTo(i), fmt.Sprintf(`__positionIs(%d)`, i), fmt.Sprintf(`__shows(%d)`, i))
				continue
			}
			var tm timing
			wall, cpu := mainThreadTaskTimes(br, func() {
				tm = measure2(br, scrubTo(i), fmt.Sprintf(`__positionIs(%d)`, i), fmt.Sprintf(`__shows(%d)`, i))
			})
			var sum, sumCPU float64
			for j := range wall {
				sum, sumCPU = sum+wall[j], sumCPU+cpu[j]
			}
			t.Logf("jump to %d: position %.0f ms, state %.0f ms; %d main-thread tasks, %.1f ms in all (CPU %.1f), longest %.1f", i, tm.First, tm.Paint, len(wall), sum, sumCPU, summarize(wall).max)
			continue
		}
		eval[any](br, `window.__loaf.length = 0; window.__wlog.length = 0; window.__t0 = performance.now(); 1`)
		tm := measure2(br, scrubTo(i),
			fmt.Sprintf(`__positionIs(%d)`, i), fmt.Sprintf(`__shows(%d)`, i))
		if tm.Paint < slow {
			continue
		}
		frames := eval[string](br, `JSON.stringify(window.__loaf.map(e => ({ms: Math.round(e.duration), blocking: Math.round(e.blockingDuration), scripts: e.scripts.map(s => s.invoker + " " + Math.round(s.duration) + " ms, forced layout " + Math.round(s.forcedStyleAndLayoutDuration))})))`)
		msgs := eval[string](br, `"from " + window.__t0.toFixed(1) + ": " + window.__wlog.join("; ")`)
		t.Logf("move %d to %d: position %.0f ms, state %.0f ms\n  long frames: %s\n  worker: %s", k+1, i, tm.First, tm.Paint, frames, msgs)
	}
}
