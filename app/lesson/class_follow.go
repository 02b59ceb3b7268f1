package lesson

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/class"
	"txnlab/app/playground"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// The class's follow-along beyond the playground (docs/class.md): a
// student's page answering the stream's beat (who is in), the join link's
// QR code on the instructor's page, and a lesson's embedded playgrounds
// stepping on every student's page as on the instructor's.

// lessonClassState is what a student's page follows on lesson slug: the
// lesson and the block moved last.
func lessonClassState(slug string) class.State {
	return class.State{Lesson: slug, Block: playground.ClassBlockNote.ID, Script: playground.ClassBlockNote.Script, Step: playground.ClassBlockNote.Step}
}

// classLessonTick starts the instructor's lesson page sending its state
// (a block stepped, played or presented) until the class ends or the page
// leaves the lesson.
func (p *lessonPage) classLessonTick(ctx app.Context) {
	c := class.Current()
	slug := site.LessonSlugOf(p.path)
	if c == nil || !c.Teacher || c.Ended || slug == "" {
		return
	}
	playground.ClassBlockNote.ID, playground.ClassBlockNote.Script, playground.ClassBlockNote.Step = "", "", 0
	c.TickEvery(ctx, func(ctx app.Context) {
		p.notePresentedBlock()
		c.SendState(ctx, lessonClassState(slug))
		ctx.PreventUpdate()
	})
}

// classLocalQuestion is the lesson's question id as the class is shown
// it (classQuestionText).
func (p *lessonPage) classLocalQuestion(id string) (string, []string, bool) {
	if p.lesson == nil {
		return "", nil, false
	}
	for _, q := range p.lesson.Questions {
		if q.ID == id {
			text, choices := classQuestionText(q)
			return text, choices, true
		}
	}
	return "", nil, false
}

// classQuestionText is a lesson question as text for the class: its
// prompt and its choices.
func classQuestionText(q doc.Question) (string, []string) {
	choices := make([]string, len(q.Choices))
	for i, ch := range q.Choices {
		choices[i] = class.PlainText(ch.HTML)
	}
	return class.PlainText(q.PromptHTML), choices
}

// notePresentedBlock makes the playground the instructor presents the
// block students follow, before it is stepped: their pages come to it as
// the projector does. A playground stepped since is noted with its step
// (classNoteBlock), and a question or exercise presented leaves the note.
func (p *lessonPage) notePresentedBlock() {
	slides := p.slides()
	if !p.Presenting || p.slide < 0 || p.slide >= len(slides) {
		return
	}
	if id := p.lesson.Segments[slides[p.slide]].Scenario; id != "" && id != playground.ClassBlockNote.ID {
		playground.ClassBlockNote.ID, playground.ClassBlockNote.Script, playground.ClassBlockNote.Step = id, "", 0
	}
}

// renderClass is the lesson's class bar: the instructor's page sends the
// lesson to the class and can open any of its questions to it; a
// student's page goes where the instructor's is.
func (p *lessonPage) renderClass() app.UI {
	l := p.lang
	slug := site.LessonSlugOf(p.path)
	follow := func(ctx app.Context) {
		c := class.Current()
		switch {
		case c == nil || c.Ended:
		case c.Teacher && slug != "":
			c.SendState(ctx, lessonClassState(slug))
		case !c.Teacher && c.Following && c.State.Rev != 0 && c.State.Lesson != slug:
			to := uitext.InLang(l, site.PathPlayground)
			if c.State.Lesson != "" {
				to = uitext.InLang(l, site.PathLessons+"/"+c.State.Lesson)
			}
			ctx.Navigate(to)
		case !c.Teacher && c.Following && c.State.Rev != 0:
			playground.FollowClassBlock(ctx, c.State)
		}
	}
	return &class.Bar{Lang: l, Follow: follow, Start: p.classLessonTick, More: p.renderClassQuestions(), Local: p.classLocalQuestion, Join: site.PathPlayground}
}

// renderClassQuestions lists the lesson's questions an instructor can open
// to the class (those with one answer among choices).
func (p *lessonPage) renderClassQuestions() app.UI {
	l := p.lang
	c := class.Current()
	if c == nil || !c.Teacher || c.Ended || p.lesson == nil || (c.Question != nil && c.Question.Open) {
		return nil
	}
	var items []app.UI
	for _, q := range p.lesson.Questions {
		if len(q.Choices) < 2 || q.Multiple {
			continue
		}
		text, choices := classQuestionText(q)
		items = append(items, app.Li().Body(
			app.Button().DataSet("class-open", q.ID).Text(uitext.Tr(l, "class.q.open")).OnClick(func(ctx app.Context, e app.Event) {
				c.Ask(ctx, "open", q.ID, text, choices)
			}),
			app.Text(" "+text),
		))
	}
	if len(items) == 0 {
		return nil
	}
	return app.Details().Class("class-bar").ID("class-lesson-questions").Body(app.Summary().Text(uitext.Tr(l, "class.q.lesson")), app.Ul().Body(items...))
}
