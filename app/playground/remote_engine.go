//go:build js && wasm

package playground

import (
	"errors"
	"sync"
	"syscall/js"
	"time"

	"txnlab/app/engine"
	"txnlab/app/site"
)

// workerEngine is a new engine in the page's one Web Worker, which every
// playground of the page shares (a lesson has many), or nil when the
// engine must run on the page: no Worker in this browser, or the address
// asks for it (?engine=page, for tests and benchmarks).
func workerEngine() engine.Engine {
	l := PageLink()
	if l == nil {
		return nil
	}
	return l.Engine()
}

// workerFault is the error that sent the engines back to the page.
func workerFault() error {
	if l := PageLink(); l != nil {
		return l.Fault()
	}
	return nil
}

// PageLink starts the worker once per page load.
var PageLink = sync.OnceValue(func() *engine.Link {
	g := js.Global()
	if g.Get("Worker").IsUndefined() || g.Get("location").IsUndefined() {
		return nil
	}
	if q := g.Get("URLSearchParams").New(g.Get("location").Get("search")); q.Call("get", "engine").String() == "page" {
		setEngineMark("page")
		return nil
	}
	var w js.Value
	arrived := make(chan struct{}, 1)
	link := engine.NewLink(func(b []byte) {
		if !w.IsUndefined() {
			w.Call("postMessage", string(b))
		}
	}, func() { <-arrived })
	// fellBack says, once, that the engines left the worker: whether the
	// page found it (fail) or the worker said so (its op fail).
	fellBack := sync.OnceFunc(func() {
		js.Global().Get("console").Call("warn", "txnlab: the engine's worker failed; the engine runs on the page:", link.Fault().Error())
		setEngineMark("page-fallback")
	})
	fail := func(err error) {
		link.Fail(err)
		fellBack()
	}
	// The page's head may have started the worker already, with the
	// compiled module (app/server/engine_start.go); its replies and an
	// error so far wait in txnlabEngineQueued.
	queued := js.Undefined()
	if early := g.Get("txnlabEngineWorker"); early.Truthy() {
		w, queued = early, g.Get("txnlabEngineQueued")
		g.Set("txnlabEngineWorker", js.Undefined())
		g.Set("txnlabEngineQueued", js.Undefined())
	} else {
		func() {
			defer func() {
				if p := recover(); p != nil {
					w = js.Undefined()
					fail(errors.New("the worker could not start"))
				}
			}()
			w = g.Get("Worker").New(site.EngineWorkerPath)
			// The module go-app's loader compiled (third_party/go-app):
			// the worker then starts without compiling it again.
			if m := g.Get("goappWasmModule"); m.Truthy() {
				w.Call("postMessage", m)
			}
		}()
	}
	if w.IsUndefined() {
		return link
	}
	// The engine's replies come as bytes (engine.ServeWorker); what the
	// worker's script says by itself (its fail, web/engine-worker.js) as
	// a string.
	receive := func(d js.Value) {
		if msg := engine.MessageBytes(d); msg != nil {
			link.Receive(msg)
			if link.Fault() != nil {
				fellBack()
			}
		}
		select {
		case arrived <- struct{}{}:
		default:
		}
	}
	failed := func(m js.Value) {
		msg := "the worker's script failed"
		if m.Truthy() {
			msg = m.String()
		}
		fail(errors.New(msg))
	}
	w.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		receive(args[0].Get("data"))
		return nil
	}))
	w.Set("onerror", js.FuncOf(func(_ js.Value, args []js.Value) any {
		failed(args[0].Get("message"))
		return nil
	}))
	// A worker that dies without a word (killed, stuck) leaves the page
	// waiting: after stallLimit of silence while a reply is due, the
	// engines carry on on the page.
	var (
		watch js.Func
		timer js.Value
	)
	watch = js.FuncOf(func(js.Value, []js.Value) any {
		if link.Stalled(time.Now(), stallLimit) {
			fail(errors.New("the engine's worker stopped answering"))
		}
		if link.Fault() != nil {
			g.Call("clearInterval", timer)
			watch.Release()
		}
		return nil
	})
	timer = g.Call("setInterval", watch, 1000)
	setEngineMark("worker")
	// Last, so that an error already queued marks the fallback for good.
	if queued.Truthy() {
		for i := range queued.Length() {
			if q := queued.Index(i); q.Get("error").Truthy() {
				failed(q.Get("error"))
			} else {
				receive(q.Get("data"))
			}
		}
	}
	return link
})

// stallLimit is how long the page waits for a worker that says nothing
// (it says it is busy every second while it works).
const stallLimit = 10 * time.Second

// workerStarted reports whether the page's worker had started: a
// failure after that is a worker that stopped.
func workerStarted() bool {
	l := PageLink()
	return l != nil && l.Started()
}

// setEngineMark says on the document element (data-engine) where the
// engine runs, for the tests: worker, page, or page-fallback.
func setEngineMark(where string) {
	if d := js.Global().Get("document"); d.Truthy() {
		d.Get("documentElement").Get("dataset").Set("engine", where)
	}
}
