package playground

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/pagetext"
	"txnlab/app/panels"
	"txnlab/app/uitext"
	"txnlab/i18n/english"
	"txnlab/lessons/doc"
)

// The Chinese playground, pre-rendered as the server sends it and at
// every tab of the inspector at the end of a scenario that breaks a
// mechanism, shows no English sentence; the English one does (the check
// can fail).
func TestChinesePlaygroundHasNoEnglishSentence(t *testing.T) {
	for _, slug := range []string{"happy-path", "broken/coordinator-epoch", "zombie-fenced-on-produce"} {
		p := newTestPlayground(t, slug)
		p.run.lang = string(doc.Chinese)
		p.lib.libraryListed = true
		p.run.engine.Seek(p.run.engine.Len())
		p.snapshot()
		for i := range p.run.engine.Events() {
			if e := p.run.engine.Events()[i]; e.MsgID != 0 && e.Resp {
				p.run.selected = e.MsgID // a message open in the panel
				break
			}
		}
		for _, tab := range panels.Tabs {
			p.view.tab = tab.ID
			h := render(p)
			for _, w := range pagetext.EnglishIn(h) {
				t.Errorf("%s, tab %s: English on the Chinese page: %q", slug, tab.ID, w)
			}
		}
		p.run.lang = "en"
		if len(pagetext.EnglishIn(render(p))) == 0 {
			t.Errorf("%s: the English page has no English sentence: the check cannot fail", slug)
		}
	}
}

// Every library scenario has a Chinese title and summary on a Chinese
// page, from its Chinese twin's header (scenarios/zh), each title its own.
func TestEveryScenarioIsInChinese(t *testing.T) {
	en, zh := Library(), libraryIn(doc.Chinese)
	if len(zh) != len(en) {
		t.Fatalf("%d scenarios in Chinese, %d in English", len(zh), len(en))
	}
	seen := map[string]string{}
	for i, sc := range zh {
		if sc.Slug != en[i].Slug || sc.Lang == "" {
			t.Errorf("%s: no Chinese twin (%s in English)", sc.Slug, en[i].Slug)
		}
		for _, s := range []string{sc.Title, sc.Purpose} {
			if !hasHan(s) {
				t.Errorf("%s: %q is not Chinese", sc.Slug, s)
			}
			for _, w := range english.Sentences(s) {
				t.Errorf("%s: English in the Chinese summary: %q", sc.Slug, w)
			}
		}
		if other, dup := seen[sc.Title]; dup {
			t.Errorf("%s and %s share the Chinese title %q", other, sc.Slug, sc.Title)
		}
		seen[sc.Title] = sc.Slug
	}
	if len(libraryTopicsZh) != len(LibraryTopics) {
		t.Errorf("%d Chinese topic titles for %d topics", len(libraryTopicsZh), len(LibraryTopics))
	}
}

