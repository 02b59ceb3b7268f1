package lesson

import (
	"encoding/json"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/progress"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// lessonsPage is the catalogue: the course as one path, each lesson with
// the learner's progress, and progress export and import.
type lessonsPage struct {
	app.Compo
	lang      doc.Lang
	path      string
	catalogue doc.Catalogue
	failed    bool
	progress  *progress.Record
	notice    string
}

// NewLessonsPage is the route's page. In the browser its first render is
// already the page's language and the learner's progress: go-app renders
// before OnNav, and a page drawn first in English then redrawn would show
// a reader (and a quick test) the wrong one.
func NewLessonsPage() *lessonsPage {
	p := &lessonsPage{}
	if app.IsClient {
		path := app.Window().URL().Path
		p.lang, p.progress = uitext.LangOf(path), progress.Load()
		if d, ok := site.ReadPageData(path); ok {
			p.path, p.catalogue = d.Path, d.Catalogue
		}
	}
	return p
}

func (p *lessonsPage) OnNav(ctx app.Context) {
	path := ctx.Page().URL().Path
	p.lang = uitext.LangOf(path)
	site.SetPageIn(ctx, p.lang, uitext.Tr(p.lang, "lessons.title"), uitext.Tr(p.lang, "lessons.lead"))
	p.progress = progress.Load()
	if p.path == path && p.catalogue != nil {
		return
	}
	p.path, p.failed = path, false
	if site.ServerLessons() != nil {
		p.catalogue = site.ServerLessons().Catalogue(p.lang)
		return
	}
	if app.IsClient {
		site.FetchJSON(ctx, site.CatalogueDataPath(p.lang), func(ctx app.Context, c doc.Catalogue, how site.FetchOutcome) {
			p.catalogue, p.failed = c, how != site.Fetched
		})
	}
}

func (p *lessonsPage) Render() app.UI {
	l := p.lang
	return site.ShellIn(l, uitext.InLang(l, site.PathLessons), true,
		site.EmbedPageData(site.PageData{Path: p.path, Catalogue: p.catalogue}),
		app.Section().Class("lessons").Body(
			app.H1().Text(uitext.Tr(l, "lessons.title")),
			app.P().Class("lead").Text(uitext.Tr(l, "lessons.lead")),
			app.If(p.failed, func() app.UI { return app.P().Class("notice").Role("alert").Text(uitext.Tr(l, "lesson.offline")) }),
			app.Ol().Class("course").Body(app.Range(p.catalogue).Slice(func(i int) app.UI {
				return p.renderEntry(p.catalogue[i])
			})),
			app.P().Class("review-link").Body(app.A().Href(uitext.InLang(l, site.PathReview)).Text(uitext.Tr(l, "review.link"))),
			calibrationLine(l, progress.Load(), nil),
			p.renderProgressTools(),
		),
	)
}

func (p *lessonsPage) renderEntry(m doc.Meta) app.UI {
	l := p.lang
	status := uitext.Tr(l, "lessons.new")
	if p.progress != nil {
		if lp := p.progress.Lessons[m.Slug]; lp != nil && lp.Opened {
			status = uitext.Tr(l, "lessons.opened")
		}
	}
	answered, total := p.questionTally(m)
	return app.Li().Class("course-entry").Attr("data-lesson", m.Slug).Body(
		app.A().Href(site.LessonPath(l, m.Slug)).Body(
			app.Span().Class("lesson-number").Text(fmt.Sprintf("%02d", m.Order)),
			app.Span().Class("lesson-title").Text(m.Title),
		),
		app.P().Class("lesson-summary").Text(m.Summary),
		app.P().Class("lesson-progress").Attr("data-progress", status).Body(
			app.Span().Text(status),
			app.If(total > 0, func() app.UI {
				return app.Span().Text(" · " + fmt.Sprintf(uitext.Tr(l, "lessons.answered"), answered, total))
			}),
		),
	)
}

// questionTallyRight is questionTally's first count.
func (p *lessonsPage) questionTallyRight(m doc.Meta) int { r, _ := p.questionTally(m); return r }

// questionTally counts a lesson's questions answered correctly, and all
// its questions.
func (p *lessonsPage) questionTally(m doc.Meta) (right, total int) {
	if p.progress == nil {
		return 0, len(m.Questions)
	}
	ids := m.Questions
	for _, id := range ids {
		if q := p.progress.Questions[id]; q != nil && q.IsSolved() {
			right++
		}
	}
	return right, len(ids)
}

func (p *lessonsPage) renderProgressTools() app.UI {
	l := p.lang
	return app.Section().Class("progress-tools").Aria("label", uitext.Tr(l, "lessons.progress")).Body(
		app.H2().Text(uitext.Tr(l, "lessons.progress")),
		app.P().Text(uitext.Tr(l, "lessons.stored")),
		app.Div().Class("tool-row").Body(
			app.Button().Class("button").Attr("data-action", "export-progress").Text(uitext.Tr(l, "lessons.export")).OnClick(p.onExport),
			app.Label().Class("button file-button").Body(
				app.Text(uitext.Tr(l, "lessons.import")),
				app.Input().Type("file").Accept(".json,application/json").Class("visually-hidden").
					Attr("data-action", "import-progress").OnChange(p.onImport),
			),
		),
		app.If(p.notice != "", func() app.UI { return app.P().Class("notice").Role("status").Text(p.notice) }),
	)
}

func (p *lessonsPage) onExport(ctx app.Context, e app.Event) {
	b, err := json.MarshalIndent(progress.Load(), "", "  ")
	if err != nil {
		return
	}
	browser.Download(ctx, "txnlab-progress.json", "application/json", string(b))
}

func (p *lessonsPage) onImport(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	var onText app.Func
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		onText.Release()
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) {
			in, ok := progress.Parse(text)
			if !ok {
				p.notice = uitext.Tr(p.lang, "lessons.badfile")
				return
			}
			prog := progress.Load()
			prog.Merge(in)
			prog.Save()
			p.progress, p.notice = prog, uitext.Tr(p.lang, "lessons.imported")
		})
		return nil
	})
	files.Index(0).Call("text").Call("then", onText)
	ctx.JSSrc().Set("value", "")
}
