package lesson

import (
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/playground"
	"txnlab/app/progress"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// lessonPage is one lesson: its text (rendered on the server), its
// embedded playgrounds and its question cards, with previous and next.
type lessonPage struct {
	app.Compo
	lang      doc.Lang
	path      string
	lesson    *doc.Lesson
	catalogue doc.Catalogue
	loading   bool
	failed    bool // the data could not be had (offline, never cached)
	missing   bool // no such lesson

	playground.Presenter          // the presentation (lesson_presenter.go)
	slide                int      // the block presented, in slides()
	keydown              app.Func // the presenter's keys
}

// NewLessonPage is a lesson route's page.
func NewLessonPage() *lessonPage {
	p := &lessonPage{}
	if app.IsClient {
		p.lang = uitext.LangOf(app.Window().URL().Path) // the first render is in the page's language
		if d, ok := site.ReadPageData(app.Window().URL().Path); ok && d.Lesson != nil {
			p.path, p.lesson, p.catalogue = d.Path, d.Lesson, d.Catalogue
		}
	}
	return p
}

// lessonPageData is what the browser fetches for a lesson it navigates
// to: the lesson and, for previous/next, the catalogue.
type lessonPageData struct {
	Lesson    *doc.Lesson
	Catalogue doc.Catalogue
}

// OnMount listens for a card's "Try another", and opens every after
// block for print.
func (p *lessonPage) OnMount(ctx app.Context) {
	ctx.Handle(playground.PresentEdgeAction, func(ctx app.Context, a app.Action) {
		if d, ok := a.Value.(int); ok && p.Presenting {
			p.moveSlide(d)
		}
	})
	p.listenPresenterKeys(ctx)
	ctx.Handle(anotherAction, func(ctx app.Context, a app.Action) {
		if id, ok := a.Value.(string); ok && p.lesson != nil {
			prog := progress.Load()
			prog.Another(p.lesson, id)
			prog.Save()
		}
	})
	if app.IsClient && !printListened {
		printListened = true
		app.Window().Call("addEventListener", "beforeprint", app.FuncOf(func(app.Value, []app.Value) any {
			all := app.Window().Get("document").Call("querySelectorAll", "details.after-answer")
			for i := 0; i < all.Length(); i++ {
				all.Index(i).Set("open", true)
			}
			return nil
		}))
	}
}

// printListened is set once the beforeprint listener is in: a printed
// lesson is a reader's copy, with every answer in it.
var printListened bool

func (p *lessonPage) OnNav(ctx app.Context) {
	path := ctx.Page().URL().Path
	p.lang = uitext.LangOf(path)
	slug := site.LessonSlugOf(path)
	if p.path != path || p.lesson == nil {
		p.path, p.lesson, p.catalogue, p.failed, p.missing = path, nil, nil, false, false
		p.slide = 0
		switch {
		case site.ServerLessons() != nil:
			if l, ok := site.ServerLessons().Lesson(p.lang, slug); ok {
				p.lesson, p.catalogue = l, site.ServerLessons().Catalogue(p.lang)
			} else {
				p.missing = true
			}
		case app.IsClient:
			p.loading = true
			site.FetchJSON(ctx, site.LessonDataPath(p.lang, slug), func(ctx app.Context, d lessonPageData, how site.FetchOutcome) {
				if p.path != path {
					return // the learner has moved on
				}
				p.loading = false
				switch {
				case how == site.NotFound:
					p.missing = true
					return
				case how != site.Fetched || d.Lesson == nil:
					p.failed = true
					return
				}
				p.lesson, p.catalogue = d.Lesson, d.Catalogue
				p.opened(ctx)
				p.followStep(ctx)
			})
		}
	}
	p.opened(ctx)
	p.followStep(ctx)
}

// followStep carries out a step link (#step:SCENARIO:LINE, written in
// the lesson's text): the playground moves to right after that line of
// its script ran and comes into view, so a line of prose shows the
// messages it causes. go-app calls OnNav again when only the fragment
// changes, and a shared address with the fragment opens at that step.
func (p *lessonPage) followStep(ctx app.Context) {
	frag := ctx.Page().URL().Fragment
	rest, ok := strings.CutPrefix(frag, "step:")
	if !ok || p.lesson == nil || !app.IsClient {
		return
	}
	id, lineText, _ := strings.Cut(rest, ":")
	line, err := strconv.Atoi(lineText)
	if _, known := p.lesson.ScenarioByID(id); !known || err != nil || line < 1 {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		ctx.NewActionWithValue(playground.ShowAction, playground.ShowRequest{ID: id, Stop: line})
		if el := app.Window().GetElementByID(playground.PlaygroundAnchor(id)); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	})
}

