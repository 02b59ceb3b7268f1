package broker

import (
	"slices"
	"strconv"
	"unicode/utf16"

	"txnlab/core/internal/tptable"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// PartitionState is the controller's record of one partition: its
// replicas, in-sync replicas, leader and leader epoch.
type PartitionState struct {
	TP          protocol.TopicPartition
	Replicas    []int32
	ISR         []int32
	Leader      int32 // -1: offline
	LeaderEpoch int32
	MinISR      int
}

// InISR reports whether broker id is in the partition's ISR.
func (p *PartitionState) InISR(id int32) bool {
	for _, r := range p.ISR {
		if r == id {
			return true
		}
	}
	return false
}

// IsReplica reports whether broker id hosts a replica.
func (p *PartitionState) IsReplica(id int32) bool {
	for _, r := range p.Replicas {
		if r == id {
			return true
		}
	}
	return false
}

// Topic is a topic's definition.
type Topic struct {
	Name       string
	Partitions int32
	RF         int
}

// Metadata is the cluster's metadata image as the controller keeps it.
// Brokers and clients read it directly: metadata propagation is instant in
// the simulation (see docs/kafka-fidelity.md).
type Metadata struct {
	NumBrokers        int32
	Alive             []bool
	Topics            []Topic
	Partitions        map[protocol.TopicPartition]*PartitionState
	TxnPartitions     int32
	OffsetsPartitions int32
	// Version changes whenever a leader or a replica set changes, so
	// brokers can cache what they derive from it.
	Version      int
	nextPidBlock int64
	sorted       []*PartitionState // SortedPartitions, cached
	// index is Partitions for Partition's lookups, without hashing the
	// partition's name; AddTopic fills both.
	index tptable.Table[*PartitionState]
}

// ProducerIdBlockSize is Kafka's ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE:
// brokers take producer ids from the controller in blocks this big.
const ProducerIdBlockSize = 1000

// NewMetadata creates the metadata of a fresh cluster with its internal
// topics.
func NewMetadata(brokers, rf, txnPartitions, offsetsPartitions int32) *Metadata {
	m := &Metadata{NumBrokers: brokers, Alive: make([]bool, brokers),
		Partitions:    make(map[protocol.TopicPartition]*PartitionState, max(txnPartitions+offsetsPartitions, 0)),
		TxnPartitions: txnPartitions, OffsetsPartitions: offsetsPartitions}
	for i := range m.Alive {
		m.Alive[i] = true
	}
	minISR := 2
	if int(rf) < minISR {
		minISR = int(rf)
	}
	m.AddTopic(protocol.TransactionStateTopic, txnPartitions, int(rf), minISR)
	m.AddTopic(protocol.ConsumerOffsetsTopic, offsetsPartitions, int(rf), 1)
	return m
}

// AddTopic creates a topic; replica k of partition i lives on broker
// (i + k) mod N and the first replica leads.
func (m *Metadata) AddTopic(name string, partitions int32, rf int, minISR int) {
	m.Version++
	m.Topics = append(m.Topics, Topic{Name: name, Partitions: partitions, RF: rf})
	// Three allocations per topic, not three per partition: every cluster
	// starts with a hundred internal partitions, and the explorer builds
	// thousands of small clusters. Each partition's slices are capped at
	// their length, so an append to one never writes into the next's.
	n := max(int(partitions), 0)
	states := make([]PartitionState, n)
	replicas := make([]int32, n*max(rf, 0))
	isr := make([]int32, 0, len(replicas))
	for i := int32(0); i < partitions; i++ {
		tp := protocol.TopicPartition{Topic: name, Partition: i}
		ps := &states[i]
		*ps = PartitionState{TP: tp, MinISR: minISR, Leader: -1}
		lo := int(i) * rf
		ps.Replicas = replicas[lo : lo+rf : lo+rf]
		for k := range ps.Replicas {
			ps.Replicas[k] = (i + int32(k)) % m.NumBrokers
		}
		start := len(isr)
		for _, r := range ps.Replicas {
			if m.Alive[r] {
				isr = append(isr, r)
				if ps.Leader < 0 {
					ps.Leader = r
				}
			}
		}
		if len(isr) > start {
			ps.ISR = isr[start:len(isr):len(isr)]
		}
		m.Partitions[tp] = ps
		m.index.Set(tp, ps)
	}
}

// Partition is Partitions[tp], looked up without hashing: the brokers
// and the clients ask it for every partition of every request. A
// partition put into Partitions by hand (tests) is found too.
func (m *Metadata) Partition(tp protocol.TopicPartition) *PartitionState {
	if p := m.index.Get(tp); p != nil {
		return p
	}
	return m.Partitions[tp]
}

// Topic finds a topic by name.
func (m *Metadata) Topic(name string) (Topic, bool) {
	for _, t := range m.Topics {
		if t.Name == name {
			return t, true
		}
	}
	return Topic{}, false
}

// SortedPartitions lists every partition in topic, partition order. The
// list is shared: callers must not change it.
func (m *Metadata) SortedPartitions() []*PartitionState {
	// Partitions are only ever added (AddTopic), and their records are
	// updated in place, so the list is stale exactly when it is short.
	if len(m.sorted) != len(m.Partitions) {
		m.sorted = make([]*PartitionState, 0, len(m.Partitions))
		for _, p := range m.Partitions {
			m.sorted = append(m.sorted, p)
		}
		slices.SortFunc(m.sorted, func(a, b *PartitionState) int { return a.TP.Compare(b.TP) })
	}
	return m.sorted
}

// AllocateProducerIdBlock hands out the next block of producer ids.
func (m *Metadata) AllocateProducerIdBlock() int64 {
	b := m.nextPidBlock
	m.nextPidBlock += ProducerIdBlockSize
	return b
}

// Leader returns the leader of tp, or -1.
func (m *Metadata) Leader(tp protocol.TopicPartition) int32 {
	if p := m.Partition(tp); p != nil {
		return p.Leader
	}
	return -1
}

// TxnPartitionFor is the __transaction_state partition of a transactional id.
func (m *Metadata) TxnPartitionFor(transactionalId string) int32 {
	return PartitionFor(transactionalId, m.TxnPartitions)
}

// GroupPartitionFor is the __consumer_offsets partition of a group.
func (m *Metadata) GroupPartitionFor(group string) int32 {
	return PartitionFor(group, m.OffsetsPartitions)
}

// JavaStringHashCode is Java's String.hashCode: h = 31*h + c over UTF-16
// code units with 32-bit wraparound.
func JavaStringHashCode(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			h = 31*h + hi
			r = lo
		}
		h = 31*h + r
	}
	return h
}

