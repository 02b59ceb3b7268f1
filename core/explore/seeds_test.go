package explore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"txnlab/scenarios"
)

// TestBrokenScenariosEverySeed runs every committed broken-mechanism
// example (scenarios/broken, and the checker's own in
// core/check/testdata) under ten seeds: each must show its violation
// under every one, since an example whose anomaly depends on one network
// timing teaches a race rather than the mechanism.
func TestBrokenScenariosEverySeed(t *testing.T) {
	srcs := map[string]string{}
	for _, sc := range scenarios.All() {
		if strings.HasPrefix(sc.Slug, "broken/") {
			srcs["scenarios/"+sc.Slug] = sc.Script
		}
	}
	files, _ := filepath.Glob(filepath.Join("..", "check", "testdata", "*.scenario"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = string(b)
	}
	if len(srcs) < 10 {
		t.Fatalf("only %d broken scenarios found", len(srcs))
	}
	for name, src := range srcs {
		if !strings.Contains(src, "expect violation") && !strings.Contains(src, "expect liveness violation") {
			t.Errorf("%s: a broken-mechanism example must say `expect violation` or `expect liveness violation`", name)
			continue
		}
		for seed := uint64(1); seed <= 10; seed++ {
			o := execSeed(src, 0, false, seed, nil)
			if o.Err != nil {
				t.Errorf("%s --seed %d: %v", name, seed, o.Err)
				continue
			}
			for _, r := range o.Session.Results {
				if !r.OK {
					t.Errorf("%s --seed %d: %s", name, seed, r)
				}
			}
		}
	}
}
