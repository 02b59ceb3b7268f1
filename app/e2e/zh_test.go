package e2e

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/app/uitext"
	"txnlab/i18n/english"
)

// englishOnPage lists the English sentences the page shows or says,
// by the lessons' rule (lessons/run_test.go: four Latin words in a row;
// identifiers such as broker-1, read_committed or InitProducerId are one
// word each), outside code (code, pre, kbd, the script's textarea). It
// reads the text a user sees (rendered text nodes, the options of the
// lists), the tooltips, and the names a screen reader says (aria-label
// unless aria-labelledby names the element, aria-valuetext, the live
// region). The diagram (svg) is read too, its labels, tooltips and
// arrow names, with its code-like words set apart first (app's
// englishProse): it writes the protocol's identifiers and fields
// (InitProducerId(txn=order-txn-1), pid=0, __transaction_state/20,
// PrepareCommit, PRODUCER_FENCED) and the script's statements as they
// are, in every language, and the core's notes around them.
const englishOnPage = `(() => {
	const re = /[A-Za-z][A-Za-z'’-]*(?:[ ,]+[A-Za-z][A-Za-z'’-]*){3,}/g;
	// #script-backdrop: the script again, in transparent ink behind the
	// textarea (aria-hidden), so that wrapped lines keep their numbers.
	const code = "code, pre, kbd, samp, textarea, script, style, #script-backdrop .bl";
	const out = [];
	const check = (where, s) => { for (const m of (s || "").match(re) || []) out.push(where + ": " + m); };
	// A word is code when it holds anything but Latin letters and
	// punctuation (a digit, _ . - / = @ →, a Chinese character), is all
	// capitals, or has an inner capital.
	const isCode = w => /[^A-Za-z'’]/.test(w) || /^[A-Z]{2,}$/.test(w) || /[a-z][A-Z]/.test(w);
	const prose = s => (s || "").split(/\s+/).map(w => {
		const bare = w.replace(/^[,:;()\[\]（）：，。]+|[,:;()\[\]（）：，。]+$/g, "");
		return bare === "" || isCode(bare) ? "|" : w;
	}).join(" ");
	const checkIn = (el, where, s) => check(where, el.closest("svg") ? prose(s) : s);
	const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n = w.nextNode(); n; n = w.nextNode()) {
		const el = n.parentElement;
		if (!el || el.closest(code)) continue;
		if (el.closest("svg")) {
			// A label drawn, or a tooltip (<title>, never laid out).
			if (el.tagName === "title" || el.getClientRects().length > 0) check("diagram " + el.tagName, prose(n.textContent));
			continue;
		}
		const shown = el.closest("option, optgroup, .visually-hidden, [aria-live]") || el.getClientRects().length > 0;
		if (shown) check("text", n.textContent);
	}
	for (const el of document.querySelectorAll("body *")) {
		if (el.closest("svg")) {
			checkIn(el, "diagram aria-label of " + el.tagName, el.getAttribute("aria-label"));
			continue;
		}
		if (!el.closest("[data-stmt], [data-stmt-form]")) check("title of " + el.tagName, el.getAttribute("title"));
		if (!el.hasAttribute("aria-labelledby")) check("aria-label of " + el.tagName, el.getAttribute("aria-label"));
		check("aria-valuetext", el.getAttribute("aria-valuetext"));
		check("placeholder", el.getAttribute("placeholder"));
		if (el.tagName === "OPTGROUP") check("optgroup", el.label);
	}
	return out;
})()`

func noEnglish(t *testing.T, b *browser, when string) {
	t.Helper()
	for _, s := range eval[[]string](b, englishOnPage) {
		t.Errorf("%s: English on the Chinese page: %s", when, s)
	}
}

// pos is the position and the history's length as the status line's
// data attributes say them, in any language.
func pos(b *browser) (int, int) {
	b.t.Helper()
	v := eval[[]int](b, `(() => { const d = document.querySelector(".status .position").dataset; return [+d.pos, +d.len] })()`)
	return v[0], v[1]
}

