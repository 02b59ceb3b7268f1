package engine

import "txnlab/core/scenario"

// Warming the page's code from the worker. Chrome compiles each function
// of a WebAssembly module at its first call, on the thread that makes
// it, and the module the page hands its worker (web/engine-worker.js) is
// the page's own compiled module: a function the worker has called is
// compiled for the page as well. Without this, a lesson's first
// playground compiles the scenario parser, the page's side of the
// worker's protocol and the diagram in the tasks that boot it
// (TestProfileLessonPage: wasm.CompileLazy, 57 of a 77 ms task, with
// scenario.Parse its largest caller). The worker is idle while the
// learner reads, so it calls them first, a piece at a time between its
// messages, on its own thread. BenchmarkLessonFirstPlayground, against
// the code before (interleaved, six runs of three cold loads each): the
// page compiles about 133 functions rather than 390 when the first
// playground runs, in 16-79 ms rather than 50-171 (medians 30-58 against
// 79-117); go-app's mounting and the components' plumbing, which need a
// document, remain.
//
// Then a few more scripts run end to end (warmRuns). A function the
// worker calls often is optimized by V8 in compile jobs on other threads,
// and on a machine of two cores those jobs took the page's core in the
// first playground's tasks: TestProfileFirstPlaygroundCores saw 32-54 ms
// of compile jobs' CPU during each of its three longest tasks, whose own
// CPU was 11-29 ms. Hot while the learner reads, that code is optimized
// by the time the first playground runs. BenchmarkLessonFirstPlayground
// interleaved with the code before (two runs of three cold loads each):
// longest task, median of three, 50.5 and 21.8 ms against 59.1 and 70.4;
// the page compiling 25-30 and 14-16 ms against 33-52 and 44-73.

// Warm is what the worker warms the page's code with (ServeWorker).
type Warm struct {
	// Scripts: the first is run end to end through the page's side of
	// the protocol, the next warmRuns run, the others parsed.
	Scripts []string
	// Draw, when set, is called on that run's engine at each position
	// the warm-up visits, to draw it as a playground would, but into
	// nothing: the worker has no document.
	Draw func(Engine)
}

// warmRuns is how many scripts after the first the warm-up runs: 40-170
// ms each under Node, cold, about 0.7 s of the worker's time while the
// learner reads. Running all 23 others was no better for the first
// playground (medians 45.1 and 44.6 ms): that warm-up was likely still
// running when BenchmarkLessonFirstPlayground's learner scrolled.
const warmRuns = 8

// pieces are the warm-up, one for each pause of the worker, so that a
// request from the page waits for one piece at most: the first script
// run through a loopback, then read and drawn at its end, middle, first
// step and start, stepped, the next warmRuns scripts run, one a piece,
// and the other scripts parsed, a few at a time.
func (w Warm) pieces() []func() {
	if len(w.Scripts) == 0 {
		return nil
	}
	lb := newLoopback()
	e := lb.link.Engine()
	ran := false
	// Load is the page's Begin and Work, the loopback's pump its wait.
	pieces := []func(){func() { ran = e.Load(w.Scripts[0]) == nil }}
	for _, at := range []func() int{e.Len, func() int { return e.Len() / 2 }, func() int { return 1 }, func() int { return 0 }} {
		pieces = append(pieces, func() {
			if ran {
				warmRead(lb, e, at(), w.Draw)
			}
		})
	}
	pieces = append(pieces, func() {
		if ran {
			e.Step()
			lb.pump()
			e.StepBack()
			lb.pump()
		}
	})
	runs := min(len(w.Scripts), 1+warmRuns)
	for _, src := range w.Scripts[1:runs] {
		pieces = append(pieces, func() { e.Load(src) })
	}
	const parsed = 8 // scripts a piece: a few ms once the parser is compiled
	for i := runs; i < len(w.Scripts); i += parsed {
		batch := w.Scripts[i:min(i+parsed, len(w.Scripts))]
		pieces = append(pieces, func() {
			for _, src := range batch {
				scenario.Parse(scriptFile, src)
			}
		})
	}
	return pieces
}

// warmRead moves e to pos and reads it as a playground does, drawn by
// draw when it is set.
func warmRead(lb *loopback, e *Remote, pos int, draw func(Engine)) {
	e.Seek(pos)
	lb.pump()
	e.Snapshot()
	e.Violations()
	e.Results()
	if draw != nil {
		draw(e)
	}
}

// warmOne runs a piece, its panic dropped.
func warmOne(piece func()) {
	defer func() { recover() }()
	piece()
}
