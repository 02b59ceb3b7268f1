package lessons

import (
	"html"
	"regexp"
	"slices"
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/core/scenario"
	"txnlab/i18n"
	"txnlab/i18n/english"
	"txnlab/lessons/doc"
)

// embedded loads the shipped course or fails the test.
func embedded(t *testing.T) *Course {
	t.Helper()
	c, err := Embedded()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Slugs()) == 0 {
		t.Fatal("the course has no lesson")
	}
	return c
}

// Every scenario block runs to its end with every expect holding, in
// every variant a learner may draw: a lesson cannot claim what the
// simulation does not do (checkScenarios, which Course.Check runs).
func TestEveryScenarioHolds(t *testing.T) {
	c := embedded(t)
	n := 0
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			l, _ := c.Lesson(lang, m.Slug)
			errs, k := checkScenarios(c.pages[pageKey{lang, m.Slug}].file, l)
			for _, e := range errs {
				t.Error(e)
			}
			n += k
		}
	}
	if n == 0 {
		t.Fatal("no scenario was run")
	}
}

// Every question's choices that hold in its run are exactly those the
// lesson marks right, and its evidence fills in: the page's answer is
// what the simulation did (checkQuestions, which Course.Check runs).
func TestEveryQuestionAgreesWithItsRun(t *testing.T) {
	c := embedded(t)
	n := 0
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			l, _ := c.Lesson(lang, m.Slug)
			errs, k := checkQuestions(c.pages[pageKey{lang, m.Slug}].file, l)
			for _, e := range errs {
				t.Error(e)
			}
			n += k
		}
	}
	if n == 0 {
		t.Fatal("no question was checked")
	}
}

// The chapter's three thought questions are in lesson 03, in both
// languages, under the ids the issue fixed.
func TestChapterQuestions(t *testing.T) {
	c := embedded(t)
	for _, lang := range doc.Langs {
		l, ok := c.Lesson(lang, "03-transaction-protocols")
		if !ok {
			t.Fatalf("no lesson 03 in %s", lang)
		}
		for _, id := range []string{"q-add-offsets", "q-markers-fail", "q-coordinator-epoch"} {
			if _, ok := l.QuestionByID(id); !ok {
				t.Errorf("%s: lesson 03 has no question %s", lang, id)
			}
		}
		if len(l.Questions) < 5 {
			t.Errorf("%s: lesson 03 has %d questions, want the chapter's three and two of its own", lang, len(l.Questions))
		}
		if !slices.Equal(l.Meta.Questions, questionIDs(l)) {
			t.Errorf("%s: the catalogue's question ids %v differ from the lesson's", lang, l.Meta.Questions)
		}
	}
}

func questionIDs(l *doc.Lesson) []string {
	var ids []string
	for _, q := range l.Questions {
		ids = append(ids, q.ID)
	}
	return ids
}

var (
	codeOrPre = regexp.MustCompile(`(?s)<pre.*?</pre>|<code>.*?</code>`)
	htmlTag   = regexp.MustCompile(`<[^>]*>`)
)

// A Chinese page never shows an English sentence: outside code (Kafka's
// identifiers, scripts) no run of four Latin words, in the text, the
// block titles, the questions, hints, explanations and evidence.
func TestChineseHasNoEnglishSentences(t *testing.T) {
	c := embedded(t)
	for _, m := range c.Catalogue(doc.Chinese) {
		l, _ := c.Lesson(doc.Chinese, m.Slug)
		texts := []string{l.Title, l.Summary}
		for _, s := range l.Segments {
			texts = append(texts, s.HTML)
		}
		for _, sc := range l.Scenarios {
			texts = append(texts, sc.Title)
		}
		for _, q := range l.Questions {
			texts = append(texts, q.PromptHTML, q.ExplainHTML)
			texts = append(texts, q.HintsHTML...)
			for _, ch := range q.Choices {
				texts = append(texts, ch.HTML)
			}
			for _, p := range q.Evidence {
				texts = append(texts, p.Text)
			}
		}
		for _, x := range l.Exercises {
			texts = append(texts, x.PromptHTML, x.ExplainHTML)
			texts = append(texts, x.HintsHTML...)
		}
		for _, s := range texts {
			plain := html.UnescapeString(htmlTag.ReplaceAllString(codeOrPre.ReplaceAllString(s, " "), " "))
			for _, w := range english.Sentences(plain) {
				t.Errorf("%s.zh.md: English on the Chinese page: %q", m.Slug, w)
			}
		}
	}
}

