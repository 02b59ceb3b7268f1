package ptrsort

import (
	"cmp"
	"slices"
	"testing"
)

type pair struct {
	key  int
	name string
}

// TestSameOrderAsSlices: with many equal keys, the order of the equal
// elements is slices.SortFunc's exactly (the traces depend on it).
func TestSameOrderAsSlices(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 12, 13, 50, 200, 1000} {
		a := make([]pair, n)
		x := uint32(n*7 + 1)
		for i := range a {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			a[i] = pair{int(x % 7), string(rune('a' + i%26))}
		}
		b := slices.Clone(a)
		slices.SortFunc(a, func(p, q pair) int { return cmp.Compare(p.key, q.key) })
		SortFunc(b, func(p, q *pair) int { return cmp.Compare(p.key, q.key) })
		if !slices.Equal(a, b) {
			t.Errorf("n=%d: order differs from slices.SortFunc", n)
		}
	}
}
