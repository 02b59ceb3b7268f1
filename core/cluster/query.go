package cluster

// The queries every host reads the cluster's state through: the scenario
// language's expectations and queries, and the snapshot the inspector
// shows, call the same functions here, so an `expect` and the inspector
// cannot disagree about a value (issue 11, "one front door").

import (
	"slices"
	"strconv"

	"txnlab/core/broker"
	"txnlab/core/client"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/txncoord"
)

// CoordinatorInfo is where a transactional id's coordinator is now, as the
// controller's metadata says.
type CoordinatorInfo struct {
	Partition int32 // its __transaction_state partition
	Broker    int32 // the broker leading that partition, -1 for none
	// Epoch is the coordinator epoch: the leader epoch of the partition
	// (Kafka's coordinator takes the partition's leader epoch when it
	// becomes leader, and writes its markers with it).
	Epoch int32
	// Loading is true while the leading broker is up and still loading
	// the partition (answering COORDINATOR_LOAD_IN_PROGRESS).
	Loading bool
}

// Coordinator is the one answer to "where is this transactional id's
// coordinator": expect coordinator, the coordinator() node reference,
// the coordinator query and the snapshot all read it.
func (c *Cluster) Coordinator(transactionalId string) CoordinatorInfo {
	leader, p := c.CoordinatorOf(transactionalId)
	tp := protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: p}
	info := CoordinatorInfo{Partition: p, Broker: leader}
	if ps := c.Meta.Partition(tp); ps != nil {
		info.Epoch = ps.LeaderEpoch
	}
	if b := c.Broker(info.Broker); b != nil {
		for _, s := range b.Txn.Snapshot() {
			if s.Partition == p && s.Loading {
				info.Loading = true
			}
		}
	}
	return info
}

// TxnMetadata is a transactional id's metadata as its coordinator holds
// it now.
type TxnMetadata struct {
	Coordinator CoordinatorInfo
	// Live is false when no live broker leads the id's partition: nothing
	// can be read then.
	Live bool
	// Known is false when the coordinator holds no metadata for the id
	// (never initialised, expired, or its partition still loading).
	Known    bool
	Metadata txncoord.MetadataView
}

// Transaction reads a transactional id's metadata at its coordinator:
// expect txn, the txn query and the snapshot read it.
func (c *Cluster) Transaction(transactionalId string) TxnMetadata {
	t := TxnMetadata{Coordinator: c.Coordinator(transactionalId)}
	b := c.Broker(t.Coordinator.Broker)
	if b == nil {
		return t
	}
	t.Live = true
	t.Metadata, _, t.Known = b.Txn.Lookup(transactionalId)
	return t
}

// PartitionFacts is what expect partition, the partition query and the
// snapshot read of a partition: the controller's view (leader, leader
// epoch, ISR) and the offsets of the leader's replica (or the first
// replica's while it has no leader).
type PartitionFacts struct {
	Leader      int32 // -1: none
	LeaderEpoch int32
	Replicas    []int32
	ISR         []int32 // sorted
	HW, LSO     int64
	LogEnd      int64
}

// HasPartition reports whether the partition exists.
func (c *Cluster) HasPartition(tp protocol.TopicPartition) bool { return c.Meta.Partition(tp) != nil }

// LeaderOf is the broker leading a partition now, -1 for none.
func (c *Cluster) LeaderOf(tp protocol.TopicPartition) int32 { return c.Meta.Leader(tp) }

// PartitionFacts reads a partition's facts; false when it does not exist.
func (c *Cluster) PartitionFacts(tp protocol.TopicPartition) (PartitionFacts, bool) {
	p := c.Meta.Partition(tp)
	if p == nil {
		return PartitionFacts{}, false
	}
	isr := append([]int32(nil), p.ISR...)
	slices.Sort(isr)
	f := PartitionFacts{Leader: p.Leader, LeaderEpoch: p.LeaderEpoch, Replicas: append([]int32(nil), p.Replicas...), ISR: isr}
	// Read without creating the replica's log (Disk.Log would): a query
	// changes nothing.
	if log := c.Disks[logHolder(p)].Logs[tp]; log != nil {
		f.HW, f.LSO, f.LogEnd = log.HighWatermark, log.LSO(), log.LogEndOffset()
	}
	return f, true
}

// logHolder is the broker whose replica a partition's facts are read
// from: the leader's; while it has no leader, the in-sync replica it
// will come back with (no unclean election: the last member of the ISR
// stays in it), or the first replica if the ISR names none. Reading the
// first replica of an offline partition read a stale one (a broker paused
// and fenced long before), whose log lacked acknowledged records the
// in-sync replicas kept: the checker then saw them lost.
func logHolder(p *broker.PartitionState) int32 {
	switch {
	case p.Leader >= 0:
		return p.Leader
	case len(p.ISR) > 0:
		return p.ISR[0]
	}
	return p.Replicas[0]
}

// Log lists a partition's records and markers at the leader's replica (the
// first replica's while it has no leader), the way expect log and the
// inspector read them; false when the partition does not exist. Records
// of __transaction_state hold the transaction state they record in Value
// (Dead for a tombstone), records of __consumer_offsets the committed
// offset.
func (c *Cluster) Log(tp protocol.TopicPartition) ([]LogEntryView, bool) {
	p := c.Meta.Partition(tp)
	if p == nil {
		return nil, false
	}
	log := c.Disks[logHolder(p)].Logs[tp]
	if log == nil {
		return nil, true
	}
	if isUserTopic(tp.Topic) {
		return LogEntries(log, nil), true
	}
	return internalLogEntries(log), true
}

