package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"txnlab/core/safety"
	"txnlab/lessons"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// The exercise card in a browser (issue 24): a goal exercise failed, then
// solved by typing; an attack solved with the explorer's script; and the
// explorer's time to find and shrink an attack for each mechanism. The
// shipped course may not have an exercise of every kind yet, so these
// run on a course of their own: lessons/testdata/exercises (a goal and
// an attack) and a lesson written here with an attack per mechanism.

// exerciseSel is the CSS selector of an exercise card.
func exerciseSel(id string) string { return `[data-exercise="` + id + `"]` }

func exerciseState(b *browser, id string) string {
	return eval[string](b, `document.querySelector(`+jsString(exerciseSel(id))+`)?.dataset.state ?? ""`)
}

func waitExerciseState(b *browser, id, state string) {
	b.t.Helper()
	b.waitFor(id+" "+state, `document.querySelector(`+jsString(exerciseSel(id))+`)?.dataset.state === `+jsString(state))
}

// typeAtEnd types text at the end of an exercise's script, key by key, as
// a learner does (Enter for each newline).
func typeAtEnd(b *browser, id, text string) {
	b.t.Helper()
	ta := exerciseSel(id) + ` textarea`
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(ta)+`); t.focus(); t.setSelectionRange(t.value.length, t.value.length); return true })()`)
	b.do(chromedp.KeyEvent(text))
}

func scriptOf(b *browser, id string) string {
	return eval[string](b, `document.querySelector(`+jsString(exerciseSel(id)+` textarea`)+`).value`)
}

// attackLesson is a lesson (in lang) with an attack exercise for every
// mechanism, each solved by the script the explorer finds natively.
func attackLesson(t *testing.T, lang doc.Lang) string {
	t.Helper()
	var b strings.Builder
	if lang == doc.Chinese {
		b.WriteString("---\ntitle: 攻击\nsummary: 每个机制一个攻击。\norder: 2\n---\n\n每个机制一个练习。\n\n")
	} else {
		b.WriteString("---\ntitle: Attacks\nsummary: One attack per mechanism.\norder: 2\n---\n\nOne exercise per mechanism.\n\n")
	}
	for _, m := range safety.Mechanisms {
		x := attackExercise(m)
		sol := explored(t, x)
		config := ""
		if x.Config != "" {
			config = ` config="` + x.Config + `"`
		}
		prompt, explain := "Make the checker report what "+m.Name+" protects.", "It was switched off."
		if lang == doc.Chinese {
			prompt, explain = "让检查器报告这个机制所保护的性质。", "它被关掉了。"
		}
		fmt.Fprintf(&b, "```exercise id=%s kind=attack break=%s%s\n%s\n\nstart:\n  cluster brokers=3\nexplain: %s\nsolution:\n%swrong:\n  cluster brokers=3\n```\n\n",
			x.ID, m.Name, config, prompt, explain, indent(sol))
	}
	return b.String()
}

func attackExercise(m *safety.Mechanism) *doc.Exercise {
	x := &doc.Exercise{ID: "x-attack-" + m.Name, Kind: doc.ExerciseAttack, Break: m.Name, Start: "cluster brokers=3\n"}
	if m.TV2 {
		x.Config = "transaction.version=2"
	}
	return x
}

var exploredCache = map[string]string{}

