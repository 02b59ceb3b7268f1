package engine

import (
	"runtime"
	"testing"
	"time"

	"txnlab/core/workload"
)

// BenchmarkEngineHeap is issue 13's heap budget (≤ 30 MB for a session of
// 10,000 events in the browser) measured natively, where it is cheap and
// does not depend on the machine's load: the engine loads the history of
// the browser benchmarks, builds its checkpoints, makes
// BenchmarkEngineInWorker's moves (30 steps back from the end, a drag to
// the start, 10 jumps) with the background work done between them, and
// the Go heap is read after a collection. Go's wasm port has 8-byte
// pointers as amd64 has, so the figure is close to the worker's. For
// where the heap goes:
//
//	go test -run '^$' -bench EngineHeap -benchtime 1x -memprofile heap.out ./app/engine/
//	go tool pprof -sample_index=inuse_space -top heap.out
func BenchmarkEngineHeap(b *testing.B) {
	var heap, history uint64
	for b.Loop() {
		heldEngine = nil
		before := heapAfterGC()
		e := newSessionEngine()
		if err := e.Load(workload.Script(workload.ForEvents(10000))); err != nil {
			b.Fatal(err)
		}
		idle(e)
		n := e.Len()
		move := func(i int) {
			e.Seek(i)
			e.Snapshot()
			e.movedAt = time.Time{} // the learner looked a while
			idle(e)
		}
		for i := 1; i <= 30; i++ {
			move(n - i)
		}
		for k := 1; k <= 60; k++ {
			move(n - k*n/60)
		}
		for _, f := range []float64{0.9, 0.1, 0.7, 0.3, 0.5, 0.95, 0.05, 0.6, 0.4, 0.8} {
			move(int(f * float64(n)))
		}
		heap = heapAfterGC() - before
		history = uint64(len(e.events))
		heldEngine = e
	}
	b.ReportMetric(float64(heap)/1e6, "MB/heap")
	b.ReportMetric(float64(heap)/float64(history), "B/event")
	b.ReportMetric(0, "ns/op")
}

// heldEngine keeps the last engine BenchmarkEngineHeap measured alive,
// so that the profile -memprofile writes after the benchmark shows it.
var heldEngine *sessionEngine

// heapAfterGC is the live heap: HeapAlloc right after a collection.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkRemoteHeap is the page's share of the same session: what a
// Remote holds of the 10,000-event history once it crossed from the
// worker (decoded from JSON as the page decodes it), after the moves,
// with the worker's side gone. For where it goes, as above with
// -bench RemoteHeap.
func BenchmarkRemoteHeap(b *testing.B) {
	var heap, history uint64
	for b.Loop() {
		heldRemote = nil
		before := heapAfterGC()
		p := newLoopback()
		r := p.link.Engine()
		if err := r.Load(workload.Script(workload.ForEvents(10000))); err != nil {
			b.Fatal(err)
		}
		n := r.Len()
		for k := 1; k <= 60; k++ {
			r.Seek(n - k*n/60)
			p.pump()
			r.Snapshot()
		}
		p.server, p.toWork, p.toPage = nil, nil, nil
		heap = heapAfterGC() - before
		history = uint64(len(r.History()))
		heldRemote = r
	}
	b.ReportMetric(float64(heap)/1e6, "MB/heap")
	b.ReportMetric(float64(heap)/float64(history), "B/event")
	b.ReportMetric(0, "ns/op")
}

// heldRemote is heldEngine for BenchmarkRemoteHeap.
var heldRemote Engine

// BenchmarkRemoteMark is the time one collection takes with the page's
// side of the browser benchmarks' longest history held (the 10,004-arrow
// diagram's, 28,133 events): under wasm Go's collector marks the whole
// heap in one task of the page's thread, which is then one of its long
// tasks. The page keeps the history's messages encoded (wire_message.go)
// for this figure. Under Node, as the page runs it:
//
//	GOOS=js GOARCH=wasm go test -run '^$' -bench RemoteMark ./app/engine/
func BenchmarkRemoteMark(b *testing.B) {
	p := newLoopback()
	r := p.link.Engine()
	if err := r.Load(workload.Script(workload.ForMessages(10_000))); err != nil {
		b.Fatal(err)
	}
	p.server, p.toWork, p.toPage = nil, nil, nil
	runtime.GC()
	for b.Loop() {
		runtime.GC()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/mark")
	b.ReportMetric(0, "ns/op")
	runtime.KeepAlive(r)
}
