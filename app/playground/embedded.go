package playground

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// The embedded playground: what a lesson page mounts for each ```scenario
// block. It is the full playground's script, transport and diagram, made
// from the same parts (transportControls, diagramState), without the
// cluster cards, the inspector or the trace, and with the facts the lesson
// names. A lesson holds several: each runs its script only when it is
// scrolled into view or asked to, so a page opens without running any.

// ShowAction is the go-app action that asks an embedded playground to
// show a moment of its scenario: a question card posts it with
// ctx.NewActionWithValue(ShowAction, ShowRequest{…}) once the learner
// has answered.
const ShowAction = "scenario.show"

// ShowRequest is the value of a ShowAction.
type ShowRequest struct {
	// ID is the scenario block's id (data-scenario): the playground with
	// another id ignores the request.
	ID string
	// Script is the script to load; "" means the lesson's own. An edit
	// the learner made is kept on the playground's Undo.
	Script string
	// Stop is a line of the script: the playground stops right after
	// that statement ran. 0 means the end.
	Stop int
}

// PlaygroundPath is the full playground's path for a page's language:
// a Chinese lesson leads to the Chinese playground.
func PlaygroundPath(lang string) string { return uitext.InLang(doc.Lang(lang), site.PathPlayground) }

// ScenarioPlayground is an embedded playground. Its exported fields are
// its inputs, compared by go-app at every render of the lesson page, so
// they are small values: the block's id, title, script and fact queries,
// and the page's language. Everything else is its own state, made in
// OnInit, so a lesson page re-rendering does not allocate an engine per
// block.
type ScenarioPlayground struct {
	app.Compo

	// ID is the block's id: data-scenario, and the ShowRequest's ID.
	ID string
	// Title names the scenario above it and for screen readers.
	Title string
	// Script is the lesson's script, which Reset goes back to.
	Script string
	// Facts are queries of the scenario language shown with their value
	// at the current step ("txn order-txn-1 state").
	Facts []string
	// Lang is the page's language, "en" or "zh".
	Lang string
	// Actions are statements offered as buttons: one is written into the
	// script at the current step and the script runs again, so the
	// learner picks the moment (a coordinator crash, say).
	Actions []string
	// Guarded is set while a question of the page that this scenario
	// decides is unanswered: its script and its run would give the answer
	// away, so it neither runs when scrolled to nor shows its script until
	// the question's check runs it, or the learner asks.
	Guarded bool
	// Presenting is set while the lesson is presented (lesson_presenter.go):
	// the playground shows its step as a caption.
	Presenting bool

	// runner is the script, the engine, the diagram's view, the
	// position played and the run in progress (runner.go).
	run runner

	// madeFor is the inputs the state below was made for.
	madeFor blockInputs

	// workErr is the last run's outcome (an action that could not be
	// written in).
	workErr error

	// lazy is what starts the playground when it comes into view.
	lazy lazyStart

	share shareLink // the share link
}

// blockInputs are the inputs a playground's state was made for: the
// block's Script and its ID.
type blockInputs struct{ loaded, loadedID string }

// lazyStart starts a lesson's playground when it first comes into view.
type lazyStart struct {
	// started is set once the script was asked to run (in view, Run, a
	// ShowRequest): until then the page shows the script and a
	// placeholder, and does no work.
	started bool
	// observer watches the section until it comes into view; onSeen is
	// its callback, released with it.
	observer app.Value
	onSeen   app.Func
	// ctx is the context the component was mounted with, for the
	// observer's callback and the tests.
	ctx app.Context
}

// shareLink is a playground's share link, of the script linkScript.
type shareLink struct{ linkScript, link string }

// IsolatesUpdates makes a playground's updates its own (go-app's
// UpdateIsolator): the lesson page around it draws nothing from what its
// handlers change (its inputs come from the lesson and the learner's
// progress, which question cards change), and re-rendering the whole
// lesson at each of a playground's moves and replies was most of the
// page's work while its playgrounds ran.
func (s *ScenarioPlayground) IsolatesUpdates() {}

// OnInit makes the component's state from its inputs.
func (s *ScenarioPlayground) OnInit() { s.setup() }

