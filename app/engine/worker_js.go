//go:build js && wasm

package engine

import (
	"fmt"
	"syscall/js"
	"time"
)

// workerSlice is how long the worker works between two looks at its
// messages: a move the learner makes waits at most this long before the
// worker turns to it.
const workerSlice = 8 * time.Millisecond

// warmPageAfter is how long after it starts the worker waits before it warms
// the page's code (warm.go): it starts beside the page's own start, and
// on a machine of two cores a warm-up then slowed the page.
const warmPageAfter = time.Second

// busyEvery is how often a worker at work says so (Link.Stalled).
const busyEvery = time.Second

// resting, when set (by a test), is told each rest between two slices
// of work before it begins.
var resting func(time.Duration)

// uint8Array is the Uint8Array constructor, looked up once: each lookup
// makes a js.Value with a finalizer, and MessageBytes runs per message.
var uint8Array = js.Global().Get("Uint8Array")

// MessageBytes is what a message between the page and the worker
// carries: the bytes of a Uint8Array (the engine's replies,
// ServeWorker) or of a string (what web/engine-worker.js says by itself,
// the page's requests); nil for anything else.
func MessageBytes(d js.Value) []byte {
	switch {
	case d.Type() == js.TypeString:
		return []byte(d.String())
	case d.InstanceOf(uint8Array):
		b := make([]byte, d.Length())
		js.CopyBytesToGo(b, d)
		return b
	}
	return nil
}

// InWorker reports whether this program runs in a Web Worker (no
// document): web/engine-worker.js starts the same app.wasm as the page,
// which then serves the engines instead of showing the UI.
func InWorker() bool {
	return js.Global().Get("document").IsUndefined() && !js.Global().Get("postMessage").IsUndefined()
}

// ServeWorker runs the engines of the page that started this worker, and
// never returns. Messages are strings of JSON (worker.go); the ones that
// came before Go ran wait in self.engineQueued. Until the page first
// asks it something, it runs warm's scripts (warm.go), so that the
// page's first playground finds that code compiled.
func ServeWorker(warm Warm) {
	self := js.Global()
	post := self.Get("postMessage")
	var srv *Server
	var posted time.Time
	// A reply crosses as bytes whose buffer the page takes over: as a
	// string, a 10,000-event history (1.7 MB) was converted to UTF-16
	// here, copied by the structured clone, and converted back on the
	// page (about 40 ms of the page's task that received it, and 20 ms
	// of the clone here).
	srv = NewServer(func(b []byte) {
		a := uint8Array.New(len(b))
		js.CopyBytesToJS(a, b)
		post.Invoke(a, []any{a.Get("buffer")})
		posted = time.Now()
	})
	wake := make(chan struct{}, 1)
	asked := false // whether the page has asked anything yet
	receive := func(v js.Value) {
		if v.Type() == js.TypeString {
			asked = true
			srv.Receive([]byte(v.String()))
		}
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	self.Set("onmessage", js.FuncOf(func(_ js.Value, args []js.Value) any {
		receive(args[0].Get("data"))
		return nil
	}))
	if q := self.Get("engineQueued"); q.Truthy() {
		for i := 0; i < q.Length(); i++ {
			receive(q.Index(i))
		}
		self.Set("engineQueued", js.Undefined())
	}
	srv.Ready()
	pieces := warm.pieces()
	started := time.Now()
	for {
		more, err := work(srv)
		if err != nil {
			post.Invoke(fmt.Sprintf(`{"op":"fail","msg":%q}`, err.Error()))
			select {} // the page carries on without the worker
		}
		if more {
			if time.Since(posted) > busyEvery {
				// A long run says nothing until its end: the page
				// would take the silence for a worker that stopped.
				post.Invoke(`{"op":"busy"}`)
				posted = time.Now()
			}
			// Give the event loop a turn: the page's next move may be
			// waiting. (A message cuts a longer rest short.)
			rest := srv.Rest()
			if resting != nil {
				resting(rest)
			}
			select {
			case <-wake:
			case <-time.After(rest):
			}
			continue
		}
		if asked {
			// The page's playgrounds have begun (their first run
			// compiles what the warm-up would have): a warm-up now
			// could only slow a move of the learner's.
			pieces = nil
		}
		if len(pieces) > 0 {
			// Warm the page's code (warm.go) a piece at a time once the
			// page has had a moment to start, then let the event loop
			// deliver what came meanwhile.
			if wait := warmPageAfter - time.Since(started); wait > 0 {
				select {
				case <-wake:
				case <-time.After(wait):
				}
				continue
			}
			warmOne(pieces[0])
			pieces = pieces[1:]
			time.Sleep(time.Millisecond)
			continue
		}
		<-wake
	}
}

// work is a slice of the server's work; a panic in the engine becomes
// an error the page is told.
func work(srv *Server) (more bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the engine stopped: %v", p)
		}
	}()
	return srv.Work(workerSlice), nil
}
