package playground

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/core/protocol"
	"txnlab/core/sim"
	"txnlab/lessons/doc"
)

// WorkSlice is how long the page lets the simulation run before giving the
// browser a frame: Go's wasm runs on the page's one thread, and a script
// that takes half a second to run must not freeze it.
const WorkSlice = 12 * time.Millisecond

// baseInterval is the wall-clock time between two steps while playing at
// 1×. Speed changes only how fast the learner watches, never what happens:
// the history is fixed when the script loads.
const baseInterval = 700 * time.Millisecond

// speeds are the playback speeds offered.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64}

const defaultSpeed = 2 // index of 1×

// editDelay is how long the page waits after the last keystroke before it
// reruns the script, so fast typing is not slowed by runs.
const editDelay = 300 * time.Millisecond

// defaultSlug is the scenario a learner sees on opening the playground.
const defaultSlug = "happy-path"

// playground is the full playground: the script, the transport, the
// sequence diagram, the cluster, the inspector and the trace. It holds the
// engine and asks it for everything it shows, so what is on screen is a
// function of (script, position, the learner's view choices).
type playground struct {
	app.Compo

	// runner is the script, the engine, the diagram's view, the
	// position played and the run in progress (runner.go).
	run runner

	// scriptErrOf is the text scriptErr is the error of (typing on
	// makes it an older text's until the edits run).
	scriptErrOf string

	// lib is the library's scenario the editor names and Revert goes
	// back to.
	lib libraryChoice

	notice    string // about the page (an unknown scenario)
	actionErr bool   // actionMsg (runner) is an error

	// inRun is what the page knows of the run in progress beyond the
	// runner's: when it began and what to do when it ends.
	inRun runExtras

	// view is what the learner chose to see: speed, tab, the help, the
	// presenter view, the Metrics panel.
	view viewChoices

	// page is the page the playground is mounted in: its context, its
	// address and its listeners.
	page pageBinding

	// paint is the progressive drawing of long histories (idle.go).
	paint painting

	// trace is what the trace has drawn (renderTrace).
	trace traceDrawn

	// cut is the script cut into the editor's blocks (renderEditor).
	cut editorCut

	// live is the live session the playground follows in Live mode
	// (live.go), nil otherwise.
	live *liveFeed
}

// viewChoices are the full playground's view choices beyond the
// diagram's filter (diagramState).
type viewChoices struct {
	speed    int    // index in speeds
	tab      string // the panel's tab
	untilAPI string // the request "Run until" stops at

	helpOpen  bool                // the keyboard shortcuts' help (shortcuts.go)
	Presenter                     // the presenter view (presenter.go)
	mx        panels.MetricsPanel // the Metrics panel (metrics_panel.go)
}

// pageBinding ties a playground to the page it is mounted in.
type pageBinding struct {
	// The context the page was mounted with (hasCtx: it was).
	ctx    app.Context
	hasCtx bool
	// source is the address the playground was opened at: what it keeps
	// across reloads belongs to it (keep.go). onLeave keeps the script
	// when the page goes away and asks first if it was edited.
	source  string
	onLeave app.Func
	keydown app.Func
}

// traceDrawn is what the trace has drawn: the rows, of the history and
// filter of traceKey.
type traceDrawn struct {
	traceKey  traceKey
	traceRows int
	lines     traceLines
}

// runExtras is what the full playground keeps of the run in progress
// beyond the runner's generation and busy flag.
type runExtras struct {
	busySince time.Time
	// endAfterRun: Run to end was pressed while a run was in progress
	// (the engine's worker answers a run a message later); the position
	// goes to the end of the history the run brings.
	endAfterRun bool
	// stepsAfterRun: Step pressed while the first run of the page was in
	// progress, with no history to step through yet; taken when it comes.
	stepsAfterRun int
	acting        bool // the run in progress carries out an action
	// firstSrc is the script of the run the page began before it mounted
	// (StartFirstRun), which the engine holds or is running: opening with
	// it takes that run rather than asking for it again.
	firstSrc string
}

