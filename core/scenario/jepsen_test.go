package scenario

import (
	"slices"
	"testing"

	"txnlab/core/safety"
	"txnlab/scenarios"
)

// The Jepsen pack: every scenario shows its anomaly under Kafka 3.5's
// protocol (its expectations, `expect violation` included, hold as
// written), and the same script under the release that fixed it, and any
// later one, ends with the checker finding nothing. Under a release
// before the fix the anomaly is still there: verification alone (3.6)
// does not stop a late EndTxn.
func TestJepsenPack(t *testing.T) {
	releases := []string{"3.5", "3.6", "3.8", "4.0"}
	for _, e := range scenarios.JepsenPack {
		t.Run(e.Slug, func(t *testing.T) {
			sc, ok := scenarios.Get(e.Slug)
			if !ok {
				t.Fatalf("no scenario %s", e.Slug)
			}
			fixed := slices.Index(releases, e.FixedIn)
			if fixed <= 0 {
				t.Fatalf("FixedIn %q", e.FixedIn)
			}
			for i, rel := range releases {
				st, err := ParseSettings("kafka=" + rel)
				if err != nil {
					t.Fatal(err)
				}
				r, err := RunRecorded(e.Slug, sc.Script, st)
				if err != nil || r.Session.Err != nil {
					t.Fatalf("kafka=%s: %v %v", rel, err, r.Session.Err)
				}
				vs := r.Session.Cluster.Check(false)
				switch {
				case rel == "3.5" && r.Session.Failed() != 0:
					t.Errorf("kafka=3.5: %d expectation(s) failed", r.Session.Failed())
				case i < fixed && len(vs) == 0:
					t.Errorf("kafka=%s: no anomaly, but it is fixed only in %s", rel, e.FixedIn)
				case i >= fixed && len(vs) != 0:
					t.Errorf("kafka=%s: still %v", rel, vs)
				}
			}
		})
	}
}

// The hanging transaction the explorer found with nothing broken is
// Kafka 3.5's own (docs/kafka-fidelity.md §19): the checker names the
// anomaly rather than blaming a coordinator that "finished" it, and
// under 3.8, where the coordinator no longer reloads under the same
// leader, nothing hangs.
func TestHangingAfterReloadIsKafkasAnomaly(t *testing.T) {
	sc, ok := scenarios.Get("hanging-after-reload")
	if !ok {
		t.Fatal("no scenario hanging-after-reload")
	}
	for _, rel := range []string{"3.5", "3.6", "3.8"} {
		st, _ := ParseSettings("kafka=" + rel)
		r, err := RunRecorded("hanging-after-reload", sc.Script, st)
		if err != nil {
			t.Fatal(err)
		}
		vs := r.Session.Cluster.Check(false)
		if rel == "3.8" {
			if len(vs) != 0 {
				t.Errorf("kafka=3.8: %v", vs)
			}
			continue
		}
		if len(vs) != 1 || vs[0].Anomaly != safety.UnreplicatedTxnState.Name || vs[0].Invariant != safety.Atomicity.Name {
			t.Errorf("kafka=%s: %v, want one atomicity violation named %s", rel, vs, safety.UnreplicatedTxnState)
		}
	}
}
