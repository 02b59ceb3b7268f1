package app

import (
	"fmt"
	"slices"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

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
	Q             doc.Question
	Script        string
	ScenarioTitle string
	Lang          doc.Lang

	prog    *QuestionProgress
	running bool
	outcome *answer.Outcome
	err     string
	hints   int // hints shown
}

func (c *questionCard) OnMount(ctx app.Context) {
	c.prog = loadProgress().question(c.Q.ID)
	if c.prog.State == qCorrect || c.prog.Revealed {
		// Come back to a question answered earlier: show its evidence
		// again (the run is quick; the learner need not redo it).
		c.decide(ctx, false)
	}
}

func (c *questionCard) state() *QuestionProgress {
	if c.prog == nil {
		return &QuestionProgress{State: qUnanswered}
	}
	return c.prog
}

func (c *questionCard) save() { loadProgress().save() }

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
		if st.State != qCorrect {
			st.State = qPredicted
			if len(st.Picked) == 0 {
				st.State = qUnanswered
			}
		}
		c.err = ""
		c.save()
	}
}

func (c *questionCard) onConfidence(level string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		c.state().Confidence = level
		c.save()
	}
}

func (c *questionCard) onCheck(ctx app.Context, e app.Event) {
	st := c.state()
	if len(st.Picked) == 0 {
		c.err = tr(c.Lang, "q.pick")
		return
	}
	c.decide(ctx, true)
}

func (c *questionCard) onReveal(ctx app.Context, e app.Event) {
	c.state().Revealed = true
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
		c.err = fmt.Sprintf(tr(c.Lang, "q.failed"), err)
		return
	}
	c.running, c.err = true, ""
	var slice func(ctx app.Context)
	slice = func(ctx app.Context) {
		deadline := time.Now().Add(workSlice)
		for !run.Work(500) {
			if time.Now().After(deadline) {
				ctx.After(time.Millisecond, slice)
				return
			}
		}
		c.running = false
		out, err := run.Outcome()
		if err != nil {
			c.err = fmt.Sprintf(tr(c.Lang, "q.failed"), err)
			return
		}
		c.outcome = out
		if grade {
			st := c.state()
			st.Tries++
			if out.Right(&c.Q, st.Picked) {
				st.State = qCorrect
			} else {
				st.State = qWrong
			}
			c.save()
		}
		ctx.NewActionWithValue(ShowAction, ShowRequest{ID: c.Q.Scenario, Script: c.Script, Stop: c.Q.Stop})
	}
	slice(ctx)
}