// opened titles the page and records the visit.
func (p *lessonPage) opened(ctx app.Context) {
	if p.lesson == nil {
		site.SetPageIn(ctx, p.lang, uitext.Tr(p.lang, "lessons.title"), uitext.Tr(p.lang, "lessons.lead"))
		return
	}
	site.SetPageIn(ctx, p.lang, p.lesson.Title, p.lesson.Summary)
	if app.IsClient {
		prog := progress.Load()
		if lp := prog.Lessons[p.lesson.Slug]; lp == nil || !lp.Opened {
			prog.Lessons[p.lesson.Slug] = &progress.Lesson{Opened: true}
			prog.Save()
		}
	}
}

func (p *lessonPage) Render() app.UI {
	l := p.lang
	return site.ShellIn(l, p.path, true,
		site.EmbedPageData(site.PageData{Path: p.path, Lesson: p.lesson, Catalogue: p.catalogue}),
		p.renderClass(),
		app.Article().Class("lesson").Lang(l.HTMLLang()).Body(
			app.If(p.lesson == nil, func() app.UI { return p.renderAbsent() }).
				Else(func() app.UI { return p.renderLesson() }),
		),
	)
}

func (p *lessonPage) renderAbsent() app.UI {
	l := p.lang
	msg := uitext.Tr(l, "lesson.loading")
	switch {
	case p.missing:
		msg = uitext.Tr(l, "lesson.missing")
	case p.failed:
		msg = uitext.Tr(l, "lesson.offline")
	}
	return app.Div().Class("lesson-absent").Body(
		app.P().Class("notice").Role("status").Text(msg),
		app.P().Body(app.A().Href(uitext.InLang(l, site.PathLessons)).Text(uitext.Tr(l, "lesson.all"))),
	)
}

func (p *lessonPage) renderLesson() app.UI {
	les, prog := p.lesson, progress.Load()
	if p.Presenting {
		return p.renderPresenter()
	}
	afters := slices.ContainsFunc(les.Segments, func(s doc.Segment) bool { return s.After != "" })
	return app.Div().Class("lesson-body").Body(
		app.H1().Text(les.Title),
		app.P().Class("lead").Text(les.Summary),
		app.Div().Class("lesson-tools").Body(p.presentButton()),
		app.If(afters, func() app.UI {
			return app.Label().Class("show-all").Body(
				app.Input().Type("checkbox").Attr("data-action", "show-all").Checked(prog.ShowAll).OnChange(p.onShowAll),
				app.Text(" "+uitext.Tr(p.lang, "after.showall")),
			)
		}),
		app.Range(les.Segments).Slice(func(i int) app.UI { return p.renderSegment(i) }),
		calibrationLine(p.lang, prog, p.questionIDs()),
		p.renderPrevNext(),
	)
}

// questionIDs are the lesson's question ids.
func (p *lessonPage) questionIDs() []string {
	ids := []string{}
	for _, q := range p.lesson.Questions {
		ids = append(ids, q.ID)
	}
	return ids
}

// onShowAll keeps the reader's choice to see every answer: it opens the
// after blocks and reveals nothing else.
func (p *lessonPage) onShowAll(ctx app.Context, e app.Event) {
	prog := progress.Load()
	prog.ShowAll = ctx.JSSrc().Get("checked").Bool()
	prog.Save()
}

// calibrationLine is the learner's calibration over ids (nil: all), or
// nothing before a first check.
func calibrationLine(l doc.Lang, prog *progress.Record, ids []string) app.UI {
	line := prog.Calibration(l, ids)
	return app.If(line != "", func() app.UI { return app.P().Class("calibration").Text(line) })
}

// scenarioOf is a question's scenario block and the learner's variant of
// it.
func scenarioOf(les *doc.Lesson, q *doc.Question) (sc *doc.Scenario, vals map[string]string, n int) {
	sc, _ = les.ScenarioByID(q.Scenario)
	vals, n = progress.Load().Draw(les, sc)
	return sc, vals, n
}

