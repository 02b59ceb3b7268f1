package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"txnlab/scenarios"
)

// longestLibraryScenario is the library scenario with the longest line.
func longestLibraryScenario(t *testing.T) (slug string, longest int) {
	t.Helper()
	for _, sc := range scenarios.All() {
		for _, l := range strings.Split(sc.Script, "\n") {
			if n := len([]rune(l)); n > longest {
				slug, longest = sc.Slug, n
			}
		}
	}
	if longest < 100 {
		t.Fatalf("the library's longest line has %d characters: the test no longer tests long lines", longest)
	}
	return slug, longest
}

func setViewport(b *browser, w, h int64, mobile bool) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: w, Height: h, DeviceScaleFactor: 1, Mobile: mobile,
	}); err != nil {
		b.t.Fatal(err)
	}
	if mobile {
		if _, err := chromedp.Call(b.ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5}); err != nil {
			b.t.Fatal(err)
		}
	}
}

// TestTheScriptIsReadableWithoutSideScrolling (issue 10, defect 5): the
// editor was 253 px wide at 1280×800 and at 1920×1080, so most of a
// scenario's lines were cut. Now no line needs horizontal scrolling: long
// lines wrap, every line's number sits at the top of its own (wrapped)
// line, and a wide screen gives the script more room.
func TestTheScriptIsReadableWithoutSideScrolling(t *testing.T) {
	needsSite(t)
	slug, longest := longestLibraryScenario(t)
	sc, _ := scenarios.Get(slug)
	widths := map[int64]int{}
	for _, vp := range [][2]int64{{1280, 800}, {1920, 1080}} {
		t.Run(fmt.Sprintf("%dx%d", vp[0], vp[1]), func(t *testing.T) {
			b := newBrowser(t)
			setViewport(b, vp[0], vp[1], false)
			openScenario(b, slug)
			type geometry struct {
				ScrollW, ClientW, ScrollH int
				BackdropH, TextW          int
				Rows                      []struct {
					N, Top, Height int
					Text           string
				}
				Diagram int
				PageW   int
			}
			g := eval[geometry](b, `(() => {
				const ta = document.querySelector(`+jsString(selScript)+`), bd = document.getElementById("script-backdrop");
				const cs = getComputedStyle(ta);
				const rows = [...bd.querySelectorAll(".row")].map(r => ({
					N: +r.querySelector(".ln").textContent, Top: r.offsetTop, Height: r.offsetHeight,
					Text: r.querySelector(".bl").textContent}));
				return {ScrollW: ta.scrollWidth, ClientW: ta.clientWidth, ScrollH: ta.scrollHeight,
					BackdropH: bd.scrollHeight, TextW: Math.round(bd.querySelector(".bl").clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)),
					Rows: rows, Diagram: document.getElementById("diagram-scroll").clientWidth,
					PageW: document.scrollingElement.scrollWidth - innerWidth};
			})()`)
			if g.ScrollW > g.ClientW {
				t.Errorf("the script scrolls sideways: %d px of text in a %d px editor (longest line %d characters)", g.ScrollW, g.ClientW, longest)
			}
			if want := g.ClientW - 20; abs(g.TextW-want) > 1 {
				t.Errorf("the backdrop's text is %d px wide, the textarea's %d: their lines would wrap differently", g.TextW, want)
			}
			if abs(g.ScrollH-g.BackdropH) > 1 {
				t.Errorf("the textarea's text is %d px high, the line numbers' column %d: the numbers drift from their lines", g.ScrollH, g.BackdropH)
			}
			lines := strings.Split(sc.Script, "\n")
			if len(g.Rows) != len(lines) {
				t.Fatalf("%d numbered rows for %d lines", len(g.Rows), len(lines))
			}
			wrapped, top := 0, g.Rows[0].Top
			for i, r := range g.Rows {
				if r.N != i+1 || r.Text != lines[i] || r.Top != top || r.Height%20 != 0 || r.Height < 20 {
					t.Fatalf("row %d: number %d at %d px, %d px high, text %q; want number %d at %d px, a multiple of 20 px, text %q",
						i, r.N, r.Top, r.Height, r.Text, i+1, top, lines[i])
				}
				if r.Height > 20 {
					wrapped++
				}
				top += r.Height
			}
			if vp[0] == 1280 && wrapped == 0 {
				t.Errorf("no line wraps at 1280 px although the longest has %d characters", longest)
			}
			if g.Diagram < 600 {
				t.Errorf("the diagram is %d px wide beside the script: too narrow to use", g.Diagram)
			}
			if g.PageW > 0 {
				t.Errorf("the page is %d px wider than the window", g.PageW)
			}
			widths[vp[0]] = g.ClientW
		})
	}
	if widths[1920] < widths[1280]+200 {
		t.Errorf("the editor is %d px wide at 1920 px and %d px at 1280 px: the wide screen is not used", widths[1920], widths[1280])
	}
}

