package e2e

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

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
	if got := teacher.text("#class-students"); got != "2 student(s) in: Ann" {
		t.Fatalf("after a reload the instructor sees %q", got)
	}

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
}

// classValue sets a field's value as typing would.
func classValue(b *browser, sel, text string) {
	b.t.Helper()
	eval[bool](b, `(() => { const f = document.querySelector(`+jsString(sel)+`); f.value = `+jsString(text)+`; f.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
}

// serveClasses serves the site with classes on an embedded NATS.
func serveClasses(t *testing.T) string {
	t.Helper()
	hub, err := classroom.Open(classroom.Config{})
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

// joinStudents opens the join link in two browsers, one in English
// with a name and one in Chinese without, and joins.
func joinStudents(t *testing.T, base, code string) []*browser {
	t.Helper()
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
	return students
}

// The instructor presents lesson 03: the students' pages go to it, the
// instructor opens q-markers-fail to the class, both predict the stuck
// PrepareCommit, and the instructor's page shows it.
func TestAClassPredictsALessonQuestion(t *testing.T) {
	teacher := newBrowser(t)
	base := serveClasses(t)
	const lesson = "/lessons/03-transaction-protocols"
	teacher.openURL(base + lesson)
	teacher.click("#class summary")
	teacher.click("#class-start")
	teacher.waitFor("the join code", `!!document.querySelector("#class-code")`)
	code := teacher.text("#class-code")
	students := joinStudents(t, base, code)
	for i, s := range students {
		want := lesson
		if i == 1 {
			want = "/zh" + lesson
		}
		s.waitFor("the student's page on the lesson", `location.pathname === `+jsString(want)+` && !!document.querySelector("#class[data-following=true]")`)
	}
	teacher.click("#class-lesson-questions summary")
	teacher.click(`button[data-class-open="q-markers-fail"]`)
	for _, s := range students {
		s.waitFor("the question", `!!document.querySelector("#class-commit")`)
		s.click("label[for=class-choice-2]")
		s.click("#class-commit")
		s.waitFor("the acknowledgement", `!!document.querySelector("#class-msg")`)
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
}
