package app

import (
	"encoding/json"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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

// Progress is everything the site remembers of a learner.
type Progress struct {
	Version   int                          `json:"version"`
	Lessons   map[string]*LessonProgress   `json:"lessons,omitempty"`
	Questions map[string]*QuestionProgress `json:"questions,omitempty"`
	// Exercises are the learner's work on exercises, by id (exercise.go).
	Exercises map[string]*ExerciseProgress `json:"exercises,omitempty"`
}

// LessonProgress is what the learner did with one lesson.
type LessonProgress struct {
	Opened bool `json:"opened"`
}

// The states of a question card (its data-state attribute).
const (
	qUnanswered = "unanswered"
	qPredicted  = "predicted"
	qCorrect    = "correct"
	qWrong      = "wrong"
)

// QuestionProgress is the learner's answer to one question.
type QuestionProgress struct {
	State string `json:"state"`
	// Picked are the choice keys of the current or last checked answer.
	Picked []string `json:"picked,omitempty"`
	// Confidence is how sure the learner said they were: high, mid, low.
	Confidence string `json:"confidence,omitempty"`
	// Tries counts checked answers; Revealed that the answer was shown.
	Tries    int  `json:"tries,omitempty"`
	Revealed bool `json:"revealed,omitempty"`
}

// memoryProgress stands in when localStorage is refused (a private
// window, storage disabled): the session still works, it just forgets.
var memoryProgress *Progress

// loadProgress reads the progress; a missing or unreadable one is empty.
func loadProgress() *Progress {
	if memoryProgress != nil {
		return memoryProgress
	}
	p := &Progress{}
	if app.IsClient {
		if st := localStorage(); st.Truthy() {
			if v := st.Call("getItem", progressKey); v.Truthy() {
				if parsed, ok := parseProgress(v.String()); ok {
					p = parsed
				}
			}
		}
	}
	p.normalise()
	memoryProgress = p
	return p
}

// parseProgress reads a progress file, refusing what is not one.
func parseProgress(s string) (*Progress, bool) {
	var p Progress
	if err := json.Unmarshal([]byte(s), &p); err != nil || p.Version < 1 {
		return nil, false
	}
	p.normalise()
	return &p, true
}

func (p *Progress) normalise() {
	p.Version = progressVersion
	if p.Lessons == nil {
		p.Lessons = map[string]*LessonProgress{}
	}
	if p.Questions == nil {
		p.Questions = map[string]*QuestionProgress{}
	}
	for id, q := range p.Questions {
		switch {
		case q == nil:
			delete(p.Questions, id)
		case q.State != qPredicted && q.State != qCorrect && q.State != qWrong:
			q.State = qUnanswered
		}
	}
	for slug, l := range p.Lessons {
		if l == nil {
			delete(p.Lessons, slug)
		}
	}
	p.normaliseExercises()
}

// save writes the progress back.
func (p *Progress) save() {
	memoryProgress = p
	if !app.IsClient {
		return
	}
	b, err := json.Marshal(p)
	if err != nil {
		return
	}
	if st := localStorage(); st.Truthy() {
		st.Call("setItem", progressKey, string(b))
	}
}

// question is the progress of one question, created on first use.
func (p *Progress) question(id string) *QuestionProgress {
	q := p.Questions[id]
	if q == nil {
		q = &QuestionProgress{State: qUnanswered}
		p.Questions[id] = q
	}
	return q
}

// merge takes in an imported file: what it says of a question or a
// lesson replaces what this browser had, except that a question answered
// correctly here stays so.
func (p *Progress) merge(in *Progress) {
	for slug, l := range in.Lessons {
		p.Lessons[slug] = l
	}
	for id, q := range in.Questions {
		if mine := p.Questions[id]; mine != nil && mine.State == qCorrect && q.State != qCorrect {
			continue
		}
		p.Questions[id] = q
	}
	p.mergeExercises(in)
}

// localStorage is window.localStorage, or undefined where reading it
// throws (storage disabled), which a plain Get would turn into a panic.
func localStorage() (v app.Value) {
	defer func() {
		if recover() != nil {
			v = app.Undefined()
		}
	}()
	return app.Window().Get("localStorage")
}