func abs(x int) int { return max(x, -x) }

// insertText types text where the caret is, as the browser's own input
// does (one input event).
func insertText(b *browser, text string) {
	b.t.Helper()
	if _, err := chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: text}); err != nil {
		b.t.Fatal(err)
	}
}

// ctxWait is waitFor with a long deadline, for a long script's run.
func ctxWait(b *browser, cond string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 3*time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(3*time.Minute))); err != nil {
		b.t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// TestLongScenariosCanBeWatched (issue 10, defect 7): markers-fail has
// almost 3,000 steps (34 minutes at 1×). Faster speeds, playback that
// passes quiet stretches, and "Next interesting step" get through it,
// and every step stays reachable with Step.
func TestLongScenariosCanBeWatched(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "markers-fail")
	_, n := position(b)
	if n < 2000 {
		t.Fatalf("markers-fail has %d steps: the test needs a long history", n)
	}
	for _, s := range []string{"16×", "32×", "64×"} {
		if !eval[bool](b, `[...document.querySelector('select[aria-label="Speed"]').options].some(o => o.textContent === `+jsString(s)+`)`) {
			t.Errorf("no speed %s", s)
		}
	}
	next := `button[data-action="next-interesting"]`
	clicks, last := 0, 0
	for ; clicks < n; clicks++ {
		if eval[string](b, `document.querySelector(`+jsString(next)+`).getAttribute("aria-disabled")`) == "true" {
			break
		}
		b.click(next)
		b.waitFor("a move or the end of the interesting steps", fmt.Sprintf(
			`(() => { const m = (document.querySelector(".status .position") || {}).textContent.match(/^Step (\d+) of/); return (m && +m[1] !== %d) || !!document.querySelector(".action-msg.error") })()`, last))
		if count(b, ".action-msg.error") > 0 {
			break
		}
		pos, _ := position(b)
		if pos <= last {
			t.Fatalf("Next interesting step went from %d to %d", last, pos)
		}
		last = pos
	}
	t.Logf("%d presses of Next interesting step for %d steps (last at %d)", clicks, n, last)
	if clicks < 5 || clicks > n/5 {
		t.Errorf("%d presses of Next interesting step through %d steps: it does not pass the retries", clicks, n)
	}
	// Every step stays reachable: Step from the start.
	b.click(button("Reset"))
	waitPosition(b, 0)
	for i := 1; i <= 3; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
	}

	// Playing with quiet stretches skipped at 64×: it gets to the end,
	// passing steps without stopping at them.
	b.click(`input[data-action="skip-quiet"]`)
	setSpeed(b, 8)
	eval[bool](b, `(() => { window.__seen = []; new MutationObserver(() => {
		const m = (document.querySelector(".status .position") || {}).textContent.match(/^Step (\d+) of/);
		if (m) window.__seen.push(+m[1]); }).observe(document.querySelector(".status"), {subtree: true, childList: true, characterData: true}); return true })()`)
	b.click(button("Play"))
	ctxWait(b, fmt.Sprintf(`(document.querySelector(".status .position") || {}).textContent.startsWith("Step %d of")`, n))
	seen := eval[[]int](b, `window.__seen`)
	t.Logf("playing at 64× with quiet stretches skipped showed %d positions of %d steps", len(seen), n)
	if len(seen) == 0 || len(seen) >= n {
		t.Errorf("playing showed %d positions of %d steps: no step was passed", len(seen), n)
	}
}

