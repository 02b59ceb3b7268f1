package broker

import (
	"reflect"
	"strconv"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// TestJavaStringHashCode checks the hash against values of Java's
// String.hashCode, computed independently (h = 31*h + c over UTF-16 code
// units, wrapping at 32 bits). A learner compares these partition numbers
// with a real cluster, so they must be exactly Kafka's.
func TestJavaStringHashCode(t *testing.T) {
	tests := []struct {
		key  string
		hash int32
		p50  int32 // Utils.abs(hash) % 50
	}{
		{"", 0, 0},
		{"a", 97, 47},
		{"g1", 3242, 42}, // 31*'g' + '1' = 31*103 + 49
		{"txn-a", 110810558, 8},
		{"txn-b", 110810559, 9},
		{"order-txn-1", 542850639, 39},
		{"transactional-id-with-a-long-name-0001", 1074615191, 41}, // wraps many times
		// negative hashes: Utils.abs
		{"checkout-1", -503506582, 32},
		{"slow-txn", -1084933986, 36},
		{"my-group", -1906497762, 12},
		// Integer.MIN_VALUE: Utils.abs maps it to 0 (Math.abs would stay negative)
		{"polygenelubricants", -2147483648, 0},
		{"GydZG_", -2147483648, 0},
		{"DESIGNING WORKHOUSES", -2147483648, 0},
		// non-ASCII: Java hashes UTF-16 code units, not bytes or runes
		{"é", 233, 33},
		{"日本語", 25921943, 43},
		{"consumer-group-ä", 147483199, 49},
		// outside the BMP: a surrogate pair, 31*0xD83D + 0xDE00
		{"😀", 1772899, 49},
	}
	for _, tc := range tests {
		if got := JavaStringHashCode(tc.key); got != tc.hash {
			t.Errorf("JavaStringHashCode(%q) = %d, want %d", tc.key, got, tc.hash)
		}
		if got := PartitionFor(tc.key, 50); got != tc.p50 {
			t.Errorf("PartitionFor(%q, 50) = %d, want %d", tc.key, got, tc.p50)
		}
		for _, n := range []int32{1, 3, 7, 50} {
			if p := PartitionFor(tc.key, n); p < 0 || p >= n {
				t.Errorf("PartitionFor(%q, %d) = %d, out of range", tc.key, n, p)
			}
		}
	}
	// The surrogate pair is two code units, not the rune U+1F600.
	if JavaStringHashCode("😀") == 0x1F600 {
		t.Error("hashed the rune, not its UTF-16 code units")
	}
}

func TestMetadataPlacement(t *testing.T) {
	m := NewMetadata(3, 3, 50, 50)
	if m.TxnPartitionFor("order-txn-1") != 39 || m.GroupPartitionFor("g1") != 42 {
		t.Fatalf("internal partitions: %d %d", m.TxnPartitionFor("order-txn-1"), m.GroupPartitionFor("g1"))
	}
	// __transaction_state/39 lives on brokers 0, 1, 2 (39 mod 3 = 0 first).
	p := m.Partitions[protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: 39}]
	if !reflect.DeepEqual(p.Replicas, []int32{0, 1, 2}) || p.Leader != 0 || p.LeaderEpoch != 0 || p.MinISR != 2 {
		t.Fatalf("__transaction_state/39: %+v", *p)
	}
	m.AddTopic("orders", 4, 2, 1)
	for i, want := range [][]int32{{0, 1}, {1, 2}, {2, 0}, {0, 1}} {
		p := m.Partitions[protocol.TopicPartition{Topic: "orders", Partition: int32(i)}]
		if !reflect.DeepEqual(p.Replicas, want) || !reflect.DeepEqual(p.ISR, want) || p.Leader != want[0] {
			t.Errorf("orders/%d: replicas %v isr %v leader %d, want %v led by %d", i, p.Replicas, p.ISR, p.Leader, want, want[0])
		}
	}
	// A topic created while a broker is down skips it for leadership.
	m.Alive[1] = false
	m.AddTopic("later", 2, 2, 1)
	if l := m.Leader(protocol.TopicPartition{Topic: "later", Partition: 1}); l != 2 {
		t.Errorf("later/1 led by %d, want 2 (broker 1 is down)", l)
	}
	if m.Leader(protocol.TopicPartition{Topic: "nope"}) != -1 {
		t.Error("unknown partition has a leader")
	}
	// rf 1: min ISR of __transaction_state follows rf.
	if p := NewMetadata(1, 1, 1, 1).Partitions[protocol.TopicPartition{Topic: protocol.TransactionStateTopic}]; p.MinISR != 1 {
		t.Errorf("min ISR with rf=1 is %d", p.MinISR)
	}
	sp := m.SortedPartitions()
	for i := 1; i < len(sp); i++ {
		if !sp[i-1].TP.Less(sp[i].TP) {
			t.Fatalf("SortedPartitions not sorted at %d: %v then %v", i, sp[i-1].TP, sp[i].TP)
		}
	}
}

// TestNodeNames: in a world RegisterNodes prepared, broker i's code
// names "broker-i", IDOf inverts NodeID, and only broker names are
// reserved for brokers.
func TestNodeNames(t *testing.T) {
	w := sim.NewWorld(1)
	RegisterNodes(w)
	p1 := w.Node("p1")
	for _, id := range []int32{0, 7, MaxNodes - 1} {
		if got, want := w.Name(NodeID(id)), "broker-"+strconv.Itoa(int(id)); got != want {
			t.Errorf("NodeID(%d) names %q, want %q", id, got, want)
		}
		if back, ok := IDOf(NodeID(id)); !ok || back != id {
			t.Errorf("IDOf(NodeID(%d)) = %d, %v", id, back, ok)
		}
	}
	if NodeID(-1) != sim.NoNode || NodeID(MaxNodes) != sim.NoNode {
		t.Error("an id out of range has a node")
	}
	if _, ok := IDOf(p1); ok {
		t.Error("a client's node reads as a broker")
	}
	if p1 != NodesEnd {
		t.Errorf("the first name after the brokers got code %d, want NodesEnd %d", p1, NodesEnd)
	}
	for name, want := range map[string]bool{"broker-0": true, "broker-12": true, "broker-40": true, "broker-": false,
		"broker-x": false, "controller": false, "p1": false, "brokers-1": false} {
		if IsBrokerName(name) != want {
			t.Errorf("IsBrokerName(%q) = %v", name, !want)
		}
	}
}

func TestProducerIdBlocks(t *testing.T) {
	m := NewMetadata(2, 1, 1, 1)
	cfg := DefaultConfig()
	b0 := New(0, m, NewDisk(), &cfg)
	b1 := New(1, m, NewDisk(), &cfg)
	if got := []int64{b0.AllocateProducerId(), b0.AllocateProducerId(), b1.AllocateProducerId(), b0.AllocateProducerId()}; !reflect.DeepEqual(got, []int64{0, 1, 1000, 2}) {
		t.Fatalf("producer ids %v: each broker takes blocks of %d", got, ProducerIdBlockSize)
	}
	for i := 3; i < ProducerIdBlockSize; i++ {
		b0.AllocateProducerId()
	}
	if id := b0.AllocateProducerId(); id != 2000 {
		t.Fatalf("after its block, broker 0 got %d, want the next block at 2000", id)
	}
}