// setup (re)starts from the inputs: a fresh engine, the lesson's script in
// the editor, nothing run.
func (s *ScenarioPlayground) setup() {
	s.run.stop()
	s.run.busyGen++ // a run in progress belongs to the old script
	// histGen goes on counting: the diagram's chunks compare it, and a
	// count starting again would leave the old script's rows drawn.
	gen := s.run.histGen
	s.run.diagramState = newDiagramState(newEngine(), "diagram-"+DomID(s.ID))
	s.run.histGen = gen + 1
	s.run.lang = s.Lang
	s.run.viewH = embeddedViewH
	s.madeFor.loaded, s.madeFor.loadedID = s.Script, s.ID
	s.run.editorText, s.run.script, s.run.scriptErr = s.Script, s.Script, nil
	s.run.undoStack, s.lazy.started, s.run.busy = undoStack{max: 20}, false, false
	// The learner's edit of this block, kept from an earlier visit, comes
	// back (Reset restores the lesson's script).
	if app.IsClient {
		if edit := browser.GetItem(s.editKey()); edit != "" && edit != s.Script {
			s.run.editorText, s.run.script = edit, edit
		}
	}
}

// editKey is where the learner's edit of this block is kept: per page
// address (language included) and block.
func (s *ScenarioPlayground) editKey() string {
	return "txnlab.lesson-edit." + app.Window().URL().Path + "#" + s.ID
}

// keepEdit writes the editor's script down, or forgets it once it is the
// lesson's again.
func (s *ScenarioPlayground) keepEdit() {
	if !app.IsClient {
		return
	}
	if s.run.script == s.Script {
		browser.RemoveItem(s.editKey())
		return
	}
	browser.SetItem(s.editKey(), s.run.script)
}

// embeddedViewH is the diagram's height before it is measured: its box's
// max-height in app.css.
const embeddedViewH = 420

// DomID makes an id usable in element ids and CSS selectors.
func DomID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			b[i] = '-'
		}
	}
	return string(b)
}

// OnMount listens for ShowAction and, in the browser, waits for the
// section to come into view before running anything.
func (s *ScenarioPlayground) OnMount(ctx app.Context) {
	s.lazy.ctx = ctx
	ctx.Handle(ShowAction, s.onShow)
	ctx.Handle(PresentStepAction, s.onPresentStep)
	ctx.Handle(classStepAction, s.onClassStep)
	if !app.IsClient {
		return
	}
	s.followClassOnMount(ctx)
	if mq := app.Window().Call("matchMedia", "(prefers-reduced-motion: reduce)"); mq.Truthy() {
		s.run.reducedMotion = mq.Get("matches").Bool()
	}
	listenEngine(s.run.engine, func() { ctx.Dispatch(func(app.Context) {}) })
	s.run.mounted()
	s.observe(ctx)
}

// OnPreRender is go-app's mount on the server, where the page is
// pre-rendered (and the native tests run): it runs nothing — the script
// shows as text — but listens for ShowAction as OnMount does, so a test
// can post one.
func (s *ScenarioPlayground) OnPreRender(ctx app.Context) {
	s.lazy.ctx = ctx
	ctx.Handle(ShowAction, s.onShow)
}

// OnUpdate starts again when the page gives another script (a lesson
// page reusing the component for another lesson's block).
func (s *ScenarioPlayground) OnUpdate(ctx app.Context) {
	s.run.lang = s.Lang
	if s.Script == s.madeFor.loaded {
		return
	}
	s.unobserve()
	if app.IsClient && s.ID == s.madeFor.loadedID {
		// The same block in another variant ("Try another"): an edit of
		// the old variant's script would hide the new one's values.
		browser.RemoveItem(s.editKey())
	}
	s.setup()
	if app.IsClient {
		ctx.Defer(func(ctx app.Context) { s.setTextarea(s.run.script) })
		s.observe(ctx)
	}
}

// OnDismount stops the playback and lets the observer go.
func (s *ScenarioPlayground) OnDismount() {
	s.run.stop()
	s.run.busyGen++
	s.unobserve()
}

// observe runs the script once the section is near the viewport. Several
// embedded playgrounds on a page thus run one by one as the learner
// reads, never all at once when the page opens.
func (s *ScenarioPlayground) observe(ctx app.Context) {
	ctor := app.Window().Get("IntersectionObserver")
	if s.lazy.started || s.Guarded || s.lazy.observer != nil || !ctor.Truthy() {
		return // without an observer the script runs on Run
	}
	s.lazy.onSeen = app.FuncOf(func(this app.Value, args []app.Value) any {
		entries := args[0]
		for i := 0; i < entries.Length(); i++ {
			if entries.Index(i).Get("isIntersecting").Bool() {
				// In a turn: a scroll brings several playgrounds
				// into view at once, and each parses its script.
				TakeTurn(ctx, func(ctx app.Context, _ time.Duration) {
					s.unobserve()
					if !s.lazy.started {
						s.load(ctx, s.run.script, nil)
					}
				})
				break
			}
		}
		return nil
	})
	s.lazy.observer = ctor.New(s.lazy.onSeen, map[string]any{"rootMargin": "200px 0px"})
	s.lazy.observer.Call("observe", s.JSValue())
}

