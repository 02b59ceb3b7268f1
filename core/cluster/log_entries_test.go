package cluster_test

import (
	"reflect"
	"testing"

	"txnlab/core/cluster"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/scenario"
	"txnlab/scenarios"
)

// TestLogEntriesStatusIsTheNextMarkers: LogEntries gives each
// transactional batch the status of the first marker of its producer
// after it, as a scan of the log per batch (statusByScan, the definition)
// does, on every log of every library script at every step.
func TestLogEntriesStatusIsTheNextMarkers(t *testing.T) {
	kinds := map[string]int{}
	for _, sc := range scenarios.All() {
		script, err := scenario.Parse(sc.Slug, sc.Script)
		if err != nil {
			t.Fatalf("%s: %v", sc.Slug, err)
		}
		s := scenario.NewSession(sc.Slug, script)
		for !s.Done() {
			s.Step()
			if s.Cluster == nil {
				continue
			}
			for _, d := range s.Cluster.Disks {
				for tp, log := range d.Logs {
					got := cluster.LogEntries(log, nil)
					var statuses []string
					for i := range log.Batches {
						b := &log.Batches[i]
						for range b.Records {
							statuses = append(statuses, statusByScan(log, b))
						}
					}
					if len(got) != len(statuses) {
						t.Fatalf("%s, %s: %d entries for %d records", sc.Slug, tp, len(got), len(statuses))
					}
					for i, e := range got {
						if e.Status != statuses[i] {
							t.Fatalf("%s, %s, offset %d: status %q, want %q", sc.Slug, tp, e.Offset, e.Status, statuses[i])
						}
						kinds[e.Status]++
					}
				}
			}
		}
	}
	for _, k := range []string{"plain", "marker", "committed", "aborted", "pending"} {
		if kinds[k] == 0 {
			t.Errorf("no library script has a %s entry: the comparison does not cover it", k)
		}
	}
	if !reflect.DeepEqual(cluster.LogEntries(&partition.Log{}, nil), []cluster.LogEntryView(nil)) {
		t.Error("an empty log has entries")
	}
}

// statusByScan is an entry's status by its definition: a record of a
// control batch is a marker; a transactional data batch's is the first
// later marker's of its producer (aborted; committed below the LSO, else
// pending), pending without one; any other is plain.
func statusByScan(log *partition.Log, b *protocol.RecordBatch) string {
	if b.IsControl {
		return "marker"
	}
	if !b.IsTransactional {
		return "plain"
	}
	for i := range log.Batches {
		m := &log.Batches[i]
		if m.BaseOffset <= b.BaseOffset || !m.IsControl || m.ProducerId != b.ProducerId {
			continue
		}
		if m.ControlType == protocol.ControlAbort {
			return "aborted"
		}
		if b.BaseOffset < log.LSO() {
			return "committed"
		}
		return "pending"
	}
	return "pending"
}
