// Package ptrsort sorts a slice of structs through pointers to its
// elements. slices.SortFunc is compiled once per element shape, about
// 25 kB of the browser's wasm for each struct type sorted; every pointer
// type shares one shape, so sorting pointers and then moving the elements
// once costs the wasm one sort for all of them. The order is exactly
// slices.SortFunc's: pdqsort decides from the comparisons alone, so the
// same comparisons give the same permutation, and the simulation's
// traces (which depend on it where elements compare equal) stay the same.
package ptrsort

import "slices"

// SortFunc sorts s in place by cmp, as slices.SortFunc(s, cmp) would.
func SortFunc[T any](s []T, cmp func(a, b *T) int) {
	if len(s) < 2 {
		return
	}
	ptrs := make([]*T, len(s))
	for i := range s {
		ptrs[i] = &s[i]
	}
	slices.SortFunc(ptrs, cmp)
	sorted := make([]T, len(s))
	for i, p := range ptrs {
		sorted[i] = *p
	}
	copy(s, sorted)
}
