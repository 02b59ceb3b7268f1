// Package slab cuts many small values out of a few large allocations.
//
// The simulation allocates a message, its envelope and its slices for
// every request and answer; the trace keeps the messages for the whole
// run, so freeing them one by one never happens anyway. Cutting them out
// of blocks turns tens of thousands of allocations a run into hundreds,
// which matters most under WebAssembly, where every allocation and every
// collection runs on the page's only thread.
package slab

// Slab hands out zeroed values of T from blocks of Block values. A block
// stays alive while any value cut from it does, so use it only for values
// that live about as long as their neighbours (messages, which the trace
// keeps). The zero value is ready to use, with blocks of DefaultBlock.
type Slab[T any] struct {
	// Block is how many values one block holds (DefaultBlock if zero).
	Block int
	block []T
}

// DefaultBlock is the block size of a Slab whose Block is zero.
const DefaultBlock = 64

func (s *Slab[T]) size() int {
	if s.Block > 0 {
		return s.Block
	}
	return DefaultBlock
}

// New returns a pointer to a new zero T.
func (s *Slab[T]) New() *T {
	if len(s.block) == cap(s.block) {
		s.block = make([]T, 0, s.size())
	}
	s.block = s.block[:len(s.block)+1]
	return &s.block[len(s.block)-1]
}

// Make returns an empty slice with room for n values. Its capacity is
// exactly n, so appending past it moves to an array of its own and never
// writes over a neighbour's values. A request for more than a quarter of
// a block gets an allocation of its own.
func (s *Slab[T]) Make(n int) []T {
	if n <= 0 {
		return nil
	}
	if n > s.size()/4 {
		return make([]T, 0, n)
	}
	if cap(s.block)-len(s.block) < n {
		s.block = make([]T, 0, s.size())
	}
	at := len(s.block)
	s.block = s.block[:at+n]
	return s.block[at : at : at+n]
}
