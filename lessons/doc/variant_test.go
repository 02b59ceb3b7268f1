package doc

import (
	"fmt"
	"slices"
	"testing"
)

func TestOrderIsAPermutationSpreadOverPositions(t *testing.T) {
	// Where choice 0 lands, over many questions and seeds: each of four
	// places about a quarter of the time, so that no place is the right
	// answer's more than chance makes it.
	var at [4]int
	const n = 4000
	for i := 0; i < n; i++ {
		o := Order(uint32(i%7), fmt.Sprintf("q-%d", i), 4)
		sorted := slices.Clone(o)
		slices.Sort(sorted)
		if !slices.Equal(sorted, []int{0, 1, 2, 3}) {
			t.Fatalf("Order = %v, not a permutation", o)
		}
		at[slices.Index(o, 0)]++
	}
	for place, c := range at {
		if c < n/4*8/10 || c > n/4*12/10 {
			t.Errorf("choice 0 shown in place %d %d times of %d; want about %d", place, c, n, n/4)
		}
	}
	if slices.Equal(Order(1, "q-x", 5), Order(2, "q-x", 5)) && slices.Equal(Order(1, "q-y", 5), Order(2, "q-y", 5)) {
		t.Error("two learners see the same order of two questions")
	}
	if !slices.Equal(Order(9, "q-x", 5), Order(9, "q-x", 5)) {
		t.Error("a learner's order changes between visits")
	}
}

func TestDrawAndFill(t *testing.T) {
	vars := []Var{{"id", []string{"a", "b", "c"}}, {"n", []string{"1", "2"}}}
	if got := Variants(vars); got != 6 {
		t.Fatalf("Variants = %d, want 6", got)
	}
	seen := map[string]bool{}
	for i := 0; i < 6; i++ {
		v := Draw(vars, i)
		seen[v["id"]+v["n"]] = true
	}
	if len(seen) != 6 {
		t.Errorf("6 variants drew %d distinct value sets", len(seen))
	}
	if v := Draw(vars, 0); v["id"] != "a" || v["n"] != "1" {
		t.Errorf("variant 0 = %v, want every first value", v)
	}
	if v := Draw(vars, -1); v["id"] == "" {
		t.Errorf("a negative variant drew nothing")
	}
	got := Fill("producer p transactional.id={{id}} {{ n }} {{other}} {{", Draw(vars, 1))
	if want := "producer p transactional.id=b 1 {{other}} {{"; got != want {
		t.Errorf("Fill = %q, want %q", got, want)
	}
	if got := Names("{{a}} x {{b}} {{a}}"); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("Names = %v", got)
	}
}

func TestQuestionFilledLeavesTheOriginal(t *testing.T) {
	q := Question{PromptHTML: "where does {{id}} go?", Answer: "coordinator {{id}} partition",
		Choices:  []Choice{{Key: "a", HTML: "{{id}}", When: []string{"expect txn {{id}} state=Ongoing"}}},
		Evidence: []EvidencePart{{Query: "txn {{id}} state"}}}
	f := q.Filled(map[string]string{"id": "t1"})
	if f.Choices[0].When[0] != "expect txn t1 state=Ongoing" || f.Evidence[0].Query != "txn t1 state" || f.Answer != "coordinator t1 partition" {
		t.Errorf("Filled = %+v", f)
	}
	if q.Choices[0].When[0] != "expect txn {{id}} state=Ongoing" {
		t.Error("Filled changed the question it was called on")
	}
}
