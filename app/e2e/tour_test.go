package e2e

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/scenarios"
)

// shareLink is the fragment the Share button writes for a script at a
// step (app/playground/share.go): the script deflated, URL-safe base64.
func shareLink(t *testing.T, script string, step int) string {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(script))
	w.Close()
	return "#s=" + base64.RawURLEncoding.EncodeToString(b.Bytes()) + "&p=" + strconv.Itoa(step)
}

// TestTourOfTheIssue is issue 10's "done when", as one learner's visit:
// on a phone-sized screen, in Chinese, with the keyboard alone, open a
// shared link to the coordinator-epoch scenario, step to the late marker,
// read in the message panel why the broker rejected it, go back and break
// coordinator-epoch, follow the red invariant to the record that leaked,
// export the diagram, and reload: the script and the step are kept,
// nothing is in English, and the app still answers.
func TestTourOfTheIssue(t *testing.T) {
	sc, ok := scenarios.Get("coordinator-epoch")
	if !ok {
		t.Fatal("no coordinator-epoch scenario in the library")
	}
	script := sc.Script
	b := newBrowser(t)
	setViewport(b, 390, 844, true)
	b.open("/zh/playground" + shareLink(t, script, 0))
	waitIdle(b)
	b.waitFor("the shared script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(script))
	if got := eval[string](b, `document.documentElement.lang`); got != "zh-CN" {
		t.Fatalf("<html lang=%q>", got)
	}
	eval[bool](b, `(document.activeElement?.blur(), true)`)

	// Step with the arrow key until the stale marker's answer is drawn.
	fenced := `document.querySelector('svg [data-msg][data-error="TRANSACTION_COORDINATOR_FENCED"]')`
	_, n := pos(b)
	pressUntil(b, "the late marker refused", kb.ArrowRight, 0, n+1, `!!`+fenced)

	// Focus that arrow and open it with Enter. (Tabbing to an arrow is
	// TestKeyboardOnlyRun's; here the diagram's tab order runs through
	// hundreds of arrows, so the focus is put on it directly.)
	eval[bool](b, `(`+fenced+`.focus(), true)`)
	b.waitFor("the refused marker's arrow focused", `document.activeElement === `+fenced)
	b.do(chromedp.KeyEvent(kb.Enter))
	b.waitFor("the message panel with the error", `(document.querySelector("#message-panel[data-msg]")?.textContent || "").includes("TRANSACTION_COORDINATOR_FENCED")`)
	if bad := eval[[]string](b, englishOnPage); len(bad) > 0 {
		t.Errorf("English on the Chinese page at the refused marker: %q", bad)
	}

	// Back to the start, then break coordinator-epoch from the Break tab.
	eval[bool](b, `(document.activeElement?.blur(), true)`)
	b.do(chromedp.KeyEvent(kb.Home))
	waitPos(b, 0)
	pressUntil(b, "the inspector's tabs", kb.Tab, 0, 400, `document.activeElement?.getAttribute("role") === "tab"`)
	pressUntil(b, "the Break tab", kb.ArrowRight, 0, 8, `document.activeElement?.id === "tab-break"`)
	sw := `.switch-row[data-mechanism="coordinator-epoch"] button[role=switch]`
	pressUntil(b, "the coordinator-epoch switch", kb.Tab, 0, 20, `document.activeElement?.matches(`+jsString(sw)+`) === true`)
	b.do(chromedp.KeyEvent(" "))
	b.waitFor("break in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("break coordinator-epoch")`)
	waitIdle(b)

	// Run to the end and follow the red invariant to its evidence.
	b.do(chromedp.KeyEvent(kb.End))
	_, n = pos(b)
	waitPos(b, n)
	pressUntil(b, "back on the tabs", kb.Tab, chromedp.ModifierShift, 30, `document.activeElement?.getAttribute("role") === "tab"`)
	pressUntil(b, "the Invariants tab", kb.ArrowLeft, 0, 8, `document.activeElement?.id === "tab-invariants"`)
	red := `.invariant[data-status="violated"]`
	b.waitFor("a red invariant", `!!document.querySelector(`+jsString(red)+`)`)
	pressUntil(b, "an evidence link focused", kb.Tab, 0, 60, `!!document.activeElement?.matches(".event-link")`)
	msg := eval[string](b, `document.activeElement.dataset.msg || ""`)
	b.do(chromedp.KeyEvent(kb.Enter))
	if msg != "" && msg != "0" {
		b.waitFor("the evidence's message open", `document.querySelector("#message-panel")?.dataset.msg === `+jsString(msg))
	}
	afterFollow, _ := pos(b)
	if afterFollow >= n {
		t.Errorf("following the evidence stayed at the end (step %d of %d)", afterFollow, n)
	}
	if bad := eval[[]string](b, englishOnPage); len(bad) > 0 {
		t.Errorf("English on the Chinese page at the evidence: %q", bad)
	}

	// Export the diagram: a whole SVG comes out.
	eval[bool](b, `(() => { window.__blobs = []; const o = URL.createObjectURL; URL.createObjectURL = x => { window.__blobs.push(x); return o.call(URL, x) }; return true })()`)
	eval[bool](b, `(() => { document.querySelector("details.export").open = true; document.querySelector("details.export .menu-item").click(); return true })()`)
	b.waitFor("the export", `window.__blobs.length === 1`)
	if svg := eval[string](b, `window.__blobs[0].text()`, chromedp.EvalAwaitPromise); !strings.Contains(svg, "<svg") || !strings.Contains(svg, "WriteTxnMarkers") {
		t.Errorf("the export is not the diagram: %.200q", svg)
	}

	// Reload: nothing lost, nothing in English, the app answers.
	edited := eval[string](b, `document.querySelector(`+jsString(selScript)+`).value`)
	b.do(chromedp.Reload(), chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	waitIdle(b)
	b.waitFor("the edited script after the reload", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(edited))
	b.waitFor("the same step after the reload", `document.querySelector(".status .position")?.dataset.pos === "`+strconv.Itoa(afterFollow)+`"`)
	eval[bool](b, `(document.activeElement?.blur(), true)`)
	b.do(chromedp.KeyEvent(kb.Home))
	waitPos(b, 0)
	b.do(chromedp.KeyEvent(kb.ArrowRight))
	waitPos(b, 1)
	if bad := eval[[]string](b, englishOnPage); len(bad) > 0 {
		t.Errorf("English on the Chinese page after the reload: %q", bad)
	}
	if w := eval[float64](b, `document.scrollingElement.scrollWidth - innerWidth`); w > 0 {
		t.Errorf("the phone-sized page scrolls sideways by %.0f px", w)
	}
}