// libraryChoice is the library's scenario a playground shows, as its
// editor's menu names it.
type libraryChoice struct {
	slug string // the library scenario loaded, if any ("": the learner's own)
	// slugTitle is slug's title; libraryListed is false until the editor
	// lists the whole library (renderLibrarySelect).
	slugTitle     string
	libraryListed bool
	original      string // its text, for Revert
	loadGen       int    // the scenario list's pending choice (onLoadScenario)
}

// NewPlayground is the playground route's page.
func NewPlayground() *playground {
	// The first playground of the page takes the run the page began
	// before it mounted (StartFirstRun).
	f, ok := takeFirstRun()
	if !ok {
		f.engine = newEngine()
	}
	p := &playground{run: newRunner(f.engine, "diagram-scroll", 50), inRun: runExtras{firstSrc: f.src}}
	p.view = viewChoices{speed: defaultSpeed, tab: panels.TabTransactions, untilAPI: "WriteTxnMarkers"}
	p.run.describedBy = "trace-heading"
	if app.IsClient {
		p.run.lang = string(uitext.LangOf(app.Window().URL().Path))
	}
	if ok {
		p.preopen()
	}
	return p
}

// preopen gives the playground, before it is first drawn, the script and
// the position OnNav will open, when its engine holds them already
// (StartFirstRun): go-app draws a component as it mounts it, and calls
// OnNav only then, so that first drawing would otherwise be of an empty
// playground at step 0, shown between the server's page and OnNav's.
func (p *playground) preopen() {
	o := openAt(p.run.lang, app.Window().URL())
	if o.src != p.run.engine.Script() {
		return
	}
	p.run.editorText, p.run.script = o.src, o.src
	p.setScenario(o.sc)
	if pos := o.startPos(); pos > 0 {
		p.run.engine.Seek(pos)
	}
}

func (p *playground) OnNav(ctx app.Context) {
	p.keepNow()
	p.run.lang = string(uitext.LangOf(ctx.Page().URL().Path))
	site.SetPageIn(ctx, doc.Lang(p.run.lang), uitext.Tr(p.run.lang, "Playground"), uitext.Tr(p.run.lang, "pg.description"))
	p.run.stop()
	if isLive(ctx.Page().URL()) {
		p.notice, p.run.actionMsg = "", nil
		p.openLive(ctx)
		return
	}
	p.closeLive()
	o := openAt(p.run.lang, ctx.Page().URL())
	p.notice, p.run.actionMsg = o.notice, nil
	sc, src, pos := o.sc, o.src, o.startPos()
	takeEarlyPos()
	if p.run.script != "" && p.run.script != sc.Script && p.run.script != p.lib.original && p.run.script != src {
		// Opening another scenario must not throw away an edited script.
		p.run.pushUndo(p.run.script)
	}
	p.setScenario(sc)
	p.run.selected = 0
	if app.IsClient {
		p.page.source = sourceOf(app.Window().URL())
	}
	takeTypedBeforeStart()
	p.setEditor(ctx, src)
	p.startLoad(ctx, src, func(ctx app.Context, err error) {
		p.run.scrollTop = 0
		p.run.scrollDiagram(ctx, 0)
		if pos > 0 {
			p.run.engine.Seek(pos)
			p.followNewest(ctx)
		}
	})
}

// setScenario makes sc the scenario the editor names and Revert goes
// back to.
func (p *playground) setScenario(sc Scenario) {
	p.lib.slug, p.lib.slugTitle, p.lib.original = sc.Slug, sc.Title, sc.Script
}

// opening is what the playground opens at an address: the scenario, the
// script the learner left there (the share link's, the one the browser
// kept, the one typed before the app started), the position to go to
// (-1: none) and what to tell the learner about it.
type opening struct {
	sc     Scenario
	src    string
	pos    int
	notice string
}

// startPos is the position to open o at: where the learner took the
// server's page before the app started (EarlySteps), when o is the
// script those steps are of; else o.pos.
func (o opening) startPos() int {
	if at, end, ok := peekEarlyPos(); ok && o.src == o.sc.Script {
		if end {
			return math.MaxInt // Run to end: Seek stops at the end
		}
		return at
	}
	return o.pos
}

