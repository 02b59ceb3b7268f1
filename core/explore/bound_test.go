package explore

import (
	"strings"
	"testing"

	"txnlab/core/scenario"
)

// TestPerStatementBoundIsAnError: a statement that runs into the
// per-statement event bound stops the run with an error naming its line
// (docs/reliability.md, "Bounds"), instead of returning early with the
// clock short of what it asked and the script carrying on.
func TestPerStatementBoundIsAnError(t *testing.T) {
	for _, stmt := range []string{"run for=1h", "advance 1h"} {
		src := "cluster brokers=1 txn-partitions=1 offsets-partitions=1\n" +
			"producer p transactional.id=tx\n" +
			"crash broker-0\n" +
			"p init &\n" +
			stmt + "\n" +
			"expect p pending\n"
		script, err := scenario.Parse("bound", src)
		if err != nil {
			t.Fatal(err)
		}
		s := scenario.NewSession("bound", script)
		s.MaxStepsPerStatement = 500
		s.Run()
		if s.Err == nil {
			t.Fatalf("%s: no error past the bound; clock at %v, results %v", stmt, s.Cluster.World.Now(), s.Results)
		}
		if s.Err.Pos.Line != 5 || !strings.Contains(s.Err.Msg, "per-statement bound") {
			t.Errorf("%s: error %v, want line 5 naming the per-statement bound", stmt, s.Err)
		}
		if len(s.Results) != 0 {
			t.Errorf("%s: the lines after the error ran: %v", stmt, s.Results)
		}
	}
}

// TestIdleTimeAfterACrashIsCheap: a dead follower outside the ISR used
// to re-arm every leader's ISR check every replica.lag.time.max.ms / 2
// for as long as it stayed down, so idle time cost in proportion to its
// length (`advance 365d` took 137 s). A year must now be a few thousand
// events.
func TestIdleTimeAfterACrashIsCheap(t *testing.T) {
	src := "cluster brokers=3\n" +
		"topic orders partitions=3\n" +
		"producer p\n" +
		"p send orders/0 k=a\n" +
		"crash broker-2\n" +
		"run for=1m\n" +
		"p send orders/1 k=b\n" +
		"advance 365d\n" +
		"expect p ok\n"
	o := Exec(src, 200_000, false)
	if o.Err != nil || o.Exhausted {
		t.Fatalf("err %v, exhausted %v after %d events", o.Err, o.Exhausted, o.Steps)
	}
	if o.Steps > 20_000 {
		t.Errorf("a year of idle time after a crash took %d events", o.Steps)
	}
}
