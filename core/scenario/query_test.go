package scenario

import (
	"strings"
	"testing"
)

const markersFailScript = `cluster brokers=3
topic orders partitions=1
producer app transactional.id=order-txn-1
consumer reader isolation.level=read_committed
reader assign orders/0
app init
app begin
app send orders/0 a=1
drop WriteTxnMarkers
app commit
run for=2m
reader poll
`

// runScript runs src to its end and fails the test on any script error.
func runScript(t *testing.T, src string) *Session {
	t.Helper()
	script, err := Parse("t.scenario", src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("t.scenario", script)
	s.Run()
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	return s
}

func TestQueryValues(t *testing.T) {
	s := runScript(t, markersFailScript)
	before := s.Cluster.World.Trace.Len()
	wantQueries(t, s, []queryCase{
		{"producer app result", "NONE"},
		{"producer app call", "commit"},
		{"producer app state", "READY"},
		{"producer app pid", "0"},
		{"producer app epoch", "0"},
		{"txn order-txn-1 state", "PrepareCommit"},
		{"txn order-txn-1 partitions", "orders/0"},
		{"txn order-txn-1 epoch", "0"},
		{"partition orders/0 hw", "1"},
		{"partition orders/0 lso", "0"},
		{"partition orders/0 log-end", "1"},
		{"consumer reader records orders/0", "—"},
		{"count EndTxn.response", "1"},
		{"count EndTxn.response error=NONE", "1"},
		{"count WriteTxnMarkers.response", "0"},
		{"violations", "—"},
		{"coordinator order-txn-1 partition", "39"},
		{"apikey InitProducerId", "22"},
		{"apikey AddPartitionsToTxn", "24"},
		{"apikey EndTxn", "26"},
		{"apikey AddOffsetsToTxn", "—"}, // never sent in this run
	})
	if n := s.Cluster.World.Trace.Len(); n != before {
		t.Errorf("queries changed the trace: %d events, then %d", before, n)
	}
	if got, _ := s.Query("clock"); !strings.HasSuffix(got, "s") || got == "0s" {
		t.Errorf("clock = %q", got)
	}
}

func TestQueryErrors(t *testing.T) {
	s := runScript(t, markersFailScript)
	for _, tc := range []struct{ query, want string }{
		{"", "empty query"},
		{"clok", `did you mean "clock"`},
		{"producer", "needs a client name"},
		{"producer reader state", "not a producer"},
		{"producer nobody state", "unknown client"},
		{"producer app stat", `did you mean "state"`},
		{"partition orders/7 hw", "does not exist"},
		{"partition payments/0 hw", "unknown topic"},
		{"consumer reader records", "needs TOPIC/PARTITION"},
		{"count", "needs an API"},
		{"count EndTxn count=1", "no count= option"},
		{"count Bogus", "Bogus"},
		{"clock now", "takes nothing"},
		{"txn order-txn-1 state extra", "complete"},
		{"apikey EndTxn.response", "without .response"},
		{"apikey", "needs an API"},
	} {
		_, err := s.Query(tc.query)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want it to contain %q", tc.query, err, tc.want)
		}
	}
}

func TestHoldsLeavesTheRunAlone(t *testing.T) {
	s := runScript(t, markersFailScript)
	before, results := s.Cluster.World.Trace.Len(), len(s.Results)
	for _, tc := range []struct {
		line string
		ok   bool
	}{
		{"expect app ok", true},
		{"expect app error UNKNOWN_SERVER_ERROR", false},
		{"expect txn order-txn-1 state=PrepareCommit", true},
		{"expect txn order-txn-1 state=CompleteCommit", false},
		{"expect partition orders/0 hw=1 lso=0", true},
		{"expect reader records orders/0 =", true},
		{"expect invariants", true},
	} {
		r, err := s.Holds(tc.line)
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		if r.OK != tc.ok {
			t.Errorf("%s: OK=%v (actual %s), want %v", tc.line, r.OK, r.Actual, tc.ok)
		}
	}
	if s.Cluster.World.Trace.Len() != before || len(s.Results) != results {
		t.Error("Holds recorded something")
	}
	for _, bad := range []string{"app commit", "expect nobody ok", "expect txn"} {
		if _, err := s.Holds(bad); err == nil {
			t.Errorf("Holds(%q) accepted it", bad)
		}
	}
}