func (c *questionCard) Render() app.UI {
	l, q, st := c.Lang, c.Q, c.state()
	input := "radio"
	if q.Multiple {
		input = "checkbox"
	}
	done := st.State == qCorrect || st.Revealed
	return app.Section().Class("question").ID(q.ID).Attr("data-question", q.ID).Attr("data-state", st.State).
		Aria("labelledby", q.ID+"-prompt").Body(
		app.H3().Class("question-heading").Text(tr(l, "q.heading")),
		app.Raw(`<div class="question-prompt" id="`+q.ID+`-prompt">`+q.PromptHTML+`</div>`),
		app.FieldSet().Class("choices").Body(
			app.Legend().Text(tr(l, "q.predict")),
			app.If(q.Multiple, func() app.UI { return app.P().Class("hint-line").Text(tr(l, "q.multiple")) }),
			app.Range(q.Choices).Slice(func(i int) app.UI {
				ch := q.Choices[i]
				id := q.ID + "-" + ch.Key
				cls := "choice"
				if c.outcome != nil && done && c.outcome.Holds[i] {
					cls += " happened"
				}
				return app.Div().Class(cls).Body(
					app.Input().Type(input).ID(id).Name(q.ID).Value(ch.Key).Attr("data-choice", ch.Key).
						Checked(slices.Contains(st.Picked, ch.Key)).Disabled(c.running).
						OnChange(c.onPick(ch.Key), app.EventScope(ch.Key)),
					app.Label().For(id).Body(app.Raw(`<span class="choice-text">`+ch.HTML+`</span>`)),
					app.If(c.outcome != nil && done && c.outcome.Holds[i], func() app.UI {
						return app.Span().Class("happened-mark").Text(" ✓ " + tr(l, "q.happened"))
					}),
				)
			}),
		),
		app.FieldSet().Class("confidence").Body(
			app.Legend().Text(tr(l, "q.sure")),
			c.confidenceChoice("high", "q.sure.high"),
			c.confidenceChoice("mid", "q.sure.mid"),
			c.confidenceChoice("low", "q.sure.low"),
		),
		app.Div().Class("question-actions").Body(
			app.Button().Class("button primary").Attr("data-action", "check").Disabled(c.running).
				Text(tr(l, "q.check")).OnClick(c.onCheck),
			app.If(st.State == qWrong && c.hints < len(q.HintsHTML), func() app.UI {
				return app.Button().Class("button").Attr("data-action", "hint").Text(tr(l, "q.hint")).OnClick(c.onHint)
			}),
			app.If(st.Tries >= revealAfter && !done, func() app.UI {
				return app.Button().Class("button").Attr("data-action", "reveal").Text(tr(l, "q.reveal")).OnClick(c.onReveal)
			}),
		),
		app.Div().Class("question-status").Aria("live", "polite").Body(c.renderStatus()),
		app.Range(q.HintsHTML[:min(c.hints, len(q.HintsHTML))]).Slice(func(i int) app.UI {
			return app.Raw(`<p class="hint"><strong>` + tr(l, "q.hint") + `:</strong> ` + q.HintsHTML[i] + `</p>`)
		}),
		// The evidence is what the run showed, once it has been run for
		// an answer (right or wrong) or for the revealed answer.
		app.If(c.outcome != nil && (st.State == qCorrect || st.State == qWrong || done), func() app.UI {
			return c.renderEvidence()
		}),
		app.If(done && c.outcome != nil, func() app.UI {
			return app.Div().Class("explanation").Body(
				app.H4().Text(tr(l, "q.explain")),
				app.Raw(`<div class="explanation-text">`+q.ExplainHTML+`</div>`),
				app.P().Class("modify").Text(tr(l, "q.modify")),
			)
		}),
	)
}

func (c *questionCard) confidenceChoice(level, key string) app.UI {
	id := c.Q.ID + "-sure-" + level
	return app.Span().Class("confidence-choice").Body(
		app.Input().Type("radio").ID(id).Name(c.Q.ID+"-sure").Value(level).
			Checked(c.state().Confidence == level).OnChange(c.onConfidence(level), app.EventScope(level)),
		app.Label().For(id).Text(tr(c.Lang, key)),
	)
}

func (c *questionCard) renderStatus() app.UI {
	l, st := c.Lang, c.state()
	switch {
	case c.err != "":
		return app.P().Class("error").Text(c.err)
	case c.running:
		return app.P().Text(tr(l, "q.running"))
	case c.outcome == nil:
		return nil
	case st.State == qCorrect:
		return app.Div().Body(app.P().Class("right").Text(tr(l, "q.right")), c.renderShown())
	case st.Revealed:
		return app.P().Text(tr(l, "q.revealed"))
	case st.State == qWrong:
		return app.Div().Body(
			app.P().Class("wrong").Text(tr(l, "q.wrong")+" "+fmt.Sprintf(tr(l, "q.tries"), st.Tries)),
			c.renderShown())
	}
	return nil
}

// renderShown points at the playground that now shows the run, stopped
// where the question looks.
func (c *questionCard) renderShown() app.UI {
	return app.P().Class("shown-in").Body(
		app.Text(tr(c.Lang, "q.shown")+" "),
		app.A().Href("#"+playgroundAnchor(c.Q.Scenario)).Text(c.ScenarioTitle),
	)
}

func (c *questionCard) renderEvidence() app.UI {
	out := c.outcome
	return app.Div().Class("evidence").Attr("data-evidence", c.Q.ID).Body(
		app.H4().Text(fmt.Sprintf(tr(c.Lang, "q.evidence"), out.Clock)),
		app.P().Body(app.Range(out.Evidence).Slice(func(i int) app.UI {
			p := out.Evidence[i]
			if p.Code != "" {
				return app.Code().Text(p.Code)
			}
			return app.Text(p.Text)
		})),
	)
}
