package e2e

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/app/server"
	"txnlab/classroom"
	"txnlab/lessons"
)

// classPos is the step a playground page shows ("" before it has one).
const classPos = `(document.querySelector(".status .position")||{dataset:{}}).dataset.pos`

// An instructor starts a class from the playground; two students join
// by its link, one in English with a name and one in Chinese without;
// their pages follow the instructor's steps; the instructor opens a
// question, the students predict, and the instructor's page shows the
// distribution, without names.
func TestAClassFollowsAndPredicts(t *testing.T) {
	teacher := newBrowser(t)
	base := serveClasses(t)

	teacher.openURL(base + "/playground")
	teacher.waitFor("the first run", classPos+` !== undefined`)
	teacher.click("#class summary")
	teacher.click("#class-start")
	teacher.waitFor("the join code", `!!document.querySelector("#class-code")`)
	code := teacher.text("#class-code")
	if len(code) != 11 {
		t.Fatalf("join code %q", code)
	}
	if link := teacher.text("#class-link"); link != base+"/playground#class="+code[:5]+code[6:] {
		t.Fatalf("join link %q", link)
	}
	// The link's QR code, drawn by the server, is on the page.
	teacher.waitFor("the QR code", `(() => { const i = document.querySelector("#class-qr"); return !!i && i.complete && i.naturalWidth > 0 })()`)
	if src := eval[string](teacher, `document.querySelector("#class-qr").src`); !strings.Contains(src, "/api/class/qr.svg?lang=en&code="+code[:5]+code[6:]) {
		t.Fatalf("the QR code's address %q", src)
	}

	students := []*browser{newBrowser(t), newBrowser(t)}
	for i, s := range students {
		prefix, name := "", "Ann"
		if i == 1 {
			prefix, name = "/zh", ""
		}
		s.openURL(base + prefix + "/playground#class=" + code)
		s.waitFor("the join form", `!!document.querySelector("#class-join")`)
		classValue(s, "#class-name", name)
		s.click("#class-join")
		s.waitFor("joined", `document.querySelector("#class")?.dataset.following === "true"`)
	}
	if got := students[1].text("#class"); !strings.Contains(got, "正在上课") {
		t.Fatalf("the Chinese student's class bar reads %q", got)
	}
	teacher.waitFor("two students", `document.querySelector("#class-students")?.textContent.startsWith("2 ")`)
	if got := teacher.text("#class-students"); got != "2 student(s) in: Ann" {
		t.Fatalf("the instructor sees %q", got)
	}

	// The instructor steps three times; both students' pages follow.
	for range 3 {
		teacher.click(button("Step"))
	}
	teacher.waitFor("step 3", classPos+` === "3"`)
	for _, s := range students {
		s.waitFor("the student's page at step 3", classPos+` === "3"`)
	}

	// A question written on the spot.
	teacher.click(".class-question details summary")
	classValue(teacher, "#class-q-text", "Does the consumer see the aborted records?")
	classValue(teacher, "#class-q-choices", "yes\nno\nonly read_uncommitted")
	teacher.click("#class-open")
	for i, s := range students {
		s.waitFor("the question", `!!document.querySelector("#class-commit")`)
		s.click(fmt.Sprintf("label[for=class-choice-%d]", 2-i%2)) // choice 2, then 1
		s.click("label[for=class-sure-2]")
		s.click("#class-commit")
		s.waitFor("the acknowledgement", `!!document.querySelector("#class-msg")`)
	}
	teacher.waitFor("the tally", `document.querySelector("#class-tally")?.dataset.total === "2"`)
	for choice, want := range []int{0, 1, 1} {
		got := eval[string](teacher, `document.querySelector('#class-tally li[data-choice="`+strconv.Itoa(choice)+`"]').dataset.count`)
		if got != strconv.Itoa(want) {
			t.Errorf("choice %d: %s votes, want %d", choice, got, want)
		}
	}
	if got := teacher.text("#class-tally"); strings.Contains(got, "Ann") {
		t.Errorf("the tally names a student: %q", got)
	}
	teacher.shot("class-tally")
	students[1].shot("class-student-zh")

	// A phone reloads: the tab is back in the class as the same student
	// (still two in), at the instructor's step, with no form to fill.
	students[0].do(chromedp.Reload(), chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	students[0].waitFor("back in the class", `document.querySelector("#class")?.dataset.following === "true"`)
	teacher.click(button("Step"))
	teacher.waitFor("step 4", classPos+` === "4"`)
	students[0].waitFor("the reloaded page at step 4", classPos+` === "4"`)
	// The reload left the class and came back in: the count says so
	// once the new stream's sign is in (who is in is sent at most every
	// 250 ms).
	teacher.waitFor("two in after the reload", `document.querySelector("#class-students")?.textContent === "2 student(s) in: Ann"`)

	// A student detaches to explore: the instructor's next step leaves
	// that page where it is; following again takes it to the step.
	students[1].waitFor("the Chinese page at step 4", classPos+` === "4"`)
	students[1].click("#class-detach")
	students[1].click(button("Step back"))
	students[1].waitFor("the student's own step 3", classPos+` === "3"`)
	teacher.click(button("Step"))
	students[0].waitFor("the following page at step 5", classPos+` === "5"`)
	if got := eval[string](students[1], classPos); got != "3" {
		t.Fatalf("the detached page moved to step %s", got)
	}
	students[1].click("#class-rejoin")
	students[1].waitFor("the page following again at step 5", classPos+` === "5"`)

	// The Chinese student closes the tab (the page goes away): the
	// instructor's count goes down at once, not when the sign expires.
	students[1].do(chromedp.Navigate("about:blank"))
	teacher.waitFor("one student left", `document.querySelector("#class-students")?.textContent === "1 student(s) in: Ann"`)
}

// classValue sets a field's value as typing would.
func classValue(b *browser, sel, text string) {
	b.t.Helper()
	eval[bool](b, `(() => { const f = document.querySelector(`+jsString(sel)+`); f.value = `+jsString(text)+`; f.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
}

// serveClasses serves the site with classes on an embedded NATS.
func serveClasses(t *testing.T) string {
	t.Helper()
	return serveClassesWith(t, classroom.Config{})
}

// serveClassesWith is serveClasses with the classes' configuration.
func serveClassesWith(t *testing.T, cfg classroom.Config) string {
	t.Helper()
	hub, err := classroom.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { hub.Close() })
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{WebDir: filepath.Join(repoRoot, "web"), Lessons: course, Classes: hub})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := serve(t, srv)
	return base
}

// joinStudents opens the join link in two phone-sized browsers (390×844,
// touch), one in English with a name and one in Chinese without, and
// joins.
func joinStudents(t *testing.T, base, code string) []*browser {
	t.Helper()
	students := []*browser{newBrowser(t), newBrowser(t)}
	for i, s := range students {
		prefix, name := "", "Ann"
		if i == 1 {
			prefix, name = "/zh", ""
		}
		setViewport(s, 390, 844, true)
		s.openURL(base + prefix + "/playground#class=" + code)
		s.waitFor("the join form", `!!document.querySelector("#class-join")`)
		classValue(s, "#class-name", name)
		s.click("#class-join")
		s.waitFor("joined", `document.querySelector("#class")?.dataset.following === "true"`)
	}
	return students
}

// blockPos is the step the embedded playground of block id shows.
func blockPos(id string) string {
	return `+(document.querySelector('[data-scenario="` + id + `"] .scrub') || {value: -1}).value`
}

// The Done-when: an instructor presents lesson 03 with a
// clicker's keys (P, PageDown, PageUp, B); students on phones, one in
// English and one in Chinese, follow each step of the presented
// playground; the instructor opens q-markers-fail to the class, both
// predict the stuck PrepareCommit with controls a thumb can tap, the
// instructor's page shows the distribution; the instructor's run settles
// it on every phone.
func TestAClassPredictsALessonQuestion(t *testing.T) {
	teacher := newBrowser(t)
	setViewport(teacher, 1280, 800, false)
	base := serveClasses(t)
	const lesson = "/lessons/03-transaction-protocols"
	teacher.openURL(base + lesson)
	teacher.click("#class summary")
	teacher.click("#class-start")
	teacher.waitFor("the join code", `!!document.querySelector("#class-code")`)
	teacher.waitFor("the QR code", `(() => { const i = document.querySelector("#class-qr"); return !!i && i.complete && i.naturalWidth > 0 })()`)
	code := teacher.text("#class-code")
	students := joinStudents(t, base, code)
	for i, s := range students {
		want := lesson
		if i == 1 {
			want = "/zh" + lesson
		}
		s.waitFor("the student's page on the lesson", `location.pathname === `+jsString(want)+` && !!document.querySelector("#class[data-following=true]")`)
	}
	teacher.waitFor("two students", `document.querySelector("#class-students")?.textContent === "2 student(s) in: Ann"`)

	// The instructor presents with a clicker: P, then to the first
	// playground, PageDown runs it and steps, PageUp steps back.
	eval[bool](teacher, `(document.activeElement.blur(), true)`)
	teacher.do(chromedp.KeyEvent("p"))
	teacher.waitFor("the presentation", `!!document.querySelector(".lesson-presenter")`)
	slide := `+document.querySelector(".pres-slide").dataset.slide`
	for i := 0; i < 20 && !eval[bool](teacher, `!!document.querySelector(".lesson-presenter .embedded-playground")`); i++ {
		teacher.click(`[data-action="pres-next"]`)
		teacher.waitFor("the next block", fmt.Sprintf(`%s === %d`, slide, i+1))
	}
	block := eval[string](teacher, `document.querySelector(".lesson-presenter .embedded-playground").dataset.scenario`)
	// The phones come to the playground the projector shows.
	for _, s := range students {
		s.waitFor("the student's page at the presented "+block, `(() => { const r = document.querySelector('[data-scenario="`+block+`"]')?.getBoundingClientRect(); return !!r && r.top < innerHeight && r.bottom > 0 })()`)
	}
	eval[bool](teacher, `(document.activeElement.blur(), true)`)
	if eval[string](teacher, `document.querySelector(".lesson-presenter .embedded-playground").dataset.state`) != "ready" {
		teacher.do(chromedp.KeyEvent(kb.PageDown))
	}
	teacher.waitFor("the playground's run", `document.querySelector(".lesson-presenter .embedded-playground").dataset.state === "ready"`)
	p0 := eval[int](teacher, blockPos(block))
	for _, key := range []string{kb.PageDown, kb.PageDown, kb.PageUp} {
		teacher.do(chromedp.KeyEvent(key))
	}
	teacher.waitFor("two steps on, one back", fmt.Sprintf(`%s === %d`, blockPos(block), p0+1))
	for _, s := range students {
		s.waitFor("the student's "+block+" at the instructor's step", fmt.Sprintf(`%s === %d`, blockPos(block), p0+1))
	}
	// B blanks the projector, not the students' phones.
	teacher.do(chromedp.KeyEvent("b"))
	teacher.waitFor("the blank screen", `!!document.querySelector("[data-blank]")`)
	teacher.do(chromedp.KeyEvent("b"))
	teacher.waitFor("the screen back", `!document.querySelector("[data-blank]")`)
	for _, s := range students {
		if eval[bool](s, `!!document.querySelector("[data-blank]")`) {
			t.Error("a student's page went blank")
		}
	}
	teacher.do(chromedp.KeyEvent(kb.Escape))
	teacher.waitFor("the lesson again", `!document.querySelector(".lesson-presenter")`)

	// The question, predicted on the phones.
	teacher.click("#class-lesson-questions summary")
	teacher.click(`button[data-class-open="q-markers-fail"]`)
	for i, s := range students {
		s.waitFor("the question", `!!document.querySelector("#class-commit")`)
		// A thumb's target: each choice's label, each "how sure" and
		// the commit button at least 44 px high, and in view.
		small := eval[[]string](s, `[...document.querySelectorAll("#class-predict label, #class-commit")].filter(el => { const r = el.getBoundingClientRect(); return r.height < 44 || r.width < 44 }).map(el => el.textContent.slice(0, 30) + " " + Math.round(el.getBoundingClientRect().height) + "px")`)
		if len(small) > 0 {
			t.Errorf("student %d: controls too small to tap: %q", i, small)
		}
		if !eval[bool](s, `(() => { const r = document.querySelector("#class-predict").getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0 })()`) {
			t.Errorf("student %d: the question opened out of view", i)
		}
		if i == 1 {
			if got := s.text("#class-predict"); !strings.Contains(got, "PrepareCommit") || !strings.Contains(got, "提交我的预测") {
				t.Errorf("the Chinese student's question reads %q", got)
			}
			noEnglish(t, s, "the Chinese student's page with the question open")
			// Nothing is chosen for the student: committing first
			// asks for a choice.
			s.click("#class-commit")
			s.waitFor("the refusal", `document.querySelector("#class-msg.error")?.textContent.includes("先选一个答案")`)
		}
		s.click("label[for=class-choice-2]")
		s.click("#class-commit")
		s.waitFor("the acknowledgement", `!!document.querySelector("#class-msg:not(.error)")`)
	}
	teacher.waitFor("the tally", `document.querySelector("#class-tally")?.dataset.total === "2"`)
	if got := eval[string](teacher, `document.querySelector('#class-tally li[data-choice="2"]').dataset.count`); got != "2" {
		t.Fatalf("the stuck PrepareCommit has %s votes, want 2", got)
	}
	if got := teacher.text("#class-tally"); !strings.Contains(got, "PrepareCommit") {
		t.Fatalf("the tally reads %q", got)
	}
	// The vote closes: each student's page says what they predicted.
	teacher.click("#class-close")
	for _, s := range students {
		s.waitFor("the closed vote", `!!document.querySelector("#class-closed")`)
	}
	if got := students[0].text("#class-closed"); !strings.Contains(got, "You predicted:") || !strings.Contains(got, "PrepareCommit") {
		t.Fatalf("the closed vote reads %q", got)
	}
	teacher.shot("lesson-tally")
	students[1].shot("lesson-student-zh")

	// The run settles it: the instructor checks the question on the
	// lesson, which runs markers-fail to the moment it asks about; each
	// phone's markers-fail shows that step, PrepareCommit.
	const id = "q-markers-fail"
	pick(teacher, id, "c")
	teacher.click(question(id) + ` [data-action="check"]`)
	waitQuestionState(teacher, id, "correct")
	teacher.waitFor("the instructor's run", `document.querySelector('[data-scenario="markers-fail"]')?.dataset.state === "ready"`)
	at := eval[int](teacher, blockPos("markers-fail"))
	for _, s := range students {
		s.waitFor("the student's run at the instructor's step", fmt.Sprintf(`%s === %d`, blockPos("markers-fail"), at))
		s.waitFor("the student's facts: the transaction stuck in PrepareCommit", `document.querySelector('[data-scenario="markers-fail"] .facts')?.textContent.includes("order-txn-1 state = PrepareCommit")`)
	}
	students[0].shot("lesson-student-settled")
	students[1].shot("lesson-student-settled-zh")
	noEnglish(t, students[1], "the Chinese student's page after the run")
}

// A student's phone goes out of reach: its stream stays open on the
// server, but its answers to the beats no longer arrive (blocked here),
// and the instructor's count drops once the last sign is older than the
// TTL (3 s here, 30 s by default); in reach again, the page's next
// answer counts it back. While in reach the page answers every beat, so
// it stays counted across several TTLs.
func TestAStudentOutOfReachLeavesTheCount(t *testing.T) {
	teacher := newBrowser(t)
	base := serveClassesWith(t, classroom.Config{PresenceTTL: 3 * time.Second})
	teacher.openURL(base + "/playground")
	teacher.click("#class summary")
	teacher.click("#class-start")
	teacher.waitFor("the join code", `!!document.querySelector("#class-code")`)
	code := teacher.text("#class-code")
	s := newBrowser(t)
	setViewport(s, 390, 844, true)
	s.openURL(base + "/playground#class=" + code)
	s.waitFor("the join form", `!!document.querySelector("#class-join")`)
	s.click("#class-join")
	s.waitFor("joined", `document.querySelector("#class")?.dataset.following === "true"`)
	in := func(n int) string {
		return `document.querySelector("#class-students")?.textContent === "` + strconv.Itoa(n) + ` student(s) in"`
	}
	teacher.waitFor("one student", in(1))
	// Five answers (a beat a second) outlast the 3 s TTL: only the
	// answers can have kept the student in.
	answers := `performance.getEntriesByType("resource").filter(e => e.name.includes("/api/class/here")).length`
	s.waitFor("five answers to the beat", answers+` >= 5`)
	if !eval[bool](teacher, in(1)) {
		t.Fatalf("a student answering the beats was counted out: %q", teacher.text("#class-students"))
	}
	out := func(offline bool) {
		t.Helper()
		if _, err := chromedp.Call(s.ctx, network.Enable, network.EnableParams{}); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(s.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{URLPattern: "*://*:*/api/class/here*", Offline: offline, DownloadThroughput: -1, UploadThroughput: -1}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	out(true)
	teacher.waitFor("the student out of reach counted out", in(0))
	out(false)
	teacher.waitFor("the student in reach again", in(1))
	s.takeConsoleErrors() // the answers that could not be sent
}