// A Chinese lesson uses the glossary's terms: every term of several
// words (or a name the course fixes) that the English twin uses, the
// Chinese twin writes as the glossary says, at least once.
func TestChineseLessonsUseTheGlossary(t *testing.T) {
	c := embedded(t)
	for _, m := range c.Catalogue(doc.English) {
		en, zh := c.HTML(doc.English, m.Slug), c.HTML(doc.Chinese, m.Slug)
		enText := htmlTag.ReplaceAllString(codeOrPre.ReplaceAllString(en, " "), " ")
		for _, term := range i18n.Glossary {
			if !strings.Contains(term.En, " ") && term.En != "zombie" && term.En != "playground" {
				continue
			}
			if !regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(term.En) + `s?\b`).MatchString(enText) {
				continue
			}
			want, _, _ := strings.Cut(term.Zh, "（")
			if !strings.Contains(zh, want) {
				t.Errorf("%s: the English says %q; the Chinese never writes the glossary's %q", m.Slug, term.En, want)
			}
		}
	}
}

// The API-key erratum of lesson 03 is shown, not only said: its overview
// playground's facts read Kafka's keys off the requests the run sent.
func TestAPIKeyErratumShowsKafkasKeys(t *testing.T) {
	c := embedded(t)
	for _, lang := range doc.Langs {
		l, _ := c.Lesson(lang, "03-transaction-protocols")
		sc, ok := l.ScenarioByID("overview")
		if !ok {
			t.Fatalf("%s: no overview playground", lang)
		}
		script, err := scenario.Parse("overview", sc.Script)
		if err != nil {
			t.Fatal(err)
		}
		s := scenario.NewSession("overview", script)
		s.Run()
		for api, key := range map[string]string{"InitProducerId": "22", "AddPartitionsToTxn": "24", "AddOffsetsToTxn": "25", "EndTxn": "26", "WriteTxnMarkers": "27"} {
			fact := "apikey " + api
			if !slices.Contains(sc.Facts, fact) {
				t.Errorf("%s: the overview does not show %s", lang, fact)
			}
			if got, _ := s.Query(fact); got != key {
				t.Errorf("%s: %s = %s, want Kafka's %s", lang, fact, got, key)
			}
		}
	}
}

