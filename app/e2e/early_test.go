package e2e

import (
	"fmt"
	"strings"
	"testing"
	"txnlab/app/playground"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// holdWasm holds the page's app.wasm until release is called: the page
// is the server's, with no app, for as long as the test needs.
func holdWasm(b *browser) (release func()) {
	b.t.Helper()
	held := make(chan struct{})
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			go func() {
				<-held
				chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			}()
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*app.wasm*"}}}); err != nil {
		b.t.Fatal(err)
	}
	return func() { close(held) }
}

// earlyView is what a learner sees of the playground's position.
type earlyView struct {
	Position string // the status's "Step i of n"
	Rows     int    // rows of the diagram
	Cards    int    // nodes in the cluster panel
	Trace    int    // events in the trace
	App      bool   // the wasm app has started (go-app's loader, last in the page, is gone)
}

const readEarlyView = `({
	Position: (document.querySelector(".status .position") || {}).textContent || "",
	Rows: +(document.querySelector("svg.sequence") || {dataset: {}}).dataset.rows || 0,
	Cards: document.querySelectorAll(".cluster .node-card").length,
	Trace: document.querySelectorAll("#trace li").length,
	App: document.readyState !== "loading" && !document.getElementById("app-wasm-loader"),
})`

// TestStepWorksBeforeTheAppStarts (issue 13): the server's page steps
// through the first steps of its history while the wasm is still
// loading, with the diagram, the cluster and the trace of each step, and
// the app, when it starts, carries on from where the learner got to:
// presses past the steps the server rendered are not lost.
func TestStepWorksBeforeTheAppStarts(t *testing.T) {
	for _, tc := range []struct {
		path, step string
	}{
		{"/playground", "Step %d of 52"},
		{"/zh/playground", "第 %d 步 / 共 52 步"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			b := newBrowser(t)
			release := holdWasm(b)
			b.do(chromedp.Navigate(baseURL + tc.path))
			b.waitFor("the server's page", `!!document.querySelector(".playground .status .position")`)
			view := func() earlyView { return eval[earlyView](b, readEarlyView) }
			at0 := view()
			if at0.App || at0.Position != fmt.Sprintf(tc.step, 0) || at0.Rows != 0 {
				t.Fatalf("the server's page at first: %+v", at0)
			}
			stepButton := `.playground button[data-action="step"]`
			for range 3 {
				b.click(stepButton)
			}
			at3 := view()
			if at3.App || at3.Position != fmt.Sprintf(tc.step, 3) || at3.Rows == 0 || at3.Cards == 0 || at3.Trace == 0 {
				t.Fatalf("after three presses of Step on the server's page: %+v; want step 3 drawn, with its diagram, cards and trace", at3)
			}
			b.do(chromedp.KeyEvent(key("ArrowLeft")))
			if got := view(); got.Position != fmt.Sprintf(tc.step, 2) || got.Rows >= at3.Rows || got.Rows == 0 {
				t.Fatalf("← on the server's page: %+v; want step 2, with fewer rows than step 3 (%d)", got, at3.Rows)
			}
			if tc.path == "/zh/playground" {
				noEnglish(t, b, "a step taken before the app started")
			}
			// Past what the server rendered: the app takes the rest.
			for range 10 {
				b.click(stepButton)
			}
			if got := view(); got.Position != fmt.Sprintf(tc.step, playground.EarlySteps) {
				t.Fatalf("ten presses from step 2 on the server's page show %q; want the last step it has, %d", got.Position, playground.EarlySteps)
			}
			// Every position the page shows from here on: the app must
			// not draw an earlier one as it takes over (it used to draw
			// step 0 as it mounted, and the learner's position a frame
			// later).
			eval[bool](b, `(window.__shown = [], new MutationObserver(() => {
				const p = document.querySelector(".status .position");
				if (p) window.__shown.push(p.textContent);
			}).observe(document.body, {subtree: true, childList: true, characterData: true}), true)`)
			release()
			b.do(chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
			waitIdle(b)
			for _, shown := range eval[[]string](b, `window.__shown`) {
				var at int
				if fmt.Sscanf(strings.Fields(shown)[1], "%d", &at); at < playground.EarlySteps {
					t.Errorf("as the app took over, the page showed %q, before the learner's step %d", shown, playground.EarlySteps)
				}
			}
			if got := view(); !got.App || got.Position != fmt.Sprintf(tc.step, 12) {
				t.Fatalf("the app started at %+v; want it at step 12, where the learner's presses took it", got)
			}
			b.click(stepButton)
			b.waitFor("the app's own step", fmt.Sprintf(`(document.querySelector(".status .position") || {}).textContent === %s`, jsString(fmt.Sprintf(tc.step, 13))))
			if errs := b.takeConsoleErrors(); len(errs) > 0 {
				t.Errorf("console errors: %v", errs)
			}
		})
	}
}

