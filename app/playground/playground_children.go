package playground

import (
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/class"
	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/diagram"
	"txnlab/lessons/doc"
)

// The full playground's children, wired: what each is given to show and
// what its funcs do. The children's files (transport.go's controls, the
// panels of app/panels) know nothing of the playground, so a lesson's
// playground or the presenter can compose them from its own runner.

func (p *playground) renderCluster() app.UI {
	p.snapshot()
	return panels.NewCluster(p.run.lang, p.run.histGen, p.run.shownPos, &p.run.shownSnap, p.act)
}

func (p *playground) renderInspector() app.UI {
	p.snapshot()
	_, current := p.violations()
	return panels.NewInspector(panels.InspectorView{Lang: p.run.lang, Gen: p.run.histGen, StatePos: p.run.shownPos, ViolPos: p.paint.shownViolPos, Current: current, Tab: p.view.tab,
		Snap: &p.run.shownSnap, Viol: &p.paint.shownViol, Engine: p.run.engine},
		panels.InspectorHooks{Unexercised: p.unexercised, OnTab: p.setTab, Follow: p.followEvent, Act: p.act})
}

// setTab is how the inspector reports a tab chosen.
func (p *playground) setTab(id string) { p.view.tab = id }

// followEvent brings event idx into view: the step it happened in, its
// row in the diagram (shown, should a filter hide it), its message in the
// message panel, and the diagram and the panel on screen.
func (p *playground) followEvent(ctx app.Context, idx int) {
	hist := p.run.engine.History()
	if idx < 0 || idx >= len(hist) {
		return
	}
	e := &hist[idx]
	p.run.stop()
	// The link itself may be gone after the render (the violations of an
	// earlier step are other ones), and go-app drops what an unmounted
	// element deferred: defer on the page's own context.
	if p.page.hasCtx {
		ctx = p.page.ctx
	}
	if !p.run.filter.Shows(e) {
		p.run.filter.HideFetch = false
		if !p.run.filter.Shows(e) {
			p.run.filter.Replication = true
		}
	}
	p.run.engine.Seek(panels.StepOfEvent(p.run.engine, idx))
	if e.MsgID != 0 {
		p.run.selected = e.MsgID
	}
	p.followNewest(ctx)
	if app.IsClient {
		p.run.measureDiagram()
	}
	l := p.run.layout()
	if row := sort.SearchInts(l.Rows, idx); row < len(l.Rows) {
		visible := max(p.run.viewH-diagram.HeadHeight, diagram.RowHeight)
		p.run.scrollDiagram(ctx, max(0, diagram.RowY(row)-visible/2))
	}
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		doc := app.Window().Get("document")
		for _, sel := range []string{"#" + p.run.scrollID, "#message-panel"} {
			if el := doc.Call("querySelector", sel); el.Truthy() {
				el.Call("scrollIntoView", map[string]any{"block": "nearest"})
			}
		}
	})
}

// unexercised is panels.Unexercised(History()), once per history.
func (p *playground) unexercised() map[string]string {
	return panels.UnexercisedOf(p.run.engine, p.run.histGen)
}

// renderNarration is the live region. It is visually hidden: the
// diagram, the status line and the cards say the same to the eye.
func (p *playground) renderNarration() app.UI {
	return app.Div().ID("narration").Class("visually-hidden").
		Role("status").Aria("live", "polite").Aria("atomic", "true").
		Text(panels.Narration(p.run.lang, p.run.engine, p.run.filter))
}

// renderMetrics is the panel, closed until the learner opens it.
func (p *playground) renderMetrics() app.UI {
	ready := false
	if p.view.mx.Open {
		_, ready = p.run.engine.Metrics()
		if !ready && !stateLater(p.run.engine) && p.page.hasCtx && !p.view.mx.Polling {
			// The page's own engine replays in slices: come back for
			// the next one after a frame.
			p.view.mx.Polling = true
			p.page.ctx.After(time.Millisecond, func(app.Context) { p.view.mx.Polling = false })
		}
	}
	return panels.NewMetrics(panels.MetricsView{Gen: p.run.histGen, Lang: p.run.lang, Open: p.view.mx.Open, Ready: ready, Pos: p.run.engine.Pos(),
		Engine: p.run.engine, Charts: &p.view.mx, CSVName: p.exportName("-metrics.csv")}, p.metricsToggled, browser.Download)
}

// metricsToggled is how the panel reports that the learner opened or
// closed it: the playground asks the engine for the series.
func (p *playground) metricsToggled(open bool) {
	p.view.mx.Open = open
	if p.page.hasCtx {
		p.page.ctx.Dispatch(func(app.Context) {})
	}
}