// TestThePrerenderedPageTellsTheTruth (issue 10, defect 10): before the
// wasm ran, attributes written selected="false" and checked="false"
// counted as set (the list showed the wrong scenario, the speed 8×, both
// filters ticked), and what the learner typed into the pre-rendered
// editor was dropped when the app started.
func TestThePrerenderedPageTellsTheTruth(t *testing.T) {
	needsSite(t)
	resp, err := http.Get(baseURL + "/playground?scenario=abort")
	if err != nil {
		t.Fatal(err)
	}
	html, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if m := regexp.MustCompile(`\s(selected|checked|disabled|open|hidden)="(false|true)?"`).FindAllString(string(html), -1); len(m) > 0 {
		t.Errorf("the server's page has boolean attributes with values, which browsers read as set: %q", m)
	}

	t.Run("without JavaScript", func(t *testing.T) {
		b := newBrowser(t)
		if _, err := chromedp.Call(b.ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatal(err)
		}
		b.do(chromedp.Navigate(baseURL + "/playground?scenario=abort"))
		type state struct {
			Scenario, Speed string
			Checked         int
			Script          string
		}
		got := eval[state](b, `({Scenario: document.querySelector('select[aria-label="Load a library scenario"]').value,
			Speed: document.querySelector('select[aria-label="Speed"] option:checked').textContent,
			Checked: document.querySelectorAll('input[type=checkbox]:checked').length,
			Script: document.querySelector(`+jsString(selScript)+`).value})`)
		sc, _ := scenarios.Get("abort")
		if got.Scenario != "abort" || got.Speed != "1×" || got.Checked != 0 || got.Script != sc.Script {
			t.Errorf("before the app runs the page shows scenario %q, speed %s, %d boxes ticked, and a script of %d bytes; want abort, 1×, none ticked, abort's script (%d bytes)",
				got.Scenario, got.Speed, got.Checked, len(got.Script), len(sc.Script))
		}
	})

	t.Run("typed before the app starts", func(t *testing.T) {
		b := newBrowser(t)
		release := holdWasm(b) // until the learner has typed
		b.do(chromedp.Navigate(baseURL+"/playground"), chromedp.WaitVisible(chromedp.CSS(selScript)))
		typed := "# typed while the app was loading\n"
		eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); t.setSelectionRange(0, 0); return true })()`)
		insertText(b, typed)
		before := scriptText(b)
		if !strings.HasPrefix(before, typed) {
			t.Fatalf("the pre-rendered editor did not take the typing: %q", before[:min(len(before), 60)])
		}
		release()
		b.do(chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
		waitIdle(b)
		if got := scriptText(b); got != before {
			t.Errorf("the app dropped what was typed before it started: the editor holds %q…", got[:min(len(got), 60)])
		}
	})
}

// TestPhonesAndTablets (issue 10, build "Phones and tablets"): at
// 390×844 no page is wider than the screen, the controls are at least
// 44 px each way, and the diagram pans with a finger; at 768 px the
// script and the diagram are both usable.
func TestPhonesAndTablets(t *testing.T) {
	b := newBrowser(t)
	setViewport(b, 390, 844, true)
	// The controls a finger presses: buttons, lists, inputs, and the
	// links of the header and the toolbars (links inside running text
	// are exempt, as in WCAG 2.5.5).
	const small = `[...document.querySelectorAll("button, select, summary, .site-header a, .lang-switch a, label.tool, label.check, .actions a, .pager a")]
		.filter(e => e.offsetParent !== null && !e.closest(".visually-hidden, svg, .skip-link"))
		.map(e => { const r = e.getBoundingClientRect(); return {what: e.outerHTML.slice(0, 80), w: r.width, h: r.height}; })
		.filter(r => r.w < 44 || r.h < 44)`
	for _, path := range []string{"/", "/lessons", "/lessons/03-transaction-protocols", "/zh/lessons/05-transaction-log", "/lessons/review", "/scenarios", "/compare", "/playground"} {
		b.open(path)
		switch path {
		case "/playground":
			waitIdle(b)
		case "/compare":
			// Edited, so that every button of its row shows (Revert).
			waitIdle(b)
			setField(b, "#cmp-script", eval[string](b, `document.querySelector("#cmp-script").value`)+"# mine\n")
			b.waitFor("Revert", `!!document.querySelector('[data-action="revert"]')`)
		}
		if over := eval[int](b, `document.scrollingElement.scrollWidth - innerWidth`); over > 0 {
			wide := eval[[]string](b, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest(".diagram-scroll, pre, .tab-panel, table")).slice(0, 5).map(e => e.outerHTML.slice(0, 100))`)
			t.Errorf("%s: the page is %d px wider than the phone's screen (%q)", path, over, wide)
		}
		type target struct {
			What string
			W, H float64
		}
		if bad := eval[[]target](b, small); len(bad) > 0 {
			t.Errorf("%s: %d controls smaller than 44×44 px, e.g. %+v", path, len(bad), bad[:min(3, len(bad))])
		}
		// A summary made tall for a finger still shows that it opens:
		// its triangle is a list item's marker, which another display
		// drops ("Teach a class" and "Metrics" lost theirs). The export
		// menu's button has none by design.
		if bare := eval[[]string](b, `[...document.querySelectorAll("summary")]
			.filter(e => e.offsetParent !== null && !e.closest(".export") && getComputedStyle(e).display !== "list-item")
			.map(e => e.outerHTML.slice(0, 80))`); len(bare) > 0 {
			t.Errorf("%s: %d summaries show no disclosure triangle on a phone, e.g. %q", path, len(bare), bare[0])
		}
	}
	// The diagram pans: it is a scrolling box wider and taller than the
	// screen shows, and no element under a finger on it forbids panning
	// (touch-action). Headless Chromium does not scroll on synthesized
	// touch gestures (neither the page nor a box), so the test checks
	// what lets a real finger pan it, then pans it as the browser would.
	runToEnd(b)
	eval[bool](b, `(document.getElementById("diagram-scroll").scrollIntoView({block: "center"}), true)`)
	type pan struct {
		Overflow, Blocked string
		W, CW, H, CH      int
		Moved             bool
		PageX             float64
	}
	got := eval[pan](b, `(() => {
		const d = document.getElementById("diagram-scroll"), r = d.getBoundingClientRect(), cs = getComputedStyle(d);
		let blocked = "";
		for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.75], [0.75, 0.25]]) {
			for (let e = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy); e && e !== document.body; e = e.parentElement) {
				const ta = getComputedStyle(e).touchAction;
				if (ta === "none" || (ta !== "auto" && ta !== "manipulation" && !(ta.includes("pan-x") && ta.includes("pan-y")))) blocked = e.outerHTML.slice(0, 80) + " touch-action: " + ta;
			}
		}
		const l = d.scrollLeft, t = d.scrollTop;
		d.scrollBy(120, -120);
		return {Overflow: cs.overflowX + " " + cs.overflowY, Blocked: blocked, W: d.scrollWidth, CW: d.clientWidth, H: d.scrollHeight, CH: d.clientHeight,
			Moved: d.scrollLeft > l && d.scrollTop < t, PageX: scrollX};
	})()`)
	if got.Overflow != "auto auto" && got.Overflow != "scroll scroll" {
		t.Errorf("the diagram's box has overflow %s: it cannot be panned", got.Overflow)
	}
	if got.Blocked != "" {
		t.Errorf("panning the diagram is forbidden by %s", got.Blocked)
	}
	if got.W <= got.CW || got.H <= got.CH || !got.Moved || got.PageX != 0 {
		t.Errorf("the diagram (%d×%d in a %d×%d box) did not pan inside its box (moved %v, page scrolled %v px)", got.W, got.H, got.CW, got.CH, got.Moved, got.PageX)
	}
	b.shot("phone")

	setViewport(b, 768, 1024, true)
	b.open("/playground")
	waitIdle(b)
	type sizes struct{ ScriptW, ScriptH, DiagramW, DiagramH, Over int }
	s := eval[sizes](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`), d = document.getElementById("diagram-scroll");
		return {ScriptW: t.clientWidth, ScriptH: t.clientHeight, DiagramW: d.clientWidth, DiagramH: d.clientHeight,
			Over: document.scrollingElement.scrollWidth - innerWidth}; })()`)
	if s.ScriptW < 500 || s.ScriptH < 200 || s.DiagramW < 500 || s.DiagramH < 250 || s.Over > 0 {
		t.Errorf("at 768 px: script %d×%d, diagram %d×%d, page %d px too wide; want both at least 500 px wide and usable heights", s.ScriptW, s.ScriptH, s.DiagramW, s.DiagramH, s.Over)
	}
	b.shot("tablet")
}
