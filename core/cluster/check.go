package cluster

import (
	"txnlab/core/check"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// CheckInput gathers what the invariant checker reads: the clients'
// histories, the leaders' logs, the coordinators' answers, the trace.
func (c *Cluster) CheckInput(final bool) *check.Input {
	in := &check.Input{Logs: map[protocol.TopicPartition]*partition.Log{}, Coordinators: map[string]check.CoordinatorState{},
		Trace: &c.World.Trace, Final: final}
	for _, name := range c.ClientOrder {
		if p := c.Producers[name]; p != nil {
			in.Producers = append(in.Producers, check.Producer{Name: name, TransactionalId: p.Cfg.TransactionalId,
				Idempotent: p.Cfg.EnableIdempotence, Acks: p.Cfg.Acks, Sends: p.Sends, Txns: p.Txns, Grants: p.Grants})
		}
		if cons := c.Consumers[name]; cons != nil {
			in.Consumers = append(in.Consumers, check.Consumer{Name: name, ReadCommitted: cons.Cfg.IsolationLevel == protocol.ReadCommitted,
				Received: cons.Received})
		}
	}
	for _, p := range c.Meta.SortedPartitions() {
		if p.TP.Topic == protocol.ConsumerOffsetsTopic {
			c.offsetsLog(in, p.TP, p.Leader)
			continue
		}
		if !isUserTopic(p.TP.Topic) {
			continue
		}
		if log := c.Disks[logHolder(p)].Logs[p.TP]; log != nil {
			in.Logs[p.TP] = log
		}
	}
	for _, id := range c.TransactionalIds() {
		leader, p := c.CoordinatorOf(id)
		if b := c.Broker(leader); b != nil {
			md, _, ok := b.Txn.Lookup(id)
			st, _ := protocol.TransactionStateByName(md.State)
			in.Coordinators[id] = check.CoordinatorState{Known: ok, State: st, ProducerId: md.ProducerId,
				ProducerEpoch: md.ProducerEpoch, Pending: md.PendingState != "", LastUpdate: md.TxnLastUpdateTimestamp,
				Log: b.Disk.Logs[protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: p}], Node: b.Node}
		}
	}
	for _, b := range c.Brokers {
		if b == nil {
			continue
		}
		for _, o := range b.Group.Snapshot() {
			in.Offsets = append(in.Offsets, check.Offset{Group: o.Group, Partition: o.Partition, Offset: o.Offset, Pending: o.Pending, ProducerId: o.ProducerId})
		}
	}
	return in
}

// offsetsLog adds a __consumer_offsets partition to what the checker
// reads when its leader is up and has loaded it: the leader's log and the
// offsets the coordinator answers for the groups the partition holds.
// The checker replays the log itself and compares, so a coordinator that
// loses an offset its log holds cannot hide it.
func (c *Cluster) offsetsLog(in *check.Input, tp protocol.TopicPartition, leader int32) {
	b := c.Broker(leader)
	if b == nil || c.World.StatusOf(b.Node) == sim.Crashed || !b.Group.Serves(tp.Partition) || c.Disks[leader].Logs[tp] == nil {
		return
	}
	ol := check.OffsetsLog{Log: c.Disks[leader].Logs[tp], Committed: map[check.GroupPartition]int64{}}
	for _, o := range b.Group.Snapshot() {
		if !o.Pending && c.Meta.GroupPartitionFor(o.Group) == tp.Partition {
			ol.Committed[check.GroupPartition{Group: o.Group, Partition: o.Partition}] = o.Offset
		}
	}
	in.OffsetsLogs = append(in.OffsetsLogs, ol)
}

// Check runs the invariant checker over the history so far.
func (c *Cluster) Check(final bool) []check.Violation {
	return check.Check(c.CheckInput(final))
}
