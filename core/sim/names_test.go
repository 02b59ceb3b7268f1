package sim

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestNamesGiveCodesInOrder: a table gives codes 1, 2, 3… in the order
// it learns names, gives a known name its code again, looks up without
// learning, and refuses a name once full rather than reusing a code.
func TestNamesGiveCodesInOrder(t *testing.T) {
	n := NewNames()
	for i, name := range []string{"broker-0", "controller", "p1"} {
		if id, ok := n.Intern(name); !ok || id != NodeID(i+1) {
			t.Fatalf("Intern(%q) = %d, %v; want %d", name, id, ok, i+1)
		}
	}
	if id, _ := n.Intern("controller"); id != 2 {
		t.Errorf("a known name got a new code %d", id)
	}
	if _, ok := n.Lookup("p2"); ok || n.Len() != 4 {
		t.Errorf("Lookup of an unknown name found it or learnt it (len %d)", n.Len())
	}
	if id, ok := n.Lookup(""); !ok || id != NoNode || n.Name(NoNode) != "" {
		t.Error(`"" is not NoNode`)
	}
	if got := n.Name(99); got != "node#99" {
		t.Errorf("an unknown code reads %q", got)
	}
	var none *Names
	if none.Name(3) != "node#3" {
		t.Error("a nil table names a code")
	}
	for n.Len() < MaxNodeNames {
		if _, ok := n.Intern("c" + strconv.Itoa(n.Len())); !ok {
			t.Fatalf("full at %d", n.Len())
		}
	}
	if id, ok := n.Intern("one too many"); ok || id != NoNode {
		t.Errorf("a full table gave code %d", id)
	}
}

// TestAddNodeWantsAGivenCode: a node is added under a code its world
// gave, so that no event can carry a code the trace cannot name.
func TestAddNodeWantsAGivenCode(t *testing.T) {
	w := NewWorld(1)
	defer func() {
		if recover() == nil {
			t.Error("AddNode of a code the world never gave did not panic")
		}
	}()
	w.AddNode(7, &recorder{})
}

// TestBareNodeIDRefusesJSON: encoding/json of a code alone fails, so an
// export that forgets the names cannot write numbers as node names.
func TestBareNodeIDRefusesJSON(t *testing.T) {
	if b, err := json.Marshal(struct{ N NodeID }{3}); err == nil {
		t.Errorf("a bare NodeID marshalled: %s", b)
	}
}
