package explore

import (
	"os"
	"path/filepath"
	"testing"

	"txnlab/core/check"
	"txnlab/core/safety"
)

// A run whose only violations are a known anomaly of Kafka itself is the
// simulation doing what the release does: the report counts it apart,
// and the batch goes on; a run with any other violation is a failure.
func TestReportCountsKafkasAnomaliesApart(t *testing.T) {
	rep := NewReport()
	anomaly := check.Violation{Invariant: safety.Atomicity.Name, Anomaly: safety.UnreplicatedTxnState.Name}
	if rep.Add(0, &Run{Seed: 1, Violations: []check.Violation{anomaly}}) {
		t.Error("a run with only a Kafka anomaly was reported as failed")
	}
	if rep.KafkaAnomalies != 1 || rep.ByAnomaly[safety.UnreplicatedTxnState.Name] != 1 || rep.FirstAnomaly == nil || rep.Failed != 0 {
		t.Errorf("report = %+v", rep)
	}
	bug := check.Violation{Invariant: safety.Atomicity.Name}
	if !rep.Add(1, &Run{Seed: 2, Violations: []check.Violation{anomaly, bug}}) || rep.Failed != 1 {
		t.Error("a run with a violation besides the anomaly was not a failure")
	}
}

// TestHangingAfterReloadShapes: the hanging transaction of a coordinator
// that reloaded unreplicated records and then failed over is Kafka's
// anomaly whatever its successor holds at the producer id: Empty at the
// epoch, the previous transaction completed at the epoch, or a later
// epoch a new producer's InitProducerId took (testdata/anomaly, found
// by the explorer with nothing broken).
func TestHangingAfterReloadShapes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "anomaly", "*.scenario"))
	if len(files) < 2 {
		t.Fatalf("%d anomaly scenarios", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		o := ExecFinal(string(src), 0)
		if o.Err != nil {
			t.Fatalf("%s: %v", f, o.Err)
		}
		if len(o.Violations) == 0 {
			t.Errorf("%s: no violation", f)
		}
		for _, v := range o.Violations {
			if v.Anomaly != safety.UnreplicatedTxnState.Name {
				t.Errorf("%s: %v, want only %s", f, v, safety.UnreplicatedTxnState)
			}
		}
	}
}