func waitPos(b *browser, i int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("step %d", i), fmt.Sprintf(`document.querySelector(".status .position")?.dataset.pos === "%d"`, i))
}

// narration is the live region's text.
func narration(b *browser) string {
	return eval[string](b, `document.getElementById("narration")?.textContent ?? ""`)
}

// pressUntil presses a key until cond holds, at most n times.
func pressUntil(b *browser, what, key string, mods chromedp.Modifier, n int, cond string) {
	b.t.Helper()
	for i := 0; i < n; i++ {
		if eval[bool](b, cond) {
			return
		}
		if mods != 0 {
			b.do(chromedp.KeyEvent(key, chromedp.KeyModifiers(mods)))
		} else {
			b.do(chromedp.KeyEvent(key))
		}
		time.Sleep(20 * time.Millisecond)
	}
	b.waitFor(what, cond)
}

// TestChinesePlaygroundRun: a Chinese reader opens /zh/playground, loads
// a library scenario from the list, runs it, steps, opens a message and
// the shortcuts' help; at every point the page shows and says no English
// sentence (before the change, the whole playground was English).
func TestChinesePlaygroundRun(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/playground")
	waitIdle(b)
	if got := eval[string](b, `document.documentElement.lang`); got != "zh-CN" {
		t.Errorf("<html lang=%q>", got)
	}
	noEnglish(t, b, "the page as it opens")

	sel := `select[aria-label="Load a library scenario"]`
	b.waitFor("the whole list, grouped by topic", `document.querySelector(`+jsString(sel)+`).querySelectorAll("optgroup").length >= 5`)
	eval[bool](b, `(() => { const s = document.querySelector(`+jsString(sel)+`); s.value = "zombie-fenced-on-produce"; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
	b.waitFor("the chosen scenario", `location.pathname === "/zh/playground" && new URLSearchParams(location.search).get("scenario") === "zombie-fenced-on-produce"`)
	waitIdle(b)
	b.waitFor("its Chinese title in the list", `document.querySelector(`+jsString(sel)+`).selectedOptions[0]?.textContent.includes("僵尸实例")`)

	b.click(button("Run to end"))
	_, n := pos(b)
	waitPos(b, n)
	if n < 10 {
		t.Fatalf("the scenario has %d steps", n)
	}
	noEnglish(t, b, "at the end")
	b.click(button("Reset"))
	waitPos(b, 0)
	for i := 1; i <= 3; i++ {
		b.click(button("Step"))
		waitPos(b, i)
	}
	b.waitFor("the narration in Chinese", `document.getElementById("narration").textContent.startsWith("第 3 步")`)
	b.click(button("Run to end"))
	waitPos(b, n)
	if findArrow(b, `.arrow[data-kind="response"]`) == 0 {
		t.Fatal("no response arrow")
	}
	eval[bool](b, `(document.querySelector(`+jsString(selDiagram+` .arrow[data-kind="response"]`)+`).dispatchEvent(new MouseEvent("click", {bubbles: true})), true)`)
	b.waitFor("the message panel", `!!document.querySelector("#message-panel[data-msg]")`)
	b.waitFor("its Chinese headings", `[...document.querySelectorAll("#message-panel dt")].some(dt => dt.textContent === "结局")`)
	noEnglish(t, b, "with a message open")
	for _, tab := range []string{"partitions", "consumers", "groups", "invariants", "break"} {
		b.click("#tab-" + tab)
		b.waitFor("tab "+tab, `document.querySelector("#tab-`+tab+`").getAttribute("aria-selected") === "true"`)
		noEnglish(t, b, "tab "+tab)
	}

	// The shortcuts' help, by its key.
	eval[bool](b, `(document.activeElement?.blur(), true)`)
	b.do(chromedp.KeyEvent("?"))
	b.waitFor("the help dialog", `document.getElementById("shortcuts")?.open === true`)
	if got := b.text("#shortcuts h2"); got != "键盘快捷键" {
		t.Errorf("the help's title is %q", got)
	}
	noEnglish(t, b, "with the help open")
	b.shot("zh-playground-help")
	b.do(chromedp.KeyEvent(kb.Escape))
	b.click("#tab-transactions")
	b.shot("zh-playground")

	// The check sees English where there is some.
	b.open("/playground?scenario=zombie-fenced-on-produce")
	waitIdle(b)
	if len(eval[[]string](b, englishOnPage)) == 0 {
		t.Error("the English page has no English sentence: the check cannot fail")
	}
}

// TestShortcutsHelpTrapsTheFocusAndEscapeCloses: ? opens the help in
// either language; Tab stays inside it, the transport's keys do nothing
// behind it, Escape closes it and the keys work again.
func TestShortcutsHelpTrapsTheFocusAndEscapeCloses(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	b.do(chromedp.KeyEvent("?"))
	b.waitFor("the help dialog", `document.getElementById("shortcuts")?.open === true`)
	if got := b.text("#shortcuts h2"); got != "Keyboard shortcuts" {
		t.Errorf("the help's title is %q", got)
	}
	for range 4 {
		b.do(chromedp.KeyEvent(kb.Tab))
		if !eval[bool](b, `!!document.activeElement?.closest("#shortcuts")`) {
			t.Fatalf("Tab left the dialog for %s", eval[string](b, `document.activeElement?.outerHTML.slice(0, 80) ?? ""`))
		}
	}
	b.do(chromedp.KeyEvent(kb.ArrowRight))
	time.Sleep(200 * time.Millisecond)
	if at, _ := pos(b); at != 0 {
		t.Errorf("→ behind the open help stepped to %d", at)
	}
	b.do(chromedp.KeyEvent(kb.Escape))
	b.waitFor("the help closed", `document.getElementById("shortcuts")?.open === false`)
	eval[bool](b, `(document.activeElement?.blur(), true)`)
	b.do(chromedp.KeyEvent(kb.ArrowRight))
	waitPos(b, 1)
}

// TestKeyboardOnlyRun: a scenario from start to a red invariant with the
// keyboard alone: Tab to the scenario list and pick one with the arrow
// keys, run and step with the transport's keys, Tab to an arrow and open
// it with Enter, move to "Break the protocol" with the tabs' arrow keys,
// switch a mechanism off with Space, run on and see the invariant red.
func TestKeyboardOnlyRun(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	sel := `select[aria-label="Load a library scenario"]`
	b.waitFor("the whole list", `document.querySelector(`+jsString(sel)+`).options.length > 5`)

	pressUntil(b, "the scenario list focused", kb.Tab, 0, 40, `document.activeElement?.matches(`+jsString(sel)+`) === true`)
	b.do(chromedp.KeyEvent(kb.ArrowDown)) // happy-path → abort, the next one
	b.waitFor("the abort scenario", `new URLSearchParams(location.search).get("scenario") === "abort"`)
	waitIdle(b)
	b.waitFor("its script", `document.querySelector(`+jsString(selScript)+`).value.includes("app abort")`)
	// Off the list, so the transport's keys are the page's.
	pressUntil(b, "the focus off the list", kb.Tab, 0, 5, `document.activeElement?.tagName !== "SELECT"`)

	b.do(chromedp.KeyEvent(kb.End))
	_, n := pos(b)
	waitPos(b, n)
	b.do(chromedp.KeyEvent(kb.Home))
	waitPos(b, 0)
	for i := 1; i <= 6; i++ {
		b.do(chromedp.KeyEvent(kb.ArrowRight))
		waitPos(b, i)
	}
	if got := narration(b); !strings.HasPrefix(got, "Step 6 of ") {
		t.Errorf("the live region says %q after six steps", got)
	}
	// On to the first message on the wire.
	pressUntil(b, "a message in the diagram", kb.ArrowRight, 0, 60, `document.querySelectorAll("svg [data-msg]").length > 0`)

	// Tab to the first arrow of the diagram and open it with Enter.
	pressUntil(b, "an arrow focused", kb.Tab, 0, 120, `!!document.activeElement?.closest("svg [data-msg]")`)
	b.do(chromedp.KeyEvent(kb.Enter))
	b.waitFor("the message panel", `!!document.querySelector("#message-panel[data-msg]")`)

	// The inspector's tabs, then the switch, then Space.
	pressUntil(b, "the inspector's tabs", kb.Tab, 0, 200, `document.activeElement?.getAttribute("role") === "tab"`)
	pressUntil(b, "the Break tab", kb.ArrowRight, 0, 8, `document.activeElement?.id === "tab-break"`)
	sw := `.switch-row[data-mechanism="aborted-filter"] button[role=switch]`
	pressUntil(b, "the aborted-filter switch", kb.Tab, 0, 20, `document.activeElement?.matches(`+jsString(sw)+`) === true`)
	b.do(chromedp.KeyEvent(" "))
	b.waitFor("break in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("break aborted-filter")`)
	waitIdle(b)

	// Run on (End works from the focused switch) and see it red.
	b.do(chromedp.KeyEvent(kb.End))
	_, n = pos(b)
	waitPos(b, n)
	pressUntil(b, "back on the tabs", kb.Tab, chromedp.ModifierShift, 20, `document.activeElement?.getAttribute("role") === "tab"`)
	pressUntil(b, "the Invariants tab", kb.ArrowLeft, 0, 8, `document.activeElement?.id === "tab-invariants"`)
	b.waitFor("read-committed red", `!!document.querySelector('.invariant.broken[data-invariant="read-committed"], .invariant[data-invariant="read-committed"][data-status="violated"]')`)
}