func FuzzParseQuery(f *testing.F) {
	script, _ := Parse("t", markersFailScript)
	for _, q := range []string{"clock", "producer app result", "count WriteTxnMarkers.response from=broker-0 error=NONE", "partition orders/0 lso", `txn "a b" state`} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		parsed, err := ParseQuery(q, script.Decls)
		if err == nil && parsed == nil {
			t.Fatal("no query and no error")
		}
	})
}

// Every query can be asked at every step: before the cluster, a client
// or a topic exists, it answers noValue instead of failing (a lesson's
// facts are read at whatever step the learner stands on).
func TestQueriesAtEveryStep(t *testing.T) {
	script, err := Parse("t", markersFailScript)
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"clock", "violations", "producer app state", "producer app result", "consumer reader records orders/0",
		"txn order-txn-1 state", "txn order-txn-1 partitions", "partition orders/0 lso", "partition orders/0 leader",
		"coordinator order-txn-1 broker", "coordinator order-txn-1 epoch", "count Produce", "apikey EndTxn"}
	s := NewSession("t", script)
	for steps := 0; ; steps++ {
		for _, q := range queries {
			if _, err := s.Query(q); err != nil {
				t.Fatalf("step %d: %s: %v", steps, q, err)
			}
		}
		if s.Done() || steps > 100000 {
			break
		}
		s.Step()
	}
}

// TestQueryFactsMatchExpectations runs the consumer and partition facts
// scenario and checks that the queries a lesson quotes give the values
// its expectations check: the two read the same code (core/cluster/query.go, rendered by facts.go).
func TestQueryFactsMatchExpectations(t *testing.T) {
	s, err := runScenario(t, "core/scenario/testdata/partition-and-consumer-facts.scenario")
	if err != nil || s.Err != nil {
		t.Fatalf("run: %v %v", err, s.Err)
	}
	wantQueries(t, s, []queryCase{
		{"partition orders/0 leader", "broker-1"},
		{"partition orders/0 leader-epoch", "1"},
		{"partition orders/0 isr", "broker-1,broker-2"},
		{"consumer c1 position orders/0", "4"},
		{"consumer c1 aborted orders/0", "—"}, // the second poll's answer had none
		{"count Fetch.response to=c1 AbortedProducerId=0", "1"},
	})
	for _, e := range []string{"expect partition orders/0 leader=broker-1 leader-epoch=1 isr=broker-1,broker-2",
		"expect c1 position orders/0=4", "expect c1 aborted orders/0 ="} {
		if r, err := s.Holds(e); err != nil || !r.OK {
			t.Errorf("%s: %v %+v", e, err, r)
		}
	}
	if r, _ := s.Holds("expect c1 position orders/0=3"); r.OK || r.Actual != "orders/0=4" {
		t.Errorf("a wrong position holds, or reports %q", r.Actual)
	}
}

// TestGroupQueriesMatchTheGroupExpectation: a lesson quoting a group's
// generation reads what expect group checks, after a rebalance too.
func TestGroupQueriesMatchTheGroupExpectation(t *testing.T) {
	s, err := runScenario(t, "core/groupcoord/testdata/zombie-fenced-by-member-id.scenario")
	if err != nil || s.Err != nil {
		t.Fatalf("run: %v %v", err, s.Err)
	}
	wantQueries(t, s, []queryCase{
		{"group etl state", "Stable"},
		{"group etl generation", "2"},
		{"group etl members", "c2"},
		{"group etl leader", "c2"},
		{"group nobody state", "Empty"}, // as the coordinator holds a group no one joined
		{"group nobody members", "—"},
	})
	if r, err := s.Holds("expect group etl state=Stable generation=2 members=c2 leader=c2"); err != nil || !r.OK {
		t.Errorf("the expectation disagrees with the queries: %v %+v", err, r)
	}
	if _, err := ParseQuery("group etl epoch", nil); err == nil || !strings.Contains(err.Error(), "generation") {
		t.Errorf("group etl epoch: %v, want an error listing the fields", err)
	}
}

// queryCase is a query and the value it must give.
type queryCase struct{ query, want string }

// wantQueries asks s each query and reports any that fails or differs.
func wantQueries(t *testing.T, s *Session, cases []queryCase) {
	t.Helper()
	for _, tc := range cases {
		got, err := s.Query(tc.query)
		if err != nil {
			t.Errorf("%s: %v", tc.query, err)
			continue
		}
		if got != tc.want {
			t.Errorf("%s = %q, want %q", tc.query, got, tc.want)
		}
	}
}