// newCard is a question's card in the learner's variant; lesson is set
// when it is shown away from its lesson.
func newCard(lang doc.Lang, les *doc.Lesson, q *doc.Question, lesson string) *questionCard {
	c := &questionCard{Q: *q, Lang: lang, Lesson: lesson}
	if sc, vals, n := scenarioOf(les, q); sc != nil {
		c.Q, c.Script, c.ScenarioTitle, c.Variant, c.Varies = q.Filled(vals), doc.Fill(sc.Script, vals), doc.Fill(sc.Title, vals), n, len(sc.Vary) > 0
	}
	return c
}

// renderSegment is the lesson's segment i.
func (p *lessonPage) renderSegment(i int) app.UI {
	les := p.lesson
	s := les.Segments[i]
	switch {
	case s.Scenario != "":
		sc, ok := les.ScenarioByID(s.Scenario)
		if !ok {
			return nil
		}
		vals, _ := progress.Load().Draw(les, sc)
		return &playground.ScenarioPlayground{ID: sc.ID, Title: doc.Fill(sc.Title, vals), Script: doc.Fill(sc.Script, vals), Facts: sc.Facts, Actions: sc.Actions, Lang: string(p.lang),
			Guarded: p.guarded(sc.ID), Presenting: p.Presenting}
	case s.Question != "":
		q, ok := les.QuestionByID(s.Question)
		if !ok {
			return nil
		}
		return newCard(p.lang, les, q, "")
	case s.After != "":
		// Folded until the question is answered (or the reader asked to
		// see all); the learner may always open it by hand, and go-app
		// sets open only when this value changes, so a hand-opened one
		// stays open.
		var vals map[string]string
		prog := progress.Load()
		if q, ok := les.QuestionByID(s.After); ok {
			_, vals, _ = scenarioOf(les, q)
		}
		return app.Details().Class("after-answer").Attr("data-after", s.After).
			Open(prog.ShowAll || prog.Questions[s.After].Done()).Body(
			app.Summary().Body(app.Text(uitext.Tr(p.lang, "after.summary")), app.Span().Class("after-label").Text(uitext.Tr(p.lang, "after.label"))),
			app.Raw(`<div class="after-body">`+doc.Fill(s.HTML, vals)+`</div>`),
		)
	case s.Exercise != "":
		if x, ok := les.ExerciseByID(s.Exercise); ok {
			return &exerciseCard{X: *x, Lang: p.lang}
		}
		return nil
	}
	return site.LessonText(i, s.HTML)
}

func (p *lessonPage) renderPrevNext() app.UI {
	l := p.lang
	var prev, next *doc.Meta
	for i, m := range p.catalogue {
		if m.Slug == p.lesson.Slug {
			if i > 0 {
				prev = &p.catalogue[i-1]
			}
			if i+1 < len(p.catalogue) {
				next = &p.catalogue[i+1]
			}
		}
	}
	link := func(m *doc.Meta, rel, label string) app.UI {
		if m == nil {
			return app.Span()
		}
		return app.A().Rel(rel).Href(site.LessonPath(l, m.Slug)).Body(
			app.Span().Class("pager-label").Text(label),
			app.Span().Class("pager-title").Text(m.Title),
		)
	}
	return app.Nav().Class("pager").Aria("label", uitext.Tr(l, "lesson.all")).Body(
		link(prev, "prev", uitext.Tr(l, "lesson.prev")),
		app.A().Href(uitext.InLang(l, site.PathLessons)).Text(uitext.Tr(l, "lesson.all")),
		link(next, "next", uitext.Tr(l, "lesson.next")),
	)
}

// guarded reports whether a question of the lesson that the scenario
// decides is still open for the learner: the playground then keeps its
// script folded and does not run until the question is checked (the
// script's expectations and its diagram are the answer). The server has
// no learner: it renders what a new one sees.
func (p *lessonPage) guarded(scenarioID string) bool {
	var prog *progress.Record
	if app.IsClient {
		prog = progress.Load()
	}
	for _, q := range p.lesson.Questions {
		if q.Scenario != scenarioID {
			continue
		}
		if prog == nil {
			return true
		}
		st := prog.Questions[q.ID]
		if st == nil || (st.State != progress.Correct && st.State != progress.Wrong && !st.Revealed) {
			return true
		}
	}
	return false
}