// openAt is what the playground opens at u, in lang. The fragment and
// what the browser kept are read in the browser only: the fragment never
// reaches the server.
func openAt(lang string, u *url.URL) opening {
	var o opening
	slug := u.Query().Get("scenario")
	if slug == "" {
		slug = defaultSlug
	}
	sc, ok := ScenarioBySlugIn(lang, slug)
	if !ok {
		o.notice = fmt.Sprintf(uitext.Tr(lang, "pg.noscenario"), slug)
		sc, _ = ScenarioBySlugIn(lang, defaultSlug)
	}
	o.pos = -1
	if app.IsClient {
		// A share link (#s=…) carries its own script.
		if src, ok, err := sharedScript(app.Window().URL().Fragment); ok {
			sc = Scenario{Script: src}
			o.pos = sharedPos(app.Window().URL().Fragment)
		} else if err != nil {
			// Go's decoder error ("illegal base64 data at input byte 5")
			// means nothing to a learner: say what to do instead.
			o.notice = uitext.Tr(lang, "pg.badlink")
		}
	}
	o.sc, o.src = sc, sc.Script
	// A reload brings back what this address showed last: the edited
	// script and the position.
	if app.IsClient {
		if script, at, ok := kept(sourceOf(app.Window().URL())); ok {
			// What was kept in the other language but not edited is
			// this page's twin: only the learner's own script stays.
			if script != sc.Script && (sc.Slug == "" || !isLibraryScript(sc.Slug, script)) {
				o.src = script
				o.notice = uitext.Tr(lang, "pg.restored")
			}
			o.pos = at
		}
	}
	if typedBeforeStart != "" {
		o.src = typedBeforeStart // typed into the server's page before the app ran
	}
	return o
}

func (p *playground) OnMount(ctx app.Context) {
	if mq := app.Window().Call("matchMedia", "(prefers-reduced-motion: reduce)"); mq.Truthy() {
		p.run.reducedMotion = mq.Get("matches").Bool()
	}
	p.listenKeys(ctx)
	p.listenLeave()
	p.page.ctx, p.page.hasCtx = ctx, true
	// The engine's worker answers a move's state a reply later: draw it
	// when it comes.
	listenEngine(p.run.engine, func() { ctx.Dispatch(func(app.Context) {}) })
	p.run.mounted()
	// Measured in the first frame, after its layout, rather than
	// forcing one while the page is being mounted.
	p.beforePaint(p.run.measureDiagram)
}

func (p *playground) OnDismount() {
	p.keepNow()
	p.run.stop()
	p.closeLive()
	p.releaseIdle()
	if p.page.onLeave != nil {
		app.Window().Call("removeEventListener", "pagehide", p.page.onLeave)
		app.Window().Call("removeEventListener", "beforeunload", p.page.onLeave)
		p.page.onLeave.Release()
		p.page.onLeave = nil
	}
	if p.page.keydown != nil {
		app.Window().Call("removeEventListener", "keydown", p.page.keydown)
		app.Window().Call("removeEventListener", "keypress", p.page.keydown)
		p.page.keydown.Release()
		p.page.keydown = nil
	}
}

// listenLeave keeps the script and the position when the page goes away
// (pagehide: a reload, a closed tab), and asks before leaving an edited
// script (beforeunload), which the browser turns into its own prompt.
func (p *playground) listenLeave() {
	p.page.onLeave = app.FuncOf(func(this app.Value, args []app.Value) any {
		keepScript(p.page.source, p.run.script)
		keepPos(p.page.source, p.run.engine.Pos())
		if ev := args[0]; ev.Get("type").String() == "beforeunload" && p.run.script != p.lib.original {
			ev.Call("preventDefault")
			ev.Set("returnValue", "")
		}
		return nil
	})
	app.Window().Call("addEventListener", "pagehide", p.page.onLeave)
	app.Window().Call("addEventListener", "beforeunload", p.page.onLeave)
}

// ---- Running scripts ----