// A script that does not parse shows, on a Chinese page, its line and
// column, what is wrong in Chinese with the values the core's English
// names as code, and no English sentence.
func TestChineseScriptErrors(t *testing.T) {
	base := "cluster brokers=3\ntopic orders partitions=1\nproducer app transactional.id=t1\n"
	for _, tc := range []struct{ src, ident string }{
		{base + "app init\napp bgin\n", "bgin"},
		{"cluster brokers=3\ntopc orders partitions=1\n", "topc"},
		{base + "app init\napp begin\napp send nowhere/0 k=v\n", "nowhere"},
		{base + "expect app stat READY\n", "stat"},
		{base + "app init x=1\n", "x=1"},
		{"cluster brokers=3\ncluster brokers=3\n", ""},
	} {
		p := NewPlayground()
		err := p.run.engine.Begin(tc.src)
		if err == nil {
			for done := false; !done; {
				done, _ = p.run.engine.Work(time.Hour)
			}
			if se := p.run.engine.Err(); se != nil {
				err = se
			}
		}
		if err == nil {
			t.Errorf("%q: no error", tc.src)
			continue
		}
		se := asScriptError(err)
		for _, kind := range []string{"Line %d, column %d: %s", "Line %d, column %d stops the run: %s"} {
			h := renderUI(uitext.ScriptErrorText("zh", kind, se)...)
			if want := fmt.Sprintf("第 %d 行第 %d 列", se.Line, se.Col); !strings.Contains(h, want) || se.Line < 2 {
				t.Errorf("%q: no line and column in %s", se.Msg, h)
			}
			if tc.ident != "" && !strings.Contains(h, "<code>"+tc.ident+"</code>") {
				t.Errorf("%q: the identifier %q is not named in %s", se.Msg, tc.ident, h)
			}
			for _, w := range pagetext.EnglishIn(h) {
				t.Errorf("%q: English in the Chinese error: %q", se.Msg, w)
			}
		}
		if en := renderUI(uitext.ScriptErrorText("en", "Line %d, column %d: %s", se)...); !strings.Contains(en, html.EscapeString(se.Msg)) && !strings.Contains(en, se.Msg) {
			t.Errorf("the English error lost the core's text: %s", en)
		}
		for _, p := range actionError("zh", "app bgin", se) {
			if p.Code {
				continue
			}
			for _, w := range english.Sentences(p.Text) {
				t.Errorf("%q: English in the Chinese action error: %q", se.Msg, w)
			}
		}
		// Each says what is wrong, not only that something is.
		if h := renderUI(uitext.ScriptErrorText("zh", "Line %d, column %d: %s", se)...); strings.Contains(h, uitext.Tr("zh", "err.parse")) {
			t.Errorf("%q: the general lead, not what is wrong: %s", se.Msg, h)
		}
	}
}

func renderUI(uis ...app.UI) string { return app.HTMLString(app.Span().Body(uis...)) }

// The live region says each step in words, in the page's language, from
// the events' fields: at the step where the coordinator writes
// PrepareCommit, who wrote what where.
func TestNarrationSaysTheStepInWords(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	e := p.run.engine
	at := -1
	for i := 1; i <= e.Len() && at < 0; i++ {
		for j := e.EventsAt(i - 1); j < e.EventsAt(i); j++ {
			if ev := e.History()[j]; ev.Kind.String() == "append" && !ev.Internal && strings.Contains(ev.Text, "state=PrepareCommit") {
				at = i
			}
		}
	}
	if at < 0 {
		t.Fatal("no PrepareCommit write in the happy path")
	}
	e.Seek(at)
	en := panels.Narration("en", e, p.run.filter)
	zh := panels.Narration("zh", e, p.run.filter)
	for _, want := range []string{fmt.Sprintf("Step %d of %d: ", at, e.Len()), "broker-2, coordinator of checkout-1, writes PrepareCommit to __transaction_state/32"} {
		if !strings.Contains(en, want) {
			t.Errorf("English narration %q lacks %q", en, want)
		}
	}
	for _, want := range []string{fmt.Sprintf("第 %d 步", at), "broker-2 作为 checkout-1 的协调器，把 PrepareCommit 写入 __transaction_state/32"} {
		if !strings.Contains(zh, want) {
			t.Errorf("Chinese narration %q lacks %q", zh, want)
		}
	}
	if strings.Contains(en, e.Digest()) || len(english.Sentences(zh)) > 0 {
		t.Errorf("narrations: %q / %q", en, zh)
	}
	// Every step of a scenario that crashes and fences says something
	// in both languages, and the Chinese never an English sentence.
	p = newTestPlayground(t, "zombie-fenced-on-produce")
	for i := 1; i <= p.run.engine.Len(); i++ {
		p.run.engine.Seek(i)
		zh := panels.Narration("zh", p.run.engine, p.run.filter)
		if !strings.HasPrefix(zh, "第 ") {
			t.Fatalf("step %d: %q", i, zh)
		}
		for _, w := range english.Sentences(zh) {
			t.Errorf("step %d: English in the Chinese narration: %q", i, w)
		}
	}
	if html := render(p); !strings.Contains(html, `aria-live="polite"`) || !strings.Contains(html, `id="narration"`) {
		t.Error("the page has no polite live region")
	}
}

