package lesson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/playground"
	"txnlab/app/progress"
	"txnlab/app/uitext"
	"txnlab/lessons/answer"
	"txnlab/lessons/doc"
)

// revealAfter is how many wrong answers a learner gives before the card
// offers to show the answer.
const revealAfter = 3

// questionCard is a thought question: the learner commits to an answer
// and says how sure they are, then runs the question's scenario, which
// decides. Whether a choice is what happened is computed from the run
// (lessons/answer), never read from the lesson's marks, and so is the
// evidence sentence. The linked playground then shows the run, stopped
// where the question looks.
type questionCard struct {
	app.Compo

	// Q is the question; Script and ScenarioTitle are its scenario
	// block's.
	// The question and its scenario are the learner's variant, filled
	// in (doc.Question.Filled).
	Q             doc.Question
	Script        string
	ScenarioTitle string
	Lang          doc.Lang
	// Variant is how many times the learner asked for another variant
	// of the scenario; Varies that there are others to ask for.
	Variant int
	Varies  bool
	// Lesson is the lesson's path when the card is shown away from it
	// (the review): its link to the run then leads there.
	Lesson string

	prog    *progress.Question
	shown   string // the question and variant the state below is of
	running bool
	outcome *answer.Outcome
	err     string
	hints   int  // hints shown
	last    int8 // the last check here: 0 none, 1 right, -1 wrong
}

func (c *questionCard) OnMount(ctx app.Context) { c.sync(ctx) }

// OnUpdate starts again when the page gives another question or
// another variant of it.
func (c *questionCard) OnUpdate(ctx app.Context) { c.sync(ctx) }

func (c *questionCard) sync(ctx app.Context) {
	key := c.Q.ID + "#" + strconv.Itoa(c.Variant)
	if key == c.shown {
		return
	}
	c.shown, c.outcome, c.err, c.hints, c.last, c.running = key, nil, "", 0, 0, false
	c.prog = progress.Load().Question(c.Q.ID)
	if c.prog.Done() {
		// Come back to a question answered earlier: show its evidence
		// again (the run is quick; the learner need not redo it).
		c.decide(ctx, false)
	}
}

func (c *questionCard) state() *progress.Question {
	if c.prog == nil {
		// Not mounted yet (a first render): read, never create, so the
		// server's progress, shared by every request, is not written.
		if q := progress.Load().Questions[c.Q.ID]; q != nil {
			return q
		}
		return &progress.Question{State: progress.Unanswered}
	}
	return c.prog
}

func (c *questionCard) save() { progress.Load().Save() }

func (c *questionCard) onPick(key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		st := c.state()
		if c.running {
			return
		}
		checked := ctx.JSSrc().Get("checked").Bool()
		if c.Q.Multiple {
			st.Picked = slices.DeleteFunc(st.Picked, func(k string) bool { return k == key })
			if checked {
				st.Picked = append(st.Picked, key)
				slices.Sort(st.Picked)
			}
		} else if checked {
			st.Picked = []string{key}
		}
		c.predicted(len(st.Picked) > 0)
	}
}

// predicted records that the learner has (or no longer has) an answer
// ready; a right answer stays right.
func (c *questionCard) predicted(has bool) {
	if st := c.state(); st.State != progress.Correct {
		st.State = progress.Unanswered
		if has {
			st.State = progress.Predicted
		}
	}
	c.err = ""
	c.save()
}

func (c *questionCard) onType(ctx app.Context, e app.Event) {
	st := c.state()
	st.Typed = ctx.JSSrc().Get("value").String()
	c.predicted(strings.TrimSpace(st.Typed) != "")
}

func (c *questionCard) onAnother(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(anotherAction, c.Q.ID)
}

// anotherAction asks the page for the next variant of the scenario of
// the question whose id is its value.
const anotherAction = "question.another"

func (c *questionCard) onConfidence(level string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		c.state().Confidence = level
		c.save()
	}
}

func (c *questionCard) onCheck(ctx app.Context, e app.Event) {
	st := c.state()
	if c.Q.Answer != "" && strings.TrimSpace(st.Typed) == "" {
		c.err = uitext.Tr(c.Lang, "q.type")
		return
	}
	if c.Q.Answer == "" && len(st.Picked) == 0 {
		c.err = uitext.Tr(c.Lang, "q.pick")
		return
	}
	c.decide(ctx, true)
}

func (c *questionCard) onReveal(ctx app.Context, e app.Event) {
	c.state().Revealed, c.last = true, 0
	c.save()
	if c.outcome == nil {
		c.decide(ctx, false)
	}
}

func (c *questionCard) onHint(ctx app.Context, e app.Event) { c.hints++ }

