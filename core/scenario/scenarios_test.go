package scenario

import (
	"testing"
)

// TestScenarios runs every scenario of the repository (scenarios/**, and
// any core/**/testdata/**/*.scenario) and fails listing each script
// error and each failed expectation: the scenarios are the project's
// acceptance tests, and every lesson's claims rest on them.
func TestScenarios(t *testing.T) {
	for _, rel := range scenarioFiles(t) {
		t.Run(rel, func(t *testing.T) {
			s, err := runScenario(t, rel)
			if err != nil {
				t.Fatalf("parse error:\n%v", err)
			}
			if s.Err != nil {
				t.Errorf("script error: %v", s.Err)
			}
			for _, r := range s.Results {
				if !r.OK {
					t.Errorf("%s:%s", rel, r.String()[len("FAIL "):])
				}
			}
			if len(s.Results) == 0 && s.Err == nil {
				t.Errorf("%s states no expectation: a scenario must prove what it shows", rel)
			}
		})
	}
}

// TestScenariosDeterministic runs every scenario twice in one process and
// compares the traces: same script and seed, same history, whatever the
// map iteration order or the allocation addresses were.
func TestScenariosDeterministic(t *testing.T) {
	for _, rel := range scenarioFiles(t) {
		t.Run(rel, func(t *testing.T) {
			a, err := runScenario(t, rel)
			if err != nil {
				t.Fatalf("parse error:\n%v", err)
			}
			b, _ := runScenario(t, rel)
			if da, db := digestOf(a), digestOf(b); da != db {
				la, lb := traceLines(a), traceLines(b)
				t.Fatalf("two runs differ: digest %s vs %s\n%s", da, db, firstDiff(la, lb))
			}
		})
	}
}
