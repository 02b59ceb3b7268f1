package e2e

import (
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"txnlab/lessons"
	"txnlab/lessons/answer"
	"txnlab/lessons/doc"
)

// The learner thinks before being told (issue 24), on a course of one
// test lesson (testdata/thinking) that has each new kind of block: a
// scenario that varies (end=commit|abort), a choice question on it with
// an after block, and a question answered by typing a number.

// thinkingSite serves the test course and returns its address. The
// server's pre-render reads the course from a global: the cleanup gives
// it back the real one for the other tests.
func thinkingSite(t *testing.T) string {
	t.Helper()
	course, err := lessons.Load(os.DirFS("testdata/thinking"))
	if err != nil {
		t.Fatal(err)
	}
	return serveCourse(t, course)
}

func thinkingLesson(t *testing.T) *doc.Lesson {
	t.Helper()
	course, err := lessons.Load(os.DirFS("testdata/thinking"))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := course.Lesson(doc.English, "01-think")
	return l
}

// afterOpen reports whether the after block of question id is open.
func afterOpen(b *browser, id string) bool {
	return eval[bool](b, `!!document.querySelector('details.after-answer[data-after="`+id+`"]')?.open`)
}

// shownEnd is the variant the page shows: the word the prompt of
// q-ending was filled with.
func shownEnd(b *browser) string {
	p := b.text(question("q-ending") + ` .question-prompt`)
	switch {
	case strings.Contains(p, "commit"):
		return "commit"
	case strings.Contains(p, "abort"):
		return "abort"
	}
	b.t.Fatalf("the prompt %q shows no variant", p)
	return ""
}

// TestThinkFirstOnALesson walks a learner through the lesson: the
// explanation folded until the answer is right, a wrong check after it
// that keeps the question right, "Try another", a typed number, the
// calibration line, "Show all answers" kept across a reload, and print.
func TestThinkFirstOnALesson(t *testing.T) {
	site := thinkingSite(t)
	b := newBrowser(t)
	b.openURL(site + "/lessons/01-think")
	if seed := eval[float64](b, `JSON.parse(localStorage.getItem("txnlab.progress")).seed`); seed == 0 {
		t.Fatal("no seed drawn for a new learner")
	}
	if afterOpen(b, "q-ending") {
		t.Error("the after block is open before the question is answered")
	}
	if s := b.text(`details[data-after="q-ending"] summary`); !strings.HasPrefix(s, "After you answer") {
		t.Errorf("the after block's summary is %q", s)
	}
	end := shownEnd(b)
	script := eval[string](b, `document.querySelector('[data-scenario="ending"] textarea, [data-scenario="ending"] .ep-script')?.value ?? document.querySelector('[data-scenario="ending"]').textContent`)
	if !strings.Contains(script, "p "+end) || strings.Contains(script, "{{") {
		t.Errorf("the playground's script is not the variant %s: %q", end, script)
	}
	right, wrong := "a", "c"
	if end == "abort" {
		right = "b"
	}
	pick(b, "q-ending", right)
	b.click(question("q-ending") + ` label[for="q-ending-sure-high"]`)
	b.click(question("q-ending") + ` [data-action="check"]`)
	waitQuestionState(b, "q-ending", "correct")
	b.waitFor("the after block to open", `!!document.querySelector('details.after-answer[data-after="q-ending"]')?.open`)
	if txt := b.text(`details[data-after="q-ending"] .after-body`); !strings.Contains(txt, end) {
		t.Errorf("the after block %q is not filled with the variant", txt)
	}

	// The check ran the playground above, which grows as its diagram
	// arrives: pick once it is drawn, or the click lands where the
	// label was.
	b.waitFor("the playground's run", `document.querySelector('[data-scenario="ending"]')?.dataset.state === "ready"`)

	// A wrong check afterwards: reported, and the question stays right.
	pick(b, "q-ending", wrong)
	b.click(question("q-ending") + ` [data-action="check"]`)
	b.waitFor("the wrong check reported", `!!document.querySelector(`+jsString(question("q-ending")+` .question-status .wrong`)+`)`)
	if got := questionState(b, "q-ending"); got != "correct" {
		t.Errorf("a wrong check after a right one made the question %q", got)
	}
	b.shot("1-right-then-wrong")

	// Try another: the other variant, asked again, its explanation folded.
	b.click(question("q-ending") + ` [data-action="another"]`)
	waitQuestionState(b, "q-ending", "unanswered")
	if next := shownEnd(b); next == end {
		t.Errorf("Try another showed %s again", end)
	}
	b.waitFor("the after block folded again", `!document.querySelector('details.after-answer[data-after="q-ending"]').open`)

	// A number, typed.
	if mode := eval[string](b, `document.querySelector("[data-answer]").inputMode`); mode != "decimal" {
		t.Errorf("the number field's inputmode is %q", mode)
	}
	b.click(question("q-hw") + ` [data-answer]`)
	b.do(chromedp.KeyEvent(" 2 "))
	waitQuestionState(b, "q-hw", "predicted")
	b.click(question("q-hw") + ` label[for="q-hw-sure-low"]`)
	b.click(question("q-hw") + ` [data-action="check"]`)
	waitQuestionState(b, "q-hw", "correct")
	if typed := eval[string](b, `JSON.parse(localStorage.getItem("txnlab.progress")).questions["q-hw"].typed`); typed != " 2 " {
		t.Errorf("the progress kept %q as typed", typed)
	}

	cal := b.text(`.calibration`)
	if want := "When you were sure you were right 1 of 1 times; unsure 1 of 1."; cal != want {
		t.Errorf("calibration line %q, want %q", cal, want)
	}

	// Show all answers, remembered; then print opens every after block.
	b.click(`[data-action="show-all"]`)
	b.waitFor("show all to open the after block", `document.querySelector('details.after-answer[data-after="q-ending"]').open`)
	if got := questionState(b, "q-ending"); got != "unanswered" {
		t.Errorf("show all changed the question to %q: it must reveal nothing else", got)
	}
	b.openURL(site + "/lessons/01-think")
	if !eval[bool](b, `document.querySelector('[data-action="show-all"]').checked`) || !afterOpen(b, "q-ending") {
		t.Error("show all was not kept across a reload")
	}
	b.click(`[data-action="show-all"]`)
	b.waitFor("the after block folded", `!document.querySelector('details.after-answer[data-after="q-ending"]').open`)
	eval[bool](b, `dispatchEvent(new Event("beforeprint"))`)
	if !afterOpen(b, "q-ending") {
		t.Error("print leaves the after block folded")
	}

	b.openURL(site + "/lessons")
	if cal := b.text(`.calibration`); !strings.Contains(cal, "1 of 1") {
		t.Errorf("the catalogue's calibration line is %q", cal)
	}
	if href := eval[string](b, `document.querySelector(".review-link a").getAttribute("href")`); href != "/lessons/review" {
		t.Errorf("the catalogue links to the review at %q", href)
	}
}