// startLoad runs src in slices of workSlice, then calls done. A parse
// error is shown at once and the last good history stays.
func (p *playground) startLoad(ctx app.Context, src string, done func(app.Context, error)) {
	p.run.stop()
	p.inRun.acting = false // a new run supersedes an action in progress
	if first := p.inRun.firstSrc; first != "" {
		p.inRun.firstSrc = ""
		if first == src {
			p.run.scriptErr = nil
			p.driveRun(ctx, done)
			return
		}
	}
	if err := p.run.engine.Begin(src); err != nil {
		p.run.scriptErr, p.scriptErrOf = asScriptError(err), src
		return
	}
	p.run.scriptErr = nil
	p.driveRun(ctx, done)
}

// driveRun drives the engine's run in progress to its end.
func (p *playground) driveRun(ctx app.Context, done func(app.Context, error)) {
	p.run.busyGen++
	p.run.busy = true
	p.inRun.busySince = time.Now()
	p.work(ctx, p.run.busyGen, done, true)
}

// quietRun is how long a run goes on without redrawing the page between
// its slices: a short script (every library scenario) is over before a
// progress indicator would help, and each redraw would delay it.
const quietRun = 250 * time.Millisecond

// work runs a slice of the run; first is the slice the handler that
// began the run takes (its own changes are drawn whatever happens).
func (p *playground) work(ctx app.Context, gen int, done func(app.Context, error), first bool) {
	p.workWithin(ctx, gen, done, first, WorkSlice)
}

// workWithin is work within budget. The rest of the run goes in the
// page's next turns (turns.go), after each frame is drawn. It went in a
// timer of a millisecond, which, on WebAssembly, Go runs without
// returning to the browser when the timer is due as it looks for work:
// the worker's reply with a 10,000-event history, then the first slice
// of its decoding, then the page's redraw made one task of 323–515 ms
// (200–250 ms of CPU) while the learner waited for the history.
func (p *playground) workWithin(ctx app.Context, gen int, done func(app.Context, error), first bool, budget time.Duration) {
	if gen != p.run.busyGen {
		return // superseded by a newer run
	}
	if app.IsServer {
		budget = time.Hour // pre-rendering: nobody is waiting for a frame
	}
	p.run.posAtRunEnd = p.run.engine.Pos() // Work replaces the history when it ends
	finished, err := p.run.engine.Work(budget)
	if !finished {
		TakeTurn(ctx, func(ctx app.Context, budget time.Duration) {
			p.workWithin(ctx, gen, done, false, budget)
		})
		if !first && time.Since(p.inRun.busySince) < quietRun {
			ctx.PreventUpdate()
		}
		return
	}
	p.run.busy = false
	p.run.histGen++
	// What was drawn of the old history is no state of the new one.
	p.run.shownSnap, p.run.shownPos, p.paint.shownViol, p.paint.shownViolPos = engine.Snapshot{}, 0, nil, -1
	if done != nil {
		done(ctx, err)
	}
	switch {
	case p.inRun.endAfterRun:
		p.run.engine.Seek(p.run.engine.Len())
		p.followNewest(ctx)
	case p.inRun.stepsAfterRun > 0:
		p.run.engine.Seek(p.run.engine.Pos() + p.inRun.stepsAfterRun)
		p.followNewest(ctx)
	}
	p.inRun.endAfterRun, p.inRun.stepsAfterRun = false, 0
	p.moved()
	if !p.lib.libraryListed {
		if !app.IsClient || !p.page.hasCtx {
			p.lib.libraryListed = true // pre-rendered pages list it all
		} else {
			p.afterPaint(func(ctx app.Context) bool {
				p.lib.libraryListed = true
				return true
			})
		}
	}
}

func asScriptError(err error) *engine.ScriptError {
	var se *engine.ScriptError
	if errors.As(err, &se) {
		return se
	}
	return &engine.ScriptError{Line: 1, Col: 1, Msg: err.Error()}
}

