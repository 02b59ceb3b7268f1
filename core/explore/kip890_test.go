package explore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"txnlab/core/safety"
)

// The library's example of each KIP-890 defense shows the violation as
// written and none once the break line is gone. (The explorer's side is
// TestExploreFindsEveryBrokenMechanism.)
func TestBrokenLibraryKIP890(t *testing.T) {
	for _, m := range safety.Mechanisms {
		if !m.TV2 {
			continue
		}
		path := filepath.Join("..", "..", "scenarios", "broken", m.Name+".scenario")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), "break "+m.Name+"\n") || !strings.Contains(string(src), "expect violation "+m.Catches.Name+"\n") {
			t.Errorf("%s: does not break %s or expect a %s violation", path, m, m.Catches)
		}
		o := Exec(string(src), 0, false)
		if o.Err != nil || o.Session.Failed() != 0 {
			t.Errorf("%s: err %v, %d failed expectation(s)", path, o.Err, o.Session.Failed())
		}
		intact := strings.Replace(string(src), "break "+m.Name+"\n", "", 1)
		if o := Exec(intact, 0, false); o.Err != nil || len(o.Violations) != 0 {
			t.Errorf("%s without the break: err %v, violations %v", path, o.Err, o.Violations)
		}
	}
}

// Nothing broken finds nothing under Kafka 4's protocol either (the
// classic protocol is TestExploreNothingBroken's). The Jepsen pack's
// anomalies need a delay past request.timeout.ms, which unbiased runs
// never draw (delays are at most 15 s), so the classic runs stay clean
// too; `make explore-smoke` runs more of both.
func TestExploreNothingBrokenTV2(t *testing.T) {
	runs := 150
	if testing.Short() {
		runs = 30
	}
	rep := Explore(Config{Runs: runs, Seed: 1, Config: "transaction.version=2 transaction.partition.verification.enable=true"}, nil)
	if rep.Failed != 0 || rep.Invalid != 0 {
		t.Fatalf("%d violating, %d invalid of %d: first %v\n%s", rep.Failed, rep.Invalid, rep.Runs, rep.First.Violations, rep.First.Script())
	}
}