// explored is the script the explorer finds for x, natively.
func explored(t *testing.T, x *doc.Exercise) string {
	t.Helper()
	if s, ok := exploredCache[x.ID]; ok {
		return s
	}
	e, err := exercise.NewExplorer(x, 1, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for !e.Work(64) {
	}
	if e.State().Phase != exercise.PhaseFound {
		t.Fatalf("%s: the explorer found nothing natively", x.ID)
	}
	exploredCache[x.ID] = e.State().Script
	return e.State().Script
}

func indent(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// exerciseCourse serves the exercise course for the test and gives the
// shared server its own course back afterwards (the pre-rendering reads
// one course for the process).
func exerciseCourse(t *testing.T) string {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
	fsys := fstest.MapFS{}
	dir := filepath.Join(repoRoot, "lessons", "testdata", "exercises")
	for _, name := range []string{"01-do.md", "01-do.zh.md"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		fsys[name] = &fstest.MapFile{Data: data}
	}
	fsys["02-attacks.md"] = &fstest.MapFile{Data: []byte(attackLesson(t, doc.English))}
	fsys["02-attacks.zh.md"] = &fstest.MapFile{Data: []byte(attackLesson(t, doc.Chinese))}
	course, err := lessons.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return serveCourse(t, course)
}

// TestExerciseGoalFailedThenSolved: a wrong attempt marks the goal line
// that does not hold with the run's value and offers a hint; Reset and
// typing the solution solves it; a reload keeps it solved with the
// learner's script.
func TestExerciseGoalFailedThenSolved(t *testing.T) {
	base := exerciseCourse(t)
	b := newBrowser(t)
	const id = "x-abort"
	b.openURL(base + "/lessons/01-do")
	b.waitFor("the card", `!!document.querySelector(`+jsString(exerciseSel(id)+` [data-action="check"]`)+`)`)
	if got := exerciseState(b, id); got != "unsolved" {
		t.Fatalf("a fresh learner's exercise is %q", got)
	}
	if n := count(b, exerciseSel(id)+` a[href="/lessons/00-scenario-language"]`); n != 1 {
		t.Errorf("%d links to the primer", n)
	}

	typeAtEnd(b, id, "p commit\nrun\n")
	b.click(exerciseSel(id) + ` [data-action="check"]`)
	waitExerciseState(b, id, "failed")
	miss := b.text(exerciseSel(id) + ` li.missed[data-goal="0"]`)
	if !strings.Contains(miss, "state=CompleteAbort") || !strings.Contains(miss, "state=CompleteCommit") {
		t.Errorf("the failed goal line says %q", miss)
	}
	if n := count(b, exerciseSel(id)+` li.held[data-goal="1"]`); n != 1 {
		t.Error("the goal line that holds is not marked so")
	}
	if n := count(b, exerciseSel(id)+` .explanation`); n != 0 {
		t.Error("the explanation shows after a failure")
	}
	b.click(exerciseSel(id) + ` [data-action="hint"]`)
	b.waitFor("the hint", `!!document.querySelector(`+jsString(exerciseSel(id)+` .hint`)+`)`)
	b.shot("1-failed")

	b.click(exerciseSel(id) + ` [data-action="reset"]`)
	b.waitFor("the start script back", `document.querySelector(`+jsString(exerciseSel(id)+` textarea`)+`).value.trim().endsWith("p send orders/0 k=a")`)
	typeAtEnd(b, id, "p abort\nrun\n")
	b.click(exerciseSel(id) + ` [data-action="check"]`)
	waitExerciseState(b, id, "solved")
	if n := count(b, exerciseSel(id)+` li.missed`); n != 0 {
		t.Errorf("%d marks of failure once solved", n)
	}
	if n := count(b, exerciseSel(id)+` .explanation`); n != 1 {
		t.Error("no explanation once solved")
	}
	b.shot("2-solved")

	b.openURL(base + "/lessons/01-do")
	b.waitFor("the card", `!!document.querySelector(`+jsString(exerciseSel(id)+` [data-action="check"]`)+`)`)
	waitExerciseState(b, id, "solved")
	if s := scriptOf(b, id); !strings.HasSuffix(strings.TrimSpace(s), "p abort\nrun") {
		t.Errorf("after a reload the script is %q", s)
	}
}

// TestExerciseAttackSolvedByTheExplorer: on the Chinese page, the
// explorer runs (and stops when asked), then finds an attack whose
// script, put in the editor, solves the exercise.
func TestExerciseAttackSolvedByTheExplorer(t *testing.T) {
	base := exerciseCourse(t)
	b := newBrowser(t)
	const id = "x-attack-coordinator-epoch"
	b.openURL(base + "/zh/lessons/02-attacks")
	sel := exerciseSel(id)
	b.waitFor("the card", `!!document.querySelector(`+jsString(sel+` [data-action="explore"]`)+`)`)
	b.click(sel + ` [data-action="explore"]`)
	b.waitFor("the Stop button", `!!document.querySelector(`+jsString(sel+` [data-action="stop-explore"]`)+`)`)
	if n := count(b, sel+` progress`); n != 1 {
		t.Error("no progress bar while the explorer runs")
	}
	b.click(sel + ` [data-action="stop-explore"]`)
	b.waitFor("stopped", `document.querySelector(`+jsString(sel+` [data-explorer]`)+`).dataset.explorer === "stopped"`)

	b.click(sel + ` [data-action="explore"]`)
	waitExplored(b, sel, time.Minute)
	b.shot("1-found")
	found := eval[string](b, `document.querySelector(`+jsString(sel+` [data-explored]`)+`).textContent`)
	b.click(sel + ` [data-action="use-explored"]`)
	b.waitFor("the script in the editor", `document.querySelector(`+jsString(sel+` textarea`)+`).value === `+jsString(found))
	b.click(sel + ` [data-action="check"]`)
	waitExerciseState(b, id, "solved")
	if n := count(b, sel+` li.held[data-run="broken"]`) + count(b, sel+` li.held[data-run="on"]`); n != 2 {
		t.Errorf("%d of the two runs marked held", n)
	}
	if engine := eval[string](b, `document.documentElement.dataset.engine ?? ""`); engine != "worker" {
		t.Errorf("the explorer ran with the engine %q, not in the worker", engine)
	}
}

// waitExplored polls until the explorer has found an attack (or found
// none, which fails).
func waitExplored(b *browser, sel string, limit time.Duration) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, limit)
	defer cancel()
	cond := `["found", "none"].includes(document.querySelector(` + jsString(sel+` [data-explorer]`) + `)?.dataset.explorer)`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for the explorer on %s: %v", sel, err)
	}
	if got := eval[string](b, `document.querySelector(`+jsString(sel+` [data-explorer]`)+`).dataset.explorer`); got != "found" {
		b.t.Fatalf("the explorer on %s ended %s", sel, got)
	}
}