// act carries out a card's or a switch's statement: the engine writes it
// into the script at the current moment and reruns. Edits the learner made
// and the page has not run yet are run first, so the action lands in the
// script the learner sees; a script that does not parse is refused, since
// the action would be written into it.
func (p *playground) act(ctx app.Context, stmt string) {
	p.run.stop()
	if p.liveAct(ctx, stmt) {
		return
	}
	if p.run.scriptErr != nil {
		p.say(true, fmt.Sprintf(uitext.Tr(p.run.lang, "pg.act.error"), p.run.scriptErr.Line, stmt))
		return
	}
	if p.inRun.acting {
		p.say(true, uitext.Tr(p.run.lang, "pg.act.busy"))
		return
	}
	if p.run.busy || p.run.script != p.run.engine.Script() {
		// Apply the pending edits, keeping the position, then act.
		pos := p.run.engine.Pos()
		p.startLoad(ctx, p.run.script, func(ctx app.Context, err error) {
			p.run.engine.Seek(pos)
			if p.run.script == p.run.engine.Script() {
				p.act(ctx, stmt)
			}
		})
		if p.run.scriptErr != nil {
			p.say(true, fmt.Sprintf(uitext.Tr(p.run.lang, "pg.act.fix"), p.run.scriptErr.Line))
		}
		return
	}
	before := p.run.engine.Script()
	if err := p.run.engine.BeginAct(stmt); err != nil {
		p.sayPieces(true, actionError(p.run.lang, stmt, err))
		return
	}
	p.inRun.acting = true
	p.driveRun(ctx, func(ctx app.Context, err error) {
		p.inRun.acting = false
		if err != nil {
			p.sayPieces(true, actionError(p.run.lang, stmt, err))
			return
		}
		p.run.pushUndo(before)
		p.setEditor(ctx, p.run.engine.Script())
		p.say(false, fmt.Sprintf(uitext.Tr(p.run.lang, "pg.act.added"), stmt))
		p.followNewest(ctx)
	})
}

// actionError says why stmt could not run. The core's reason is English:
// a Chinese page says it in Chinese (uitext.CoreErrorPieces), the
// statement and the reason's values as code.
func actionError(lang, stmt string, err error) []uitext.Piece {
	msg := err.Error()
	if doc.Lang(lang) == doc.Chinese {
		// The engine names the statement before the core's reason; the
		// sentence names it already.
		msg = strings.TrimPrefix(msg, stmt+": ")
		return uitext.Sentence(uitext.Tr(lang, "Could not run %s: %s"), uitext.Code(stmt), uitext.CoreErrorPieces(lang, msg))
	}
	if !strings.HasPrefix(msg, stmt) {
		msg = stmt + ": " + msg
	}
	return uitext.Prose("Could not run " + msg)
}

// say shows a message by the buttons ("" clears it); sayPieces one
// with code in it.
func (p *playground) say(isErr bool, msg string) { p.sayPieces(isErr, uitext.Prose(msg)) }

func (p *playground) sayPieces(isErr bool, msg []uitext.Piece) {
	p.run.actionMsg, p.actionErr = msg, isErr
}

// ---- Transport ----

// stale reports whether the editor holds a script that does not parse:
// the engine still holds the last one that did, and moving through that
// history next to the new text would present it as the new one's.
func (p *playground) stale() bool { return p.run.scriptErr != nil }

// refuseStale says why a move is refused while the script is stale.
func (p *playground) refuseStale() bool {
	if !p.stale() {
		return false
	}
	p.run.stop()
	p.say(true, fmt.Sprintf(uitext.Tr(p.run.lang, "pg.stale"), p.run.scriptErr.Line))
	return true
}

func (p *playground) interval() time.Duration {
	return time.Duration(float64(baseInterval) / speeds[p.view.speed])
}

func (p *playground) onReset(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.run.stop()
	p.run.engine.Seek(0)
	p.followNewest(ctx)
}

func (p *playground) onStepBack(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.run.stop()
	p.run.engine.StepBack()
	p.followNewest(ctx)
}

func (p *playground) onStep(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.run.stop()
	if p.run.busy && p.run.engine.Len() == 0 {
		p.inRun.stepsAfterRun++
		return
	}
	p.run.engine.Step()
	p.followNewest(ctx)
}

func (p *playground) onRunToEnd(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.run.stop()
	if p.run.busy {
		p.inRun.endAfterRun = true
		return
	}
	p.run.engine.Seek(p.run.engine.Len())
	p.followNewest(ctx)
}

func (p *playground) onPause(ctx app.Context, e app.Event) { p.run.stop() }

func (p *playground) onPlay(ctx app.Context, e app.Event) { p.play(ctx) }

