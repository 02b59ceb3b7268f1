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

// TestKafkaAnomalyShapes: runs the explorer found with nothing broken
// (testdata/anomaly) report only the named anomaly of Kafka 3.5 they
// show. The hanging transaction of a coordinator that reloaded
// unreplicated records and then failed over is one whatever its
// successor holds at the producer id: Empty at the epoch, the previous
// transaction completed at the epoch, or a later epoch a new producer's
// InitProducerId took. A re-sequenced retry the leader refused because
// it had left its five-batch window is the other.
func TestKafkaAnomalyShapes(t *testing.T) {
	want := map[string]*safety.Anomaly{
		"reload-then-earlier-complete.scenario":               safety.UnreplicatedTxnState,
		"reload-then-new-producer.scenario":                   safety.UnreplicatedTxnState,
		"resequenced-past-the-window.scenario":                safety.ResequencedInFlight,
		"late-marker.scenario":                                safety.LateMarker,
		"reload-then-later-commit.scenario":                   safety.UnreplicatedTxnState,
		"reload-then-commit-answered-from-the-past.scenario":  safety.UnreplicatedTxnState,
		"reload-then-new-producer-after-earlier-txn.scenario": safety.UnreplicatedTxnState,
		"reload-then-successor-completes-without-it.scenario": safety.UnreplicatedTxnState,
		"lost-epoch-hangs-prepare-abort.scenario":             safety.UnreplicatedTxnState,
		"reload-then-offsets-pending-for-ever.scenario":       safety.UnreplicatedTxnState,
		"reload-then-later-commit-and-fence-abort.scenario":   safety.UnreplicatedTxnState,
		"lost-fence-then-commit.scenario":                     safety.UnreplicatedTxnState,
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "anomaly", "*.scenario"))
	if len(files) != len(want) {
		t.Fatalf("%d anomaly scenarios, want %d", len(files), len(want))
	}
	for _, f := range files {
		anomaly := want[filepath.Base(f)]
		if anomaly == nil {
			t.Fatalf("%s: which anomaly does it show?", f)
		}
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
			if v.Anomaly != anomaly.Name {
				t.Errorf("%s: %v, want only %s", f, v, anomaly)
			}
		}
	}
}

// TestLateMarkerClosedByTV2: the late marker that commits the next
// transaction under transaction version 1 is refused under version 2,
// whose markers must carry an epoch above the producer's current one
// (ProducerAppendInfo.checkProducerEpoch); with epoch-bump broken, the
// check goes with the bump and the late marker commits again.
func TestLateMarkerClosedByTV2(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "anomaly", "late-marker.scenario"))
	if err != nil {
		t.Fatal(err)
	}
	lines := Lines(string(src))
	body := lines[:len(lines)-1] // without its expect line
	with := func(extra ...string) []check.Violation {
		script := append([]string{body[0]}, extra...)
		script = append(script, body[1:]...)
		r := Replay(script, 0)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		return r.Violations
	}
	if vs := with("config transaction.version=2"); len(vs) != 0 {
		t.Errorf("under transaction version 2: %v", vs)
	}
	vs := with("config transaction.version=2", "break epoch-bump")
	if len(vs) == 0 {
		t.Error("with epoch-bump broken, the late marker no longer commits the next transaction")
	}
}