// decide runs the scenario to the question's stop point in slices
// between frames, evaluates it and, when grade is set, grades the
// learner's answer. Then the linked playground is asked to show the same
// run at the same moment.
func (c *questionCard) decide(ctx app.Context, grade bool) {
	if c.running {
		return
	}
	run, err := answer.Start(&c.Q, c.Script)
	if err != nil {
		c.err = fmt.Sprintf(uitext.Tr(c.Lang, "q.failed"), err)
		return
	}
	c.running, c.err = true, ""
	var slice func(ctx app.Context, budget time.Duration)
	slice = func(ctx app.Context, budget time.Duration) {
		deadline := time.Now().Add(budget)
		for !run.Work(500) {
			if time.Now().After(deadline) {
				playground.TakeTurn(ctx, slice)
				return
			}
		}
		c.running = false
		out, err := run.Outcome()
		if err != nil {
			c.err = fmt.Sprintf(uitext.Tr(c.Lang, "q.failed"), err)
			return
		}
		c.outcome = out
		if grade {
			c.grade(out)
		}
		ctx.NewActionWithValue(playground.ShowAction, playground.ShowRequest{ID: c.Q.Scenario, Script: c.Script, Stop: c.Q.Stop})
	}
	slice(ctx, playground.WorkSlice)
}

// grade records a check: the first one for the calibration line, and a
// right answer for good (a later wrong check says so, but the question
// stays answered).
func (c *questionCard) grade(out *answer.Outcome) {
	st := c.state()
	right := out.Right(&c.Q, st.Picked)
	if c.Q.Answer != "" {
		right = out.RightValue(st.Typed)
	}
	st.Tries++
	if st.First == nil {
		st.First = &progress.FirstCheck{Confidence: st.Confidence, Right: right}
	}
	c.last = -1
	switch {
	case right:
		st.State, st.Solved, c.last = progress.Correct, true, 1
	case st.State != progress.Correct:
		st.State = progress.Wrong
	}
	c.save()
}

// numericQueries are the last words of the queries whose value is a
// number (docs/lessons.md, "Evidence"): a phone then offers digits.
var numericQueries = []string{"pid", "epoch", "hw", "lso", "log-end", "leader", "leader-epoch", "generation", "position", "partition", "broker"}

func numericAnswer(query string) bool {
	f := strings.Fields(query)
	return len(f) > 0 && (f[0] == "count" || f[0] == "apikey" || slices.Contains(numericQueries, f[len(f)-1]))
}

func (c *questionCard) Render() app.UI {
	l, q, st := c.Lang, c.Q, c.state()
	done := st.Done()
	order := doc.Order(progress.Load().Seed, q.ID, len(q.Choices))
	return app.Section().Class("question").ID(q.ID).Attr("data-question", q.ID).Attr("data-state", st.State).
		Aria("labelledby", q.ID+"-prompt").Body(
		app.H3().Class("question-heading").Text(uitext.Tr(l, "q.heading")),
		app.Raw(`<div class="question-prompt" id="`+q.ID+`-prompt">`+q.PromptHTML+`</div>`),
		app.If(q.Answer != "", func() app.UI {
			mode := "text"
			if numericAnswer(q.Answer) {
				mode = "decimal"
			}
			return app.P().Class("question-answer").Body(
				app.Label().For(q.ID+"-answer").Text(uitext.Tr(l, "q.answer")+" "),
				app.Input().Type("text").ID(q.ID+"-answer").Attr("data-answer", q.ID).Attr("inputmode", mode).
					Attr("autocomplete", "off").Value(st.Typed).Disabled(c.running).OnInput(c.onType),
				app.If(done && c.outcome != nil, func() app.UI {
					return app.Span().Class("happened-mark").Body(app.Text(" "+uitext.Tr(l, "q.value")+" "), app.Code().Text(c.outcome.Value))
				}),
			)
		}).Else(func() app.UI { return c.renderChoices(order, done) }),
		app.FieldSet().Class("confidence").Body(
			app.Legend().Text(uitext.Tr(l, "q.sure")),
			c.confidenceChoice("high", "q.sure.high"),
			c.confidenceChoice("mid", "q.sure.mid"),
			c.confidenceChoice("low", "q.sure.low"),
		),
		app.Div().Class("question-actions").Body(
			app.Button().Class("button primary").Attr("data-action", "check").Disabled(c.running).
				Text(uitext.Tr(l, "q.check")).OnClick(c.onCheck),
			app.If(st.State == progress.Wrong && c.hints < len(q.HintsHTML), func() app.UI {
				return app.Button().Class("button").Attr("data-action", "hint").Text(uitext.Tr(l, "q.hint")).OnClick(c.onHint)
			}),
			app.If(st.Tries >= revealAfter && !done, func() app.UI {
				return app.Button().Class("button").Attr("data-action", "reveal").Text(uitext.Tr(l, "q.reveal")).OnClick(c.onReveal)
			}),
			app.If(c.Varies && done, func() app.UI {
				return app.Button().Class("button").Attr("data-action", "another").Text(uitext.Tr(l, "q.another")).OnClick(c.onAnother)
			}),
		),
		app.Div().Class("question-status").Aria("live", "polite").Body(c.renderStatus()),
		app.Range(q.HintsHTML[:min(c.hints, len(q.HintsHTML))]).Slice(func(i int) app.UI {
			return app.Raw(`<p class="hint"><strong>` + uitext.Tr(l, "q.hint") + `:</strong> ` + q.HintsHTML[i] + `</p>`)
		}),
		// The evidence is what the run showed, once it has been run for
		// an answer (right or wrong) or for the revealed answer.
		app.If(c.outcome != nil && (st.State == progress.Correct || st.State == progress.Wrong || done), func() app.UI {
			return c.renderEvidence()
		}),
		app.If(done && c.outcome != nil, func() app.UI {
			return app.Div().Class("explanation").Body(
				app.H4().Text(uitext.Tr(l, "q.explain")),
				app.Raw(`<div class="explanation-text">`+q.ExplainHTML+`</div>`),
				app.P().Class("modify").Text(uitext.Tr(l, "q.modify")),
			)
		}),
	)
}

