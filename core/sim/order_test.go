package sim

import (
	"strings"
	"testing"
)

// A normal run, with ties at one instant and a paused node's held
// events replayed at resume, keeps the queue's order: no fault.
func TestEventOrderHolds(t *testing.T) {
	w, _ := fixedWorld(3)
	for i := 0; i < 5; i++ {
		w.After(nodea, 10, "tick", nil) // five timers due at the same instant
		w.Send(nodea, nodeb, req(), 0)
	}
	w.Pause(nodeb)
	w.AdvanceTo(20, 1000)
	w.Resume(nodeb)
	runAll(t, w)
	if err := w.Fault(); err != nil {
		t.Fatalf("fault on a normal run: %v", err)
	}
}

// An event put in the queue behind the clock's back (due before now) is
// reported, not silently run at the current time.
func TestEventOrderCatchesPastEvent(t *testing.T) {
	w, _ := fixedWorld(3)
	w.After(nodea, 100, "tick", nil)
	runAll(t, w)
	w.seq++
	w.queue.push(event{at: 50, seq: w.seq, kind: evTimer, timer: Timer{Node: nodea, Kind: "late", n: w.nodes[nodea]}})
	runAll(t, w)
	err := w.Fault()
	if err == nil || !strings.Contains(err.Error(), "after the clock had passed it") {
		t.Fatalf("Fault() = %v, want the past event reported", err)
	}
}

// Two events due at the same instant must leave in the order they were
// scheduled; a queue that breaks the tie the other way is reported.
func TestEventOrderCatchesBrokenTieBreak(t *testing.T) {
	w, _ := fixedWorld(3)
	w.After(nodea, 10, "first", nil)
	runAll(t, w)
	// The same instant as the event just popped, but an older sequence
	// number: what a tie-break on anything but insertion order would give.
	w.queue.push(event{at: 10, seq: 0, kind: evTimer, timer: Timer{Node: nodea, Kind: "second", n: w.nodes[nodea]}})
	runAll(t, w)
	err := w.Fault()
	if err == nil || !strings.Contains(err.Error(), "was popped after") {
		t.Fatalf("Fault() = %v, want the tie-break breach reported", err)
	}
}
