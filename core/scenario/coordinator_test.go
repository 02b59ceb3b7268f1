package scenario

import (
	"strconv"
	"strings"
	"testing"
)

// A coordinator fails over: broker-N, which leads t1's __transaction_state
// partition, crashes; the controller fences it after
// broker.session.timeout.ms and elects a new leader, which loads the
// partition before it answers. While it loads, `expect coordinator` and
// the inspector's snapshot must name the same broker and the same
// coordinator epoch (they read one query, cluster.Coordinator): the
// snapshot used to show epoch 0 there while the expectation saw the new
// leader epoch.
func TestCoordinatorAgreesWithSnapshotWhileLoading(t *testing.T) {
	script, err := Parse("failover.scenario", `cluster brokers=3
producer p1 transactional.id=t1
p1 init
crash coordinator(t1)
advance 30s
expect coordinator t1 epoch=1
`)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("failover.scenario", script)
	loadingSeen := false
	for !s.Done() {
		s.Step()
		if s.Cluster == nil {
			continue
		}
		var tv *struct {
			coord string
			epoch int32
			load  bool
		}
		for _, v := range s.Cluster.Snapshot().Transactions {
			if v.TransactionalId == "t1" {
				tv = &struct {
					coord string
					epoch int32
					load  bool
				}{v.Coordinator, v.CoordinatorEpoch, v.Loading}
			}
		}
		if tv == nil || tv.coord == "" {
			continue // before p1 is declared, or while no broker leads the partition
		}
		expect := "expect coordinator t1 broker=" + tv.coord + " epoch=" + strconv.Itoa(int(tv.epoch))
		r, err := s.Holds(expect)
		if err != nil {
			t.Fatal(err)
		}
		if !r.OK {
			t.Fatalf("at %s (loading=%v) the snapshot says %q but expect says %s", s.Now().Human(), tv.load, strings.TrimPrefix(expect, "expect coordinator t1 "), r.Actual)
		}
		if q, _ := s.Query("coordinator t1 epoch"); q != strconv.Itoa(int(tv.epoch)) {
			t.Fatalf("at %s the coordinator query says epoch %s, the snapshot %d", s.Now().Human(), q, tv.epoch)
		}
		if tv.load {
			loadingSeen = true
			if tv.epoch != 1 {
				t.Fatalf("while loading after the failover the coordinator epoch is %d, want 1", tv.epoch)
			}
		}
	}
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	if !loadingSeen {
		t.Fatal("the new coordinator was never seen loading: the test checks nothing")
	}
	if s.Failed() != 0 {
		t.Fatalf("expectations failed: %v", s.Results)
	}
}
