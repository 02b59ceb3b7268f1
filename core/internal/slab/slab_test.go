package slab

import "testing"

// Values cut from a slab are distinct, zeroed, and a slice from Make
// never grows into its neighbour's values.
func TestSlab(t *testing.T) {
	var s Slab[int]
	s.Block = 8
	a, b := s.New(), s.New()
	if a == b || *a != 0 || *b != 0 {
		t.Fatal("New must return distinct zero values")
	}
	*a, *b = 1, 2
	x := s.Make(2)
	y := s.Make(2)
	if len(x) != 0 || cap(x) != 2 {
		t.Fatalf("Make(2): len %d cap %d", len(x), cap(x))
	}
	x = append(x, 10, 11)
	y = append(y, 20, 21)
	x = append(x, 12) // past its capacity: must not overwrite y
	if y[0] != 20 || y[1] != 21 || x[2] != 12 || *a != 1 || *b != 2 {
		t.Fatalf("neighbours overwritten: x=%v y=%v a=%d b=%d", x, y, *a, *b)
	}
	// A request bigger than a quarter block is its own allocation.
	big := s.Make(5)
	if cap(big) != 5 {
		t.Fatalf("Make(5) cap %d", cap(big))
	}
	if s.Make(0) != nil {
		t.Fatal("Make(0) must be nil")
	}
	// Filling past a block starts a new one.
	var seen = map[*int]bool{}
	for i := 0; i < 20; i++ {
		p := s.New()
		if seen[p] || *p != 0 {
			t.Fatal("New reused a value")
		}
		seen[p] = true
	}
}
