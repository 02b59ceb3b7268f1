package e2e

import (
	"fmt"
	"strings"
	"testing"
	"unicode"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// scrubPos is the playground's position as its scrubber holds it, in
// any language.
const scrubPos = `+document.getElementById("scrubber").value`

// waitScrub waits until the playground is at step i.
func waitScrub(b *browser, i int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("step %d", i), fmt.Sprintf(`%s === %d`, scrubPos, i))
}

// presenterGeometry is what an instructor sees of the presenter view.
type presenterGeometry struct {
	Presenting     bool
	StageW, StageH int // the stage's box, in the window's pixels
	DiagramH       int // the diagram's box, in the window's pixels
	WinW, WinH     int
	Caption, Line  string
	Size           string
	Zoom           float64
	Blank          bool
}

const readPresenter = `(() => {
	const st = document.querySelector(".playground.presenting > .stage");
	const g = {Presenting: !!st, WinW: innerWidth, WinH: innerHeight};
	if (!st) return g;
	const r = st.getBoundingClientRect(), d = document.getElementById("diagram-scroll").getBoundingClientRect();
	g.StageW = Math.round(r.width); g.StageH = Math.round(r.height); g.DiagramH = Math.round(d.height);
	g.Caption = (st.querySelector(".pres-said") || {}).textContent || "";
	g.Line = (st.querySelector(".pres-line") || {}).textContent || "";
	g.Size = (st.querySelector(".pres-size-value") || {}).textContent || "";
	g.Zoom = +getComputedStyle(st).zoom;
	const bl = st.querySelector("[data-blank]");
	g.Blank = !!bl && bl.getBoundingClientRect().width >= innerWidth - 1;
	return g;
})()`

// TestPresenterView is an instructor at a projector (issue 29): P opens
// the presenter view, the diagram fills the screen with the step said
// under it and the script's line beside it, a clicker's PageDown and
// PageUp step, B blanks the screen and brings it back, the type size
// control makes everything larger and is kept for the next time, and
// Esc leaves with the playground where the presentation left it.
func TestPresenterView(t *testing.T) {
	b := newBrowser(t)
	setViewport(b, 1280, 800, false)
	openScenario(b, "happy-path")
	b.click(button("Reset"))
	waitScrub(b, 0)
	eval[bool](b, `(document.activeElement.blur(), true)`)

	b.do(chromedp.KeyEvent("p"))
	b.waitFor("the presenter view", `!!document.querySelector(".playground.presenting")`)
	g := eval[presenterGeometry](b, readPresenter)
	if g.StageW < g.WinW-2 || g.StageH < g.WinH-2 {
		t.Errorf("the presenter view is %d×%d px in a %d×%d window: not the whole screen", g.StageW, g.StageH, g.WinW, g.WinH)
	}
	if g.DiagramH < g.WinH/2 {
		t.Errorf("the diagram is %d px tall in an %d px window", g.DiagramH, g.WinH)
	}
	if g.Size != "150%" || g.Zoom != 1.5 {
		t.Errorf("a first presentation's type is %q (zoom %v), want 150%%", g.Size, g.Zoom)
	}

	b.do(chromedp.KeyEvent(kb.PageDown))
	waitScrub(b, 1)
	b.do(chromedp.KeyEvent(kb.PageDown))
	waitScrub(b, 2)
	b.do(chromedp.KeyEvent(kb.PageUp))
	waitScrub(b, 1)
	b.do(chromedp.KeyEvent(" "))
	waitScrub(b, 2)
	g = eval[presenterGeometry](b, readPresenter)
	if g.Caption == "" || g.Caption[:7] != "Step 2 " {
		t.Errorf("the caption at step 2 says %q", g.Caption)
	}
	if g.Line == "" {
		t.Error("no script line beside the caption")
	}
	if eval[int](b, `+document.querySelector(`+jsString(selDiagram)+`).dataset.rows`) == 0 {
		t.Error("PageDown drew nothing in the diagram")
	}
	b.do(chromedp.KeyEvent(kb.End))
	_, n := position(b)
	waitScrub(b, n)
	// The newest row is drawn at the end: the view's zoom does not
	// confuse which rows are on screen.
	if ok := eval[bool](b, `(() => { const d = document.querySelector(`+jsString(selDiagram)+`).dataset; return +d.last >= +d.rows; })()`); !ok {
		t.Error("at the end, the newest rows are not drawn in the presenter view")
	}
	b.do(chromedp.KeyEvent(kb.Home))
	waitScrub(b, 0)

	b.do(chromedp.KeyEvent("b"))
	b.waitFor("the blank screen", `!!document.querySelector("[data-blank]")`)
	if g := eval[presenterGeometry](b, readPresenter); !g.Blank {
		t.Error("B did not blank the whole screen")
	}
	b.do(chromedp.KeyEvent("b"))
	b.waitFor("the screen back", `!document.querySelector("[data-blank]")`)

	b.click(`[data-action="pres-larger"]`)
	b.waitFor("larger type", `document.querySelector(".pres-size-value").textContent === "175%"`)
	if g := eval[presenterGeometry](b, readPresenter); g.Zoom != 1.75 {
		t.Errorf("after A+ the view's zoom is %v, want 1.75", g.Zoom)
	}
	b.shot("presenting")

	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitFor("the playground again", `!document.querySelector(".playground.presenting") && !!document.querySelector(".playground .editor")`)
	if v := eval[bool](b, `getComputedStyle(document.querySelector(".playground .editor")).display !== "none"`); !v {
		t.Error("the editor is hidden after leaving the presenter view")
	}

	// The size is kept: the next presentation starts at it.
	b.click(`[data-action="present"]`)
	b.waitFor("the presenter view again", `!!document.querySelector(".playground.presenting")`)
	if g := eval[presenterGeometry](b, readPresenter); g.Size != "175%" {
		t.Errorf("the presenter view opened again at %q, want the 175%% chosen before", g.Size)
	}
	b.click(`[data-action="pres-exit"]`)
	b.waitFor("the playground again", `!document.querySelector(".playground.presenting")`)

	// The shortcuts' help lists the presenter's keys.
	b.do(chromedp.KeyEvent("?"))
	b.waitFor("the help", `document.getElementById("shortcuts").open`)
	if help := b.text("#shortcuts"); !containsAll(help, "PageDown / PageUp", "Enter or leave the presenter view", "blank the screen") {
		t.Errorf("the shortcuts' help does not list the presenter's keys: %q", help)
	}
}