// TestNarrationInBothLanguages: after a step the live region says what
// happened, in words built from the events (who writes which state
// where), in the page's language.
func TestNarrationInBothLanguages(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"/playground?scenario=happy-path", "broker-2, coordinator of checkout-1, writes PrepareCommit to __transaction_state/32"},
		{"/zh/playground?scenario=happy-path", "broker-2 作为 checkout-1 的协调器，把 PrepareCommit 写入 __transaction_state/32"},
	} {
		b := newBrowser(t)
		b.open(tc.path)
		waitIdle(b)
		if got := eval[string](b, `document.getElementById("narration")?.getAttribute("aria-live") ?? ""`); got != "polite" {
			t.Fatalf("%s: aria-live=%q", tc.path, got)
		}
		eval[bool](b, `(document.activeElement?.blur(), true)`)
		_, n := pos(b)
		found := false
		for i := 1; i <= n && !found; i++ {
			b.do(chromedp.KeyEvent(kb.ArrowRight))
			waitPos(b, i)
			found = strings.Contains(narration(b), tc.want)
		}
		if !found {
			t.Errorf("%s: no step narrated %q", tc.path, tc.want)
		}
		if strings.Contains(narration(b), eval[string](b, `document.querySelector("[data-digest]").dataset.digest`)) {
			t.Errorf("%s: the narration reads the digest", tc.path)
		}
	}
}

