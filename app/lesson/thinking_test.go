package lesson

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/progress"
	"txnlab/lessons/answer"
	"txnlab/lessons/doc"
)

// learner makes the progress a learner with seed has (the tests run as
// the server does, where the progress lives in memory).
func learner(t *testing.T, seed uint32) *progress.Record {
	t.Helper()
	p := progress.New(seed)
	p.Save() // on the server, the page's progress in memory
	t.Cleanup(progress.Reset)
	return p
}

// thinkingLesson has a varied scenario, a choice question, a number
// question and an after block on the first.
func thinkingLesson() *doc.Lesson {
	when := func(s string) []string { return []string{s} }
	return &doc.Lesson{
		Meta: doc.Meta{Slug: "09-test", Title: "Test", Questions: []string{"q-pick", "q-num"}},
		Segments: []doc.Segment{{Scenario: "s"}, {Question: "q-pick"}, {After: "q-pick", HTML: "<p>It was {{n}}.</p>"},
			{Question: "q-num"}},
		Scenarios: []doc.Scenario{{ID: "s", Title: "Where {{n}}", Script: "cluster brokers=1\ntopic t partitions={{n}}\n",
			Vary: []doc.Var{{Name: "n", Values: []string{"1", "2", "3"}}}}},
		Questions: []doc.Question{
			{ID: "q-pick", Scenario: "s", PromptHTML: "Which? {{n}}", Choices: []doc.Choice{
				{Key: "a", HTML: "A", When: when("expect invariants")}, {Key: "b", HTML: "B", When: when("expect invariants")},
				{Key: "c", HTML: "C", When: when("expect invariants")}, {Key: "d", HTML: "D", When: when("expect invariants")}}},
			{ID: "q-num", Scenario: "s", PromptHTML: "How many?", Answer: "partition t/0 hw"},
		},
	}
}

// detailsOpen finds an open details element (go-app writes attributes
// in no fixed order).
var detailsOpen = regexp.MustCompile(`<details[^>]*\sopen[\s>]`)

// choiceOrder is the order of the choice keys in a card's HTML.
func choiceOrder(html string) string {
	var keys []string
	for _, part := range strings.Split(html, `data-choice="`)[1:] {
		keys = append(keys, part[:1])
	}
	return strings.Join(keys, "")
}

// Two learners see a question's choices in orders of their own, each
// the same at every visit, and neither is the source's for every seed.
func TestChoiceOrderIsTheLearners(t *testing.T) {
	les := thinkingLesson()
	orders := map[string]bool{}
	for _, seed := range []uint32{1, 2, 3, 4, 5, 6} {
		learner(t, seed)
		first := choiceOrder(app.HTMLString(newCard(doc.English, les, &les.Questions[0], "")))
		if again := choiceOrder(app.HTMLString(newCard(doc.English, les, &les.Questions[0], ""))); again != first || len(first) != 4 {
			t.Fatalf("seed %d: order %q, then %q", seed, first, again)
		}
		orders[first] = true
	}
	if len(orders) < 3 {
		t.Errorf("six learners saw only %d orders: %v", len(orders), orders)
	}
}

// A number question has a field, numeric on a phone, and no choices; it
// is graded by the run's value, and what was typed is kept.
func TestNumberQuestionIsTyped(t *testing.T) {
	learner(t, 7)
	les := thinkingLesson()
	c := newCard(doc.English, les, &les.Questions[1], "")
	html := app.HTMLString(c)
	if !strings.Contains(html, `data-answer="q-num"`) || !strings.Contains(html, `inputmode="decimal"`) || strings.Contains(html, "data-choice") {
		t.Fatalf("the number question's card: %s", html)
	}
	c.prog = progress.Load().Question("q-num")
	c.prog.Typed = " 2 "
	c.grade(&answer.Outcome{Value: "2"})
	if st := progress.Load().Questions["q-num"]; st.State != progress.Correct || !st.Solved || st.Typed != " 2 " {
		t.Errorf("after typing the run's value: %+v", st)
	}
	if numericAnswer("txn t state") || !numericAnswer("count Produce") {
		t.Error("numericAnswer")
	}
}

