package explore

import (
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