// TestLanguageControlKeepsTheScript: the learner edits a library
// scenario, steps into it, and switches to Chinese and back: the edited
// script and the position come along, as do a shared link's script.
func TestLanguageControlKeepsTheScript(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "abort")
	edited := scriptText(b) + "\n# my note\n"
	setScript(b, edited)
	waitIdle(b)
	b.waitFor("the edit run", `!document.querySelector(".editor-status")`)
	eval[bool](b, `(document.activeElement?.blur(), true)`)
	for i := 1; i <= 3; i++ {
		b.do(chromedp.KeyEvent(kb.ArrowRight))
		waitPos(b, i)
	}
	b.click(`.lang-switch a[data-lang="zh"]`)
	b.waitFor("the Chinese playground", `location.pathname === "/zh/playground" && new URLSearchParams(location.search).get("scenario") === "abort" && document.documentElement.lang === "zh-CN"`)
	waitIdle(b)
	b.waitFor("the Chinese page drawn", `document.querySelector(".lang-switch a[aria-current]")?.dataset.lang === "zh"`)
	if got := scriptText(b); got != edited {
		t.Errorf("the edited script did not come along:\n%s", got)
	}
	waitPos(b, 3)
	b.click(`.lang-switch a[data-lang="en"]`)
	b.waitFor("the English playground", `location.pathname === "/playground" && document.documentElement.lang === "en"`)
	waitIdle(b)
	if got := scriptText(b); got != edited {
		t.Errorf("the edited script did not come back:\n%s", got)
	}
	waitPos(b, 3)

	// A share link: the script is in the address, and the control keeps it.
	b.click(`.export summary`)
	b.click(`.export li:last-child button`)
	b.waitFor("a share link", `location.hash.startsWith("#s=")`)
	hash := eval[string](b, `location.hash`)
	b.waitFor("the control's link carries it", `document.querySelector('.lang-switch a[data-lang="zh"]').getAttribute("href").endsWith(`+jsString(hash)+`)`)
	b.open("/zh/playground" + hash)
	waitIdle(b)
	if got := scriptText(b); got != edited {
		t.Errorf("the shared script did not open in Chinese:\n%s", got)
	}
}