// TestPresenterViewInChinese: on /zh/playground the presenter view's
// controls, caption and help are Chinese, and no English sentence shows.
func TestPresenterViewInChinese(t *testing.T) {
	b := newBrowser(t)
	setViewport(b, 1280, 800, false)
	b.open("/zh/playground?scenario=happy-path")
	waitIdle(b)
	b.click(`[data-action="present"]`)
	b.waitFor("the presenter view", `!!document.querySelector(".playground.presenting")`)
	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.do(chromedp.KeyEvent(kb.PageDown))
	b.waitFor("a step", scrubPos+` >= 1`)
	bar := b.text(".pres-bar")
	if !containsAll(bar, "演示视图", "字号", "黑屏", "退出") {
		t.Errorf("the presenter's controls are not Chinese: %q", bar)
	}
	if said := b.text(".pres-said"); !hasHan(said) {
		t.Errorf("the caption is not Chinese: %q", said)
	}
	if bad := eval[[]string](b, englishOnPage); len(bad) > 0 {
		t.Errorf("English on the Chinese presenter view: %q", bad)
	}

	// A Chinese lesson presented.
	b.open("/zh/lessons/03-transaction-protocols")
	b.click(`.lesson-body [data-action="present"]`)
	b.waitFor("the presentation", `!!document.querySelector(".lesson-presenter")`)
	if bar := b.text(".lesson-presenter .pres-bar"); !containsAll(bar, "演示视图", "上一项", "下一项", "共") {
		t.Errorf("the lesson presenter's controls are not Chinese: %q", bar)
	}
	if bad := eval[[]string](b, englishOnPage); len(bad) > 0 {
		t.Errorf("English on the Chinese lesson presenter: %q", bad)
	}
}

// TestTheDiagramFitsBesideTheScriptAt1280 (issue 26): at 1280×800 the
// happy path's diagram is not cut off at the right and is more than a
// strip.
func TestTheDiagramFitsBesideTheScriptAt1280(t *testing.T) {
	b := newBrowser(t)
	setViewport(b, 1280, 800, false)
	openScenario(b, "happy-path")
	runToEnd(b)
	type fit struct{ Box, Drawn, Height int }
	f := eval[fit](b, `(() => { const s = document.getElementById("diagram-scroll");
		return {Box: s.clientWidth, Drawn: s.scrollWidth, Height: s.clientHeight}; })()`)
	if f.Drawn > f.Box {
		t.Errorf("the diagram is %d px wide in a %d px box: cut off at the right", f.Drawn, f.Box)
	}
	if f.Height < 420 {
		t.Errorf("the diagram's box is %d px tall at 1280×800", f.Height)
	}
}

// containsAll reports whether s holds every one of parts.
func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// hasHan reports whether s has a Chinese character.
func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

