//go:build js && wasm

// Command engineworker is a measured prototype for issue 13's decision:
// the playground's engine (app/engine, the whole core) in a Web Worker,
// so that the simulation and its garbage collector never run on the
// page's thread. It is not part of the site: app/e2e's
// BenchmarkEngineInWorker builds it, runs the same moves with the engine
// in a worker and on the page's thread, and reports both.
//
// The host (a worker script, or the page itself for the comparison)
// calls engineRequest(request) with a plain object; the engine answers
// through the host's engineReply(reply). Requests:
//
//	{op: "load", script}  run the script, park checkpoints; reply {steps, history}
//	{op: "seek", pos}     move; reply {pos, digest, events, snapshot}
//	{op: "stats"}         reply {heap, sys, gcs, pauseMs}
//
// Between requests the engine idles in slices, as the site's worker
// does. What a page draws from crosses as JSON: the whole history once
// per script (a history never changes, and the page lays its lanes out
// from all of it), then at each move the position, its digest, how many
// of the history's events it shows, and the cluster state there.
package main

import (
	"encoding/json"
	"runtime"
	"syscall/js"
	"time"

	"txnlab/app/engine"
	"txnlab/core/sim"
)

// idleSlice is how long the engine idles between two looks for a
// request, as app/engine's worker does (workerSlice there).
const idleSlice = 8 * time.Millisecond

func main() {
	eng := engine.New()
	reply := js.Global().Get("engineReply")
	// Between requests the engine does its background work (Idle: the
	// state at the position, the steps before it, the checkpoints a move
	// used up) in slices, each its own task, so a request waits at most
	// a slice, as in the site's worker. Without it, each move of a drag
	// found the checkpoints the moves before it had used up.
	idling := false
	var idle js.Func
	idle = js.FuncOf(func(js.Value, []js.Value) any {
		if eng.Idle(idleSlice) {
			js.Global().Call("setTimeout", idle, 0)
		} else {
			idling = false
		}
		return nil
	})
	startIdle := func() {
		if !idling {
			idling = true
			js.Global().Call("setTimeout", idle, 0)
		}
	}
	js.Global().Set("engineRequest", js.FuncOf(func(_ js.Value, args []js.Value) any {
		req := args[0]
		out := map[string]any{"op": req.Get("op").String()}
		switch req.Get("op").String() {
		case "load":
			if err := eng.Load(req.Get("script").String()); err != nil {
				out["error"] = err.Error()
				break
			}
			for eng.Idle(50 * time.Millisecond) {
			}
			history, _ := json.Marshal(sim.Export{Names: eng.Names(), Events: eng.History()})
			out["steps"] = eng.Len()
			out["history"] = string(history)
		case "seek":
			eng.Seek(req.Get("pos").Int())
			snap, err := json.Marshal(eng.Snapshot())
			if err != nil {
				out["error"] = err.Error()
			}
			out["pos"] = eng.Pos()
			out["digest"] = eng.Digest()
			out["events"] = eng.EventsAt(eng.Pos())
			out["snapshot"] = string(snap)
		case "stats":
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			out["heap"] = float64(m.HeapAlloc)
			out["sys"] = float64(m.Sys)
			out["gcs"] = int(m.NumGC)
			out["pauseMs"] = float64(m.PauseTotalNs) / 1e6
		default:
			out["error"] = "unknown op"
		}
		reply.Invoke(js.ValueOf(out))
		startIdle()
		return nil
	}))
	js.Global().Call("engineReady")
	select {}
}
