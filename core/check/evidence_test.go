package check_test

import (
	"strings"
	"testing"

	"txnlab/core/check"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/scenarios"
)

// run plays a library scenario to its end and checks it.
func run(t *testing.T, slug string) ([]check.Violation, *sim.Trace) {
	t.Helper()
	sc, ok := scenarios.Get(slug)
	if !ok {
		t.Fatalf("no scenario %s", slug)
	}
	script, err := scenario.Parse(slug, sc.Script)
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession(slug, script)
	s.Run()
	return s.Cluster.Check(false), &s.Cluster.World.Trace
}

// TestEveryViolationPointsAtMessages: each violation the library's
// scenarios provoke names the events that show it, in trace order, and
// at least one of them is a message the playground can open. Every
// invariant the library breaks is covered; the test fails if one of them
// stops being broken (the list below is what the broken/ examples show).
func TestEveryViolationPointsAtMessages(t *testing.T) {
	seen := map[string]bool{}
	for _, sc := range scenarios.All() {
		viol, trace := run(t, sc.Slug)
		for _, v := range viol {
			seen[v.Invariant] = true
			if len(v.Events) == 0 {
				t.Errorf("%s: %s has no evidence", sc.Slug, v)
				continue
			}
			msgs := 0
			for i, idx := range v.Events {
				if idx < 0 || idx >= trace.Len() {
					t.Fatalf("%s: %s: event %d is outside the trace (%d events)", sc.Slug, v, idx, trace.Len())
				}
				if i > 0 && idx <= v.Events[i-1] {
					t.Errorf("%s: %s: events %v not in trace order", sc.Slug, v, v.Events)
				}
				if e := trace.At(idx); e.Kind == sim.KindSend && e.MsgID != 0 {
					msgs++
				}
			}
			if msgs == 0 {
				t.Errorf("%s: %s: no message among its events %v", sc.Slug, v, v.Events)
			}
		}
	}
	for _, inv := range []string{safety.ReadCommitted.Name, safety.Atomicity.Name, safety.NoDuplicates.Name, safety.Fencing.Name, safety.OffsetsAtomicity.Name, safety.LSO.Name} {
		if !seen[inv] {
			t.Errorf("no library scenario breaks %s any more: the evidence of it is untested", inv)
		}
	}
}

// TestReadCommittedLinksTheFetchThatLeaked: the read-committed violation
// of broken/aborted-filter names the Fetch answer that handed the aborted
// record to the consumer, the Produce that wrote it and the EndTxn that
// aborted it.
func TestReadCommittedLinksTheFetchThatLeaked(t *testing.T) {
	viol, trace := run(t, "broken/aborted-filter")
	var v *check.Violation
	for i := range viol {
		if viol[i].Invariant == safety.ReadCommitted.Name {
			v = &viol[i]
		}
	}
	if v == nil {
		t.Fatalf("no read-committed violation in %v", viol)
	}
	var apis []string
	for _, idx := range v.Events {
		e := trace.At(idx)
		name := e.API.String()
		if e.Resp {
			name += ".response"
		}
		apis = append(apis, name)
		if _, ok := e.Msg.(*protocol.FetchResponse); ok && trace.Name(e.Peer) != "c1" {
			t.Errorf("the Fetch answer linked goes to %s, not the consumer c1", trace.Name(e.Peer))
		}
	}
	if got, want := strings.Join(apis, " "), "Produce EndTxn Fetch.response"; got != want {
		t.Errorf("evidence %s, want %s", got, want)
	}
}

// TestStaleMarkerIsTheOneLinked: in broken/coordinator-epoch the record
// is committed by the old coordinator's delayed marker (coordinator epoch
// 0), not by the new coordinator's (epoch 1): the evidence names the
// request that really wrote it.
func TestStaleMarkerIsTheOneLinked(t *testing.T) {
	viol, trace := run(t, "broken/coordinator-epoch")
	for _, v := range viol {
		if v.Invariant != safety.Atomicity.Name {
			continue
		}
		for _, idx := range v.Events {
			if m, ok := trace.At(idx).Msg.(*protocol.WriteTxnMarkersRequest); ok {
				if got := m.Markers[0].CoordinatorEpoch; got != 0 {
					t.Errorf("the marker linked has coordinator epoch %d, want the stale 0", got)
				}
				return
			}
		}
		t.Fatalf("no WriteTxnMarkers among %v", v.Events)
	}
	t.Fatalf("no atomicity violation in %v", viol)
}
