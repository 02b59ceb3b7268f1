package lesson

import (
	"slices"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/progress"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// reviewSize is how many questions a review round asks.
const reviewSize = 8

// reviewPage asks again what the learner got wrong, was unsure of or has
// not answered yet (docs/lessons.md, "Confidence, calibration and
// review"). The round's ids are kept in the progress, so a reload finds
// the same round; "Another round" draws the next.
type reviewPage struct {
	app.Compo
	lang    doc.Lang
	path    string
	lessons []*doc.Lesson // every lesson, in course order, once fetched
	failed  bool
}

// NewReviewPage is the review route's page.
func NewReviewPage() *reviewPage {
	p := &reviewPage{}
	if app.IsClient {
		p.lang = uitext.LangOf(app.Window().URL().Path)
	}
	return p
}

// OnMount listens for a card's "Try another", as a lesson page does.
func (p *reviewPage) OnMount(ctx app.Context) {
	ctx.Handle(anotherAction, func(ctx app.Context, a app.Action) {
		id, _ := a.Value.(string)
		if les, _ := p.find(id); les != nil {
			prog := progress.Load()
			prog.Another(les, id)
			prog.Save()
		}
	})
}

// OnNav fetches every lesson (from the service worker's cache once they
// were visited); the server renders the page without a round, which is
// the learner's own.
func (p *reviewPage) OnNav(ctx app.Context) {
	path := ctx.Page().URL().Path
	p.lang = uitext.LangOf(path)
	site.SetPageIn(ctx, p.lang, uitext.Tr(p.lang, "review.title"), uitext.Tr(p.lang, "review.lead"))
	if !app.IsClient || p.path == path && p.lessons != nil {
		return
	}
	p.path, p.lessons, p.failed = path, nil, false
	site.FetchJSON(ctx, site.CatalogueDataPath(p.lang), func(ctx app.Context, c doc.Catalogue, how site.FetchOutcome) {
		p.failed = how != site.Fetched
		got, left := make([]*doc.Lesson, len(c)), len(c)
		for i, m := range c {
			site.FetchJSON(ctx, site.LessonDataPath(p.lang, m.Slug), func(ctx app.Context, d lessonPageData, how site.FetchOutcome) {
				if p.path != path {
					return // the learner has moved on
				}
				if how != site.Fetched || d.Lesson == nil {
					p.failed = true
					return
				}
				got[i] = d.Lesson
				if left--; left == 0 {
					p.lessons = got
					prog := progress.Load()
					for _, id := range prog.Review {
						if _, q := p.find(id); q == nil {
							prog.Review = nil // a question the course no longer has
						}
					}
					if prog.Review == nil {
						p.draw()
					}
				}
			})
		}
	})
}

// find is a question of the course and its lesson.
func (p *reviewPage) find(id string) (*doc.Lesson, *doc.Question) {
	for _, les := range p.lessons {
		if q, ok := les.QuestionByID(id); ok {
			return les, q
		}
	}
	return nil, nil
}

// reviewWeight is how many chances a question has in a draw: most for
// one answered wrong (or only revealed), then one not answered yet, then
// one right but at the first check wrong or unsure, least for one right
// and sure.
func reviewWeight(q *progress.Question) int {
	switch {
	case q == nil || q.First == nil && !q.Revealed && !q.IsSolved():
		return 3
	case !q.IsSolved():
		return 4
	case q.First == nil || !q.First.Right || q.First.Confidence != "high":
		return 2
	}
	return 1
}

// draw takes a new round: reviewSize questions, weighted, without
// repeats, in an order drawn from the learner's seed and the last round
// (so each round is another). A question asked before is asked again, in
// its scenario's next variant where that varies.
func (p *reviewPage) draw() {
	prog := progress.Load()
	var pool []string
	for _, les := range p.lessons {
		for _, q := range les.Questions {
			for range reviewWeight(prog.Questions[q.ID]) {
				pool = append(pool, q.ID)
			}
		}
	}
	var round []string
	for _, i := range doc.Order(prog.Seed, "review "+strings.Join(prog.Review, " "), len(pool)) {
		if len(round) < reviewSize && !slices.Contains(round, pool[i]) {
			round = append(round, pool[i])
		}
	}
	for _, id := range round {
		les, q := p.find(id)
		st := prog.Question(id)
		switch sc, _ := les.ScenarioByID(q.Scenario); {
		case st.First == nil && !st.Revealed && !st.IsSolved():
		case sc != nil && len(sc.Vary) > 0:
			prog.Another(les, id)
		default:
			st.Ask()
		}
	}
	prog.Review = round
	prog.Save()
}

func (p *reviewPage) onAgain(ctx app.Context, e app.Event) {
	p.draw()
	app.Window().Call("scrollTo", 0, 0)
}

func (p *reviewPage) Render() app.UI {
	l, prog := p.lang, progress.Load()
	var ids []string
	if p.lessons != nil {
		ids = prog.Review
	}
	return site.ShellIn(l, uitext.InLang(l, site.PathReview), true,
		app.Section().Class("lessons review").Body(
			app.H1().Text(uitext.Tr(l, "review.title")),
			app.P().Class("lead").Text(uitext.Tr(l, "review.lead")),
			app.If(p.failed, func() app.UI { return app.P().Class("notice").Role("alert").Text(uitext.Tr(l, "lesson.offline")) }),
			// The round is drawn from the progress in this browser, which
			// the server never sees: until the app has drawn it, say so
			// rather than show an empty page.
			app.If(ids == nil && !p.failed, func() app.UI {
				return app.P().Class("review-pending muted").Aria("busy", true).Text(uitext.Tr(l, "review.pending"))
			}),
			app.Range(ids).Slice(func(i int) app.UI {
				les, q := p.find(ids[i])
				path := site.LessonPath(l, les.Slug)
				return app.Div().Class("review-item").Attr("data-review", q.ID).Body(
					// A heading: the cards' own headings are h3, under
					// the page's h1 (screen readers list the levels).
					app.H2().Class("review-from").Body(app.Text(uitext.Tr(l, "q.lesson")+" "), app.A().Href(path).Text(les.Title)),
					newCard(l, les, q, path),
				)
			}),
			calibrationLine(l, prog, nil),
			app.P().Class("tool-row").Body(
				app.If(ids != nil, func() app.UI {
					return app.Button().Class("button primary").Attr("data-action", "another-round").Text(uitext.Tr(l, "review.again")).OnClick(p.onAgain)
				}),
				app.A().Class("button").Href(uitext.InLang(l, site.PathLessons)).Text(uitext.Tr(l, "lesson.all")),
			),
		),
	)
}
