package playground

import (
	"testing"

	"txnlab/app/engine"
	"txnlab/scenarios"
)

// TestWarmDrawDrawsEveryScript: the worker's warm-up draws its run at the
// run's end, middle and start (engine.Warm); a panic there would be
// dropped in the worker, and the page would compile that code itself
// again, so it is caught here, for every library script.
func TestWarmDrawDrawsEveryScript(t *testing.T) {
	for _, s := range scenarios.All() {
		e := engine.New()
		if err := e.Load(s.Script); err != nil {
			t.Fatalf("%s: %v", s.Slug, err)
		}
		for _, pos := range []int{e.Len(), e.Len() / 2, 1, 0} {
			e.Seek(pos)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s at %d: %v", s.Slug, pos, p)
					}
				}()
				WarmDraw(e)
			}()
		}
	}
}
