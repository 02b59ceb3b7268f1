package answer

import (
	"testing"

	"txnlab/lessons/doc"
)

const script = `cluster brokers=3
topic orders partitions=1
producer app transactional.id=order-txn-1
app init
app begin
app send orders/0 a=1
drop WriteTxnMarkers
app commit
run for=2m
heal
run
`

func question(stop int) *doc.Question {
	return &doc.Question{
		ID: "q-test", Scenario: "markers", Stop: stop,
		Choices: []doc.Choice{
			{Key: "a", When: []string{"expect app error UNKNOWN_SERVER_ERROR"}},
			{Key: "b", When: []string{"expect app ok", "expect txn order-txn-1 state=PrepareCommit"}},
			{Key: "c", When: []string{"expect txn order-txn-1 state=CompleteCommit"}},
		},
		Evidence: []doc.EvidencePart{{Text: "state "}, {Query: "txn order-txn-1 state"}, {Text: ", lso "}, {Query: "partition orders/0 lso"}},
	}
}

func TestDecideStopsWhereTheQuestionSays(t *testing.T) {
	for _, tc := range []struct {
		stop  int
		holds []bool
		state string
	}{
		{9, []bool{false, true, false}, "PrepareCommit"},  // after run for=2m: markers still lost
		{0, []bool{false, false, true}, "CompleteCommit"}, // the end: healed, markers written
	} {
		q := question(tc.stop)
		out, err := Decide(q, script)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range tc.holds {
			if out.Holds[i] != h {
				t.Errorf("stop %d: choice %s holds=%v, want %v", tc.stop, q.Choices[i].Key, out.Holds[i], h)
			}
		}
		if got := out.Evidence[1].Code; got != tc.state {
			t.Errorf("stop %d: evidence state %q, want %q", tc.stop, got, tc.state)
		}
		if out.Evidence[0].Text != "state " {
			t.Errorf("text part lost: %+v", out.Evidence[0])
		}
	}
}

func TestRight(t *testing.T) {
	q := question(9)
	out, err := Decide(q, script)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		picked []string
		right  bool
	}{
		{[]string{"b"}, true},
		{[]string{"a"}, false},
		{[]string{"a", "b"}, false},
		{nil, false},
	} {
		if got := out.Right(q, tc.picked); got != tc.right {
			t.Errorf("Right(%v) = %v, want %v", tc.picked, got, tc.right)
		}
	}
}

func TestBadPredicateIsAnError(t *testing.T) {
	q := question(0)
	q.Choices[0].When = []string{"expect nobody ok"}
	if _, err := Decide(q, script); err == nil {
		t.Fatal("an unknown client in a predicate passed")
	}
	if _, err := Start(q, "cluster brokers=3\nbogus\n"); err == nil {
		t.Fatal("a script that does not parse started")
	}
}

func TestRightValue(t *testing.T) {
	o := &Outcome{Value: "3"}
	for typed, want := range map[string]bool{"3": true, " 3 ": true, "3.0": true, "4": false, "": false, "three": false} {
		if got := o.RightValue(typed); got != want {
			t.Errorf("RightValue(%q) with value 3 = %v, want %v", typed, got, want)
		}
	}
	o = &Outcome{Value: "PrepareCommit"}
	if !o.RightValue(" preparecommit") || o.RightValue("PrepareAbort") {
		t.Error("text answers compare trimmed, case folded")
	}
}

// A question answered by typing a value gets that value from its run,
// at its stop point: at line 9 the markers are lost and the LSO is held
// at the open transaction's first offset; at the end they are written.
func TestOutcomeValueIsTheAnswerQuerysAtTheStop(t *testing.T) {
	for stop, want := range map[int]string{9: "0", 0: "2"} {
		q := &doc.Question{ID: "q-lso", Scenario: "markers", Stop: stop, Answer: "partition orders/0 lso"}
		out, err := Decide(q, script)
		if err != nil {
			t.Fatal(err)
		}
		if out.Value != want || !out.RightValue(" "+want+".0 ") {
			t.Errorf("stop %d: value %q, want %s", stop, out.Value, want)
		}
	}
	q := &doc.Question{ID: "q-bad", Scenario: "markers", Answer: "partition nowhere/0 lso"}
	if _, err := Decide(q, script); err == nil {
		t.Error("an answer query about no partition passed")
	}
}
