// Package doc is a lesson as data: what the server renders from Markdown
// and sends to the browser, and what the browser draws. It holds no
// Markdown and imports no renderer, so the wasm can link it while goldmark
// stays on the server.
package doc

// Lang is a page language. Its value is the one used in paths and in
// progress files; HTMLLang is what <html lang> says.
type Lang string

// The two languages every page exists in.
const (
	English Lang = "en"
	Chinese Lang = "zh"
)

// Langs lists the languages in the order a language switch offers them.
var Langs = []Lang{English, Chinese}

// HTMLLang is the language tag for <html lang>.
func (l Lang) HTMLLang() string {
	if l == Chinese {
		return "zh-CN"
	}
	return "en"
}

// Prefix is the path prefix of the language's pages: "" or "/zh".
func (l Lang) Prefix() string {
	if l == Chinese {
		return "/zh"
	}
	return ""
}

// Meta is a lesson's front matter and identity.
type Meta struct {
	// Slug is the file name without its language suffix and ".md", e.g.
	// "03-transaction-protocols".
	Slug    string
	Lang    Lang
	Title   string
	Summary string
	// Order places the lesson in the course; both languages share it.
	Order int
	// Questions are the ids of the lesson's questions, in order, so the
	// catalogue can show progress without loading every lesson.
	Questions []string `json:",omitempty"`
	// Exercises are the ids of the lesson's exercises, in order.
	Exercises []string `json:",omitempty"`
}

// Lesson is one rendered lesson in one language.
type Lesson struct {
	Meta
	// Segments are the lesson's body in order: rendered Markdown between
	// the places where a live block is mounted.
	Segments []Segment
	// Scenarios, Questions and Exercises are the lesson's live blocks, in
	// the order they appear.
	Scenarios []Scenario
	Questions []Question
	Exercises []Exercise `json:",omitempty"`
}

// Segment is a stretch of the lesson: exactly one of its fields is set.
type Segment struct {
	// HTML is rendered Markdown (raw HTML from the source is never passed
	// through).
	HTML string `json:",omitempty"`
	// Scenario is the id of a scenario block mounted here.
	Scenario string `json:",omitempty"`
	// Question is the id of a question block mounted here.
	Question string `json:",omitempty"`
	// Exercise is the id of an exercise block mounted here.
	Exercise string `json:",omitempty"`
	// After is the id of the question whose "after you answer" part this
	// is (an ```after block): HTML is then that part's rendered Markdown,
	// which the page shows folded until the learner has answered.
	After string `json:",omitempty"`
}

// IsText reports whether s is a run of the lesson's own text (HTML alone),
// not a block mounted in its place or an answer's folded part.
func (s Segment) IsText() bool {
	return s.Scenario == "" && s.Question == "" && s.Exercise == "" && s.After == ""
}

// Scenario is a ```scenario block: a script that becomes an embedded
// playground.
type Scenario struct {
	ID     string
	Title  string
	Script string
	// Facts are queries (see docs/lessons.md) whose values the embedded
	// playground shows at the current step.
	Facts []string `json:",omitempty"`
	// Actions are statements the embedded playground offers as buttons:
	// pressing one writes it into the script at the current step and runs
	// again (the learner picks the moment, say, the coordinator crashes).
	Actions []string `json:",omitempty"`
	// Vary are the values a learner's variant of this scenario draws
	// from (docs/lessons.md, "Variants"): the script, and every question
	// on it, says {{NAME}} where a drawn value goes.
	Vary []Var `json:",omitempty"`
	// Line is the block's first line in the lesson file, for errors.
	Line int
}

// Var is one varied value of a scenario: its name and the values a
// variant may draw. The first value is the one a page without a learner
// (the server's HTML, print) shows.
type Var struct {
	Name   string
	Values []string
}