func (p *playground) play(ctx app.Context) {
	if p.refuseStale() {
		return
	}
	p.run.player.play(ctx, p.run.engine, p.interval, p.followNewest)
}

func (p *playground) onSpeed(ctx app.Context, e app.Event) {
	i, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
	p.view.speed = max(0, min(i, len(speeds)-1))
}

func (p *playground) onScrub(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	i, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
	p.run.stop()
	p.run.engine.Seek(i)
	p.followNewest(ctx)
}

func (p *playground) onUntilAPI(ctx app.Context, e app.Event) {
	p.view.untilAPI = ctx.JSSrc().Get("value").String()
}

func (p *playground) onRunUntil(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.run.stop()
	p.seekFound(ctx, nextMessage(p.run.engine, p.view.untilAPI), fmt.Sprintf(uitext.Tr(p.run.lang, "pg.until.none"), p.view.untilAPI))
}

// nextMessage is the first step after Pos whose events include a message
// of api (request or response) leaving its sender, or -1.
func nextMessage(e engine.Engine, name string) int {
	api, ok := protocol.APIByName(name)
	if !ok {
		return -1
	}
	evs := e.History()
	for i := e.Pos() + 1; i <= e.Len(); i++ {
		for j := e.EventsAt(i - 1); j < e.EventsAt(i); j++ {
			if evs[j].Kind == sim.KindSend && evs[j].API == api && !evs[j].Internal {
				return i
			}
		}
	}
	return -1
}

// ---- Keyboard ----

// listenKeys installs the transport's shortcuts on the window: space plays
// or pauses, ←/→ step, Home/End go to either end, ? shows them all. Keys typed into a form
// control are theirs, and a focused button keeps its own space.
func (p *playground) listenKeys(ctx app.Context) {
	p.page.keydown = app.FuncOf(func(this app.Value, args []app.Value) any {
		ev := args[0]
		key, ok := Shortcut(ev, p.view.Presenting)
		if !ok || (key == "Escape" && p.view.helpOpen) {
			return nil // Escape closes the help first: the dialog's own
		}
		// Synchronously, or the page scrolls before Go gets to run.
		ev.Call("preventDefault")
		if ev.Get("type").String() == "keydown" {
			ctx.Dispatch(func(ctx app.Context) { p.onKey(ctx, key) })
		}
		return nil
	})
	app.Window().Call("addEventListener", "keydown", p.page.keydown)
	// Space scrolls the page on keypress, which a prevented keydown
	// normally suppresses; some input paths (automation, some assistive
	// tools) send the keypress anyway.
	app.Window().Call("addEventListener", "keypress", p.page.keydown)
}

// Shortcut tells whether a key event is one of the transport's shortcuts:
// not typed into a form control, not a space meant for a focused button,
// not with a modifier.
func Shortcut(ev app.Value, presenting bool) (string, bool) {
	if ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool() || ev.Get("altKey").Bool() || ev.Get("defaultPrevented").Bool() {
		return "", false
	}
	target := ev.Get("target")
	tag, role := "", ""
	if target.Truthy() {
		// Truthy, not Bool: SVG elements (the diagram's arrows) have no
		// isContentEditable, and Bool on undefined panics, which stopped
		// the whole app at one key press.
		if target.Get("isContentEditable").Truthy() {
			return "", false
		}
		tag = target.Get("tagName").String()
		if target.Get("getAttribute").Truthy() {
			if r := target.Call("getAttribute", "role"); r.Truthy() {
				role = r.String()
			}
		}
	}
	key := ev.Get("key").String()
	switch tag {
	case "TEXTAREA", "INPUT", "SELECT":
		// A clicker's keys still drive a presentation from a choice or
		// the scrubber just clicked: nothing is typed there.
		if !presenting || !clickerKey(key) || tag != "INPUT" || !choiceInput(target.Get("type").String()) {
			return "", false
		}
	}
	switch key {
	case " ", "ArrowLeft", "ArrowRight", "Home", "End", "?", "？":
	default:
		if !presenterKey(key, presenting) {
			return "", false
		}
	}
	if key == " " && (tag == "BUTTON" || tag == "A" || tag == "SUMMARY" || role == "button" || role == "tab" || role == "switch") {
		return "", false
	}
	return key, true
}