// TestExplorerTimeInTheBrowser measures, for each mechanism of the table,
// the explorer's time from the click to the shrunk attack shown (in the
// engine's worker), and checks that the attack solves the exercise. The
// log is the figure the note reports.
func TestExplorerTimeInTheBrowser(t *testing.T) {
	base := exerciseCourse(t)
	b := newBrowser(t)
	b.openURL(base + "/lessons/02-attacks")
	var total time.Duration
	for _, m := range safety.Mechanisms {
		id := "x-attack-" + m.Name
		sel := exerciseSel(id)
		b.waitFor("the card", `!!document.querySelector(`+jsString(sel+` [data-action="explore"]`)+`)`)
		start := time.Now()
		b.click(sel + ` [data-action="explore"]`)
		waitExplored(b, sel, 2*time.Minute)
		took := time.Since(start)
		total += took
		found := eval[string](b, `document.querySelector(`+jsString(sel+` [data-explored]`)+`).textContent`)
		lines := strings.Count(strings.TrimSpace(found), "\n") + 1
		b.click(sel + ` [data-action="use-explored"]`)
		// The editor grows to the script: click Check once it has.
		b.waitFor("the script in the editor", `document.querySelector(`+jsString(sel+` textarea`)+`).value === `+jsString(found))
		b.click(sel + ` [data-action="check"]`)
		waitExerciseState(b, id, "solved")
		t.Logf("explorer in the browser: %-22s found and shrunk in %6d ms (%d statements)", m.Name, took.Milliseconds(), lines)
	}
	t.Logf("explorer in the browser: all %d in %d ms, engine %s", len(safety.Mechanisms), total.Milliseconds(), eval[string](b, `document.documentElement.dataset.engine ?? ""`))
}