// openHelp shows the help dialog and puts the focus on its close button.
func (p *playground) openHelp(ctx app.Context) {
	p.view.helpOpen = true
	ctx.Defer(func(ctx app.Context) {
		d := app.Window().GetElementByID("shortcuts")
		if !d.Truthy() {
			return
		}
		if !d.Get("open").Truthy() && d.Get("showModal").Truthy() {
			d.Call("showModal")
		}
		if c := app.Window().GetElementByID("shortcuts-close"); c.Truthy() {
			c.Call("focus")
		}
	})
}

func (p *playground) renderShortcuts() app.UI {
	return panels.NewShortcuts(p.run.lang, p.view.helpOpen, p.helpClosed)
}

// helpClosed is how the help reports that it closed.
func (p *playground) helpClosed() { p.view.helpOpen = false }

// helpButton opens the help for a pointer or a keyboard user who does not
// know the `?` yet.
func (p *playground) helpButton() app.UI {
	return app.Button().Type("button").Class("tool shortcuts-button").
		Attr("aria-keyshortcuts", "?").DataSet("action", "shortcuts").
		OnClick(func(ctx app.Context, e app.Event) { p.openHelp(ctx) }).
		Text(uitext.Tr(p.run.lang, "keys.open"))
}

// controls are the playground's transport's inputs.
func (p *playground) controls() transportControls {
	return transportControls{Lang: p.run.lang, IDPrefix: "transport", Pos: p.run.engine.Pos(), Len: p.run.engine.Len(), Playing: p.run.playing, Keys: true, Stale: p.stale(),
		OnReset: p.onReset, OnBack: p.onStepBack, OnPlay: p.onPlay, OnPause: p.onPause, OnStep: p.onStep, OnEnd: p.onRunToEnd}
}

func (p *playground) renderTransport() app.UI {
	pos, n := p.run.engine.Pos(), p.run.engine.Len()
	t := p.controls()
	l := p.run.lang
	untilName := uitext.LabelledBy(l, "Run until", "run-until-name")
	_, apiName := uitext.LocalName(l, "API to run until", "until-api-name")
	return app.Div().Class("transport-panel").Body(
		app.Div().Class("transport").Role("toolbar").Aria("label", uitext.Tr(l, "Transport")).Body(
			append(t.buttons(),
				app.Label().Class("speed").Body(
					app.Span().Class("control-label").ID("speed-name").Text(uitext.Tr(l, "Speed")),
					&choice{Label: "Speed", LabelledBy: uitext.LabelledBy(l, "Speed", "speed-name"), Values: speedValues, Texts: speedTexts, Selected: strconv.Itoa(p.view.speed), onChange: p.onSpeed},
				),
				app.Label().Class("check skip-quiet").Title(uitext.Tr(t.Lang, "play.skipquiet.title")).Body(
					app.Input().Type("checkbox").DataSet("action", "skip-quiet").Checked(p.run.player.quiet != nil).OnChange(p.onSkipQuiet),
					app.Text(" "+uitext.Tr(t.Lang, "play.skipquiet")),
				),
				app.Button().Type("button").Class("transport-button").DataSet("action", "next-interesting").
					Title(uitext.Tr(t.Lang, "play.next.title")).
					Aria("disabled", t.Stale || pos >= n).
					OnClick(p.onNextInteresting).Text(uitext.Tr(t.Lang, "play.next")),
			)...,
		),
		app.Div().Class("scrubber").Body(
			t.scrubber(p.onScrub).ID("scrubber"),
			app.Span().Class("run-until").Body(
				app.If(apiName != nil, func() app.UI { return apiName }),
				&choice{Label: "API to run until", LabelledBy: uitext.LabelledBy(l, "API to run until", "until-api-name"), Values: apiNames, Texts: apiNames, Selected: p.view.untilAPI, onChange: p.onUntilAPI},
				app.Button().Type("button").Class("transport-button").Aria("label", "Run until").
					Aria("labelledby", untilName).
					Title(uitext.Tr(l, "Step until the next message of this API")).
					Aria("disabled", pos >= n).
					OnClick(p.onRunUntil).Body(app.Span().ID(untilName).Text(uitext.Tr(l, "Run until"))),
			),
		),
		p.renderStatus(),
	)
}

