package lesson

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/playground"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// A lesson presented: one playground, question or exercise at a time,
// full screen, with the presenter's bar (presenter.go). A clicker's
// PageDown steps the playground shown and, once it is at its end, moves
// on to the next block; PageUp steps back and, at the start, moves to
// the previous one; on a question, they move between blocks at once.
// Previous and Next move between blocks whatever the step.

// slides are the indices of the lesson's segments a presentation shows
// one at a time: its playgrounds, questions and exercises.
func (p *lessonPage) slides() []int {
	var out []int
	if p.lesson == nil {
		return out
	}
	for i, s := range p.lesson.Segments {
		if s.Scenario != "" || s.Question != "" || s.Exercise != "" {
			out = append(out, i)
		}
	}
	return out
}

// listenPresenterKeys takes the presenter's keys on a lesson page: P
// always (outside form controls), the rest while presenting.
func (p *lessonPage) listenPresenterKeys(ctx app.Context) {
	if !app.IsClient || p.keydown != nil {
		return
	}
	p.keydown = app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		key, ok := playground.Shortcut(ev, p.Presenting)
		if !ok || (!p.Presenting && key != "p" && key != "P") || key == "?" || key == "？" {
			return nil
		}
		ev.Call("preventDefault")
		ctx.Dispatch(func(ctx app.Context) { p.onPresenterKey(ctx, key) })
		return nil
	})
	app.Window().Call("addEventListener", "keydown", p.keydown)
}

// OnDismount lets the key listener go.
func (p *lessonPage) OnDismount() {
	if p.keydown != nil {
		app.Window().Call("removeEventListener", "keydown", p.keydown)
		p.keydown.Release()
		p.keydown = nil
	}
}

func (p *lessonPage) onPresenterKey(ctx app.Context, key string) {
	switch key {
	case "p", "P":
		p.togglePresenting()
		return
	case "b", "B":
		p.Blank = !p.Blank
		return
	case "Escape":
		p.StopPresenting()
		return
	}
	p.Blank = false
	move := map[string]string{"PageDown": "next", "ArrowRight": "next", " ": "next",
		"PageUp": "back", "ArrowLeft": "back", "Home": "home", "End": "end"}[key]
	slides := p.slides()
	if move == "" || len(slides) == 0 {
		return
	}
	seg := p.lesson.Segments[slides[p.slide]]
	if seg.Scenario == "" {
		switch move {
		case "next":
			p.moveSlide(1)
		case "back":
			p.moveSlide(-1)
		}
		return
	}
	ctx.NewActionWithValue(playground.PresentStepAction, playground.PresentStep{ID: seg.Scenario, Move: move})
}

// togglePresenting enters or leaves the presentation; it starts at the
// first block.
func (p *lessonPage) togglePresenting() {
	if p.Presenting {
		p.StopPresenting()
		return
	}
	p.StartPresenting()
	p.slide = 0
}

// moveSlide moves d blocks, within the lesson.
func (p *lessonPage) moveSlide(d int) {
	p.slide = max(0, min(p.slide+d, len(p.slides())-1))
}

// presentButton enters the presentation.
func (p *lessonPage) presentButton() app.UI {
	return app.Button().Type("button").Class("tool present-button").DataSet("action", "present").
		Attr("aria-keyshortcuts", "P").Title(uitext.Tr(p.lang, "pres.enter.title")).
		OnClick(func(ctx app.Context, e app.Event) { p.togglePresenting() }).
		Text(uitext.Tr(p.lang, "pres.enter"))
}

// renderPresenter is the presented lesson: the bar, with the lesson's
// title and the way between its blocks, and the current block.
func (p *lessonPage) renderPresenter() app.UI {
	les, l := p.lesson, string(p.lang)
	slides := p.slides()
	p.slide = max(0, min(p.slide, len(slides)-1))
	nav := func(d int, action, label string, inactive bool) app.UI {
		return app.Button().Type("button").Class("tool").DataSet("action", action).Aria("disabled", inactive).
			OnClick(func(ctx app.Context, e app.Event) { p.moveSlide(d) }).Text(label)
	}
	extra := []app.UI{
		app.Span().Class("pres-title").Text(les.Title),
		nav(-1, "pres-prev", uitext.Tr(l, "pres.prev"), p.slide == 0),
		app.Output().Class("pres-slide").DataSet("slide", p.slide).Text(fmt.Sprintf(uitext.Tr(l, "pres.slide"), min(p.slide+1, len(slides)), len(slides))),
		nav(1, "pres-next", uitext.Tr(l, "pres.next"), p.slide >= len(slides)-1),
	}
	var body app.UI = app.P().Class("notice").Text(uitext.Tr(l, "pres.noblocks"))
	if len(slides) > 0 {
		body = p.renderSegment(slides[p.slide])
	}
	return app.Div().Class("lesson-presenter").Body(
		playground.PresenterBar(l, &p.Presenter, extra,
			func(ctx app.Context, d int) { p.Resize(d) },
			func(ctx app.Context) { p.Blank = !p.Blank },
			func(ctx app.Context) { p.StopPresenting() }),
		app.Div().Class("pres-slide-body").DataSet("size", playground.PresenterSizes[p.Size]).Lang(doc.Lang(l).HTMLLang()).Body(body),
		app.If(p.Blank, func() app.UI { return playground.PresenterBlank(l, func(app.Context) { p.Blank = false }) }),
	)
}