// The course is the curriculum: the primer (lesson 00), lessons 01 to 08
// in both languages, then the chapter's companion (09), each with at
// least two playgrounds and three questions.
func TestTheCourseIsComplete(t *testing.T) {
	c := embedded(t)
	want := []string{"00-scenario-language", "01-why-transactions", "02-one-transaction", "03-transaction-protocols", "04-two-phase-commit",
		"05-transaction-log", "06-reading-transactions", "07-failures-and-limits", "08-transaction-version-2",
		"09-chapter-companion"}
	for _, lang := range doc.Langs {
		var got []string
		for _, m := range c.Catalogue(lang) {
			got = append(got, m.Slug)
			l, _ := c.Lesson(lang, m.Slug)
			if len(l.Scenarios) < 2 || len(l.Questions) < 3 {
				t.Errorf("%s (%s): %d playgrounds and %d questions, want at least 2 and 3", m.Slug, lang, len(l.Scenarios), len(l.Questions))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: the course is %v, want %v", lang, got, want)
		}
	}
}

// Lesson 04's "pick the moment" playground says that wherever the
// learner crashes the coordinator, the transaction ends one way on both
// partitions: the checker finds nothing. Crash it at every step a
// learner can stop at, as the button does, and check.
func TestCrashTheCoordinatorAnywhere(t *testing.T) {
	c := embedded(t)
	l, _ := c.Lesson(doc.English, "04-two-phase-commit")
	sc, ok := l.ScenarioByID("pick-a-point")
	if !ok {
		t.Fatal("lesson 04 has no pick-a-point playground")
	}
	if !slices.Equal(sc.Actions, []string{"crash coordinator(checkout-1)"}) {
		t.Fatalf("its actions are %v", sc.Actions)
	}
	e := engine.New()
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	n, crashed := e.Len(), 0
	for i := 1; i <= n; i++ {
		if err := e.Load(sc.Script); err != nil {
			t.Fatal(err)
		}
		e.Seek(i)
		if err := e.Act(sc.Actions[0]); err != nil {
			continue // a step where the statement cannot go (the script says why)
		}
		crashed++
		e.Seek(e.Len())
		if err := e.Err(); err != nil {
			t.Errorf("crash at step %d of %d: the run stopped: %v", i, n, err)
		}
		if vs := e.Violations(); len(vs) > 0 {
			t.Errorf("crash at step %d of %d: %v", i, n, vs)
		}
		for _, r := range e.Results() {
			if !r.OK {
				t.Errorf("crash at step %d of %d: %s", i, n, r)
			}
		}
	}
	if crashed < n/2 {
		t.Errorf("the crash could be written in at only %d of %d steps", crashed, n)
	}
	t.Logf("crashed at %d of %d steps", crashed, n)
}

// Titles and summaries read as text: a front matter value quoted as in
// YAML (to hold a ": ") is shown without its quotes.
func TestFrontMatterValuesAreUnquoted(t *testing.T) {
	c := embedded(t)
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			for _, v := range []string{m.Title, m.Summary} {
				if strings.HasPrefix(v, `"`) || strings.HasSuffix(v, `"`) {
					t.Errorf("%s (%s): %q keeps its quotes", m.Slug, lang, v)
				}
			}
		}
	}
}

// Lesson 08 says its playgrounds named X-35, X-36 and X-40 run "the same
// script" under Kafka 3.5, 3.6 and 4.0: apart from the line that switches
// the protocol and the expectations (which say what differs), their
// statements are the same, and each later one does switch the protocol.
func TestLesson08ComparesTheSameScript(t *testing.T) {
	c := embedded(t)
	switches := map[string]string{
		"36": "config transaction.partition.verification.enable=true",
		"40": "config transaction.version=2",
	}
	for _, lang := range doc.Langs {
		l, ok := c.Lesson(lang, "08-transaction-version-2")
		if !ok {
			t.Fatalf("%s: no lesson 08", lang)
		}
		pairs := 0
		for _, base := range l.Scenarios {
			stem, ok := strings.CutSuffix(base.ID, "-35")
			if !ok {
				continue
			}
			want := statementsOf(base.Script, "")
			for rel, line := range switches {
				other, ok := l.ScenarioByID(stem + "-" + rel)
				if !ok {
					continue
				}
				pairs++
				if !strings.Contains(other.Script, "\n"+line+"\n") {
					t.Errorf("%s %s: no %q line", lang, other.ID, line)
				}
				if got := statementsOf(other.Script, line); !slices.Equal(got, want) {
					t.Errorf("%s %s: its statements differ from %s's:\n%q\n%q", lang, other.ID, base.ID, got, want)
				}
			}
		}
		if pairs < 5 {
			t.Errorf("%s: %d comparisons, want the lesson's five or more", lang, pairs)
		}
	}
}