// A right answer is not lost by a later wrong check, whose result is
// still what the card says; the first check is what calibration counts.
func TestRightAnswerIsKept(t *testing.T) {
	learner(t, 7)
	les := thinkingLesson()
	c := newCard(doc.English, les, &les.Questions[0], "")
	c.prog = progress.Load().Question("q-pick")
	out := &answer.Outcome{Holds: []bool{false, true, false, false}}
	c.prog.Picked, c.prog.Confidence = []string{"a"}, "high"
	c.grade(out)
	c.prog.Picked = []string{"b"}
	c.grade(out)
	c.prog.Picked = []string{"c"}
	c.grade(out)
	c.outcome = out
	st := c.prog
	if st.State != progress.Correct || !st.Solved || st.Tries != 3 {
		t.Fatalf("after right then wrong: %+v", st)
	}
	if st.First == nil || st.First.Right || st.First.Confidence != "high" {
		t.Errorf("the first check recorded as %+v", st.First)
	}
	if html := app.HTMLString(c); !strings.Contains(html, `data-state="correct"`) || !strings.Contains(html, `class="wrong"`) {
		t.Error("the card does not stay correct while saying the last check was wrong")
	}
}

// The calibration line, in both languages, and nothing before a check.
func TestCalibrationLine(t *testing.T) {
	p := learner(t, 1)
	if got := p.Calibration(doc.English, nil); got != "" {
		t.Errorf("before any check: %q", got)
	}
	add := func(id, conf string, right bool) {
		p.Question(id).First = &progress.FirstCheck{Confidence: conf, Right: right}
	}
	add("q-1", "high", true)
	add("q-2", "high", false)
	add("q-3", "low", false)
	add("q-4", "", true) // no confidence said: not counted
	if got, want := p.Calibration(doc.English, nil), "When you were sure you were right 1 of 2 times; unsure 0 of 1."; got != want {
		t.Errorf("English: %q, want %q", got, want)
	}
	if got, want := p.Calibration(doc.Chinese, nil), "很有把握时，2 次中答对 1 次；没把握时，1 次中答对 0 次。"; got != want {
		t.Errorf("Chinese: %q, want %q", got, want)
	}
	if got, want := p.Calibration(doc.English, []string{"q-3"}), "When you were unsure you were right 0 of 1 times."; got != want {
		t.Errorf("one lesson's: %q, want %q", got, want)
	}
}