// TestExplorerOnThePage: with no worker (?engine=page) the explorer runs
// on the page in slices, and the page keeps answering while it does.
func TestExplorerOnThePage(t *testing.T) {
	base := exerciseCourse(t)
	b := newBrowser(t)
	b.openURL(base + "/lessons/02-attacks?engine=page")
	// coordinator-epoch first: its search is the longest, and the first
	// exploration on a page carries the browser's compiling of the
	// explorer's code (below).
	for _, m := range []*safety.Mechanism{safety.CoordinatorEpoch, safety.SequenceCheck} {
		id := "x-attack-" + m.Name
		sel := exerciseSel(id)
		b.waitFor("the card", `!!document.querySelector(`+jsString(sel+` [data-action="explore"]`)+`)`)
		// Every gap between two frames over 200 ms while it explores:
		// the page is frozen then.
		eval[bool](b, `(() => { window.xGaps = []; let last = performance.now(); window.xRun = true;
			const tick = (now) => { if (now - last > 200) window.xGaps.push(now - last); last = now; if (window.xRun) requestAnimationFrame(tick) };
			requestAnimationFrame(tick); return true })()`)
		start := time.Now()
		b.click(sel + ` [data-action="explore"]`)
		waitExplored(b, sel, 2*time.Minute)
		took := float64(time.Since(start).Milliseconds())
		gaps := eval[[]float64](b, `(() => { window.xRun = false; return window.xGaps })()`)
		found := eval[string](b, `document.querySelector(`+jsString(sel+` [data-explored]`)+`).textContent`)
		b.click(sel + ` [data-action="use-explored"]`)
		b.waitFor("the script in the editor", `document.querySelector(`+jsString(sel+` textarea`)+`).value === `+jsString(found))
		b.click(sel + ` [data-action="check"]`)
		waitExerciseState(b, id, "solved")
		if engine := eval[string](b, `document.documentElement.dataset.engine ?? ""`); engine != "page" {
			t.Errorf("engine %q, want page", engine)
		}
		slices.Sort(gaps)
		longest, frozen := 0.0, 0.0
		if len(gaps) > 0 {
			longest = gaps[len(gaps)-1]
			for _, g := range gaps[:len(gaps)-1] {
				frozen += g
			}
		}
		// A shrink candidate once ran whole (five seeds) between two
		// frames: coordinator-epoch's search froze the page in stretches
		// of 650 to 2,050 ms, 5.5 s of 7.1 s, on a quiet machine
		// (2026-12-05). Runs now pause between seeds and every few
		// thousand steps: 50-90 ms there. What no
		// slicing cuts is the first exploration's first slices, where
		// Chromium compiles the explorer's code on its first call (500 +
		// 330 ms here lazily, 170 + 50 ms with
		// --no-wasm-lazy-compilation); a slow machine stretches it (2.9 s
		// in CI). So the longest freeze is allowed to be long, but not
		// the whole search; the others together must stay under a third
		// of it. Both are ratios, which a loaded machine stretches alike.
		if longest > took*2/3 {
			t.Errorf("%s: the page went %.0f ms without a frame in a %.0f ms search", m.Name, longest, took)
		}
		if frozen > took/3 {
			t.Errorf("%s: besides its longest, the page was frozen %.0f ms of a %.0f ms search, in %d stretches over 200 ms: %.0f",
				m.Name, frozen, took, len(gaps)-1, gaps)
		}
		t.Logf("explorer on the page: %-18s found and shrunk in %5.0f ms, longest frame gap %.0f ms, %d more over 200 ms (%.0f ms)", m.Name, took, longest, max(len(gaps)-1, 0), frozen)
	}
}