// TestArrowNamesInChinese: on a Chinese page an arrow's accessible name
// says in Chinese that its message was lost or is still on its way; the
// message itself (API and fields) stays Kafka's.
func TestArrowNamesInChinese(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/playground?scenario=markers-fail")
	waitIdle(b)
	b.do(chromedp.KeyEvent(kb.End))
	b.waitFor("the end of the run", `(() => { const d = document.querySelector(".status .position")?.dataset; return d && d.pos === d.len && +d.len > 0 })()`)
	names := `[...document.querySelectorAll(` + jsString(selDiagram+" .arrow") + `)].map(a => a.getAttribute("aria-label"))`
	if n := findArrow(b, `.arrow[data-api="WriteTxnMarkers"][data-kind="request"]`); n == 0 {
		t.Fatal("no WriteTxnMarkers arrow in the diagram")
	}
	if eval[int](b, names+`.filter(n => n.includes("WriteTxnMarkers") && n.includes("丢失")).length`) == 0 {
		t.Errorf("no lost WriteTxnMarkers arrow says so in Chinese (丢失): %v", eval[[]string](b, names+`.filter(n => n.includes("WriteTxnMarkers"))`))
	}
	for _, n := range eval[[]string](b, names) {
		if strings.Contains(n, "lost:") || strings.Contains(n, "in flight") {
			t.Errorf("an arrow's name is English: %q", n)
		}
	}
}

// manyNotes (app/playground/testdata/many-notes.scenario, which
// app/playground/notes_test.go runs too) writes most kinds of the core's notes (a group's rebalances
// and a member's session timeout, break and restore, transaction
// timeouts, a coordinator crash and its log loaded elsewhere, a broker
// fenced and registered, partitions and heals, a duplicate batch, the
// ISR shrinking and expanding).
var manyNotes = readScenario("../playground/testdata/many-notes.scenario")