// The lesson page draws the learner's variant into the playground, the
// cards and the after blocks; the after block is folded until the
// question is answered or the reader shows all; "Try another" draws the
// next variant and asks its questions again, the right answer still
// counted.
func TestLessonPageVariantsAndAfterBlocks(t *testing.T) {
	p := learner(t, 99)
	les := thinkingLesson()
	page := &lessonPage{lesson: les, lang: doc.English}
	vals, _ := p.Draw(les, &les.Scenarios[0])
	html := app.HTMLString(page.renderLesson())
	n := vals["n"]
	for _, want := range []string{"partitions=" + n, "Which? " + n, "It was " + n, `data-after="q-pick"`, `data-action="show-all"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(html, "{{") || detailsOpen.MatchString(html) {
		t.Error("a name left unfilled, or an after block open before the answer")
	}
	p.ShowAll = true
	if html := app.HTMLString(page.renderLesson()); !detailsOpen.MatchString(html) {
		t.Error("show all does not open the after block")
	}
	p.ShowAll = false
	p.Question("q-pick").State, p.Question("q-pick").Solved = progress.Correct, true
	if html := app.HTMLString(page.renderLesson()); !detailsOpen.MatchString(html) || !strings.Contains(html, `data-action="another"`) {
		t.Error("answered: the after block is not open, or no Try another")
	}
	p.Another(les, "q-pick")
	if st := p.Questions["q-pick"]; st.State != progress.Unanswered || !st.Solved || p.Variants[progress.VariantKey(les, "s")] != 1 {
		t.Errorf("after Try another: %+v, variants %v", st, p.Variants)
	}
	next, _ := p.Draw(les, &les.Scenarios[0])
	if next["n"] == n {
		t.Errorf("Try another drew the same value %s", n)
	}
	if got := (&lessonsPage{progress: p}).questionTallyRight(les.Meta); got != 1 {
		t.Errorf("the catalogue counts %d right, want the earlier right answer", got)
	}
	// Without a learner (the server, print) it is variant 0.
	if vals, _ := (&progress.Record{}).Draw(les, &les.Scenarios[0]); vals["n"] != "1" {
		t.Errorf("seed 0 draws %v", vals)
	}
}

// Two lessons may vary scenarios of the same id (02 and 05 both have an
// "expiration"): trying another in one leaves the other's variant alone,
// and a count kept under the id alone, as older sites wrote it, still
// counts until the lesson has its own.
func TestVariantsAreCountedPerLesson(t *testing.T) {
	p := learner(t, 7)
	a, b := thinkingLesson(), thinkingLesson()
	b.Slug = a.Slug + "-twin"
	before, _ := p.Draw(b, &b.Scenarios[0])
	p.Another(a, "q-pick")
	if after, _ := p.Draw(b, &b.Scenarios[0]); after["n"] != before["n"] {
		t.Errorf("Try another in %s changed %s's variant from %s to %s", a.Slug, b.Slug, before["n"], after["n"])
	}
	old := learner(t, 7)
	old.Variants["s"] = 1
	if got, want := old.Tries(a, "s"), 1; got != want {
		t.Errorf("an old count: %d tries, want %d", got, want)
	}
	old.Another(a, "q-pick")
	if got := old.Variants[progress.VariantKey(a, "s")]; got != 2 {
		t.Errorf("another after an old count: %d, want 2", got)
	}
}

// The seed and the variants travel with an exported progress.
func TestSeedIsExportedAndImported(t *testing.T) {
	p := learner(t, 1234)
	p.Variants["s"] = 2
	p.Question("q-x").State = progress.Correct
	b, _ := json.Marshal(p)
	in, ok := progress.Parse(string(b))
	if !ok {
		t.Fatal(string(b))
	}
	other := progress.New(5)
	other.Merge(in)
	if other.Seed != 1234 || other.Variants["s"] != 2 || other.Questions["q-x"].State != progress.Correct {
		t.Errorf("imported: seed %d, variants %v", other.Seed, other.Variants)
	}
}

// A review round draws distinct questions, favouring the wrong over the
// right and sure, and asks an answered one again in a new variant.
func TestReviewDrawsTheWeakOnes(t *testing.T) {
	p := learner(t, 3)
	les := thinkingLesson()
	for i := 0; i < 20; i++ {
		les.Questions = append(les.Questions, doc.Question{ID: "q-sure-" + string(rune('a'+i)), Scenario: "other"})
		p.Question(les.Questions[len(les.Questions)-1].ID).First = &progress.FirstCheck{Confidence: "high", Right: true}
		p.Question(les.Questions[len(les.Questions)-1].ID).Solved = true
	}
	p.Question("q-pick").State, p.Question("q-pick").Tries = progress.Wrong, 1
	p.Question("q-pick").First = &progress.FirstCheck{Confidence: "low"}
	page := &reviewPage{lessons: []*doc.Lesson{les}}
	hits := 0
	for round := 0; round < 10; round++ {
		page.draw()
		if len(p.Review) != reviewSize {
			t.Fatalf("a round of %d", len(p.Review))
		}
		seen := map[string]bool{}
		for _, id := range p.Review {
			if seen[id] {
				t.Fatalf("%s twice in a round", id)
			}
			seen[id] = true
		}
		if seen["q-pick"] {
			hits++
		}
		p.Question("q-pick").State, p.Question("q-pick").Tries = progress.Wrong, 1
	}
	// Weights 4 against 20 of weight 1 and 1 of 3: drawn in most rounds.
	if hits < 6 {
		t.Errorf("the wrong question was drawn in %d rounds of 10", hits)
	}
	if p.Tries(les, "s") == 0 {
		t.Error("the answered varied question was not asked in a new variant")
	}
}
