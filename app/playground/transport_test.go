package playground

import (
	"testing"
	"time"

	"txnlab/app/engine"
	"txnlab/diagram"
	"txnlab/scenarios"
)

// markersFail loads markers-fail, the library's longest history.
func markersFail(t *testing.T) engine.Engine {
	t.Helper()
	sc, ok := scenarios.Get("markers-fail")
	if !ok {
		t.Fatal("no markers-fail scenario")
	}
	e := newEngine()
	if err := e.Begin(sc.Script); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		var err error
		if done, err = e.Work(time.Second); err != nil {
			t.Fatal(err)
		}
	}
	return e
}

// Next interesting step lands only on steps that show something, moves
// forward every time, and gets through the retry loop in far fewer
// presses than there are steps; the player with quiet set stops only at
// steps that show something.
func TestNextInterestingAndQuietSteps(t *testing.T) {
	e := markersFail(t)
	var f diagram.Filter
	n := e.Len()
	quiet := 0
	for i := 1; i <= n; i++ {
		if quietStep(e, f, i) {
			quiet++
		}
	}
	if quiet == 0 {
		t.Fatal("no quiet step in markers-fail: the test does not test skipping")
	}
	presses := 0
	for i := nextInteresting(e, f); i > 0; i = nextInteresting(e, f) {
		if i <= e.Pos() || quietStep(e, f, i) {
			t.Fatalf("from step %d, the next interesting step is %d (quiet %v)", e.Pos(), i, quietStep(e, f, i))
		}
		e.Seek(i)
		presses++
	}
	if presses < 5 || presses > n/10 {
		t.Errorf("%d presses of Next interesting step through %d steps", presses, n)
	}
	t.Logf("%d steps, %d quiet, %d interesting", n, quiet, presses)

	// What the player does at each tick with quiet set.
	e.Seek(0)
	pl := player{quiet: func(e engine.Engine, pos int) bool { return quietStep(e, f, pos) }}
	ticks := 0
	for e.Pos() < e.Len() {
		e.Step()
		for pl.quiet != nil && e.Pos() < e.Len() && pl.quiet(e, e.Pos()) {
			e.Step()
		}
		if e.Pos() < e.Len() && quietStep(e, f, e.Pos()) {
			t.Fatalf("playback stopped at quiet step %d", e.Pos())
		}
		ticks++
	}
	if ticks != n-quiet && ticks != n-quiet+1 {
		t.Errorf("playback took %d ticks for %d steps of which %d quiet", ticks, n, quiet)
	}
}