// TestTwoLearnersSeeTheirOwnOrderAndVariant: two seeds, two choice
// orders and two variants, each the one doc.Order and doc.VariantOf
// give; the same seed sees the same after a reload.
func TestTwoLearnersSeeTheirOwnOrderAndVariant(t *testing.T) {
	site := thinkingSite(t)
	les := thinkingLesson(t)
	q := les.Questions[0]
	sc := les.Scenarios[0]
	keys := func(seed uint32) string {
		var s string
		for _, i := range doc.Order(seed, q.ID, len(q.Choices)) {
			s += q.Choices[i].Key
		}
		return s
	}
	end := func(seed uint32) string { return doc.Draw(sc.Vary, doc.VariantOf(seed, sc.ID, 0))["end"] }
	// Two seeds whose learners differ in both.
	s1, s2 := uint32(1), uint32(2)
	for keys(s2) == keys(s1) || end(s2) == end(s1) {
		s2++
	}
	b := newBrowser(t)
	for _, seed := range []uint32{s1, s2, s1} {
		b.openURL(site + "/lessons")
		eval[bool](b, `localStorage.setItem("txnlab.progress", JSON.stringify({version: 1, seed: `+strconv.Itoa(int(seed))+`})) ?? true`)
		b.openURL(site + "/lessons/01-think")
		got := eval[string](b, `[...document.querySelectorAll('[data-question="q-ending"] [data-choice]')].map(e => e.dataset.choice).join("")`)
		if got != keys(seed) {
			t.Errorf("seed %d: choices in the order %q, want %q", seed, got, keys(seed))
		}
		if e := shownEnd(b); e != end(seed) {
			t.Errorf("seed %d: variant %s, want %s", seed, e, end(seed))
		}
	}
}

// TestReviewInBothLanguages: the review draws the course's questions,
// each linking back to its lesson, and draws another round.
func TestReviewInBothLanguages(t *testing.T) {
	site := thinkingSite(t)
	b := newBrowser(t)
	b.openURL(site + "/zh/lessons/review")
	b.waitFor("the round", `document.querySelectorAll("[data-review]").length === 2`)
	if eval[bool](b, `!!document.querySelector(".review-pending")`) {
		t.Error("the round is drawn and the page still says it is being drawn")
	}
	if h := b.text("h1"); h != "复习" {
		t.Errorf("the Chinese review is titled %q", h)
	}
	if href := eval[string](b, `document.querySelector("[data-review] .review-from a").getAttribute("href")`); href != "/zh/lessons/01-think" {
		t.Errorf("a review question links to %q", href)
	}
	pick(b, "q-ending", "c")
	b.click(question("q-ending") + ` [data-action="check"]`)
	waitQuestionState(b, "q-ending", "wrong")
	b.click(`[data-action="another-round"]`)
	b.waitFor("a new round, asked again", `document.querySelector('[data-question="q-ending"]')?.dataset.state === "unanswered"`)
	b.openURL(site + "/lessons/review")
	b.waitFor("the English round", `document.querySelectorAll("[data-review]").length === 2 && document.querySelector("h1").textContent === "Review"`)
}