// TestExerciseCardOnAPhone: at 390 px the cards, failed and with the
// explorer's script shown, scroll nothing sideways and every button is a
// finger's size.
func TestExerciseCardOnAPhone(t *testing.T) {
	base := exerciseCourse(t)
	b := newBrowser(t)
	setViewport(b, 390, 844, true)
	check := func(what string) {
		t.Helper()
		if over := eval[int](b, `document.scrollingElement.scrollWidth - innerWidth`); over > 0 {
			wide := eval[[]string](b, `[...document.querySelectorAll(".exercise *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("pre")).slice(0, 5).map(e => e.outerHTML.slice(0, 100))`)
			t.Errorf("%s: the page is %d px wider than the phone (%q)", what, over, wide)
		}
		small := eval[[]string](b, `[...document.querySelectorAll(".exercise button, .exercise a.button")].filter(e => e.offsetParent !== null)
			.filter(e => { const r = e.getBoundingClientRect(); return r.width < 44 || r.height < 44 }).map(e => e.outerHTML.slice(0, 80))`)
		if len(small) > 0 {
			t.Errorf("%s: buttons under 44 px: %q", what, small)
		}
	}
	b.openURL(base + "/lessons/01-do")
	const id = "x-abort"
	b.waitFor("the card", `!!document.querySelector(`+jsString(exerciseSel(id)+` [data-action="check"]`)+`)`)
	typeAtEnd(b, id, "p commit\nrun\nadvance 1s\n")
	b.click(exerciseSel(id) + ` [data-action="check"]`)
	waitExerciseState(b, id, "failed")
	check("a failed goal exercise")
	b.openURL(base + "/zh/lessons/02-attacks")
	sel := exerciseSel("x-attack-epoch-bump")
	b.waitFor("the card", `!!document.querySelector(`+jsString(sel+` [data-action="explore"]`)+`)`)
	b.click(sel + ` [data-action="explore"]`)
	waitExplored(b, sel, time.Minute)
	check("an attack with the explorer's script")
}

// TestExplorerWhenTheWorkerFails: a worker that cannot start, or that
// dies in the middle of an exploration, leaves the explorer on the page,
// where it finds the same attack.
func TestExplorerWhenTheWorkerFails(t *testing.T) {
	base := exerciseCourse(t)
	const id = "x-attack-coordinator-epoch"
	sel := exerciseSel(id)
	want := explored(t, attackExercise(safety.CoordinatorEpoch))
	for _, how := range []struct {
		name   string
		broken bool   // the worker's script is missing
		kill   string // run once the explorer runs
	}{
		{"cannot start", true, ""},
		{"dies while exploring", false, `__engine.w.terminate()`},
	} {
		t.Run(how.name, func(t *testing.T) {
			b := newBrowser(t)
			watchWorkers(b, how.broken)
			b.openURL(base + "/lessons/02-attacks")
			b.waitFor("the card", `!!document.querySelector(`+jsString(sel+` [data-action="explore"]`)+`)`)
			start := time.Now()
			b.click(sel + ` [data-action="explore"]`)
			if how.kill != "" {
				b.waitFor("the engine in the worker", `document.documentElement.dataset.engine === "worker"`)
				b.waitFor("the explorer at work", `!!document.querySelector(`+jsString(sel+` [data-action="stop-explore"]`)+`)`)
				eval[bool](b, `(`+how.kill+`, true)`)
			}
			waitExplored(b, sel, time.Minute)
			if engine := eval[string](b, `document.documentElement.dataset.engine`); engine != "page-fallback" {
				t.Errorf("engine %q, want page-fallback", engine)
			}
			if got := eval[string](b, `document.querySelector(`+jsString(sel+` [data-explored]`)+`).textContent`); got != want {
				t.Errorf("the page's explorer found\n%s\nthe native one\n%s", got, want)
			}
			t.Logf("worker %s: the explorer found the attack on the page %d ms after the click", how.name, time.Since(start).Milliseconds())
			for _, m := range b.takeConsoleErrors() {
				if !strings.Contains(m.Text, "worker") && !strings.Contains(m.URL, "no-such-engine-worker") {
					t.Errorf("console: %s", m.Text)
				}
			}
		})
	}
}