func (p *playground) renderStatus() app.UI {
	pos, n := p.run.engine.Pos(), p.run.engine.Len()
	lang := p.run.lang
	line := uitext.Tr(lang, "finished")
	if l := p.run.engine.Line(); l > 0 {
		line = fmt.Sprintf(uitext.Tr(lang, "line %d"), l)
	}
	busy, running := p.run.engine.Busy()
	// data-running: a run is in progress, from its first moment (the
	// busy note shows only once it lasts): the engine's worker answers a
	// run a message later, and the tests wait for it.
	return app.Div().Class("status").DataSet("running", running).Body(
		app.If(p.stale(), func() app.UI {
			se := p.run.scriptErr
			return app.P().Class("stale-note").Role("alert").DataSet("stale", se.Line).Text(fmt.Sprintf(
				uitext.Tr(lang, "pg.stale.note"), se.Line, se.Col))
		}),
		app.Span().Class("position").DataSet("pos", pos).DataSet("len", n).Text(fmt.Sprintf(uitext.Tr(lang, "Step %d of %d"), pos, n)),
		app.Span().Class("clock").Title(uitext.Tr(lang, "pg.clock")).Text("t = "+p.run.engine.Now().String()),
		app.Span().Class("line").Text(line),
		app.If(running, func() app.UI {
			return app.Span().Class("busy").Role("status").Text(fmt.Sprintf(uitext.Tr(lang, "running the script… step %d"), busy))
		}),
		app.Output().Class("digest").DataSet("digest", p.run.engine.Digest()).
			Title(uitext.Tr(lang, "pg.digest")).
			Text(fmt.Sprintf(uitext.Tr(lang, "digest %s"), p.run.engine.Digest())),
		app.If(len(p.run.actionMsg) > 0, func() app.UI {
			c := "action-msg"
			if p.actionErr {
				c += " error"
			}
			return app.Span().Class(c).Role("status").Body(uitext.PiecesUI(p.run.actionMsg)...)
		}),
		p.helpButton(),
	)
}

// onSkipQuiet turns on or off the passing of quiet steps while playing.
func (p *playground) onSkipQuiet(ctx app.Context, e app.Event) {
	if ctx.JSSrc().Get("checked").Bool() {
		f := &p.run.filter // the filter at each step, not the one of this moment
		p.run.player.quiet = func(e engine.Engine, pos int) bool { return quietStep(e, *f, pos) }
	} else {
		p.run.player.quiet = nil
	}
}

// onNextInteresting moves to the next step where something new happens
// (nextInteresting), passing waits and the repeats of a retry loop.
func (p *playground) onNextInteresting(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.run.stop()
	p.seekFound(ctx, nextInteresting(p.run.engine, p.run.filter), uitext.Tr(p.controls().Lang, "play.next.none"))
}

// seekFound moves to step i, found by a search forward, and shows it
// newest first; i ≤ 0 means the search found nothing, which none says.
func (p *playground) seekFound(ctx app.Context, i int, none string) {
	if i <= 0 {
		p.say(true, none)
		return
	}
	p.run.engine.Seek(i)
	p.say(false, "")
	p.followNewest(ctx)
}

// renderCompareLink is the playground's way to the compare page.
func (p *playground) renderCompareLink() app.UI {
	l := p.run.lang
	return app.P().Class("pg-compare").Body(
		app.Button().Type("button").Class("tool").DataSet("action", "compare").
			Title(uitext.Tr(l, "pg.compare.label")).OnClick(p.onCompare).Text(uitext.Tr(l, "pg.compare")),
	)
}

// onCompare opens the compare page with the editor's script, under the
// default settings (Kafka 3.5 against 4.0).
func (p *playground) onCompare(ctx app.Context, e app.Event) {
	ctx.Navigate(uitext.InLang(doc.Lang(p.run.lang), site.PathCompare) + "#" + compareFragment(p.run.script, defaultSettingsA, defaultSettingsB))
}

// renderClass is the playground's class bar.
func (p *playground) renderClass() app.UI {
	return &class.Bar{Lang: doc.Lang(p.run.lang), Follow: p.classFollow, Start: p.classTick, Join: site.PathPlayground}
}

// classTick starts the instructor's playground sending its state, until
// the class ends or the page leaves the playground (the timer's dispatch
// to a page that has gone is dropped).
func (p *playground) classTick(ctx app.Context) {
	c := class.Current()
	if c == nil || !c.Teacher || c.Ended {
		return
	}
	c.TickEvery(ctx, func(ctx app.Context) {
		if p.run.scriptErr == nil && !p.run.busy {
			c.SendState(ctx, class.State{Script: p.run.script, Step: p.run.engine.Pos()})
		}
	})
}

// classFollow takes the instructor's state into a student's playground.
func (p *playground) classFollow(ctx app.Context) {
	c := class.Current()
	if c == nil || c.Teacher || !c.Following || c.State.Rev == 0 {
		return
	}
	s := c.State
	if s.Lesson != "" {
		ctx.Navigate(uitext.InLang(doc.Lang(p.run.lang), site.PathLessons+"/"+s.Lesson))
		return
	}
	if s.Script == "" {
		return
	}
	if s.Script != p.run.script {
		p.run.stop()
		p.setEditor(ctx, s.Script)
		p.startLoad(ctx, s.Script, func(ctx app.Context, err error) {
			if class.Current() == c && c.Following {
				p.run.engine.Seek(c.State.Step)
				p.followNewest(ctx)
			}
		})
		return
	}
	if p.run.engine.Pos() != s.Step {
		p.run.stop()
		p.run.engine.Seek(s.Step)
		p.followNewest(ctx)
	}
}