// learnersAnswer is the right answer to q in the variant the learner in
// b sees (their seed and "Try another"s, from the progress): the choice
// keys that hold, or the value to type. The lesson's [x] marks are right
// for variant 0 only.
func learnersAnswer(b *browser, l *doc.Lesson, q *doc.Question) (keys []string, value string) {
	b.t.Helper()
	var prog struct {
		Seed     uint32
		Variants map[string]int
	}
	if err := json.Unmarshal([]byte(eval[string](b, `localStorage.getItem("txnlab.progress") ?? "{}"`)), &prog); err != nil {
		b.t.Fatal(err)
	}
	sc, _ := l.ScenarioByID(q.Scenario)
	var vals map[string]string
	if len(sc.Vary) > 0 {
		vals = doc.Draw(sc.Vary, doc.VariantOf(prog.Seed, sc.ID, prog.Variants[sc.ID]))
	}
	fq := q.Filled(vals)
	out, err := answer.Decide(&fq, sc.Filled(vals).Script)
	if err != nil {
		b.t.Fatal(err)
	}
	for i, c := range q.Choices {
		if out.Holds[i] {
			keys = append(keys, c.Key)
		}
	}
	return keys, out.Value
}

// TestFocusRingAndPhoneTargets: the scenario editor shows where typing
// goes, and on a phone the confidence radios are targets of 24 px at
// least.
func TestFocusRingAndPhoneTargets(t *testing.T) {
	site := thinkingSite(t)
	b := newBrowser(t)
	// A headless page has no focus of its own: without this, nothing
	// matches :focus.
	if _, err := chromedp.Call(b.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	b.openURL(site + "/playground")
	eval[bool](b, `document.querySelector(".code textarea").focus() ?? true`)
	if ring := eval[string](b, `getComputedStyle(document.querySelector(".code")).outlineStyle`); ring != "solid" {
		t.Errorf("the focused editor's outline is %q", ring)
	}
	b.do(chromedp.EmulateViewport(390, 844))
	b.openURL(site + "/lessons/01-think")
	size := eval[[]float64](b, `(r => [r.width, r.height])(document.querySelector('[data-question="q-ending"] .confidence input').getBoundingClientRect())`)
	if size[0] < 24 || size[1] < 24 {
		t.Errorf("a confidence radio on a phone is %v px", size)
	}
}

// TestTryAnotherReplacesAnEditedScript: a learner who had edited a
// varied playground and pressed "Try another" kept their edit of the old
// variant, so the new variant's values never showed while its question
// asked about them. The new variant's script replaces the edit.
func TestTryAnotherReplacesAnEditedScript(t *testing.T) {
	site := thinkingSite(t)
	b := newBrowser(t)
	b.openURL(site + "/lessons/01-think")
	pg := `[data-scenario="ending"]`
	area := pg + ` textarea`
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	end := shownEnd(b)
	edited := eval[string](b, `document.querySelector(`+jsString(area)+`).value`) + "# my own note\n"
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(area)+`); t.value = `+jsString(edited)+`; t.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
	b.waitFor("the edit kept", `Object.keys(localStorage).some(k => k.startsWith("txnlab.lesson-edit.") && localStorage.getItem(k).includes("# my own note"))`)

	right := "a"
	if end == "abort" {
		right = "b"
	}
	pick(b, "q-ending", right)
	b.click(question("q-ending") + ` [data-action="check"]`)
	waitQuestionState(b, "q-ending", "correct")
	// The check runs the playground above, which grows as its diagram
	// arrives: click once it is drawn, or the click lands where the
	// button was.
	b.waitFor("the playground's run", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
	b.click(question("q-ending") + ` [data-action="another"]`)
	waitQuestionState(b, "q-ending", "unanswered")
	next := shownEnd(b)
	if next == end {
		t.Fatalf("Try another showed %s again", end)
	}
	b.waitFor("the new variant's script", `!document.querySelector(`+jsString(area)+`).value.includes("# my own note")`)
	if got := eval[string](b, `document.querySelector(`+jsString(area)+`).value`); !strings.Contains(got, "p "+next) {
		t.Errorf("after Try another the playground holds %q, want the variant %s", got, next)
	}
	if kept := eval[bool](b, `Object.keys(localStorage).some(k => k.startsWith("txnlab.lesson-edit.") && localStorage.getItem(k).includes("# my own note"))`); kept {
		t.Error("the old variant's edit is still kept and would come back on a reload")
	}
}