// unobserve disconnects the observer and releases its callback.
func (s *ScenarioPlayground) unobserve() {
	if s.lazy.observer != nil {
		s.lazy.observer.Call("disconnect")
		s.lazy.observer = nil
	}
	if s.lazy.onSeen != nil {
		s.lazy.onSeen.Release()
		s.lazy.onSeen = nil
	}
}

// ---- Running ----

// load runs src in slices of workSlice (the page must not freeze while a
// script runs), then calls done. A parse error is shown at once and the
// last history that ran stays.
func (s *ScenarioPlayground) load(ctx app.Context, src string, done func(app.Context)) {
	s.run.stop()
	s.lazy.started = true
	if err := s.run.engine.Begin(src); err != nil {
		s.run.scriptErr = asScriptError(err)
		return
	}
	s.run.scriptErr = nil
	s.run.busyGen++
	s.run.busy = true
	s.work(ctx, s.run.busyGen, done)
}

// work runs a slice of the run begun by load.
func (s *ScenarioPlayground) work(ctx app.Context, gen int, done func(app.Context)) {
	budget := WorkSlice
	if app.IsServer {
		budget = time.Hour // natively (the tests): nobody waits for a frame
	}
	s.workFor(ctx, gen, done, budget)
}

// workFor is work within budget; the rest of the run goes in the page's
// next turns (turns.go), which the page's other playgrounds share. It
// reports whether the run ended (a turn that did not end it changed
// nothing on screen).
func (s *ScenarioPlayground) workFor(ctx app.Context, gen int, done func(app.Context), budget time.Duration) bool {
	if gen != s.run.busyGen {
		return false // superseded
	}
	s.run.posAtRunEnd = s.run.engine.Pos() // Work replaces the history when it ends
	finished, err := s.run.engine.Work(budget)
	s.workErr = err
	if !finished {
		TakeTurn(ctx, func(ctx app.Context, budget time.Duration) {
			if !s.workFor(ctx, gen, done, budget) {
				ctx.PreventUpdate()
			}
		})
		return false
	}
	if !app.IsClient {
		s.finishRun(ctx, done)
		return true
	}
	// The history is in. Its first drawing (the diagram's layout, then
	// go-app mounting the diagram, the transport and the facts) took
	// 10–20 ms of the page's thread on top of the turn that decoded the
	// history's last events: the layout is computed in the next turn,
	// and the drawing is done in a turn of its own after that.
	TakeTurn(ctx, func(ctx app.Context, _ time.Duration) {
		ctx.PreventUpdate()
		if gen != s.run.busyGen {
			return
		}
		if done != nil {
			done(ctx) // it may move the position (ShowRequest.Stop)
		}
		s.run.layout()
		takeWholeTurn(ctx, func(ctx app.Context) {
			if gen == s.run.busyGen {
				s.finishRun(ctx, nil)
			}
		})
	})
	return false
}

// finishRun shows the history a run brought, after done.
func (s *ScenarioPlayground) finishRun(ctx app.Context, done func(app.Context)) {
	// A runtime error is the engine's Err, shown by the editor.
	s.run.busy = false
	s.run.histGen++
	s.run.selected = 0
	s.run.shownSnap, s.run.shownPos = engine.Snapshot{}, 0
	if done != nil {
		done(ctx)
	}
	s.followNewest(ctx)
}

// onShow carries out a ShowRequest addressed to this playground.
func (s *ScenarioPlayground) onShow(ctx app.Context, a app.Action) {
	req, ok := a.Value.(ShowRequest)
	if p, isPtr := a.Value.(*ShowRequest); isPtr && p != nil {
		req, ok = *p, true
	}
	if !ok || req.ID != s.ID {
		ctx.PreventUpdate()
		return
	}
	s.show(ctx, req)
}

