// Package progress is what the site remembers of a learner: lessons
// opened, questions answered and how sure the learner was, exercises
// worked, the seed that orders their choices and draws their variants.
// It lives in the browser's storage and goes out and back in as a file.
package progress

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// The learner's progress lives in the browser's localStorage under one
// key, as JSON that a newer site reads too: unknown fields are ignored,
// missing ones are zero, and the schema only grows. Questions are keyed
// by their id, never by their position or language, so progress survives
// a rewording, a reordering and a switch of language.

// progressKey is the localStorage key.
const progressKey = "txnlab.progress"

// progressVersion is the schema's version, written into every file so a
// future site can migrate an old one.
const progressVersion = 1

// Record is everything the site remembers of a learner.
type Record struct {
	Version int `json:"version"`
	// Seed is the learner's own, drawn once in the browser and never 0
	// there: it orders each question's choices (doc.Order) and draws the
	// learner's variant of a scenario (doc.VariantOf), so a reload, an
	// export and an import show the same. 0 is a page without a learner.
	Seed uint32 `json:"seed,omitempty"`
	// ShowAll is a reader's preference: every after block open.
	ShowAll bool `json:"showAll,omitempty"`
	// Variants counts, by lesson and scenario id (VariantKey), the
	// learner's "Try another": the variant shown is doc.VariantOf(Seed,
	// id, Variants[key]). Scenario ids are unique within a lesson only
	// (lessons 02 and 05 both vary an "expiration"); a key without the
	// lesson, as sites before 2026-12-04 wrote, still counts for a
	// lesson that has none of its own yet.
	Variants map[string]int `json:"variants,omitempty"`
	// Review is the current review round's question ids, kept until the
	// learner asks for another round, so a reload finds the same round.
	Review    []string             `json:"review,omitempty"`
	Lessons   map[string]*Lesson   `json:"lessons,omitempty"`
	Questions map[string]*Question `json:"questions,omitempty"`
	// Exercises are the learner's work on exercises, by id (app's exercise.go).
	Exercises map[string]*Exercise `json:"exercises,omitempty"`
}

// Lesson is what the learner did with one lesson.
type Lesson struct {
	Opened bool `json:"opened"`
}

// The states of a question card (its data-state attribute).
const (
	Unanswered = "unanswered"
	Predicted  = "predicted"
	Correct    = "correct"
	Wrong      = "wrong"
)

// Question is the learner's answer to one question.
type Question struct {
	State string `json:"state"`
	// Picked are the choice keys of the current or last checked answer.
	Picked []string `json:"picked,omitempty"`
	// Confidence is how sure the learner said they were: high, mid, low.
	Confidence string `json:"confidence,omitempty"`
	// Tries counts checked answers; Revealed that the answer was shown.
	Tries    int  `json:"tries,omitempty"`
	Revealed bool `json:"revealed,omitempty"`
	// Typed is the value typed for a question answered by a number.
	Typed string `json:"typed,omitempty"`
	// Solved is set by a right check and never cleared: a later wrong
	// check, another variant or a review round asks again, but the
	// question stays done for the learner's progress.
	Solved bool `json:"solved,omitempty"`
	// First is the question's first check, for the calibration line.
	First *FirstCheck `json:"first,omitempty"`
}

// FirstCheck is how sure a learner said they were at a question's first
// check, and whether that check was right.
type FirstCheck struct {
	Confidence string `json:"confidence,omitempty"`
	Right      bool   `json:"right"`
}

// memoryProgress stands in when localStorage is refused (a private
// window, storage disabled): the session still works, it just forgets.
var memoryProgress *Record

// New is an empty progress with seed, its maps made: what a learner who
// has done nothing yet has.
func New(seed uint32) *Record {
	p := &Record{Seed: seed}
	p.normalise()
	return p
}

// Reset forgets the progress the page holds in memory, so the next Load
// reads the browser's again: the tests' clean slate.
func Reset() { memoryProgress = nil }

