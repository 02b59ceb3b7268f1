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
}

// Lesson is one rendered lesson in one language.
type Lesson struct {
	Meta
	// Segments are the lesson's body in order: rendered Markdown between
	// the places where a live block is mounted.
	Segments []Segment
	// Scenarios and Questions are the lesson's live blocks, in the order
	// they appear.
	Scenarios []Scenario
	Questions []Question
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
	// Line is the block's first line in the lesson file, for errors.
	Line int
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
	Choices    []Choice
	// HintsHTML are shown one at a time after wrong answers.
	HintsHTML   []string `json:",omitempty"`
	ExplainHTML string
	// Evidence is the evidence sentence as parts: text, code spans and
	// query slots filled in from the run.
	Evidence []EvidencePart
	// Line is the block's first line in the lesson file, for errors.
	Line int
}

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

// Catalogue is the course in one language: every lesson's Meta, in order.
type Catalogue []Meta