// show loads req's script (the lesson's when empty), runs it and stops
// right after line req.Stop, then scrolls the playground into view.
func (s *ScenarioPlayground) show(ctx app.Context, req ShowRequest) {
	s.unobserve()
	src := req.Script
	if src == "" {
		src = s.Script
	}
	if s.run.script != src && s.run.script != s.Script {
		s.run.pushUndo(s.run.script) // the learner's edit, which Undo brings back
	}
	s.setEditor(ctx, src)
	stop := func(ctx app.Context) {
		at := s.run.engine.Len()
		if req.Stop > 0 {
			at = s.run.engine.StepAfterLine(req.Stop)
		}
		s.run.engine.Seek(at)
	}
	if s.lazy.started && !s.run.busy && s.run.engine.Script() == src {
		stop(ctx)
		s.followNewest(ctx)
	} else {
		s.load(ctx, src, stop)
	}
	// No scrolling here: the learner who asked (a question card) is
	// reading the verdict, and the card links here (playgroundAnchor).
}

// followNewest keeps the newest row in view and, while playing, animates
// the newest messages.
func (s *ScenarioPlayground) followNewest(ctx app.Context) {
	classNoteBlock(s)
	s.run.shownSnap, s.run.shownPos = s.run.engine.Snapshot(), s.run.engine.Pos()
	s.run.follow(ctx)
	if app.IsClient {
		// go-app may set the range's value before its new max, and the
		// browser then clamps the value to the old max (0 before the
		// first run): set it again once both are in.
		id, pos := s.scrubID(), s.run.engine.Pos()
		ctx.Defer(func(ctx app.Context) {
			if r := app.Window().GetElementByID(id); r.Truthy() {
				r.Set("value", pos)
			}
		})
	}
	if app.IsClient && s.run.playing && !s.run.reducedMotion {
		id := s.run.scrollID
		ctx.Defer(func(ctx app.Context) { startTravellers(id) })
	}
}

// ---- Editor ----

// scrubID is the id of this playground's scrubber.
func (s *ScenarioPlayground) scrubID() string { return "scrub-" + DomID(s.ID) }

// textareaID is the id of this playground's textarea.
func (s *ScenarioPlayground) textareaID() string { return "script-" + DomID(s.ID) }

// setEditor gives the editor a text from outside (see playground.setEditor)
// and cancels a rerun of the typing it replaces.
func (s *ScenarioPlayground) setEditor(ctx app.Context, text string) {
	s.run.editorText, s.run.script, s.run.scriptErr = text, text, nil
	s.run.editGen++
	if app.IsClient {
		ctx.Defer(func(ctx app.Context) { s.setTextarea(text) })
	}
}

func (s *ScenarioPlayground) setTextarea(text string) {
	if ta := app.Window().GetElementByID(s.textareaID()); ta.Truthy() && ta.Get("value").String() != text {
		ta.Set("value", text)
	}
}

// onInput reruns the script editDelay after the last keystroke, keeping
// the position, as the full editor does.
func (s *ScenarioPlayground) onInput(ctx app.Context, e app.Event) {
	s.run.script = ctx.JSSrc().Get("value").String()
	s.run.stop()
	s.run.editGen++
	gen := s.run.editGen
	ctx.After(editDelay, func(ctx app.Context) {
		if gen == s.run.editGen {
			s.keepEdit()
			s.applyEdits(ctx)
		}
	})
}

func (s *ScenarioPlayground) applyEdits(ctx app.Context) {
	if s.run.script == s.run.engine.Script() && s.lazy.started {
		s.run.scriptErr = nil
		return
	}
	// Where the learner was when the run ended, as the full playground
	// does: with the engine in a worker steps can be taken meanwhile.
	s.load(ctx, s.run.script, func(ctx app.Context) { s.run.engine.Seek(s.run.posAtRunEnd) })
}

// onReset goes back to the lesson's script at its start; an edit is kept
// on Undo.
func (s *ScenarioPlayground) onReset(ctx app.Context, e app.Event) {
	s.run.stop()
	if s.run.script != s.Script {
		s.run.pushUndo(s.run.script)
	}
	s.setEditor(ctx, s.Script)
	s.keepEdit()
	if s.lazy.started && !s.run.busy && s.run.engine.Script() == s.Script {
		s.run.engine.Seek(0)
		s.followNewest(ctx)
		return
	}
	s.load(ctx, s.Script, nil)
}

