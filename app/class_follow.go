package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// The class's follow-along beyond the playground (docs/class.md): a
// student's page answering the stream's beat (who is in), the join link's
// QR code on the instructor's page, and a lesson's embedded playgrounds
// stepping on every student's page as on the instructor's.

// listenBeat answers the stream's beats with a sign that this student's
// page is still here. A network event, not a timer: a hidden tab's
// timers are throttled to once a minute, its events are not.
func (c *classSession) listenBeat() {
	if c.student == "" {
		return
	}
	var ignore app.Func
	ignore = app.FuncOf(func(this app.Value, args []app.Value) any { return nil })
	beat := app.FuncOf(func(this app.Value, args []app.Value) any {
		opts := map[string]any{"method": "POST", "headers": map[string]any{"X-Class-Student": c.student}}
		// The answer changes nothing on the page; a beat lost is
		// made up by the next.
		app.Window().Call("fetch", classAPI("here", c.lang, c.id), opts).Call("catch", ignore)
		return nil
	})
	c.listeners = append(c.listeners, ignore, beat)
	c.es.Call("addEventListener", "beat", beat)
	listenPageHide()
}

// pageHooks is set once the page's pagehide and pageshow listeners are
// in: they serve whichever class the page is in, for the page's life.
var pageHooks bool

// listenPageHide closes a student's stream when the page is hidden for
// good or put in the back-forward cache: a page leaving for another
// site kept its stream open while cached, and stayed in the count until
// its sign expired. A page that comes back from the cache follows again.
func listenPageHide() {
	if pageHooks || !app.IsClient {
		return
	}
	pageHooks = true
	hide := app.FuncOf(func(this app.Value, args []app.Value) any {
		if c := theClass; c != nil && c.student != "" && c.es.Truthy() {
			c.es.Call("close")
		}
		return nil
	})
	show := app.FuncOf(func(this app.Value, args []app.Value) any {
		if c := theClass; c != nil && c.student != "" && !c.ended && args[0].Get("persisted").Bool() {
			c.close()
			c.listen(c.student)
		}
		return nil
	})
	app.Window().Call("addEventListener", "pagehide", hide)
	app.Window().Call("addEventListener", "pageshow", show)
}

// classQR is the join link's QR code, drawn by the server.
func classQR(l doc.Lang, c *classSession) app.UI {
	return app.Img().ID("class-qr").Class("class-qr").
		Src(classAPI("qr.svg", l, "") + "&code=" + c.code).
		Alt(tr(l, "class.qr")).Title(tr(l, "class.qr"))
}

// classBlockNote is the lesson block the instructor's page moved last:
// its id, its script ("" for the lesson's own) and its step. The lesson's
// class tick sends it; it is the page's, not a component's, because the
// embedded playgrounds update on their own (IsolatesUpdates).
var classBlockNote struct {
	id, script string
	step       int
}

// classNoteBlock notes s's step for the class, on the instructor's page.
func classNoteBlock(s *scenarioPlayground) {
	c := theClass
	if c == nil || !c.teacher || c.ended || s.busy || !s.started {
		return
	}
	script := s.engine.Script()
	if script == s.Script {
		script = ""
	}
	classBlockNote.id, classBlockNote.script, classBlockNote.step = s.ID, script, s.engine.Pos()
}

// lessonClassState is what a student's page follows on lesson slug: the
// lesson and the block moved last.
func lessonClassState(slug string) classState {
	return classState{Lesson: slug, Block: classBlockNote.id, Script: classBlockNote.script, Step: classBlockNote.step}
}

// classLessonTick starts the instructor's lesson page sending its state
// (a block stepped, played or presented) until the class ends or the page
// leaves the lesson.
func (p *lessonPage) classLessonTick(ctx app.Context) {
	c := theClass
	slug := lessonSlugOf(p.path)
	if c == nil || !c.teacher || c.ended || slug == "" {
		return
	}
	classBlockNote.id, classBlockNote.script, classBlockNote.step = "", "", 0
	c.tickEvery(ctx, func(ctx app.Context) {
		p.notePresentedBlock()
		c.sendState(ctx, lessonClassState(slug))
		ctx.PreventUpdate()
	})
}

// tickEvery runs send now and then every classPoll, until the class ends
// or another page starts its own ticks (the page that started these has
// gone: the timer's dispatch to it is dropped).
func (c *classSession) tickEvery(ctx app.Context, send func(app.Context)) {
	c.tickGen++
	gen := c.tickGen
	var tick func(ctx app.Context)
	tick = func(ctx app.Context) {
		if theClass != c || c.tickGen != gen || c.ended {
			return
		}
		send(ctx)
		ctx.After(classPoll, tick)
	}
	tick(ctx)
}