// ProducerHolders maps each producer id to the declared producers that
// held it (granted, wrote with, or hold now), in declaration order.
func (c *Cluster) ProducerHolders() map[int64][]string {
	m := map[int64][]string{}
	for _, name := range c.ClientOrder {
		p := c.Producers[name]
		if p == nil {
			continue
		}
		seen := map[int64]bool{}
		for _, g := range p.Grants {
			seen[g.ProducerId] = true
		}
		for _, snd := range p.Sends {
			seen[snd.ProducerId] = true
		}
		if p.ProducerId >= 0 {
			seen[p.ProducerId] = true
		}
		for pid := range seen {
			m[pid] = append(m[pid], name)
		}
	}
	return m
}

// GroupOffsets is what a require_stable OffsetFetch for the partitions
// returns from the group's coordinator; live is false when no live broker
// leads the group's __consumer_offsets partition (p).
func (c *Cluster) GroupOffsets(group string, tps []protocol.TopicPartition) (resp *protocol.OffsetFetchResponse, p int32, live bool) {
	leader, p := c.GroupCoordinatorOf(group)
	b := c.Broker(leader)
	if b == nil {
		return nil, p, false
	}
	req := &protocol.OffsetFetchRequest{GroupId: group, RequireStable: true, Partitions: tps}
	return b.Group.Fetch(req), p, true
}

// ProducerInfo is what a producer's card, expect NAME state and the
// producer query read of it.
type ProducerInfo struct {
	TransactionalId string
	ProducerId      int64
	ProducerEpoch   int16
	State           string // the TransactionManager state
	Transactional   bool
	Cfg             ProducerConfig
}

// Producer reads a declared producer's state; false when name is not one.
func (c *Cluster) Producer(name string) (ProducerInfo, bool) {
	p := c.Producers[name]
	if p == nil {
		return ProducerInfo{}, false
	}
	return ProducerInfo{TransactionalId: p.Cfg.TransactionalId, ProducerId: p.ProducerId, ProducerEpoch: p.ProducerEpoch,
		State: string(p.State), Transactional: p.Transactional(), Cfg: p.Cfg}, true
}

// IsConsumer reports whether name is a declared consumer.
func (c *Cluster) IsConsumer(name string) bool { return c.Consumers[name] != nil }

// Received is the values a consumer has received from a partition, in
// order; false when name is not a consumer.
func (c *Cluster) Received(name string, tp protocol.TopicPartition) ([]string, bool) {
	k := c.Consumers[name]
	if k == nil {
		return nil, false
	}
	var vals []string
	for _, r := range k.Received[tp] {
		vals = append(vals, r.Value)
	}
	return vals, true
}

// Position is a consumer's fetch position of a partition: the offset of
// the next record it will fetch, -1 before it knows one; false when name
// is not a consumer.
func (c *Cluster) Position(name string, tp protocol.TopicPartition) (int64, bool) {
	k := c.Consumers[name]
	if k == nil {
		return 0, false
	}
	pos, ok := k.Positions[tp]
	if !ok {
		return -1, true
	}
	return pos, true
}

// LastCall is a client's last call, done or not; nil before its first.
func (c *Cluster) LastCall(name string) *Call {
	if p := c.Producers[name]; p != nil {
		return p.Last()
	}
	if k := c.Consumers[name]; k != nil {
		return k.Last()
	}
	return nil
}

// PendingCalls are the calls of client name that have not returned,
// oldest first: with sends in flight, a producer has several.
func (c *Cluster) PendingCalls(name string) []*Call {
	var calls []*Call
	if p := c.Producers[name]; p != nil {
		calls = p.Calls()
	} else if k := c.Consumers[name]; k != nil {
		calls = k.Calls()
	}
	var pending []*Call
	for _, call := range calls {
		if !call.Done {
			pending = append(pending, call)
		}
	}
	return pending
}

// LastCompleted is a client's last call that returned; nil before one did.
func (c *Cluster) LastCompleted(name string) *Call {
	if p := c.Producers[name]; p != nil {
		return p.LastCompleted()
	}
	if k := c.Consumers[name]; k != nil {
		return k.LastCompleted()
	}
	return nil
}

// internalLogEntries lists the records and markers of a __transaction_state
// or __consumer_offsets replica: Key is the record's key, Value the
// transaction state it records (Dead for a tombstone) or the offset it
// commits; a marker has Marker and ProducerId set.
func internalLogEntries(log *partition.Log) []LogEntryView {
	var out []LogEntryView
	for i := range log.Batches {
		b := &log.Batches[i]
		for j, r := range b.Records {
			e := LogEntryView{Offset: b.BaseOffset + int64(j), ProducerId: b.ProducerId, ProducerEpoch: b.ProducerEpoch,
				Sequence: -1, Key: r.Key}
			switch {
			case b.IsControl:
				e.Key, e.Marker, e.Status = "", b.ControlType.String(), "marker"
			case r.Tombstone:
				e.Value = protocol.Dead.String()
			case r.TxnLog != nil:
				e.Value = r.TxnLog.TransactionStatus.String()
			case r.Offset != nil:
				e.Value = strconv.FormatInt(r.Offset.CommittedOffset, 10)
			default:
				e.Value = r.Value
			}
			out = append(out, e)
		}
	}
	return out
}

// ProducerStates names the producer's transactional states in the Java
// TransactionManager's order: core/client's table, for the scripts that
// expect one (a query's ProducerInfo.State is one of them).
func ProducerStates() []string {
	out := make([]string, len(client.TxnStates))
	for i, s := range client.TxnStates {
		out[i] = string(s)
	}
	return out
}