func (s *ScenarioPlayground) onUndo(ctx app.Context, e app.Event) {
	prev, ok := s.run.popUndo()
	if !ok {
		return
	}
	pos := s.run.engine.Pos()
	s.setEditor(ctx, prev)
	s.keepEdit()
	s.load(ctx, prev, func(ctx app.Context) { s.run.engine.Seek(pos) })
}

func (s *ScenarioPlayground) onRun(ctx app.Context, e app.Event) {
	s.unobserve()
	s.load(ctx, s.run.script, nil)
}

// editorError is the typed script's parse error, else the loaded
// script's runtime error when the editor holds it.
func (s *ScenarioPlayground) editorError() *engine.ScriptError {
	if s.run.scriptErr != nil {
		return s.run.scriptErr
	}
	if err := s.run.engine.Err(); err != nil && s.run.script == s.run.engine.Script() {
		return err
	}
	return nil
}

// ---- Transport ----

func (s *ScenarioPlayground) move(ctx app.Context, f func()) {
	s.run.stop()
	f()
	s.followNewest(ctx)
}

func (s *ScenarioPlayground) onStepBack(ctx app.Context, e app.Event) {
	s.move(ctx, s.run.engine.StepBack)
}

func (s *ScenarioPlayground) onStep(ctx app.Context, e app.Event) {
	s.move(ctx, func() { s.run.engine.Step() })
}

func (s *ScenarioPlayground) onRunToEnd(ctx app.Context, e app.Event) {
	s.move(ctx, func() { s.run.engine.Seek(s.run.engine.Len()) })
}

func (s *ScenarioPlayground) onScrub(ctx app.Context, e app.Event) {
	i, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
	s.move(ctx, func() { s.run.engine.Seek(i) })
}

func (s *ScenarioPlayground) onPause(ctx app.Context, e app.Event) { s.run.stop() }

// onPlay plays at 1× (the full playground has the speeds); at the end it
// replays, as media players do.
func (s *ScenarioPlayground) onPlay(ctx app.Context, e app.Event) {
	s.run.player.play(ctx, s.run.engine, func() time.Duration { return baseInterval }, s.followNewest)
}

// ---- Facts and the link ----

// factValue is a query's value at the engine's position, or a short
// reason it has none, in the page's language.
func factValue(lang string, e engine.Engine, query string) string {
	v, err := e.Query(query)
	if err != nil {
		return "? (" + uitext.CoreErrorIn(lang, err.Error()) + ")"
	}
	return v
}

// fullLink is the full playground with the script in the editor, in the
// page's language (share.go's #s= fragment).
func (s *ScenarioPlayground) fullLink() string {
	if s.share.link == "" || s.share.linkScript != s.run.script {
		s.share.linkScript = s.run.script
		s.share.link = PlaygroundPath(s.Lang) + "#s=" + EncodeScript(s.run.script)
	}
	return s.share.link
}

// ---- Page ----

func (s *ScenarioPlayground) Render() app.UI {
	if s.run.engine == nil {
		s.setup() // a component rendered without OnInit (a test's Render)
	}
	l := s.Lang
	label := s.Title
	if label == "" {
		label = uitext.Tr(l, "Embedded playground")
	}
	state := "idle"
	switch {
	case s.run.busy:
		state = "running"
	case s.lazy.started:
		state = "ready"
	}
	return app.Section().Class("embedded-playground").ID(PlaygroundAnchor(s.ID)).
		DataSet("scenario", s.ID).DataSet("state", state).
		Aria("label", label).
		Body(
			app.Div().Class("ep-head").Body(
				app.If(s.Title != "", func() app.UI {
					return app.Span().Class("ep-title").Text(s.Title)
				}),
				app.A().Class("ep-open").DataSet("action", "open").Href(s.fullLink()).
					Text(uitext.Tr(l, "Open in the full playground")),
			),
			app.Div().Class("ep-body").Body(
				s.renderEditor(),
				app.Div().Class("ep-run").Body(
					s.renderTransport(),
					s.renderActions(),
					s.renderStage(),
					s.renderPresenterCaption(),
					s.renderFacts(),
				),
			),
		)
}