// Load reads the progress; a missing or unreadable one is empty.
func Load() *Record {
	if memoryProgress != nil {
		return memoryProgress
	}
	p := &Record{}
	if app.IsClient {
		if parsed, ok := Parse(browser.GetItem(progressKey)); ok {
			p = parsed
		}
	}
	p.normalise()
	memoryProgress = p
	if app.IsClient && p.Seed == 0 {
		p.Seed = drawSeed()
		p.Save()
	}
	return p
}

// drawSeed draws a learner's seed from the browser's cryptographic
// generator: two learners must not share one, and a seed from the clock
// would give the same to two learners starting at the same moment.
func drawSeed() uint32 {
	crypto := app.Window().Get("crypto")
	for crypto.Truthy() {
		a := app.Window().Get("Uint32Array").New(1)
		crypto.Call("getRandomValues", a)
		if s := uint32(a.Index(0).Int()); s != 0 {
			return s
		}
	}
	return 1
}

// Parse reads a progress file, refusing what is not one.
func Parse(s string) (*Record, bool) {
	var p Record
	if err := json.Unmarshal([]byte(s), &p); err != nil || p.Version < 1 {
		return nil, false
	}
	p.normalise()
	return &p, true
}

func (p *Record) normalise() {
	p.Version = progressVersion
	if p.Lessons == nil {
		p.Lessons = map[string]*Lesson{}
	}
	if p.Questions == nil {
		p.Questions = map[string]*Question{}
	}
	if p.Variants == nil {
		p.Variants = map[string]int{}
	}
	for id, q := range p.Questions {
		switch {
		case q == nil:
			delete(p.Questions, id)
		case q.State != Predicted && q.State != Correct && q.State != Wrong:
			q.State = Unanswered
		}
	}
	for slug, l := range p.Lessons {
		if l == nil {
			delete(p.Lessons, slug)
		}
	}
	p.normaliseExercises()
}

// Save writes the progress back.
func (p *Record) Save() {
	memoryProgress = p
	if !app.IsClient {
		return
	}
	b, err := json.Marshal(p)
	if err != nil {
		return
	}
	browser.SetItem(progressKey, string(b))
}

// Question is the progress of question id, created on first use.
func (p *Record) Question(id string) *Question {
	q := p.Questions[id]
	if q == nil {
		q = &Question{State: Unanswered}
		p.Questions[id] = q
	}
	return q
}

// Merge takes in an imported file: what it says of a question or a
// lesson replaces what this browser had, except that a question answered
// correctly here stays so.
//
// The imported seed and variants replace this browser's: the answers in
// the file were given to that seed's choice orders and variants.
func (p *Record) Merge(in *Record) {
	if in.Seed != 0 {
		p.Seed = in.Seed
		for id, n := range in.Variants {
			p.Variants[id] = n
		}
	}
	p.ShowAll = p.ShowAll || in.ShowAll
	for slug, l := range in.Lessons {
		p.Lessons[slug] = l
	}
	for id, q := range in.Questions {
		if mine := p.Questions[id]; mine != nil && mine.IsSolved() && !q.IsSolved() {
			continue
		}
		p.Questions[id] = q
	}
	p.mergeExercises(in)
}

// IsSolved reports whether the question was ever answered right.
func (q *Question) IsSolved() bool { return q.Solved || q.State == Correct }

// Done reports whether the question's answer may be shown: answered
// right in the variant shown now, or revealed.
func (q *Question) Done() bool { return q != nil && (q.State == Correct || q.Revealed) }

// Draw is the learner's variant of a scenario: its values, and how many
// times the learner asked for another (0 for a scenario that does not
// vary). A page without a learner (seed 0: the server's, print) shows
// variant 0, every first value.
func (p *Record) Draw(les *doc.Lesson, sc *doc.Scenario) (map[string]string, int) {
	if sc == nil || len(sc.Vary) == 0 {
		return nil, 0
	}
	if p.Seed == 0 {
		return doc.Draw(sc.Vary, 0), 0
	}
	n := p.Tries(les, sc.ID)
	return doc.Draw(sc.Vary, doc.VariantOf(p.Seed, sc.ID, n)), n
}