// statementsOf is a script's lines without blank lines, expectations and
// the line switch.
func statementsOf(script, switchLine string) []string {
	var out []string
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == switchLine || strings.HasPrefix(line, "expect ") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// A section's anchor is the same on both pages: a link to
// #2-the-idempotent-producer, shared by an English reader, opens the
// same section in Chinese, and the language switch keeps the place.
// goldmark's automatic ids drop CJK characters, so every Chinese heading
// carries its English twin's id ({#id}).
func TestBothLanguagesShareEveryHeadingsAnchor(t *testing.T) {
	c := embedded(t)
	headingID := regexp.MustCompile(`<h[1-6] id="([^"]*)"`)
	ids := func(html string) []string {
		var out []string
		for _, m := range headingID.FindAllStringSubmatch(html, -1) {
			out = append(out, m[1])
		}
		return out
	}
	for _, m := range c.Catalogue(doc.English) {
		en, zh := ids(c.HTML(doc.English, m.Slug)), ids(c.HTML(doc.Chinese, m.Slug))
		if len(en) == 0 {
			t.Errorf("%s: no heading ids in the English page", m.Slug)
		}
		if !slices.Equal(en, zh) {
			t.Errorf("%s: the headings' anchors differ\n  en: %v\n  zh: %v", m.Slug, en, zh)
		}
	}
}

// A Chinese paragraph wrapped in the source reads as one run of text: no
// line break, which the browser would show as a space, stays next to a
// Chinese character, before a Kafka identifier or after one.
func TestChineseLinesJoinWithoutStraySpaces(t *testing.T) {
	c := embedded(t)
	stray := regexp.MustCompile(`[\p{Han}，。：；、（）]\n[^\n<]|[^\n>]\n[\p{Han}，。：；、（）]`)
	for _, m := range c.Catalogue(doc.Chinese) {
		h := c.HTML(doc.Chinese, m.Slug)
		if found := stray.FindAllString(h, -1); len(found) > 0 {
			t.Errorf("%s: %d line breaks next to Chinese text render as spaces, e.g. %q", m.Slug, len(found), found[0])
		}
	}
	var b strings.Builder
	if err := NewMarkdown().Convert([]byte("One sentence.\nTwo."), &b); err != nil || !strings.Contains(b.String(), "sentence.\nTwo") {
		t.Errorf("English lines lost their space: %q", b.String())
	}
}

// The server's page of a lesson shows variant 0 of every varied block,
// its values filled in: no reader meets a {{NAME}}.
func TestTheServersPageShowsVariantZero(t *testing.T) {
	c := embedded(t)
	for _, lang := range doc.Langs {
		for _, m := range c.Catalogue(lang) {
			if h := c.HTML(lang, m.Slug); strings.Contains(h, "{{") {
				i := strings.Index(h, "{{")
				t.Errorf("%s (%s): the page shows %q", m.Slug, lang, h[max(0, i-40):min(len(h), i+40)])
			}
		}
	}
}

// An English line that starts with a code span keeps its space: "sends
// and `WriteTxnMarkers`" never reads "and<code>WriteTxnMarkers</code>"
// (goldmark's simple East Asian rule dropped it, on every English page).
func TestEnglishLinesKeepTheirSpaces(t *testing.T) {
	var b strings.Builder
	if err := NewMarkdown().Convert([]byte("sends and\n`WriteTxnMarkers` requests,\nthen *more*\ntext"), &b); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.Contains(got, "and\n<code>") || !strings.Contains(got, "requests,\nthen") || !strings.Contains(got, "</em>\ntext") {
		t.Errorf("a line break lost its space: %q", got)
	}
	c := embedded(t)
	for _, m := range c.Catalogue(doc.English) {
		if h := c.HTML(doc.English, m.Slug); regexp.MustCompile(`[a-z,.]<code>`).MatchString(h) {
			t.Errorf("%s: %q", m.Slug, regexp.MustCompile(`.{0,30}[a-z,.]<code>.{0,20}`).FindString(h))
		}
	}
}
