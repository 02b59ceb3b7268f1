//go:build js && wasm

package browser

import (
	"runtime"
	"syscall/js"
	"testing"
	"time"
)

// TestThePageCollectsWhenIdle runs the page's idle collections under
// Node, whose requestIdleCallback is given here as a quiet page's (50 ms
// idle each time): a heap most of the way to the collector's next goal is
// collected while the page idles, not in the learner's next move nor
// while the learner keeps clicking, and a heap just collected is left
// alone, so an idle page does not collect again and again.
func TestThePageCollectsWhenIdle(t *testing.T) {
	js.Global().Set("requestIdleCallback", js.Global().Get("Function").New("f",
		"setTimeout(() => f({timeRemaining: () => 50}), 0)"))
	// A browser counts the events it dispatches; here a click is a count.
	counts := js.Global().Get("Map").New()
	js.Global().Get("performance").Set("eventCounts", counts)
	click := func() {
		n := 0
		if c := counts.Call("get", "click"); c.Truthy() {
			n = c.Int()
		}
		counts.Call("set", "click", n+1)
	}
	CollectWhenIdle()

	var ms runtime.MemStats
	var kept [][]byte
	// Allocate until the heap is 80-95 % of the way to the next goal (an
	// allocation that starts a collection only sets it further back).
	for i := 0; ; i++ {
		runtime.ReadMemStats(&ms)
		if share := float64(ms.HeapAlloc) / float64(ms.NextGC); share >= 0.8 && share < 0.95 {
			break
		}
		if i > 100_000 {
			t.Fatalf("the heap never came to 80-95 %% of its goal: %d of %d", ms.HeapAlloc, ms.NextGC)
		}
		kept = append(kept, make([]byte, 16<<10))
		if len(kept) > 4096 {
			kept = kept[len(kept)/2:]
		}
	}
	before := ms.NumGC
	// While the learner keeps clicking, no collection gets in the way.
	for end := time.Now().Add(time.Second); time.Now().Before(end); {
		click()
		time.Sleep(20 * time.Millisecond)
	}
	runtime.ReadMemStats(&ms)
	if ms.NumGC != before {
		t.Fatalf("the page collected while the learner clicked every 20 ms (heap %d of its goal %d)", ms.HeapAlloc, ms.NextGC)
	}
	time.Sleep(time.Second) // four looks at the heap while the page idles
	runtime.ReadMemStats(&ms)
	if ms.NumGC == before {
		t.Fatalf("the heap at %d of its goal %d was not collected while the page idled", ms.HeapAlloc, ms.NextGC)
	}

	after := ms.NumGC
	time.Sleep(time.Second)
	runtime.ReadMemStats(&ms)
	if ms.NumGC != after {
		t.Errorf("an idle page collected %d more times with its heap at %d of its goal %d", ms.NumGC-after, ms.HeapAlloc, ms.NextGC)
	}
	runtime.KeepAlive(kept)
}