// Question is a ```question block: a thought question the learner answers
// by predicting, then running its scenario.
type Question struct {
	ID string
	// Scenario is the id of the lesson's scenario block that decides the
	// question.
	Scenario string
	// Stop is the line of that block's script after which the run stops
	// (1 is the block's first line); 0 runs the script to its end.
	Stop int `json:",omitempty"`
	// Multiple allows several choices (checkboxes instead of radios).
	Multiple bool `json:",omitempty"`
	// PromptHTML is the question, rendered inline Markdown.
	PromptHTML string
	// Choices are the answers to pick from; a question with an Answer
	// has none.
	Choices []Choice `json:",omitempty"`
	// Answer makes the question one the learner answers by typing a
	// value: a query (docs/lessons.md, "Evidence") whose value at the
	// stop point is the right answer, e.g. "partition orders/0 lso".
	Answer string `json:",omitempty"`
	// HintsHTML are shown one at a time after wrong answers.
	HintsHTML   []string `json:",omitempty"`
	ExplainHTML string
	// Evidence is the evidence sentence as parts: text, code spans and
	// query slots filled in from the run.
	Evidence []EvidencePart
	// Line is the block's first line in the lesson file, for errors.
	Line int
}

// Exercise is an ```exercise block: a task the learner does by writing
// or changing a script, judged by running it (docs/lessons.md,
// "Exercises").
type Exercise struct {
	ID string
	// Kind is ExerciseGoal or ExerciseAttack.
	Kind       string
	PromptHTML string
	// Start is the script the learner starts from.
	Start string
	// Goal are expect statements that must all hold once the learner's
	// script has run (goal exercises; attack exercises may add some).
	Goal []string `json:",omitempty"`
	// Break is the mechanism an attack switches off (a core/safety
	// name): the learner's script runs with it broken and must make the
	// checker report one of Catches, then runs with it on and must not.
	Break string `json:",omitempty"`
	// Catches are the invariants an attack must make the checker report;
	// empty means the mechanism's own (safety.Mechanism.Catches).
	Catches []string `json:",omitempty"`
	// Config are settings (the words of `txnlab diff --a`, e.g.
	// "transaction.version=2") both of an attack's runs apply right
	// after the cluster line.
	Config string `json:",omitempty"`
	// MaxAdded bounds how many statements the learner may add to Start
	// (0: no bound).
	MaxAdded int `json:",omitempty"`
	// Allow lists the verbs the learner's added statements may use
	// (empty: any but break and restore).
	Allow     []string `json:",omitempty"`
	HintsHTML []string `json:",omitempty"`
	// Solution is a reference script that reaches the goal: the page
	// offers it after three tries, and the tests run it.
	Solution    string
	ExplainHTML string
	// Wrong are attempts that must not pass (tests only).
	Wrong []string `json:"-"`
	// Line is the block's first line in the lesson file, for errors.
	Line int
}

// The kinds of exercise.
const (
	// ExerciseGoal: make the goal's expectations hold.
	ExerciseGoal = "goal"
	// ExerciseAttack: with a mechanism broken, make the checker report
	// the guarantee it protects.
	ExerciseAttack = "attack"
)

// Choice is one answer to a question.
type Choice struct {
	// Key identifies the choice within its question ("a", "b", …), for
	// progress files: stable when the text is reworded.
	Key  string
	HTML string
	// Right is what the lesson says: this choice is what happens. The
	// tests check it against When; the browser decides from When alone,
	// so it is never sent there (a learner reading the page's data finds
	// predicates to think about, not the answer).
	Right bool `json:"-"`
	// When are expect statements of the scenario language: the choice is
	// what happened exactly when all of them hold at the stop point.
	When []string
}

// EvidencePart is a piece of an evidence sentence: exactly one of its
// fields is set.
type EvidencePart struct {
	Text  string `json:",omitempty"`
	Code  string `json:",omitempty"`
	Query string `json:",omitempty"`
}

// ScenarioByID finds a scenario block of the lesson.
func (l *Lesson) ScenarioByID(id string) (*Scenario, bool) {
	for i := range l.Scenarios {
		if l.Scenarios[i].ID == id {
			return &l.Scenarios[i], true
		}
	}
	return nil, false
}

// QuestionByID finds a question block of the lesson.
func (l *Lesson) QuestionByID(id string) (*Question, bool) {
	for i := range l.Questions {
		if l.Questions[i].ID == id {
			return &l.Questions[i], true
		}
	}
	return nil, false
}

// ExerciseByID finds an exercise block of the lesson.
func (l *Lesson) ExerciseByID(id string) (*Exercise, bool) {
	for i := range l.Exercises {
		if l.Exercises[i].ID == id {
			return &l.Exercises[i], true
		}
	}
	return nil, false
}

// Catalogue is the course in one language: every lesson's Meta, in order.
type Catalogue []Meta