// PartitionFor is Kafka's Utils.abs(key.hashCode) % n, where Utils.abs
// maps Integer.MIN_VALUE to 0.
func PartitionFor(key string, n int32) int32 {
	h := JavaStringHashCode(key)
	if h == -1<<31 {
		h = 0
	} else if h < 0 {
		h = -h
	}
	return h % n
}

// MaxNodes is how many broker ids have a node code (a cluster has at most
// 9 brokers; the rest is room).
const MaxNodes = 32

// firstNode is broker 0's code: RegisterNodes names the brokers first in
// a world, so broker i is node firstNode+i in every world a cluster
// builds and NodeID needs no world to look it up.
const firstNode sim.NodeID = 1

// NodesEnd is the first code after the brokers': the next name a world
// learns after RegisterNodes gets it (the cluster's controller).
const NodesEnd = firstNode + MaxNodes

// RegisterNodes names broker-0 … broker-31 in w, which must not know any
// name yet, so that they get the codes NodeID computes.
func RegisterNodes(w *sim.World) {
	for i := range MaxNodes {
		if w.Node("broker-"+strconv.Itoa(i)) != firstNode+sim.NodeID(i) {
			panic("broker: RegisterNodes on a world that already knows names")
		}
	}
}

// NodeID is the simulation node of broker id in a world RegisterNodes
// prepared; sim.NoNode for an id out of range (no leader: -1).
func NodeID(id int32) sim.NodeID {
	if id >= 0 && id < MaxNodes {
		return firstNode + sim.NodeID(id)
	}
	return sim.NoNode
}

// IDOf is the broker id of node n; ok is false for other nodes.
func IDOf(n sim.NodeID) (int32, bool) {
	if n >= firstNode && n < NodesEnd {
		return int32(n - firstNode), true
	}
	return 0, false
}

// IsBrokerName reports whether name has a broker's form ("broker-" and a
// number), which no client may take.
func IsBrokerName(name string) bool {
	if len(name) < 8 || name[:7] != "broker-" {
		return false
	}
	_, err := strconv.Atoi(name[7:])
	return err == nil
}