// TestLessonPresenter: a lesson presented one block at a time. P opens
// it at the first block; Next and Previous move between blocks; on a
// playground, PageDown steps (the first press runs a playground that
// waits for its question) and at the end moves to the next block; Esc
// gives the lesson back.
func TestLessonPresenter(t *testing.T) {
	b := newBrowser(t)
	setViewport(b, 1280, 800, false)
	b.open("/lessons/03-transaction-protocols")
	b.waitFor("the lesson", `!!document.querySelector(".lesson-body [data-action=present]")`)
	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.do(chromedp.KeyEvent("p"))
	b.waitFor("the presentation", `!!document.querySelector(".lesson-presenter")`)
	slide := `+document.querySelector(".pres-slide").dataset.slide`
	if n := eval[int](b, slide); n != 0 {
		t.Fatalf("the presentation opened at block %d", n)
	}
	if n := eval[int](b, `document.querySelectorAll(".lesson-presenter .embedded-playground, .lesson-presenter .question-card, .lesson-presenter .exercise-card").length`); n != 1 {
		t.Errorf("%d blocks shown at once, want 1", n)
	}
	b.click(`[data-action="pres-next"]`)
	b.waitFor("block 2", slide+` === 1`)
	b.click(`[data-action="pres-prev"]`)
	b.waitFor("block 1", slide+` === 0`)

	// The first playground: step it with the clicker's keys.
	for i := 0; i < 20 && !eval[bool](b, `!!document.querySelector(".lesson-presenter .embedded-playground")`); i++ {
		b.click(`[data-action="pres-next"]`)
		b.waitFor("the next block", fmt.Sprintf(`%s === %d`, slide, i+1))
	}
	at := eval[int](b, slide)
	scrub := `+(document.querySelector(".lesson-presenter .scrub") || {}).value`
	eval[bool](b, `(document.activeElement.blur(), true)`)
	if eval[string](b, `document.querySelector(".lesson-presenter .embedded-playground").dataset.state`) != "ready" {
		b.do(chromedp.KeyEvent(kb.PageDown)) // runs a playground that waits
	}
	b.waitFor("the playground's run", `document.querySelector(".lesson-presenter .embedded-playground").dataset.state === "ready"`)
	p0 := eval[int](b, scrub)
	b.do(chromedp.KeyEvent(kb.PageDown))
	b.waitFor("a step", fmt.Sprintf(`%s === %d`, scrub, p0+1))
	if said := eval[string](b, `(document.querySelector(".lesson-presenter .pres-said") || {}).textContent || ""`); !strings.HasPrefix(said, "Step ") {
		t.Errorf("the presented playground's caption says %q", said)
	}
	// The diagram takes the width and the height the block leaves (its
	// facts, here six lines, stay under it), and the caption is on screen.
	type box struct{ DiagramH, DiagramW, CaptionBottom, WinH, WinW int }
	g := eval[box](b, `(() => { const r = document.querySelector(".lesson-presenter .diagram-scroll").getBoundingClientRect();
		const c = document.querySelector(".lesson-presenter .pres-caption").getBoundingClientRect();
		return {DiagramH: Math.round(r.height), DiagramW: Math.round(r.width), CaptionBottom: Math.round(c.bottom), WinH: innerHeight, WinW: innerWidth}; })()`)
	if g.DiagramH < g.WinH*2/5 || g.DiagramW < g.WinW*9/10 {
		t.Errorf("the presented playground's diagram is %d×%d px in a %d×%d window: not full-width and tall", g.DiagramW, g.DiagramH, g.WinW, g.WinH)
	}
	if g.CaptionBottom > g.WinH {
		t.Errorf("the caption ends at %d px, below the %d px window", g.CaptionBottom, g.WinH)
	}
	b.shot("playground")
	b.do(chromedp.KeyEvent(kb.PageUp))
	b.waitFor("a step back", fmt.Sprintf(`%s === %d`, scrub, p0))
	b.do(chromedp.KeyEvent(kb.End))
	b.waitFor("the end", scrub+` === +document.querySelector(".lesson-presenter .scrub").max`)
	b.do(chromedp.KeyEvent(kb.PageDown))
	b.waitFor("the next block after the playground's end", fmt.Sprintf(`%s === %d`, slide, at+1))
	b.shot("lesson")
	// From a choice just clicked, the clicker still moves on.
	if eval[bool](b, `!!document.querySelector(".lesson-presenter input[type=radio]")`) {
		b.click(`.lesson-presenter input[type=radio]`)
		b.do(chromedp.KeyEvent(kb.PageDown))
		b.waitFor("the block after the question", fmt.Sprintf(`%s === %d`, slide, at+2))
	}

	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitFor("the lesson again", `!document.querySelector(".lesson-presenter") && document.querySelectorAll(".lesson-body .embedded-playground").length > 1`)
}