// The identifiers of the core's texts, as a Chinese page names them.
func TestErrorIdentifiers(t *testing.T) {
	for msg, want := range map[string]string{
		`unknown producer action "bgin"; did you mean "begin"? (a producer can init, begin, send)`: "bgin begin",
		"p1's transaction #1 committed, but its offset 5 of audit/1 for group g1 is still pending": "p1 audit/1 g1",
		"broker-2 answers PRODUCER_FENCED to InitProducerId on __transaction_state/39":             "broker-2 PRODUCER_FENCED InitProducerId __transaction_state/39",
		"transaction.timeout.ms (60 s) passed: the coordinator aborts":                             "transaction.timeout.ms",
		"an unterminated \"quote": "",
		"":                        "",
	} {
		if got := strings.Join(uitext.ErrorIdentifiers(msg), " "); got != want {
			t.Errorf("errorIdentifiers(%q) = %q, want %q", msg, got, want)
		}
	}
	if s, ok := uitext.DidYouMean(`unknown statement "topc"; did you mean "topic"?`); !ok || s != "topic" {
		t.Errorf("didYouMean = %q, %v", s, ok)
	}
	for text, want := range map[string]string{
		"[checkout-1:{state=PrepareCommit pid=0 epoch=0}]": "checkout-1 PrepareCommit",
		"[t:{state=Empty}]":                          "t Empty",
		"[order-42=created] pid=0 epoch=0 seq=0 txn": "",
		"[:{state=Empty}]":                           "",
	} {
		id, state, ok := panels.TxnStateRecord(text)
		if got := strings.TrimSpace(id + " " + state); ok != (want != "") || (ok && got != want) {
			t.Errorf("txnStateRecord(%q) = %q, %v", text, got, ok)
		}
	}
}

// Reading any text for its identifiers never panics, and every
// identifier is in the text.
func FuzzErrorIdentifiers(f *testing.F) {
	f.Add(`unknown producer action "bgin"; did you mean "begin"?`)
	f.Add("`app` is paused: resume it first")
	f.Add("[checkout-1:{state=Ongoing pid=0 epoch=0}]")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, id := range uitext.ErrorIdentifiers(msg) {
			if !strings.Contains(msg, id) {
				t.Fatalf("%q is not in %q", id, msg)
			}
		}
		uitext.DidYouMean(msg)
		panels.TxnStateRecord(msg)
		uitext.CoreErrorIn("zh", msg)
	})
}