// renderChoices draws the choices in the learner's own order (order is
// doc.Order's permutation of their indexes).
func (c *questionCard) renderChoices(order []int, done bool) app.UI {
	l, q, st := c.Lang, c.Q, c.state()
	input := "radio"
	if q.Multiple {
		input = "checkbox"
	}
	return app.FieldSet().Class("choices").Body(
		app.Legend().Text(uitext.Tr(l, "q.predict")),
		app.If(q.Multiple, func() app.UI { return app.P().Class("hint-line").Text(uitext.Tr(l, "q.multiple")) }),
		app.Range(order).Slice(func(j int) app.UI {
			i := order[j]
			ch := q.Choices[i]
			id := q.ID + "-" + ch.Key
			happened := c.outcome != nil && done && c.outcome.Holds[i]
			cls := "choice"
			if happened {
				cls += " happened"
			}
			return app.Div().Class(cls).Body(
				app.Input().Type(input).ID(id).Name(q.ID).Value(ch.Key).Attr("data-choice", ch.Key).
					Checked(slices.Contains(st.Picked, ch.Key)).Disabled(c.running).
					OnChange(c.onPick(ch.Key), app.EventScope(ch.Key)),
				app.Label().For(id).Body(app.Raw(`<span class="choice-text">`+ch.HTML+`</span>`)),
				app.If(happened, func() app.UI {
					return app.Span().Class("happened-mark").Text(" ✓ " + uitext.Tr(l, "q.happened"))
				}),
			)
		}),
	)
}

func (c *questionCard) confidenceChoice(level, key string) app.UI {
	id := c.Q.ID + "-sure-" + level
	return app.Span().Class("confidence-choice").Body(
		app.Input().Type("radio").ID(id).Name(c.Q.ID+"-sure").Value(level).
			Checked(c.state().Confidence == level).OnChange(c.onConfidence(level), app.EventScope(level)),
		app.Label().For(id).Text(uitext.Tr(c.Lang, key)),
	)
}

func (c *questionCard) renderStatus() app.UI {
	l, st := c.Lang, c.state()
	switch {
	case c.err != "":
		return app.P().Class("error").Text(c.err)
	case c.running:
		return app.P().Text(uitext.Tr(l, "q.running"))
	case c.outcome == nil:
		return nil
	case c.last < 0 || st.State == progress.Wrong && !st.Revealed:
		return app.Div().Body(
			app.P().Class("wrong").Text(uitext.Tr(l, "q.wrong")+" "+fmt.Sprintf(uitext.Tr(l, "q.tries"), st.Tries)),
			c.renderShown())
	case st.State == progress.Correct:
		return app.Div().Body(app.P().Class("right").Text(uitext.Tr(l, "q.right")), c.renderShown())
	case st.Revealed:
		return app.P().Text(uitext.Tr(l, "q.revealed"))
	}
	return nil
}

// renderShown points at the playground that now shows the run, stopped
// where the question looks.
func (c *questionCard) renderShown() app.UI {
	return app.P().Class("shown-in").Body(
		app.Text(uitext.Tr(c.Lang, "q.shown")+" "),
		app.A().Href(c.Lesson+"#"+playground.PlaygroundAnchor(c.Q.Scenario)).Text(c.ScenarioTitle),
	)
}

func (c *questionCard) renderEvidence() app.UI {
	out := c.outcome
	return app.Div().Class("evidence").Attr("data-evidence", c.Q.ID).Body(
		app.H4().Text(fmt.Sprintf(uitext.Tr(c.Lang, "q.evidence"), out.Clock)),
		app.P().Body(app.Range(out.Evidence).Slice(func(i int) app.UI {
			p := out.Evidence[i]
			if p.Code != "" {
				return app.Code().Text(p.Code)
			}
			return app.Text(p.Text)
		})),
	)
}