// TestChineseDiagramNotes: a Chinese reader runs a script full of the
// core's notes and steps through it: at every step the diagram (its
// labels, tooltips and arrow names) and the narration say no English
// sentence. Before, the notes were the core's English ("ISR shrinks:
// broker-2 has not caught up for 30s", "group etl is Stable at
// generation 1"), and the check skipped the diagram.
func TestChineseDiagramNotes(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/playground")
	waitIdle(b)
	_, before := pos(b)
	setScript(b, manyNotes)
	// The default script's history stays on screen until the edit's run
	// ends: wait for the new one.
	b.waitFor("the script run", fmt.Sprintf(`!document.querySelector(".editor-status") && !document.querySelector(".status[data-running=true]") && +document.querySelector(".status .position")?.dataset.len > 20 && +document.querySelector(".status .position")?.dataset.len !== %d`, before))
	eval[bool](b, `(document.activeElement?.blur(), true)`)
	_, n := pos(b)
	notes := 0
	for i := 1; i <= n; i++ {
		b.do(chromedp.KeyEvent(kb.ArrowRight))
		waitPos(b, i)
		noEnglish(t, b, fmt.Sprintf("step %d", i))
		notes += eval[int](b, `document.querySelectorAll(`+jsString(selDiagram+` .note[data-kind="note"]`)+`).length`)
		if t.Failed() {
			break
		}
	}
	if notes == 0 {
		t.Error("no step drew a note: the check saw none")
	}
}

// readScenario is a test script kept as a file (app/playground/notes_test.go reads it too).
func readScenario(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// failedScript ends with expectations that fail, each saying what it
// wanted and what the run has in the core's words: a violation wanted
// and none found, another error than the one returned, a producer that
// never called.
const failedScript = `cluster brokers=3
topic orders partitions=1
producer app transactional.id=t1
producer idle transactional.id=t2
app init
app begin
app send orders/0 a=1
app commit
run
expect violation
expect app error PRODUCER_FENCED
expect idle ok
`

// TestChineseFailedExpectationSaysWhyInChinese: a Chinese reader whose
// expectations fail reads what each wanted and what the run has in
// Chinese, the values in monospace; before, the core's English ("a
// violation of any invariant", "no violation", "commit returned NONE")
// stood there as code, where the page's English check does not look.
func TestChineseFailedExpectationSaysWhyInChinese(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		b := newBrowser(t)
		path := "/playground"
		if lang == "zh" {
			path = "/zh/playground"
		}
		// A shared link: the page opens on this script, not on another
		// whose history a Run to end could still reach.
		b.open(path + shareLink(t, failedScript, 0))
		waitIdle(b)
		b.waitFor("the script", `document.querySelector(`+jsString(selScript)+`).value.includes("producer idle")`)
		b.click(button("Run to end"))
		b.waitFor("the run to end", `!document.querySelector(".status[data-running=true]")`)
		_, n := pos(b)
		waitPos(b, n)
		b.waitFor("three failed expectations", `document.querySelectorAll(".results li.fail").length === 3`)
		details := eval[[]string](b, `[...document.querySelectorAll(".results li.fail .detail")].map(d => d.textContent)`)
		var english []string
		for _, d := range details {
			english = append(english, englishWordPairs(d)...)
		}
		switch {
		case lang == "en" && len(english) == 0:
			t.Errorf("the English details hold no English (%q): the check cannot fail", details)
		case lang == "zh" && len(english) > 0:
			t.Errorf("English in the Chinese details %q: %q", details, english)
		case lang == "zh":
			noEnglish(t, b, "after the failed expectations")
			if n := count(b, ".results li.fail .detail code"); n < 4 {
				t.Errorf("%d values in monospace in the details (%q)", n, details)
			}
		}
	}
}

// englishWordPairs lists two plain English words in a row in text, code
// included (english.WordPairs), so that a short phrase ("no violation")
// counts too.
func englishWordPairs(text string) []string { return english.WordPairs(text, uitext.IsIdentifier) }

