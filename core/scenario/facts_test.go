package scenario

import (
	"slices"
	"strings"
	"testing"
)

// TestExpectationsAndQueriesShareTheirFacts: for each kind an expectation
// checks and a query reads, the expectation's options are the fact
// table's keys, in its order, and so are the query's fields: a value
// added to one is in the other, rendered by the same function.
func TestExpectationsAndQueriesShareTheirFacts(t *testing.T) {
	for _, tc := range []struct {
		kind          string
		options, keys []string
	}{
		{"txn", expectTxnOptions.keys(), txnFacts.keys()},
		{"partition", expectPartitionOptions.keys(), partitionFacts.keys()},
		{"coordinator", expectCoordinatorOptions.keys(), coordinatorFacts.keys()},
		{"group", expectGroupOptions, groupFacts.keys()},
	} {
		if !slices.Equal(tc.options, tc.keys) {
			t.Errorf("expect %s takes %v, its facts are %v", tc.kind, tc.options, tc.keys)
		}
		if !slices.Equal(queryFields[tc.kind], tc.keys) {
			t.Errorf("the query %s reads %v, its facts are %v", tc.kind, queryFields[tc.kind], tc.keys)
		}
	}
}

// TestQueryAnswersWhatTheExpectationChecks: after a run, each fact's
// query answers the value its expectation holds with (noValue for
// "none"), so a lesson's sentence quotes what an expect compares.
func TestQueryAnswersWhatTheExpectationChecks(t *testing.T) {
	src := `cluster brokers=3
topic orders partitions=2
producer p1 transactional.id=t1
consumer c1 group.id=g1
c1 subscribe orders
c1 poll
p1 init
p1 begin
p1 send orders/0 k=v
p1 commit
run
`
	script, err := Parse("", src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("", script)
	s.Run()
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	for _, q := range []string{"txn t1 ", "partition orders/0 ", "coordinator t1 ", "group g1 "} {
		kind := strings.Fields(q)[0]
		for _, field := range queryFields[kind] {
			got, err := s.Query(q + field)
			if err != nil {
				t.Fatalf("%s%s: %v", q, field, err)
			}
			if field == "members" {
				continue // a query lists members in joining order, an expectation as a set
			}
			want := got
			if got == noValue {
				want = "none"
			}
			if want == "" {
				t.Fatalf("%s%s answers nothing", q, field)
			}
			res, err := s.Holds("expect " + q + field + "=" + want)
			if err != nil {
				t.Fatalf("expect %s%s=%s: %v", q, field, want, err)
			}
			if !res.OK {
				t.Errorf("the query %s%s answers %q, but expect finds %s", q, field, got, res.Actual)
			}
		}
	}
}
