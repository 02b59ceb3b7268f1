package tptable

import (
	"testing"

	"txnlab/core/protocol"
)

func tp(topic string, p int32) protocol.TopicPartition {
	return protocol.TopicPartition{Topic: topic, Partition: p}
}

// A table answers as a map would: set, overwrite, delete, absent
// topics and partitions (negative and past the end), and its length.
func TestTableActsAsAMap(t *testing.T) {
	var tab Table[*int]
	ref := map[protocol.TopicPartition]*int{}
	one, two := new(int), new(int)
	ops := []struct {
		tp protocol.TopicPartition
		v  *int
	}{
		{tp("a", 3), one}, {tp("b", 0), two}, {tp("a", 0), two}, {tp("a", 3), two},
		{tp("a", 3), nil}, {tp("c", 9), nil}, {tp("a", -1), one}, {tp("a", Limit), one}, {tp("ab", 1), one}, {tp("b", 0), nil}, {tp("b", 5), one},
	}
	probes := []protocol.TopicPartition{tp("a", 0), tp("a", 3), tp("a", 4), tp("a", -1), tp("b", 0),
		tp("b", 5), tp("c", 9), tp("ab", 1), tp("", 0), tp("abc", 1), tp("a", Limit)}
	for i, op := range ops {
		stored := tab.Set(op.tp, op.v)
		if bad := op.tp.Partition < 0 || op.tp.Partition >= Limit; stored == bad {
			t.Fatalf("op %d: Set(%v) reported %v", i, op.tp, stored)
		} else if bad {
			continue
		}
		if op.v == nil {
			delete(ref, op.tp)
		} else {
			ref[op.tp] = op.v
		}
		for _, p := range probes {
			if got, want := tab.Get(p), ref[p]; got != want {
				t.Fatalf("after op %d, Get(%v) = %p, want %p", i, p, got, want)
			}
		}
		if tab.Len() != len(ref) {
			t.Fatalf("after op %d, Len = %d, want %d", i, tab.Len(), len(ref))
		}
		n := 0
		tab.Values(func(v *int) {
			n++
			if v == nil {
				t.Fatal("Values passed an absent value")
			}
		})
		if n != len(ref) {
			t.Fatalf("after op %d, Values passed %d values, want %d", i, n, len(ref))
		}
	}
}

// Reset empties a table, which then fills again as a new one would.
func TestReset(t *testing.T) {
	var tab Table[*int]
	one := new(int)
	tab.Set(tp("a", 2), one)
	tab.Set(tp("b", 0), one)
	tab.Reset()
	if tab.Len() != 0 || tab.Get(tp("a", 2)) != nil || tab.Get(tp("b", 0)) != nil {
		t.Fatal("Reset left a value")
	}
	tab.Values(func(*int) { t.Fatal("Values after Reset passed a value") })
	tab.Set(tp("b", 0), one)
	if tab.Len() != 1 || tab.Get(tp("b", 0)) != one {
		t.Fatal("a reset table does not store again")
	}
}