func (s *ScenarioPlayground) renderEditor() app.UI {
	l := s.Lang
	se := s.editorError()
	area := app.Textarea().ID(s.textareaID()).Class("ep-script").
		DataSet("field", "script").
		Aria("label", "Scenario script").
		Spellcheck(false).
		Attr("autocomplete", "off").
		Attr("autocapitalize", "off").
		Attr("wrap", "off").
		Attr("rows", min(max(strings.Count(s.run.editorText, "\n")+1, 4), 14)).
		Text(s.run.editorText).
		// The pre-rendered page shows the script before the wasm runs.
		Body(app.Text(s.run.editorText)).
		OnInput(s.onInput)
	errID := "script-error-" + DomID(s.ID)
	if se != nil {
		area = area.Aria("invalid", "true").Aria("describedby", errID)
	}
	name, nameUI := uitext.LocalName(l, "Scenario script", "script-name-"+DomID(s.ID))
	if name != "" {
		area = area.Aria("labelledby", name)
	}
	var script app.UI = area
	if s.guarding() {
		// Folded, not removed: a learner who wants the script opens it.
		script = app.Details().Class("ep-guard").Body(
			app.Summary().Text(uitext.Tr(l, "ep.guard.summary")),
			area,
		)
	}
	return app.Div().Class("ep-editor").Body(
		nameUI,
		script,
		app.Div().Class("ep-tools").Body(
			app.If(!s.lazy.started, func() app.UI {
				// The accessible name begins with the words shown, so a
				// learner who says "click Run anyway" reaches it (WCAG
				// 2.5.3, label in name).
				label, name := uitext.Tr(l, "Run"), uitext.Tr(l, "Run the scenario")
				if s.guarding() {
					label, name = uitext.Tr(l, "ep.guard.run"), uitext.Tr(l, "ep.guard.name")
				}
				return app.Button().Type("button").Class("tool ep-run-button").DataSet("action", "run").
					Aria("label", name).OnClick(s.onRun).Text(label)
			}),
			transportButton(l, DomID(s.ID), "reset", "⇤", "",
				s.run.script == s.Script && s.run.engine.Pos() == 0, s.onReset),
			app.If(len(s.run.undo) > 0, func() app.UI {
				return app.Button().Type("button").Class("tool").DataSet("action", "undo").
					Aria("label", uitext.Tr(l, "Undo script change")).Title(uitext.Tr(l, "Bring back your script")).
					OnClick(s.onUndo).Text(uitext.Tr(l, "Undo"))
			}),
		),
		app.If(se != nil, func() app.UI {
			msg := "Line %d, column %d: %s"
			if se.Runtime {
				msg = "Line %d, column %d stops the run: %s"
			}
			return app.P().ID(errID).Class("script-error").Role("alert").
				DataSet("line", se.Line).DataSet("col", se.Col).
				Body(uitext.ScriptErrorText(l, msg, se)...)
		}),
	)
}

func (s *ScenarioPlayground) renderTransport() app.UI {
	l := s.Lang
	t := transportControls{Lang: l, IDPrefix: DomID(s.ID), Pos: s.run.engine.Pos(), Len: s.run.engine.Len(), Playing: s.run.playing,
		OnBack: s.onStepBack, OnPlay: s.onPlay, OnPause: s.onPause, OnStep: s.onStep, OnEnd: s.onRunToEnd}
	line := uitext.Tr(l, "finished")
	if n := s.run.engine.Line(); n > 0 {
		line = fmt.Sprintf(uitext.Tr(l, "line %d"), n)
	}
	if !s.lazy.started {
		line = uitext.Tr(l, "not yet run")
	}
	d := s.run.engine.Digest()
	return app.Div().Class("transport-panel").Body(
		app.Div().Class("transport").Role("toolbar").Aria("label", uitext.Tr(l, "Transport")).Body(t.buttons()...),
		app.Div().Class("scrubber").Body(t.scrubber(s.onScrub).ID(s.scrubID())),
		app.Div().Class("status").Body(
			app.Span().Class("position").Text(fmt.Sprintf(uitext.Tr(l, "Step %d of %d"), t.Pos, t.Len)),
			app.Span().Class("line").Text(line),
			app.If(s.run.busy, func() app.UI {
				return app.Span().Class("busy").Role("status").Text(uitext.Tr(l, "Running the script…"))
			}),
			app.Output().Class("digest").DataSet("digest", d).Text(fmt.Sprintf(uitext.Tr(l, "digest %s"), d)),
		),
		// What the step just taken did, for a screen reader, as the full
		// playground says it (narrate.go); silent until the script ran.
		app.Div().Class("visually-hidden").Role("status").Aria("live", "polite").Aria("atomic", "true").
			DataSet("narration", true).Body(app.If(s.lazy.started && !s.run.busy, func() app.UI {
			return app.Text(panels.Narration(l, s.run.engine, s.run.filter))
		})),
	)
}

