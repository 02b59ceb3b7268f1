package browser

import (
	"runtime"
	"runtime/debug"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Go's collector runs on the page's one thread, and a cycle marks the
// whole heap in the task that starts it (the mark worker runs until it is
// done: in WebAssembly it cannot see the browser's events waiting), then
// sweeps it. A cycle that the page's own allocations trigger therefore
// lands in a learner's step, a click or a frame of the diagram's
// scrolling and lengthens it (3.4 and 3.8 ms of marking inside step
// tasks of 20.6 and 23.5 ms on a 10,000-event history's page, as
// profiled). When the browser says it is idle, with room for a
// collection, and the heap has grown to most of the collector's next
// goal, the page collects there instead, so that the next moves find
// the collector's work done (BENCHMARKS.md, "The page collects when
// idle").
const (
	// idleCollectRoom is the idle time, in ms, a collection needs
	// before the browser's next frame or task.
	idleCollectRoom = 20
	// idleCollectShare is the share of the next goal the heap must have
	// reached (HeapAlloc ≥ this share of NextGC) for an idle collection:
	// nearer the goal and a step's allocations start one anyway; further
	// and the page collects more often than the collector would.
	idleCollectShare = 0.75
	// idleCollectEvery is how often, in ms, the page asks for the
	// browser's next idle moment: rarely enough that an idle page does
	// next to nothing. The page collects only if the learner gave no
	// input (a click, a key, the scrubber moved) since the last look: a
	// learner who moves again at once finds no collection in the way.
	idleCollectEvery = 250
)

// InputEvents are the kinds of event, as the browser counts them
// (performance.eventCounts), that tell the page a learner is at work.
var InputEvents = []string{"pointerdown", "keydown", "click", "input", "wheel"}

// The simulation allocates fast, so at Go's default pace (GOGC 100) a
// page that replays a history or decodes a lesson's sixteen runs collects
// often (about 130 ms a cycle for a history of 28,000 events while the
// page kept its messages decoded; 3 to 4 ms under Node for the page's
// side of it since they stay encoded, app/engine's BenchmarkRemoteMark).
// Every page collects half as often, within a bound on the heap.
const (
	browserGCPercent   = 200
	browserMemoryLimit = 128 << 20
)

// CollectWhenIdle sets the page's pace of collection and starts its idle
// collections (once, in the browser; no idle collections where the
// browser has no requestIdleCallback or does not count events).
func CollectWhenIdle() {
	if !app.IsClient {
		return
	}
	debug.SetGCPercent(browserGCPercent)
	debug.SetMemoryLimit(browserMemoryLimit)
	// A browser that refuses a call below only loses the idle
	// collections: the page goes on collecting as Go would.
	defer func() { recover() }()
	win := app.Window()
	if !win.Get("requestIdleCallback").Truthy() {
		return
	}
	// The learner's input is counted by the browser
	// (performance.eventCounts), not listened for: a listener of ours
	// would run the page's Go code inside a keystroke, after the browser
	// put the character in a text box and before the box's own handler
	// read it, and a redraw due then wrote the box's old text over it.
	counts := win.Get("performance").Get("eventCounts")
	if !counts.Truthy() {
		return
	}
	inputs := func() (n int) {
		for _, ev := range InputEvents {
			if c := counts.Call("get", ev); c.Truthy() {
				n += c.Int()
			}
		}
		return n
	}
	var ms runtime.MemStats
	seen := inputs()
	var ask, idle app.Func
	ask = app.FuncOf(func(app.Value, []app.Value) any {
		defer func() { recover() }()
		win.Call("requestIdleCallback", idle)
		return nil
	})
	idle = app.FuncOf(func(_ app.Value, args []app.Value) any {
		defer func() { recover() }()
		n := inputs()
		quiet := n == seen
		seen = n
		if quiet && len(args) > 0 && args[0].Call("timeRemaining").Float() >= idleCollectRoom {
			runtime.ReadMemStats(&ms)
			if float64(ms.HeapAlloc) >= idleCollectShare*float64(ms.NextGC) {
				runtime.GC()
			}
		}
		win.Call("setTimeout", ask, idleCollectEvery)
		return nil
	})
	win.Call("setTimeout", ask, idleCollectEvery)
	// Said on the page (data-idle-collect) for the browser tests: the
	// page looks for idle moments to collect in.
	if doc := win.Get("document"); doc.Truthy() {
		doc.Get("documentElement").Get("dataset").Set("idleCollect", "on")
	}
}
