package lessons

import (
	"testing"

	"txnlab/core/safety"
	"txnlab/lessons/doc"
)

// The course asks the learner to think, not to re-read (issue 24,
// docs/lessons.md "Thinking first"): more than one kind of question,
// no question with two choices, a goal exercise in every lesson, an
// attacker exercise for every mechanism of core/safety's table, and
// variants for at least a third of the questions.
func TestTheCourseAsksTheLearnerToThink(t *testing.T) {
	c := embedded(t)
	for _, lang := range doc.Langs {
		var questions, multiple, numbers, varied int
		attacks := map[string]bool{}
		for _, m := range c.Catalogue(lang) {
			l, _ := c.Lesson(lang, m.Slug)
			goals := 0
			for _, x := range l.Exercises {
				switch x.Kind {
				case doc.ExerciseGoal:
					goals++
				case doc.ExerciseAttack:
					attacks[x.Break] = true
				}
			}
			if goals == 0 && len(l.Questions) > 0 {
				t.Errorf("%s (%s) has no goal exercise", m.Slug, lang)
			}
			for _, q := range l.Questions {
				questions++
				sc, _ := l.ScenarioByID(q.Scenario)
				if len(sc.Vary) > 0 {
					varied++
				}
				switch {
				case q.Answer != "":
					numbers++
				case q.Multiple:
					multiple++
				case len(q.Choices) < 3:
					t.Errorf("%s %s (%s): %d choices; a question has at least three, or an answer: line", m.Slug, q.ID, lang, len(q.Choices))
				}
			}
		}
		if multiple < 8 {
			t.Errorf("%s: %d questions with multiple=true, want at least 8", lang, multiple)
		}
		if numbers < 8 {
			t.Errorf("%s: %d number questions, want at least one a lesson", lang, numbers)
		}
		if varied*3 < questions {
			t.Errorf("%s: %d of %d questions vary between learners, want at least a third", lang, varied, questions)
		}
		for _, mech := range safety.Mechanisms {
			if !attacks[mech.Name] {
				t.Errorf("%s: no attacker exercise breaks %s", lang, mech.Name)
			}
		}
		t.Logf("%s: %d questions (%d multiple, %d number, %d single), %d varied, attacks on %d mechanisms",
			lang, questions, multiple, numbers, questions-multiple-numbers, varied, len(attacks))
	}
}