// renderStage is the diagram, or before the first run a placeholder of
// its size, so the page does not jump when it arrives.
func (s *ScenarioPlayground) renderStage() app.UI {
	l := s.Lang
	if !s.lazy.started || (s.run.busy && s.run.engine.Len() == 0) {
		text := uitext.Tr(l, "The diagram appears when this scenario runs: press Run, or scroll here.")
		if s.guarding() {
			text = uitext.Tr(l, "ep.guard.note")
		}
		if s.lazy.started {
			text = uitext.Tr(l, "Running the script…")
		}
		return app.Div().Class("diagram-placeholder").DataSet("placeholder", true).Text(text)
	}
	return s.run.renderDiagram(s.run.playing && !s.run.reducedMotion, uitext.Tr(l, "Nothing has happened yet: press Step or Play."))
}

// renderFacts lists each fact query with its value at the position, once
// the script has run.
func (s *ScenarioPlayground) renderFacts() app.UI {
	if len(s.Facts) == 0 {
		return app.Text("")
	}
	ready := s.lazy.started && !s.run.busy && s.run.engine.Len() > 0
	rows := make([]app.UI, len(s.Facts))
	for i, q := range s.Facts {
		v := "…"
		if ready {
			v = factValue(string(s.Lang), s.run.engine, q)
		}
		rows[i] = app.Li().Class("fact").DataSet("fact", q).Body(
			app.Code().Text(q),
			app.Text(" = "),
			app.Output().DataSet("value", v).Text(v),
		)
	}
	return app.Ul().Class("facts").Aria("label", uitext.Tr(s.Lang, "Facts")).Body(rows...)
}

// guarding reports whether the playground still keeps its question's
// answer to itself.
func (s *ScenarioPlayground) guarding() bool { return s.Guarded && !s.lazy.started }

// PlaygroundAnchor is the id of a lesson's playground, for links to it.
func PlaygroundAnchor(scenarioID string) string { return "playground-" + DomID(scenarioID) }

// onAct writes an action into the script at the current step and runs
// the result (Engine.BeginAct, as the full playground's buttons do); the
// script before it goes on Undo.
func (s *ScenarioPlayground) onAct(stmt string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		s.run.stop()
		switch {
		case s.run.busy:
			return
		case !s.lazy.started || s.run.scriptErr != nil || s.run.script != s.run.engine.Script():
			s.run.actionMsg = uitext.Prose(uitext.Tr(s.Lang, "ep.act.first"))
			return
		}
		before := s.run.engine.Script()
		if err := s.run.engine.BeginAct(stmt); err != nil {
			s.run.actionMsg = actionError(string(s.Lang), stmt, err)
			return
		}
		s.run.actionMsg = nil
		s.run.busyGen++
		s.run.busy = true
		s.work(ctx, s.run.busyGen, func(ctx app.Context) {
			if s.workErr != nil {
				s.run.actionMsg = actionError(string(s.Lang), stmt, s.workErr)
				return
			}
			s.run.pushUndo(before)
			s.setEditor(ctx, s.run.engine.Script())
			s.keepEdit()
			s.run.actionMsg = uitext.Prose(fmt.Sprintf(uitext.Tr(s.Lang, "ep.act.done"), stmt))
		})
	}
}

// renderActions are the block's action buttons.
func (s *ScenarioPlayground) renderActions() app.UI {
	if len(s.Actions) == 0 {
		return nil
	}
	return app.Div().Class("ep-actions").Role("group").Aria("label", uitext.Tr(s.Lang, "ep.act.label")).Body(
		app.Range(s.Actions).Slice(func(i int) app.UI {
			stmt := s.Actions[i]
			return app.Button().Type("button").Class("action").DataSet("action", "act").DataSet("stmt", stmt).
				Aria("disabled", !s.lazy.started || s.run.busy).
				OnClick(s.onAct(stmt), app.EventScope(stmt)).
				Body(app.Text(uitext.Tr(s.Lang, "ep.act.here")+" "), app.Code().Text(stmt))
		}),
		app.If(len(s.run.actionMsg) > 0, func() app.UI {
			return app.Span().Class("action-msg").Role("status").Body(uitext.PiecesUI(s.run.actionMsg)...)
		}),
	)
}
