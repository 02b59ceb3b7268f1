package explore

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRegressions replays the scenarios of core bugs the explorer found
// (testdata/regress): every expectation holds, every invariant too
// (liveness checks included), and the cluster goes quiet.
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "regress", "*.scenario"))
	if len(files) == 0 {
		t.Fatal("no regression scenarios")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		o := ExecFinal(string(src), 0)
		if o.Err != nil {
			t.Errorf("%s: %v", f, o.Err)
			continue
		}
		if n := o.Session.Failed(); n > 0 {
			t.Errorf("%s: %d expectation(s) failed: %v", f, n, o.Session.Results)
		}
		if len(o.Violations) > 0 {
			t.Errorf("%s: %v", f, o.Violations)
		}
		// Each goes quiet: a few thousand events at most (a hot loop
		// runs into the hundreds of thousands).
		if o.Steps > 20_000 {
			t.Errorf("%s: %d events: something never goes quiet", f, o.Steps)
		}
	}
}