// TestChineseScriptErrorSaysWhatIsWrong: a script error on a Chinese
// page says what is wrong in Chinese, a parse error and a statement that
// cannot apply alike, with the values as code; before, it said only that
// the line could not be read, and listed the words it named.
func TestChineseScriptErrorSaysWhatIsWrong(t *testing.T) {
	base := "cluster brokers=3\ntopic orders partitions=1\nproducer app transactional.id=t1\napp init\n"
	cases := []struct {
		line, en, zh string
		values       []string
	}{
		{"app send orders/9 a=1", "does not exist", "不存在", []string{"9", "orders"}},
		{"resume app", "is not paused", "并未暂停", []string{"app"}},
	}
	for _, lang := range []string{"en", "zh"} {
		b := newBrowser(t)
		b.open(map[string]string{"en": "/playground", "zh": "/zh/playground"}[lang])
		waitIdle(b)
		for _, c := range cases {
			setScript(b, base+c.line+"\n")
			want := map[string]string{"en": c.en, "zh": c.zh}[lang]
			b.waitFor("the error "+want, `!!document.querySelector("#script-error[role=alert]")?.textContent.includes(`+jsString(want)+`)`)
			text := b.text("#script-error")
			if !strings.Contains(text, want) {
				t.Errorf("%s, %q: the error %q does not say %q", lang, c.line, text, want)
			}
			if lang == "en" {
				continue
			}
			if !strings.HasPrefix(text, "第 5 行") || strings.Contains(text, uitext.Tr("zh", "err.parse")) {
				t.Errorf("%q: %q is not the line's error in Chinese", c.line, text)
			}
			if english := englishWordPairs(text); len(english) > 0 {
				t.Errorf("%q: English in the Chinese error %q: %q", c.line, text, english)
			}
			codes := eval[[]string](b, `[...document.querySelectorAll("#script-error code")].map(c => c.textContent)`)
			for _, v := range c.values {
				if !slices.Contains(codes, v) {
					t.Errorf("%q: %q is not in monospace in %q (code: %q)", c.line, v, text, codes)
				}
			}
		}
		if lang == "zh" {
			noEnglish(t, b, "with a script error")
			b.shot("zh-script-error")
		}
	}
}

// TestChineseFindingSaysWhatWentWrong: on /zh/playground the checker's
// finding in broken/aborted-filter (a read_committed consumer handed a
// record of an aborted transaction) is said in Chinese in the invariants
// tab, who read what from which transaction, the names as code; before,
// it said only that the checker found a violation, and listed the names.
func TestChineseFindingSaysWhatWentWrong(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/playground?scenario=broken/aborted-filter")
	waitIdle(b)
	b.waitFor("the scenario's script", `document.querySelector(`+jsString(selScript)+`).value.length > 0`)
	b.click(button("Run to end"))
	b.waitFor("the run to end", `!document.querySelector(".status[data-running=true]")`)
	_, n := pos(b)
	waitPos(b, n)
	b.click("#tab-invariants")
	row := `.invariant[data-invariant="read-committed"] .violation-text`
	b.waitFor("the read-committed finding", `!!document.querySelector(`+jsString(row)+`)`)
	text := b.text(row)
	prose := eval[string](b, `(() => { const c = document.querySelector(`+jsString(row)+`).cloneNode(true); c.querySelectorAll("code").forEach(x => x.remove()); return c.textContent })()`)
	codes := eval[[]string](b, `[...document.querySelectorAll(`+jsString(row+" code")+`)].map(c => c.textContent)`)
	if strings.Contains(text, uitext.Tr("zh", "err.violation")) || !strings.Contains(prose, "中止") {
		t.Errorf("the finding %q does not say what went wrong", text)
	}
	if english := englishWordPairs(prose); len(english) > 0 {
		t.Errorf("English in the Chinese finding %q: %q", text, english)
	}
	for _, v := range []string{"c1", "p1"} {
		if !slices.Contains(codes, v) {
			t.Errorf("%q is not in monospace in %q (code: %q)", v, text, codes)
		}
	}
	noEnglish(t, b, "with the finding shown")
}