// VariantKey is where Variants counts a lesson's scenario.
func VariantKey(les *doc.Lesson, id string) string { return les.Slug + "/" + id }

// Tries is how many times the learner asked for another variant of a
// lesson's scenario.
func (p *Record) Tries(les *doc.Lesson, id string) int {
	if n, ok := p.Variants[VariantKey(les, id)]; ok {
		return n
	}
	return p.Variants[id] // written before the key named the lesson
}

// Ask puts a question back to unanswered, to be asked again (another
// variant, a review round); Solved and First stay.
func (q *Question) Ask() {
	*q = Question{State: Unanswered, Solved: q.IsSolved(), First: q.First}
}

// Another draws the next variant of the scenario that question id is on:
// every question of the lesson on that scenario is asked again.
func (p *Record) Another(les *doc.Lesson, id string) {
	q, ok := les.QuestionByID(id)
	if !ok {
		return
	}
	p.Variants[VariantKey(les, q.Scenario)] = p.Tries(les, q.Scenario) + 1
	for _, o := range les.Questions {
		if o.Scenario == q.Scenario {
			p.Question(o.ID).Ask()
		}
	}
}

// confidences are the levels of the confidence radios, surest first.
var confidences = [3]string{"high", "mid", "low"}

// Calibration is the calibration line over the questions ids (every
// question of the progress when ids is nil): for each confidence level,
// how often the learner's first check at it was right; "" before any
// first check with a confidence.
func (p *Record) Calibration(lang doc.Lang, ids []string) string {
	var right, total [3]int
	for id, q := range p.Questions {
		if q.First == nil || ids != nil && !slices.Contains(ids, id) {
			continue
		}
		for i, c := range confidences {
			if q.First.Confidence == c {
				total[i]++
				if q.First.Right {
					right[i]++
				}
			}
		}
	}
	var parts []string
	for i, c := range confidences {
		if total[i] > 0 {
			f := "cal.more"
			if parts == nil {
				f = "cal.first"
			}
			parts = append(parts, fmt.Sprintf(uitext.Tr(lang, f), uitext.Tr(lang, "cal."+c), right[i], total[i]))
		}
	}
	if parts == nil {
		return ""
	}
	if lang == doc.Chinese {
		return strings.Join(parts, "；") + "。"
	}
	return strings.Join(parts, "; ") + "."
}

// The states of an exercise card (its data-state attribute).
const (
	Unsolved = "unsolved"
	Solved   = "solved"
	Failed   = "failed"
)

// Exercise is the learner's work on one exercise, kept in the
// progress by the exercise's id.
type Exercise struct {
	// State is unsolved, solved (once solved it stays so) or failed (the
	// last check did not pass).
	State string `json:"state"`
	// Script is the learner's script as last edited ("" is the start).
	Script string `json:"script,omitempty"`
	// Tries counts checks; Revealed that the solution was shown.
	Tries    int  `json:"tries,omitempty"`
	Revealed bool `json:"revealed,omitempty"`
}

// Exercise is the progress of exercise id, created on first use.
func (p *Record) Exercise(id string) *Exercise {
	if p.Exercises == nil {
		p.Exercises = map[string]*Exercise{}
	}
	x := p.Exercises[id]
	if x == nil {
		x = &Exercise{State: Unsolved}
		p.Exercises[id] = x
	}
	return x
}

// normaliseExercises drops what a progress file says of exercises that
// this site cannot read.
func (p *Record) normaliseExercises() {
	if p.Exercises == nil {
		p.Exercises = map[string]*Exercise{}
	}
	for id, x := range p.Exercises {
		switch {
		case x == nil:
			delete(p.Exercises, id)
		case x.State != Solved && x.State != Failed:
			x.State = Unsolved
		}
	}
}

// mergeExercises takes in an imported file's exercises: an exercise
// solved here stays solved.
func (p *Record) mergeExercises(in *Record) {
	for id, x := range in.Exercises {
		if mine := p.Exercises[id]; mine != nil && mine.State == Solved && x.State != Solved {
			continue
		}
		p.Exercise(id)
		p.Exercises[id] = x
	}
}
