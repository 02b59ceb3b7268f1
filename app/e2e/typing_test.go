package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"txnlab/scenarios"
)

// fiveThousandLines is a script of 4,999 lines (one less than the most
// a script may have, so the test can type one more): the happy path, then a
// transaction of commented sends (a line in ten a statement), so the
// history stays a few hundred steps and the editor is what is measured.
func fiveThousandLines(tb testing.TB) string {
	sc, ok := scenarios.Get("happy-path")
	if !ok {
		tb.Fatal("no happy-path scenario")
	}
	var b strings.Builder
	b.WriteString(strings.TrimRight(sc.Script, "\n") + "\napp begin\n")
	n := strings.Count(b.String(), "\n")
	for i := 0; n < 4998; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "app send orders/0 k%d=v  # a record more in the open transaction\n", i)
		} else {
			fmt.Fprintf(&b, "# note %d: what the learner wrote about the step above, at some length\n", i)
		}
		n++
	}
	return b.String() + "app commit"
}

// TestTypingRightAfterAPasteOfALongScriptIsKept (issue 10, defect 6):
// after pasting 5,000 lines every keystroke froze the page for seconds
// (each redrew thousands of go-app elements). What is typed right after
// the paste must all be kept, the line numbers must follow, and the app
// must answer afterwards; BenchmarkTypingInALongScript measures how long
// the page is busy per keystroke.
func TestTypingRightAfterAPasteOfALongScriptIsKept(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	waitIdle(b)
	src := fiveThousandLines(t)
	// The paste: the whole text at once, one input event (Chromium's
	// own insertText takes minutes for 300 kB, in any textarea).
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); return true })()`)
	setScript(b, src)
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.setSelectionRange(t.value.length, t.value.length); return true })()`)
	typed := "\nreader poll"
	b.do(chromedp.KeyEvent(typed))
	ctxWait(b, `!document.querySelector(".status .busy") && !document.querySelector(".editor-status")`)
	if got := scriptText(b); got != src+typed {
		t.Fatalf("the editor lost text: it holds %d characters, want %d (ends %q)", len(got), len(src+typed), got[max(0, len(got)-40):])
	}
	lines := strings.Count(src+typed, "\n") + 1
	if n := count(b, `#script-backdrop .ln`); n != lines {
		t.Errorf("%d line numbers for %d lines", n, lines)
	}
	if last := eval[string](b, `[...document.querySelectorAll("#script-backdrop .bl")].pop().textContent`); last != "reader poll" {
		t.Errorf("the last numbered line reads %q, want the typed one", last)
	}
	// The typed statement ran: the last step is the poll.
	start := time.Now()
	b.click(button("Run to end"))
	ctxWait(b, `(() => { const m = (document.querySelector(".status .position") || {}).textContent.match(/^Step (\d+) of (\d+)$/); return m && m[1] === m[2] })()`)
	t.Logf("run to end: %v", time.Since(start))
	b.click(button("Reset"))
	waitPosition(b, 0)
	b.click(button("Step"))
	waitPosition(b, 1)
}

// TestProfileTyping is a tool, not a test: with PROFILE=1 it samples the
// page's CPU while a key is typed five times at the end of a 5,000-line
// script, and logs the functions by time (see TestProfileMoves).
func TestProfileTyping(t *testing.T) {
	if os.Getenv("PROFILE") == "" {
		t.Skip("PROFILE=1 to profile")
	}
	br := newBenchBrowser(t)
	br.open("/playground")
	waitIdle(br)
	start := time.Now()
	setScript(br, fiveThousandLines(t))
	ctxWait(br, `!document.querySelector(".status .busy") && !document.querySelector(".editor-status")`)
	t.Logf("paste and run: %v", time.Since(start))
	if _, err := chromedp.Call(br.ctx, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	chromedp.Call(br.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 500})
	chromedp.Call(br.ctx, profiler.Start, cdp.Empty{})
	tasks := mainThreadTasks(br, func() {
		for i := 0; i < 5; i++ {
			s := time.Now()
			br.do(chromedp.KeyEvent("x"))
			t.Logf("key %d: %v", i, time.Since(s))
		}
		ctxWait(br, `!document.querySelector(".status .busy") && !document.querySelector(".editor-status")`)
	})
	res, _ := chromedp.Call(br.ctx, profiler.Stop, cdp.Empty{})
	t.Logf("tasks: %v", summarize(tasks))
	logProfile(t, "typing", res.Profile)
}
