package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"txnlab/lessons"
	"txnlab/lessons/doc"
)

// question is the CSS selector of a question card.
func question(id string) string { return `[data-question="` + id + `"]` }

func questionState(b *browser, id string) string {
	return eval[string](b, `document.querySelector(`+jsString(question(id))+`)?.dataset.state ?? ""`)
}

func waitQuestionState(b *browser, id, state string) {
	b.t.Helper()
	b.waitFor(id+" "+state, `document.querySelector(`+jsString(question(id))+`)?.dataset.state === `+jsString(state))
}

// pick selects a choice of a question the way a learner does: a click on
// its label.
func pick(b *browser, id, key string) {
	b.t.Helper()
	b.click(question(id) + ` label[for="` + id + "-" + key + `"]`)
}

// TestChineseLessonQuestionWrongThenRightSurvivesReload is the issue's
// question test: on the Chinese lesson 03, answer q-markers-fail wrongly,
// then rightly, by predicting and running; the evidence comes from the
// run; a reload finds the progress, and the catalogue shows it.
func TestChineseLessonQuestionWrongThenRightSurvivesReload(t *testing.T) {
	b := newBrowser(t)
	const id = "q-markers-fail"
	b.open("/zh/lessons/03-transaction-protocols")
	if lang := eval[string](b, `document.documentElement.lang`); lang != "zh-CN" {
		t.Errorf("<html lang> = %q, want zh-CN", lang)
	}
	if got := questionState(b, id); got != "unanswered" {
		t.Fatalf("a fresh learner's question is %q", got)
	}
	// Checking without a prediction is refused, in Chinese.
	b.click(question(id) + ` [data-action="check"]`)
	b.waitFor("the refusal", `document.querySelector(`+jsString(question(id)+` .question-status`)+`).textContent.includes("先选一个答案")`)

	pick(b, id, "a") // UNKNOWN_SERVER_ERROR: the chapter's claim
	b.click(question(id) + ` label[for="` + id + `-sure-high"]`)
	waitQuestionState(b, id, "predicted")
	b.click(question(id) + ` [data-action="check"]`)
	waitQuestionState(b, id, "wrong")
	evidence := b.text(question(id) + ` [data-evidence]`)
	for _, want := range []string{"PrepareCommit", "NONE"} {
		if !strings.Contains(evidence, want) {
			t.Errorf("the evidence %q does not quote %s from the run", evidence, want)
		}
	}
	if n := count(b, question(id)+` .explanation`); n != 0 {
		t.Error("the explanation is shown after a wrong answer")
	}
	b.shot("1-wrong")

	pick(b, id, "c")
	waitQuestionState(b, id, "predicted")
	b.click(question(id) + ` [data-action="check"]`)
	waitQuestionState(b, id, "correct")
	if n := count(b, question(id)+` .explanation`); n != 1 {
		t.Error("no explanation after the right answer")
	}
	// The check showed the run in the question's playground, stopped where
	// the question looks: the markers have been resent and none got through.
	pg := `[data-scenario="markers-fail"]`
	b.waitFor("the playground showing the run", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
	if n := count(b, pg+` svg .arrow[data-api="WriteTxnMarkers"]`); n < 2 {
		t.Errorf("the playground shows %d WriteTxnMarkers arrows, want the resent ones", n)
	}
	// The card says where the run is and links there.
	if got := eval[string](b, `document.querySelector(document.querySelector(`+jsString(question(id)+` .shown-in a`)+`)?.getAttribute("href") || "#none")?.dataset.scenario ?? ""`); got != "markers-fail" {
		t.Errorf("the card's link to its run leads to %q", got)
	}
	b.shot("2-right")

	b.open("/zh/lessons/03-transaction-protocols")
	waitQuestionState(b, id, "correct")
	if !eval[bool](b, `document.getElementById("`+id+`-c").checked`) {
		t.Error("the chosen answer was not kept across the reload")
	}
	b.waitFor("the evidence again", `!!document.querySelector(`+jsString(question(id)+` [data-evidence]`)+`)`)

	b.open("/zh/lessons")
	progress := b.text(`[data-lesson="03-transaction-protocols"] .lesson-progress`)
	if !strings.Contains(progress, "已阅读") || !strings.Contains(progress, "已答对 1 /") {
		t.Errorf("the catalogue shows %q, want the lesson opened and one question right", progress)
	}
}

// TestLessonLanguageControlAndErratum: the English lesson shows the API
// key erratum with Kafka's numbers; the language control leads to the
// same lesson in Chinese and back.
func TestLessonLanguageControlAndErratum(t *testing.T) {
	b := newBrowser(t)
	b.open("/")
	b.click(`a.button.primary[href="/lessons"]`)
	b.waitFor("the catalogue", `location.pathname === "/lessons"`)
	b.click(`[data-lesson="03-transaction-protocols"] a`)
	b.waitFor("lesson 03", `location.pathname === "/lessons/03-transaction-protocols" && !!document.querySelector("article.lesson h1")`)
	text := b.text("article.lesson")
	for _, want := range []string{"Erratum", "InitProducerId 22", "WriteTxnMarkers 27"} {
		if !strings.Contains(text, want) {
			t.Errorf("lesson 03 lacks %q", want)
		}
	}
	b.click(`.lang-switch a[data-lang="zh"]`)
	b.waitFor("the Chinese lesson", `location.pathname === "/zh/lessons/03-transaction-protocols" && document.querySelector("article.lesson h1")?.textContent === "事务协议"`)
	if lang := eval[string](b, `document.documentElement.lang`); lang != "zh-CN" {
		t.Errorf("after switching, <html lang> = %q", lang)
	}
	b.click(`.lang-switch a[data-lang="en"]`)
	b.waitFor("back in English", `location.pathname === "/lessons/03-transaction-protocols" && document.querySelector("article.lesson h1")?.textContent === "The transaction protocols"`)
}

// TestStepThroughTheEndTxnPlayground: the learner steps the EndTxn
// playground of lesson 03 and sees the requests appear, with no other
// playground of the page running (each runs only when in view).
func TestStepThroughTheEndTxnPlayground(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/03-transaction-protocols")
	pg := `[data-scenario="end-txn"]`
	if n := count(b, `.embedded-playground[data-state="ready"]`); n > 2 {
		t.Errorf("%d playgrounds ran on load: only those in view may", n)
	}
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	b.waitFor("the EndTxn playground to run", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
	arrows := func() int { return count(b, pg+` svg .arrow`) }
	before := arrows()
	for i := 0; i < 6; i++ {
		b.click(pg + ` button[data-action="step"]`)
	}
	b.waitFor("arrows drawn by the steps", `document.querySelectorAll(`+jsString(pg+` svg .arrow`)+`).length > `+strconv.Itoa(before))
	b.click(pg + ` button[data-action="end"]`)
	b.waitFor("an EndTxn arrow", `!!document.querySelector(`+jsString(pg+` svg .arrow[data-api="EndTxn"]`)+`)`)
	// The diagram follows its newest row: at the end, the last arrow is
	// inside the diagram's box, which the history overflows.
	type box struct{ Overflows, ScrolledDown bool }
	b.waitFor("the diagram scrolled to its newest arrow", `(() => {
		const d = document.querySelector(`+jsString(pg+` [id^="diagram-"]`)+`);
		const arrows = d && d.querySelectorAll("svg .arrow");
		if (!arrows || !arrows.length) return false;
		const r = arrows[arrows.length - 1].getBoundingClientRect(), v = d.getBoundingClientRect();
		return r.top >= v.top && r.bottom <= v.bottom;
	})()`)
	if got := eval[box](b, `(() => { const d = document.querySelector(`+jsString(pg+` [id^="diagram-"]`)+`);
		return {Overflows: d.scrollHeight > d.clientHeight + 24, ScrolledDown: d.scrollTop > 0}; })()`); !got.Overflows || !got.ScrolledDown {
		t.Errorf("the EndTxn playground's diagram: %+v, want a history taller than its box, scrolled down to the end", got)
	}
	// The facts are queries the engine's worker answers a reply later.
	b.waitFor("the facts at the end", `document.querySelector(`+jsString(pg+` .facts`)+`)?.textContent.includes("CompleteAbort")`)
	facts := b.text(pg + ` .facts`)
	if !strings.Contains(facts, "CompleteAbort") || !strings.Contains(facts, "4") {
		t.Errorf("at the end the facts say %q, want the second transaction CompleteAbort and the LSO at 4", facts)
	}
	b.click(pg + ` button[data-action="back"]`)
	b.shot("stepped")
}

// TestLessonsWorkOfflineOnceVisited: after one visit to the site, the
// lessons open with the server gone, in either language, and moving from
// one to the catalogue and back works.
func TestLessonsWorkOfflineOnceVisited(t *testing.T) {
	srv, url, stop := startServer(t)
	b := newBrowser(t)
	b.openURL(url + "/lessons")
	cache := "app-" + srv.Version()
	b.waitFor("the service worker to cache the lessons", `navigator.serviceWorker.ready
		.then(() => caches.has(`+jsString(cache)+`))
		.then(has => has && caches.open(`+jsString(cache)+`))
		.then(c => c && Promise.all(["/zh/lessons/03-transaction-protocols", "/lesson-data/en/03-transaction-protocols.json"].map(u => c.match(u))))
		.then(hits => !!hits && hits.every(Boolean))`)
	stop()
	b.openURL(url + "/zh/lessons/03-transaction-protocols")
	b.waitFor("the Chinese lesson offline", `document.querySelector("article.lesson h1")?.textContent === "事务协议"`)
	b.openURL(url + "/lessons")
	b.click(`[data-lesson="03-transaction-protocols"] a`)
	b.waitFor("the English lesson offline, reached by a link", `document.querySelector("article.lesson h1")?.textContent === "The transaction protocols"`)
	pg := `[data-scenario="overview"]`
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	b.waitFor("its first playground running offline", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
}

// TestProgressExportAndImport: the catalogue exports the progress as a
// file, and importing a file in a fresh browser brings the answers back.
func TestProgressExportAndImport(t *testing.T) {
	b := newBrowser(t)
	const id = "q-add-offsets"
	b.open("/lessons/03-transaction-protocols")
	b.do(chromedp.ScrollIntoView(chromedp.CSS(question(id))))
	sc, _ := questionRightKey(b, id)
	pick(b, id, sc)
	b.click(question(id) + ` [data-action="check"]`)
	waitQuestionState(b, id, "correct")

	b.open("/lessons")
	// Keep what the export hands to the download, to read it back.
	eval[bool](b, `(() => { const orig = URL.createObjectURL; URL.createObjectURL = blob => { window.__exported = blob; return orig(blob) }; return true })()`)
	b.click(`[data-action="export-progress"]`)
	b.waitFor("the export", `!!window.__exported`)
	exported, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`window.__exported.text()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exported, `"`+id+`"`) || !strings.Contains(exported, `"correct"`) {
		t.Fatalf("the exported progress lacks the answer: %s", exported)
	}
	file := filepath.Join(t.TempDir(), "txnlab-progress.json")
	if err := os.WriteFile(file, []byte(exported), 0o644); err != nil {
		t.Fatal(err)
	}

	fresh := newBrowser(t)
	fresh.open("/zh/lessons")
	if got := fresh.text(`[data-lesson="03-transaction-protocols"] .lesson-progress`); strings.Contains(got, "已答对 1") {
		t.Fatalf("a fresh browser already shows progress: %q", got)
	}
	fresh.do(chromedp.SetUploadFiles(chromedp.CSS(`input[data-action="import-progress"]`), []string{file}))
	fresh.waitFor("the import", `document.querySelector(".progress-tools .notice")?.textContent === "进度已导入。"`)
	if got := fresh.text(`[data-lesson="03-transaction-protocols"] .lesson-progress`); !strings.Contains(got, "已答对 1 /") || !strings.Contains(got, "已阅读") {
		t.Errorf("after the import the catalogue shows %q", got)
	}
	fresh.open("/zh/lessons/03-transaction-protocols")
	waitQuestionState(fresh, id, "correct")

	// A file that is not a progress file is refused, in words.
	bad := filepath.Join(t.TempDir(), "notes.json")
	os.WriteFile(bad, []byte(`{"hello": 1}`), 0o644)
	fresh.open("/zh/lessons")
	fresh.do(chromedp.SetUploadFiles(chromedp.CSS(`input[data-action="import-progress"]`), []string{bad}))
	fresh.waitFor("the refusal", `document.querySelector(".progress-tools .notice")?.textContent.includes("不是 txnlab 的进度文件")`)
}

// questionRightKey is the choice the lesson marks right, read from the
// course built into the binary (the page never carries the marks).
func questionRightKey(b *browser, id string) (string, bool) {
	b.t.Helper()
	course, err := lessons.Embedded()
	if err != nil {
		b.t.Fatal(err)
	}
	l, _ := course.Lesson(doc.English, "03-transaction-protocols")
	q, ok := l.QuestionByID(id)
	if !ok {
		return "", false
	}
	for _, c := range q.Choices {
		if c.Right {
			return c.Key, true
		}
	}
	return "", false
}

// TestOneQuestionOfEachLessonInChinese takes the first question of every
// lesson of the course from unanswered to correct on its Chinese page,
// as a learner does: predict, run, check.
func TestOneQuestionOfEachLessonInChinese(t *testing.T) {
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	cat := course.Catalogue(doc.Chinese)
	if len(cat) < 2 {
		t.Fatalf("the course has %d lessons", len(cat))
	}
	b := newBrowser(t)
	for _, m := range cat {
		if len(m.Questions) == 0 {
			t.Errorf("lesson %s has no question", m.Slug)
			continue
		}
		l, _ := course.Lesson(doc.Chinese, m.Slug)
		q := l.Questions[0]
		b.open("/zh/lessons/" + m.Slug)
		if got := questionState(b, q.ID); got != "unanswered" {
			t.Errorf("%s: %s starts %q", m.Slug, q.ID, got)
		}
		// The learner's own variant decides what is right.
		right, value := learnersAnswer(b, l, &q)
		for _, k := range right {
			pick(b, q.ID, k)
		}
		if q.Answer != "" {
			b.click(question(q.ID) + ` [data-answer]`)
			b.do(chromedp.KeyEvent(value))
		}
		waitQuestionState(b, q.ID, "predicted")
		b.click(question(q.ID) + ` [data-action="check"]`)
		waitQuestionState(b, q.ID, "correct")
		if ev := b.text(question(q.ID) + ` [data-evidence]`); ev == "" {
			t.Errorf("%s: %s has no evidence", m.Slug, q.ID)
		}
	}
}

// TestLessonPlaygroundEditSurvivesAReload: the learner changes a line of
// a lesson's playground and reloads; the edit is back, and Reset gives
// the lesson's script again (and forgets the edit).
func TestLessonPlaygroundEditSurvivesAReload(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/03-transaction-protocols")
	pg := `[data-scenario="end-txn"]`
	area := pg + ` textarea[aria-label="Scenario script"]`
	original := eval[string](b, `document.querySelector(`+jsString(area)+`).value`)
	edited := strings.Replace(original, "a=1", "a=42", 1)
	if edited == original {
		t.Fatal("the end-txn script has no a=1 to change")
	}
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(area)+`); t.value = `+jsString(edited)+`; t.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
	b.waitFor("the edit kept", `Object.keys(localStorage).some(k => k.startsWith("txnlab.lesson-edit.") && localStorage.getItem(k).includes("a=42"))`)

	b.open("/lessons/03-transaction-protocols")
	b.waitFor("the edit back", `document.querySelector(`+jsString(area)+`).value === `+jsString(edited))
	// In view, the playground runs (and its Run button goes): click Reset
	// once it has settled, not while the layout moves under the pointer.
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	b.waitFor("the playground to run the edit", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
	b.click(pg + ` button[data-action="reset"]`)
	b.waitFor("the lesson's script", `document.querySelector(`+jsString(area)+`).value === `+jsString(original))
	b.open("/lessons/03-transaction-protocols")
	if got := eval[string](b, `document.querySelector(`+jsString(area)+`).value`); got != original {
		t.Error("after Reset a reload brought the edit back")
	}
}

// TestAQuestionsPlaygroundWaitsForThePrediction: the playground a question
// is about would give the answer away (its expectations, its diagram), so
// for a learner who has not answered it stays folded and does not run when
// scrolled to; the question's check runs it; "Run anyway" is there too.
func TestAQuestionsPlaygroundWaitsForThePrediction(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/03-transaction-protocols")
	pg := `[data-scenario="markers-fail"]`
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	time.Sleep(500 * time.Millisecond) // long enough for an observer to have started it
	if st := eval[string](b, `document.querySelector(`+jsString(pg)+`).dataset.state`); st != "idle" {
		t.Errorf("the guarded playground is %q after being scrolled to", st)
	}
	if open := eval[bool](b, `document.querySelector(`+jsString(pg+` details.ep-guard`)+`)?.open === false`); !open {
		t.Error("the guarded playground's script is not folded")
	}
	// Another playground, with no question on it, ran when scrolled to.
	other := `[data-scenario="end-txn"]`
	b.do(chromedp.ScrollIntoView(chromedp.CSS(other)))
	b.waitFor("an unguarded playground to run", `document.querySelector(`+jsString(other)+`)?.dataset.state === "ready"`)

	const id = "q-markers-fail"
	pick(b, id, "a")
	b.click(question(id) + ` [data-action="check"]`)
	waitQuestionState(b, id, "wrong")
	b.waitFor("the check to run the playground", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready" && !document.querySelector(`+jsString(pg+` details.ep-guard`)+`)`)
}

// TestStepLinksShowWhatALineCauses: in lesson 02, each Java line's
// statement is a step link; clicking one stops the playground right after
// it ran, so its messages are the newest in the diagram.
func TestStepLinksShowWhatALineCauses(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/lessons/02-one-transaction")
	pg := `[data-scenario="java-code"]`
	fact := pg + ` li.fact[data-fact="txn order-txn-1 state"] [data-value]`
	for _, tc := range []struct{ line, state, api string }{
		{"17", "PrepareCommit", "EndTxn"},       // app commit: answered, markers not yet written
		{"7", "Empty", "InitProducerId"},        // app init
		{"12", "Ongoing", "AddPartitionsToTxn"}, // the first send registers orders/0
	} {
		b.click(`a[href="#step:java-code:` + tc.line + `"]`)
		b.waitFor("the playground at line "+tc.line, `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready" && document.querySelector(`+jsString(fact)+`)?.textContent === `+jsString(tc.state))
		if n := count(b, pg+` svg .arrow[data-api="`+tc.api+`"]`); n == 0 {
			t.Errorf("after line %s the diagram shows no %s", tc.line, tc.api)
		}
	}
	if got := eval[string](b, `location.hash`); got != "#step:java-code:12" {
		t.Errorf("the address does not carry the step: %q", got)
	}
}

// TestPickTheMomentOfACrash: in lesson 04 the learner steps into the
// commit, presses the crash button, and the playground reruns with the
// crash written in at that step: a new coordinator finishes the commit,
// and the checker finds nothing.
func TestPickTheMomentOfACrash(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/04-two-phase-commit")
	pg := `[data-scenario="pick-a-point"]`
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	b.waitFor("the playground to run", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
	for range 12 {
		b.click(pg + ` button[data-action="step"]`)
	}
	b.click(pg + ` button[data-action="act"]`)
	area := pg + ` textarea[aria-label="Scenario script"]`
	b.waitFor("the crash in the script", `document.querySelector(`+jsString(area)+`).value.includes("crash coordinator(checkout-1)")`)
	b.click(pg + ` button[data-action="end"]`)
	fact := func(q string) string {
		return eval[string](b, `document.querySelector(`+jsString(pg+` li.fact[data-fact="`+q+`"] [data-value]`)+`)?.textContent ?? ""`)
	}
	b.waitFor("the end", `document.querySelector(`+jsString(pg+` li.fact[data-fact="txn checkout-1 state"] [data-value]`)+`)?.textContent === "CompleteCommit"`)
	if got := fact("coordinator checkout-1 broker"); got == "broker-2" || got == "" {
		t.Errorf("after the crash the coordinator is %q", got)
	}
	if got := fact("violations"); got != "—" {
		t.Errorf("the checker found %q", got)
	}
	b.click(pg + ` button[data-action="undo"]`)
	b.waitFor("the crash undone", `!document.querySelector(`+jsString(area)+`).value.includes("crash coordinator")`)
}

// TestALinkToNoLessonSaysSoInItsLanguage: a link inside the app to a
// lesson that does not exist (an old bookmark's slug, a typo in a lesson)
// says there is no such lesson, not that the learner may be offline, in
// both languages, and the way back works.
func TestALinkToNoLessonSaysSoInItsLanguage(t *testing.T) {
	b := newBrowser(t)
	for _, tc := range []struct{ catalogue, want string }{
		{"/lessons", "There is no lesson at this address."},
		{"/zh/lessons", "这个地址没有对应的课程。"},
	} {
		b.open(tc.catalogue)
		b.waitFor("the catalogue", `!!document.querySelector("[data-lesson] a")`)
		// An in-app link, followed by go-app's router rather than a load.
		eval[bool](b, `(() => { const a = document.querySelector("[data-lesson] a");
			a.setAttribute("href", a.getAttribute("href").replace(/[^/]+$/, "99-no-such-lesson")); a.click(); return true; })()`)
		b.waitFor("the notice", `!!document.querySelector(".lesson-absent .notice") && !document.querySelector(".lesson-absent .notice").textContent.includes("…")`)
		if got := b.text(".lesson-absent .notice"); got != tc.want {
			t.Errorf("%s: a link to no lesson says %q, want %q", tc.catalogue, got, tc.want)
		}
		b.click(".lesson-absent a")
		b.waitFor("back in the catalogue", `location.pathname === "`+tc.catalogue+`"`)
	}
	// The browser logs the data's 404; anything else is a defect.
	time.Sleep(200 * time.Millisecond)
	for _, m := range b.takeConsoleErrors() {
		if !strings.Contains(m.URL, "/99-no-such-lesson.json") {
			t.Errorf("console %s at %s:%d: %s", m.Type, m.URL, m.Line+1, m.Text)
		}
	}
}

// TestALessonDiagramAtItsStartShowsItsWholeHint: a lesson playground's
// diagram sized itself to its rows, so at step 0 it was a strip of about
// 60 px that cut its hint ("nothing has happened yet") in half. The box
// keeps room for the hint.
func TestALessonDiagramAtItsStartShowsItsWholeHint(t *testing.T) {
	b := newBrowser(t)
	b.open("/lessons/03-transaction-protocols")
	pg := `[data-scenario="end-txn"]`
	b.do(chromedp.ScrollIntoView(chromedp.CSS(pg)))
	b.waitFor("the playground to run", `document.querySelector(`+jsString(pg)+`)?.dataset.state === "ready"`)
	b.click(pg + ` button[data-action="reset"]:not([disabled])`)
	b.waitFor("the hint", `!!document.querySelector(`+jsString(pg+` .diagram-empty`)+`)`)
	cut := eval[float64](b, `(() => {
		const box = document.querySelector(`+jsString(pg+` .diagram-scroll`)+`).getBoundingClientRect();
		const hint = document.querySelector(`+jsString(pg+` .diagram-empty`)+`).getBoundingClientRect();
		return hint.bottom - box.bottom;
	})()`)
	if cut > 0 {
		t.Errorf("the hint runs %.0f px past the bottom of the diagram's box", cut)
	}
}

// TestLessonTextReadBackFromThePage: the page data leaves the lesson's
// runs of text out (the page has them), so the app reads them back from
// the server's page before its first render. Once it has drawn the lesson
// its own way, every run of text reads as the server's page did, in
// Chinese; and a page that lost a run before the app started (an
// extension, a translator) is fetched whole rather than shown with a
// hole.
func TestLessonTextReadBackFromThePage(t *testing.T) {
	const path = "/zh/lessons/03-transaction-protocols"
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	les, ok := course.Lesson(doc.Chinese, "03-transaction-protocols")
	if !ok {
		t.Fatal("no Chinese lesson 03")
	}
	texts := 0
	for _, s := range les.Segments {
		if s.IsText() {
			texts++
		}
	}
	const shown = `[...document.querySelectorAll("article.lesson .lesson-text")].map(e => e.textContent)`
	server := func(b *browser) []string {
		return eval[[]string](b, `fetch(location.pathname).then(r => r.text()).then(h =>
			[...new DOMParser().parseFromString(h, "text/html").querySelectorAll("article.lesson .lesson-text")].map(e => e.textContent))`, chromedp.EvalAwaitPromise)
	}
	// The app has drawn the lesson itself once the page data, which only
	// the server renders, is gone.
	const drawn = `!document.getElementById("page-data") && document.querySelectorAll("article.lesson .lesson-text").length > 0`

	b := newBrowser(t)
	b.open(path)
	b.waitFor("the app's own lesson", drawn)
	want := server(b)
	if len(want) != texts {
		t.Fatalf("the server's page has %d runs of text, the lesson %d", len(want), texts)
	}
	got := eval[[]string](b, shown)
	if strings.Join(got, "\n---\n") != strings.Join(want, "\n---\n") {
		t.Errorf("after the app drew the lesson, its %d runs of text are not the server's %d:\n%q\nwant\n%q", len(got), len(want), got, want)
	}
	const fetched = `performance.getEntriesByType("resource").some(e => e.name.endsWith("/lesson-data/zh/03-transaction-protocols.json"))`
	if eval[bool](b, fetched) {
		t.Error("the app fetched the lesson it had in the page")
	}

	lost := newBrowser(t)
	if _, err := chromedp.Call(lost.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `addEventListener("DOMContentLoaded", () => document.querySelector('.lesson-text[data-segment]')?.remove())`}); err != nil {
		t.Fatal(err)
	}
	lost.open(path)
	lost.waitFor("the lesson fetched whole", drawn+` && document.querySelectorAll("article.lesson .lesson-text").length === `+strconv.Itoa(texts))
	if got := eval[[]string](lost, shown); strings.Join(got, "\n---\n") != strings.Join(want, "\n---\n") {
		t.Errorf("a page that lost a run of text shows %q, want the whole lesson %q", got, want)
	}
	if !eval[bool](lost, fetched) {
		t.Error("a page that lost a run of text was not fetched whole")
	}
}