// TestEarlyStepsStandAsideForAnotherScript: the server's steps are of
// the library's script; a page that opens with another (typed into the
// editor before the app started) does not step through them, and the
// app opens the typed script at its start.
func TestEarlyStepsStandAsideForAnotherScript(t *testing.T) {
	b := newBrowser(t)
	release := holdWasm(b)
	b.do(chromedp.Navigate(baseURL+"/playground"), chromedp.WaitVisible(chromedp.CSS(selScript)))
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); t.setSelectionRange(0, 0); return true })()`)
	insertText(b, "# mine\n")
	b.click(`.playground button[data-action="step"]`)
	if got := eval[earlyView](b, readEarlyView); got.Position != "Step 0 of 52" || got.Rows != 0 {
		t.Fatalf("Step on the server's page of an edited script: %+v; want nothing drawn of the library's script", got)
	}
	release()
	b.do(chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	waitIdle(b)
	if got := scriptText(b); !strings.HasPrefix(got, "# mine\n") {
		t.Fatalf("the app lost what was typed: %q…", got[:min(len(got), 40)])
	}
	if i, _ := position(b); i != 0 {
		t.Errorf("the app opened the typed script at step %d; want 0", i)
	}
}

// TestTheServersPageShowsWhileTheWasmLoads: go-app's loader covered the
// whole page with a screen that said, in English on the Chinese pages
// too, "Loading the simulator… 0%", so the lesson's text the server sent
// could not be read (nor the playground pressed) until the wasm ran. It
// is a badge in a corner now, which lets clicks through and says only
// the progress.
func TestTheServersPageShowsWhileTheWasmLoads(t *testing.T) {
	b := newBrowser(t)
	release := holdWasm(b)
	defer release()
	b.do(chromedp.Navigate(baseURL + "/zh/lessons/03-transaction-protocols"))
	b.waitFor("the server's page and go-app's loader", `!!document.querySelector("article.lesson h1") && !!document.getElementById("app-wasm-loader")`)
	type seen struct {
		Heading, Button bool
		Loader, Badge   string
	}
	got := eval[seen](b, `(() => {
		const at = (el) => { const r = el.getBoundingClientRect(); const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!hit && (hit === el || el.contains(hit)); };
		const h = document.querySelector("article.lesson h1");
		h.scrollIntoView({block: "center"});
		const headingSeen = at(h);
		const step = document.querySelector(".embedded-playground button");
		step.scrollIntoView({block: "center"});
		const l = document.getElementById("app-wasm-loader"), r = l.getBoundingClientRect();
		return {Heading: headingSeen, Button: at(step), Loader: l.innerText,
			Badge: getComputedStyle(l).position + (r.right > innerWidth - 64 && r.bottom > innerHeight - 64 && r.width < innerWidth / 2 ? " corner" : " elsewhere")};
	})()`)
	if !got.Heading || !got.Button {
		t.Errorf("while the wasm loads, the lesson's heading is seen: %v, a playground's button can be pressed: %v; want both", got.Heading, got.Button)
	}
	// Its styles are in the site's stylesheet (go-app's own is not
	// linked, so a cold load waits for one stylesheet).
	if got.Badge != "fixed corner" {
		t.Errorf("the loader is %q, want a badge fixed in the window's corner", got.Badge)
	}
	if strings.ContainsAny(got.Loader, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t.Errorf("the loader says %q on the Chinese page", got.Loader)
	}
	noEnglish(t, b, "while the wasm loads")
}