// classStepAction asks the embedded playground of a student's lesson
// page to show the instructor's step (a classBlockStep).
const classStepAction = "txnlab.class.step"

type classBlockStep struct {
	ID, Script string
	Step       int
}

// followClassBlock asks the lesson's playgrounds for the instructor's
// block and step, on a student's page following the class.
func followClassBlock(ctx app.Context, s classState) {
	if s.Block != "" {
		ctx.NewActionWithValue(classStepAction, classBlockStep{ID: s.Block, Script: s.Script, Step: s.Step})
	}
}

// onClassStep shows the instructor's step on this playground: it runs
// the instructor's script first if it has not, and comes into view when
// the instructor moved to it from another block.
func (s *scenarioPlayground) onClassStep(ctx app.Context, a app.Action) {
	req, ok := a.Value.(classBlockStep)
	if !ok || req.ID != s.ID {
		ctx.PreventUpdate()
		return
	}
	s.followClass(ctx, req)
}

// followClassOnMount catches up with the instructor when the playground
// mounts after the class's state came (a page that has just navigated to
// the instructor's lesson).
func (s *scenarioPlayground) followClassOnMount(ctx app.Context) {
	c := theClass
	if c == nil || c.teacher || !c.following || c.ended || c.state.Block != s.ID ||
		c.state.Lesson != lessonSlugOf(app.Window().URL().Path) {
		return
	}
	s.followClass(ctx, classBlockStep{ID: c.state.Block, Script: c.state.Script, Step: c.state.Step})
}

func (s *scenarioPlayground) followClass(ctx app.Context, req classBlockStep) {
	c := theClass
	if c == nil || c.teacher || !c.following {
		ctx.PreventUpdate()
		return
	}
	if s.busy {
		// A run on its way (its own, as it came into view): follow
		// once it is in.
		ctx.After(100*time.Millisecond, func(ctx app.Context) { s.followClass(ctx, req) })
		return
	}
	src := req.Script
	if src == "" {
		src = s.Script
	}
	if c.followed != s.ID {
		c.followed = s.ID
		if app.IsClient {
			s.JSValue().Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	}
	seek := func(ctx app.Context) {
		// The newest step the instructor is at, which may have moved
		// while this ran.
		at := req.Step
		if st := c.state; st.Block == s.ID {
			at = st.Step
		}
		s.engine.Seek(at)
	}
	if !s.started || s.engine.Script() != src {
		s.unobserve()
		s.setEditor(ctx, src)
		s.load(ctx, src, seek)
		return
	}
	if s.engine.Pos() == req.Step {
		ctx.PreventUpdate()
		return
	}
	s.move(ctx, func() { seek(ctx) })
}

// classLocal is the mounted class bar's Local.
var classLocal func(id string) (string, []string, bool)

// classLocalize is q as a student's page shows it: a lesson question in
// the page's own language (the instructor's page may be in another), the
// choices in the same order, so a vote's index means the same choice.
func classLocalize(q *classQuestion) *classQuestion {
	if q == nil || q.ID == "" || classLocal == nil {
		return q
	}
	text, choices, ok := classLocal(q.ID)
	if !ok || len(choices) != len(q.Choices) {
		return q
	}
	local := *q
	local.Text, local.Choices = text, choices
	return &local
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

// classShowQuestion brings a question just opened into a student's view:
// on a phone the page may be scrolled to a playground far below the bar.
func classShowQuestion(ctx app.Context) {
	c := theClass
	if c == nil || !c.showQ || !app.IsClient {
		return
	}
	c.showQ = false
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID("class-predict"); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	})
}

// classQuestionText is a lesson question as text for the class: its
// prompt and its choices.
func classQuestionText(q doc.Question) (string, []string) {
	choices := make([]string, len(q.Choices))
	for i, ch := range q.Choices {
		choices[i] = plainText(ch.HTML)
	}
	return plainText(q.PromptHTML), choices
}

// notePresentedBlock makes the playground the instructor presents the
// block students follow, before it is stepped: their pages come to it as
// the projector does. A playground stepped since is noted with its step
// (classNoteBlock), and a question or exercise presented leaves the note.
func (p *lessonPage) notePresentedBlock() {
	slides := p.slides()
	if !p.presenting || p.slide < 0 || p.slide >= len(slides) {
		return
	}
	if id := p.lesson.Segments[slides[p.slide]].Scenario; id != "" && id != classBlockNote.id {
		classBlockNote.id, classBlockNote.script, classBlockNote.step = id, "", 0
	}
}