// clickerKey tells the keys a presentation takes even from a focused
// choice: what a remote clicker sends, and Escape.
func clickerKey(key string) bool { return key == "PageDown" || key == "PageUp" || key == "Escape" }

// choiceInput tells the input types nothing is typed into.
func choiceInput(typ string) bool { return typ == "radio" || typ == "checkbox" || typ == "range" }

func (p *playground) onKey(ctx app.Context, key string) {
	if p.view.helpOpen {
		return // the help dialog is modal: its keys are its own
	}
	if p.onPresenterKey(ctx, key) {
		return
	}
	p.view.Blank = false
	switch key {
	case "?", "？": // a Chinese input method may give the full-width one
		p.openHelp(ctx)
	case " ":
		if p.run.playing {
			p.run.stop()
		} else {
			p.play(ctx)
		}
	case "ArrowLeft":
		p.onStepBack(ctx, app.Event{})
	case "ArrowRight":
		p.onStep(ctx, app.Event{})
	case "Home":
		p.onReset(ctx, app.Event{})
	case "End":
		p.onRunToEnd(ctx, app.Event{})
	}
}

// ---- Page ----

func (p *playground) Render() app.UI {
	l := doc.Lang(p.run.lang)
	return site.ShellTwin(l, uitext.InLang(l, site.PathPlayground), p.twinSuffix(),
		app.H1().Class("visually-hidden").Text(uitext.Tr(l, "Playground")),
		// The notices, which come and go, in a box that stays: go-app
		// matches children by position, and a notice inserted before the
		// editor would mount it anew, with the text it was last given
		// rather than what the learner typed since.
		// The box floats over the page's foot (app.css, .notices): a notice
		// appears once the app runs, after the server's page has been
		// laid out, and pushing the playground down then would move what
		// the learner was about to click.
		app.Div().Class("notices").Body(
			app.If(p.notice != "", func() app.UI {
				return app.P().Class("notice").Role("status").Body(
					app.Span().Text(p.notice),
					app.Button().Type("button").Class("notice-close").Aria("label", uitext.Tr(l, "notice.dismiss")).
						Title(uitext.Tr(l, "notice.dismiss")).Text("×").
						OnClick(func(ctx app.Context, e app.Event) { p.notice = "" }),
				)
			}),
			renderEngineFault(l, p.run.engine),
		),
		p.renderCompareLink(),
		p.renderLive(),
		p.renderClass(),
		app.Div().Class(p.presenterClass()).Body(
			p.renderEditor(),
			p.renderStageSection(),
			p.renderCluster(),
			p.renderInspector(),
			p.renderTrace(),
			p.renderMetrics(),
		),
		p.renderNarration(),
		p.renderShortcuts(),
		p.renderEarlySteps(),
	)
}

// renderStageSection is the transport and the diagram, with the message
// panel.
func (p *playground) renderStageSection() app.UI {
	sec := app.Section().Class(stageClass(p.stale())).Aria("label", uitext.Tr(p.run.lang, "Simulation"))
	if p.view.Presenting {
		sec = sec.DataSet("size", PresenterSizes[p.view.Size])
	}
	return sec.Body(
		p.renderPresenterBar(),
		p.renderTransport(),
		p.renderStage(),
		p.renderPresenterCaption(),
	)
}

// stageClass greys the diagram while it is not the editor's script's.
func stageClass(stale bool) string {
	if stale {
		return "stage stale"
	}
	return "stage"
}

// followNewest scrolls the diagram so its newest row is in view after the
// render, and starts the travelling-message animation while playing.
func (p *playground) followNewest(ctx app.Context) {
	p.run.follow(ctx)
	p.moved()
	keepPos(p.page.source, p.run.engine.Pos())
	line := p.run.engine.Line()
	playing := p.run.playing
	if app.IsClient {
		// The editor's scroll reads the textarea's geometry: after the
		// frame's layout (beforePaint), not right after the render,
		// where it would lay the page out once more.
		p.beforePaint(func() { revealLine(line) })
		if playing && !p.run.reducedMotion {
			ctx.Defer(func(ctx app.Context) { startTravellers(p.run.scrollID) })
		}
	}
}