// The trace on a Chinese page keeps each event's canonical line as data
// (code), but says the core's sentences in it in Chinese after it: a
// note's text and why a message was lost. Before, "duplicate batch (seq
// 1) answered with its original offset 2" stood there in English.
func TestChineseTraceSaysTheCoresSentencesInChinese(t *testing.T) {
	item := regexp.MustCompile(`<li class="ev-(note|drop)[^"]*"><code>([^<]*)</code>([^<]*)</li>`)
	for _, slug := range []string{"find-and-abort-hanging", "broken/coordinator-epoch"} {
		p := newTestPlayground(t, slug)
		p.run.engine.Seek(p.run.engine.Len())
		d := &p.run.diagramState
		d.layout()
		kinds := map[string]int{}
		for _, lang := range []string{"zh", "en"} {
			h := app.HTMLString((&traceList{Lang: lang, From: 0, To: len(d.full.Rows), d: d}).Render())
			for _, m := range item.FindAllStringSubmatch(h, -1) {
				data, said := html.UnescapeString(m[2]), html.UnescapeString(m[3])
				if lang == "en" {
					if said != "" {
						t.Errorf("%s: the English trace says %q apart from its line %q", slug, said, data)
					}
					continue
				}
				kinds[m[1]]++
				if !strings.ContainsFunc(said, func(r rune) bool { return r >= 0x4e00 }) {
					t.Errorf("%s: %s line %q says %q, no Chinese", slug, m[1], data, said)
				}
				if w := english.Sentences(said); len(w) > 0 {
					t.Errorf("%s: English in %q: %q", slug, said, w)
				}
				if w := pagetext.Prose(data); len(w) > 0 {
					t.Errorf("%s: an English sentence in the line's data %q: %q", slug, data, w)
				}
			}
		}
		if kinds["note"]+kinds["drop"] == 0 {
			t.Errorf("%s: no note or lost message in the trace (%v)", slug, kinds)
		}
	}

	// A failed expectation's line: what the run has, in Chinese.
	p := newTestPlayground(t, "happy-path")
	script := p.lib.original + "\nexpect violation\n"
	p.setEditor(ctx, script)
	p.startLoad(ctx, script, nil)
	p.run.engine.Seek(p.run.engine.Len())
	d := &p.run.diagramState
	d.layout()
	h := app.HTMLString((&traceList{Lang: "zh", From: 0, To: len(d.full.Rows), d: d}).Render())
	failed := regexp.MustCompile(`<li class="ev-expect[^"]*">(.*?)</li>`)
	n := 0
	for _, m := range failed.FindAllStringSubmatch(h, -1) {
		if !strings.Contains(m[1], "FAIL") {
			continue
		}
		n++
		if strings.Contains(m[1], "actual:") || !strings.Contains(m[1], "实际：") || !strings.Contains(m[1], "没有发现违反") {
			t.Errorf("the failed expectation's line on a Chinese page: %s", m[1])
		}
	}
	if n != 1 {
		t.Errorf("%d failed expectations in the trace, want 1", n)
	}
}

// A button's statement the engine refuses, before it runs or as it
// runs, is said on a Chinese page in Chinese: the statement once, as
// code, then what is wrong (the engine's "stmt: " before the core's
// reason is not repeated).
func TestChineseActionErrors(t *testing.T) {
	e := engine.New()
	if err := e.Begin("cluster brokers=3\n"); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		done, _ = e.Work(time.Hour)
	}
	e.Seek(0)
	before := e.BeginAct("crash broker-1")
	e.Seek(e.Len())
	if err := e.BeginAct("resume broker-1"); err != nil {
		t.Fatal(err)
	}
	var during error
	for done := false; !done; {
		done, during = e.Work(time.Hour)
	}
	for _, tc := range []struct {
		stmt string
		err  error
		want string
	}{
		{"crash broker-1", before, "集群还不存在"},
		{"resume broker-1", during, "并未暂停"},
	} {
		if tc.err == nil {
			t.Fatalf("%s: no error", tc.stmt)
		}
		ps := actionError("zh", tc.stmt, tc.err)
		text := uitext.PlainText(ps)
		if !strings.Contains(text, tc.want) || strings.Contains(text, uitext.Tr("zh", "err.lead")) || strings.Count(text, tc.stmt) != 1 {
			t.Errorf("%v: %q does not say %q, with the statement once", tc.err, text, tc.want)
		}
		for _, p := range ps {
			if !p.Code && strings.ContainsFunc(p.Text, func(r rune) bool { return r < 0x80 && unicode.IsLetter(r) }) {
				t.Errorf("%v: Latin outside code in %q", tc.err, text)
			}
		}
		if en := uitext.PlainText(actionError("en", tc.stmt, tc.err)); !strings.HasPrefix(en, "Could not run "+tc.stmt) {
			t.Errorf("in English: %q", en)
		}
	}
	// A lesson's fact with no value says why in the page's language.
	if v := factValue("zh", engine.New(), "clock"); !strings.Contains(v, "还没有载入脚本") {
		t.Errorf("a fact with no script: %q", v)
	}
}
