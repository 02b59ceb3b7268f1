package playground

import (
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// EarlySteps is how many steps of the playground's history the server
// renders ahead of step 0, so that Step works on the server's page while
// the wasm is still loading (issue 13): a learner presses Step a few
// times in the second or so before the app starts, and each step is
// 15-20 kB of HTML more, which the browser parses before the page is
// ready (with 8, the happy path's page was 180 kB and parsed in 0.4 s).
// Presses past the last are the app's when it starts.
const EarlySteps = 4

// firstRunWait bounds how long the app waits, before it mounts, for the
// first playground's history: past it, the app mounts and the run goes
// on as any other.
const firstRunWait = 5 * time.Second

// first is the run StartFirstRun began for the first playground, which
// the playground takes (takeFirstRun); early is where the learner took
// the server's page before the app started.
var (
	first *firstRun
	early struct {
		pos   int
		end   bool
		taken bool
	}
)

// firstRun is an engine and the script it was given.
type firstRun struct {
	engine engine.Engine
	src    string
}

// StartFirstRun is the page's start, before go-app mounts the app: on the
// playground's address it runs the script the playground opens with and
// waits for its history, so that the app's first drawing is of that
// history at the position the learner reached with the server's page
// (EarlySteps), not an empty playground replacing the server's page and
// a flash later the history. Meanwhile the server's page goes on
// answering Step. Then it ends the server's page's steps, on any page.
func StartFirstRun() {
	if !app.IsClient || !app.Window().Get("document").Truthy() {
		return
	}
	u := app.Window().URL()
	if u.Path == site.PathPlayground || u.Path == uitext.InLang(doc.Chinese, site.PathPlayground) {
		// go-app's loader removes its badge when main first yields,
		// which is now, not when the app mounts: the badge stays until
		// the app is there (third_party/go-app's app.js).
		app.Window().Set("goappKeepLoader", true)
		defer removeLoader()
		runFirst(openAt(string(uitext.LangOf(u.Path)), u).src)
		// Typed while the app waited: the playground takes it.
		typedBeforeStart = readTypedBeforeStart()
	}
	if e := app.Window().Get("txnlabEarly"); e.Truthy() {
		at := e.Call("stop")
		early.pos, early.end = at.Get("pos").Int(), at.Get("end").Bool()
	}
}

// removeLoader removes go-app's loading badge, as go-app's loader would
// have: the app mounts next, with no event in between.
func removeLoader() {
	if l := app.Window().GetElementByID("app-wasm-loader"); l.Truthy() {
		l.Call("remove")
	}
}

// runFirst begins src's run and waits for it, at most firstRunWait.
func runFirst(src string) {
	e := newEngine()
	if e.Begin(src) != nil {
		return // the playground says what is wrong with it
	}
	first = &firstRun{engine: e, src: src}
	for deadline := time.Now().Add(firstRunWait); time.Now().Before(deadline); {
		// A run that stops with an error keeps it as the engine's Err,
		// which the playground shows, as after any run.
		if done, _ := e.Work(WorkSlice); done {
			return
		}
		// The worker's reply, or the browser's frame between slices.
		time.Sleep(time.Millisecond)
	}
}

// takeFirstRun is the first run's engine, once, for the first playground.
func takeFirstRun() (firstRun, bool) {
	if first == nil {
		return firstRun{}, false
	}
	f := *first
	first = nil
	return f, true
}

// peekEarlyPos is where the learner took the server's page before the
// app started, a position or its end, until the first playground opens
// (takeEarlyPos).
func peekEarlyPos() (pos int, end, ok bool) {
	if early.taken || (early.pos <= 0 && !early.end) {
		return 0, false, false
	}
	return early.pos, early.end, true
}

// takeEarlyPos ends peekEarlyPos's answers: they belong to the first
// playground opened.
func takeEarlyPos() { early.taken = true }
