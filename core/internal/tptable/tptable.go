// Package tptable holds values by topic partition without hashing.
//
// Maps keyed by protocol.TopicPartition hash the topic's name and the
// partition number at every lookup (two hash calls, then a generic
// comparison): on the heavy benchmark that was the largest single cost
// of the brokers' replication and fetch paths. A cluster has a handful
// of topics, each numbered densely from 0, so a short list of topics
// (found by comparing names, which usually differ in length or first
// byte) holding a slice indexed by partition answers the same question
// for a fraction of the instructions, and natively and under wasm alike
// (wasm has no AES hash instructions).
package tptable

import "txnlab/core/protocol"

// Table maps topic partitions to values of V; the zero value of V means
// absent, so V is usually a pointer. The zero Table is empty and ready to
// use. Lookups never allocate; Set grows the topic's slice to the
// partition. It is meant for the partitions of one cluster (tens of
// topics at most, partitions numbered from 0): a topic is found by a
// linear scan.
type Table[V comparable] struct {
	topics []row[V]
	n      int // values not zero
}

// minRow is the smallest array a topic's values get.
const minRow = 8

type row[V comparable] struct {
	topic string
	vals  []V
}

// Get returns tp's value, or the zero value.
func (t *Table[V]) Get(tp protocol.TopicPartition) V {
	for i := range t.topics {
		r := &t.topics[i]
		if r.topic == tp.Topic {
			if tp.Partition >= 0 && int(tp.Partition) < len(r.vals) {
				return r.vals[tp.Partition]
			}
			break
		}
	}
	var zero V
	return zero
}

// Limit bounds the partitions a table stores: Set refuses numbers
// outside [0, Limit), so that a partition named by bad input cannot make
// it allocate a huge slice. Real partitions are far below it (a cluster
// caps topics at tens of partitions).
const Limit = 1 << 16

// Set stores v as tp's value (setting the zero value deletes it) and
// reports whether it could: a partition outside [0, Limit) is never
// stored, and Get answers the zero value for it.
func (t *Table[V]) Set(tp protocol.TopicPartition, v V) bool {
	if tp.Partition < 0 || tp.Partition >= Limit {
		return false
	}
	var r *row[V]
	for i := range t.topics {
		if t.topics[i].topic == tp.Topic {
			r = &t.topics[i]
			break
		}
	}
	var zero V
	if r == nil {
		if v == zero {
			return true
		}
		t.topics = append(t.topics, row[V]{topic: tp.Topic})
		r = &t.topics[len(t.topics)-1]
	}
	if need := int(tp.Partition) + 1; need > len(r.vals) {
		if v == zero {
			return true
		}
		if need > cap(r.vals) {
			// At least minRow at once: partitions are mostly set in
			// order, and growing one at a time from nothing would
			// allocate at 1, 2, 4 and 8 first.
			grown := make([]V, len(r.vals), max(need, 2*cap(r.vals), minRow))
			copy(grown, r.vals)
			r.vals = grown
		}
		r.vals = r.vals[:need]
	}
	old := r.vals[tp.Partition]
	r.vals[tp.Partition] = v
	switch {
	case old == zero && v != zero:
		t.n++
	case old != zero && v == zero:
		t.n--
	}
	return true
}

// Reset empties the table and keeps its slices for the next values: a
// table rebuilt after every metadata change allocates nothing then.
func (t *Table[V]) Reset() {
	for i := range t.topics {
		clear(t.topics[i].vals)
	}
	t.n = 0
}

// Len is the number of partitions with a value.
func (t *Table[V]) Len() int { return t.n }

// Values calls f with every value, in no order the caller may depend on
// (topics in the order they were first set, then partitions in order).
func (t *Table[V]) Values(f func(V)) {
	var zero V
	for i := range t.topics {
		for _, v := range t.topics[i].vals {
			if v != zero {
				f(v)
			}
		}
	}
}
