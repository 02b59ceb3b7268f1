package e2e

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"txnlab/core/workload"
)

// TestProfileDiagramScroll is a tool, not a test: with PROFILE=1 it
// scrolls BenchmarkDiagramFrames' history as that benchmark does (40 px a
// frame, then four jumps) under a CDP trace and the page's CPU profile,
// and logs what ran inside the longest main-thread tasks.
func TestProfileDiagramScroll(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	n := loadHistory(br, workload.Script(messages10k))
	br.click(`.diagram-tools input[type=checkbox]`) // Show replication
	br.click(button("Run to end"))
	waitPosition(br, n)
	waitBackground(br)
	// As BenchmarkDiagramFrames does before it scrolls.
	stepBackAndForth(br, n)
	time.Sleep(300 * time.Millisecond)
	chromedp.Call(br.ctx, profiler.Enable, cdp.Empty{})
	chromedp.Call(br.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
	chromedp.Call(br.ctx, profiler.Start, cdp.Empty{})
	var res *profiler.Profile
	tasks := longestTasks(br, 6, func() {
		eval[[]float64](br, `new Promise(resolve => {
			const s = document.querySelector(`+jsString(selScroll)+`);
			const stop = window.__frames();
			let k = 0;
			const jumps = [0, s.scrollHeight / 2, s.scrollHeight / 4, s.scrollHeight];
			const tick = () => {
				if (k < 150) s.scrollTop -= 40;
				else if (k < 150 + jumps.length * 10) { if ((k - 150) % 10 === 0) s.scrollTop = jumps[(k - 150) / 10]; }
				else { resolve(stop()); return; }
				k++;
				requestAnimationFrame(tick);
			};
			requestAnimationFrame(tick);
		})`, chromedp.EvalAwaitPromise)
		r, err := chromedp.Call(br.ctx, profiler.Stop, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		res = r.Profile
	})
	for _, tk := range tasks {
		t.Logf("task %.1f ms at %.0f+%.0f: %s", tk.ms, tk.ts, tk.dur, tk.inside)
	}
	logProfile(t, "diagram scroll", res)
}
