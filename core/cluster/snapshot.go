package cluster

import (
	"slices"
	"sort"

	"txnlab/core/broker"
	"txnlab/core/client"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
	"txnlab/core/txncoord"
)

// Snapshot is a deep copy of everything the inspector shows, at one
// moment. Taking it draws nothing and changes nothing.
type Snapshot struct {
	Time         sim.Time
	Events       int
	Brokers      []BrokerView
	Producers    []ProducerView
	Consumers    []ConsumerView
	Transactions []TransactionView
	Partitions   []PartitionView
	Offsets      []OffsetView
	// Groups are the declared consumer groups' memberships as their
	// coordinators hold them, those nobody has joined left out.
	Groups []GroupView
	Broken []string
}

// BrokerView is one broker's card.
type BrokerView struct {
	Name   string
	Status string
	// CoordinatorOf lists the declared transactional ids this broker
	// coordinates now; GroupCoordinatorOf the declared groups.
	CoordinatorOf      []string
	GroupCoordinatorOf []string
	LeaderOf           []string
	Fenced             bool
}

// ProducerView is one producer's card.
type ProducerView struct {
	Name            string
	Status          string
	TransactionalId string
	ProducerId      int64
	ProducerEpoch   int16
	State           string
	LastError       string
	LastCall        string
	LastResult      string
	Pending         bool
}

// ConsumerView is one consumer's card.
type ConsumerView struct {
	Name           string
	Status         string
	IsolationLevel string
	GroupId        string
	Positions      []PositionView
}

// PositionView is a consumer's position and what it received.
type PositionView struct {
	Partition string
	Position  int64
	Received  []string
}

// TransactionView is a transactional id as its coordinator sees it.
type TransactionView struct {
	TransactionalId  string
	Partition        int32
	Coordinator      string
	CoordinatorEpoch int32
	Loading          bool
	Known            bool
	Metadata         txncoord.MetadataView
	// Log is the id's records in the coordinator's __transaction_state
	// replica, oldest first.
	Log []TxnLogEntry
}

// TxnLogEntry is one __transaction_state record.
type TxnLogEntry struct {
	Offset int64
	Value  string
}

// PartitionView is one user-topic partition at its leader.
type PartitionView struct {
	Partition     string
	Leader        string
	LeaderEpoch   int32
	Replicas      []int32
	ISR           []int32
	HighWatermark int64
	LSO           int64
	LogEndOffset  int64
	Entries       []LogEntryView
	Producers     []ProducerStateView
	Aborted       []partition.AbortedTxn
	Ongoing       []partition.TxnRange
}

// LogEntryView is one record or marker of a partition log, with its
// status for read_committed readers.
type LogEntryView struct {
	Offset        int64
	ProducerId    int64
	ProducerEpoch int16
	Sequence      int32
	Key, Value    string
	Transactional bool
	// Marker is "COMMIT" or "ABORT" for a control record.
	Marker string
	// Status is "committed", "aborted", "pending" (transaction open or
	// marker not yet stable) or "plain" (non-transactional).
	Status string
	// Producer names the declared client that holds this producer id.
	Producer string
}

// ProducerStateView is a row of the partition's producer-state table.
type ProducerStateView struct {
	ProducerId            int64
	ProducerEpoch         int16
	CoordinatorEpoch      int32
	CurrentTxnFirstOffset int64
	LastSequence          int32
	Batches               []partition.BatchMetadata
}

// OffsetView is a committed or pending group offset.
type OffsetView struct {
	Group      string
	Partition  string
	Offset     int64
	Pending    bool
	ProducerId int64
}

// Snapshot copies the current state.
func (c *Cluster) Snapshot() Snapshot {
	w := c.World
	s := Snapshot{Time: w.Now(), Events: w.Trace.Len()}
	for _, m := range safety.Mechanisms {
		if w.Broken(m) {
			s.Broken = append(s.Broken, m.Name)
		}
	}
	txnIds := c.TransactionalIds()
	groups := c.groups()
	for id := range c.Brokers {
		bid := int32(id)
		bv := BrokerView{Name: c.World.Name(broker.NodeID(bid)), Status: w.StatusOf(broker.NodeID(bid)).String(), Fenced: c.fenced[id]}
		for _, t := range txnIds {
			if l, _ := c.CoordinatorOf(t); l == bid {
				bv.CoordinatorOf = append(bv.CoordinatorOf, t)
			}
		}
		for _, g := range groups {
			if l, _ := c.GroupCoordinatorOf(g); l == bid {
				bv.GroupCoordinatorOf = append(bv.GroupCoordinatorOf, g)
			}
		}
		for _, p := range c.Meta.SortedPartitions() {
			if p.Leader == bid && isUserTopic(p.TP.Topic) {
				bv.LeaderOf = append(bv.LeaderOf, p.TP.String())
			}
		}
		s.Brokers = append(s.Brokers, bv)
	}
	for _, name := range c.ClientOrder {
		id, _ := w.Lookup(name)
		status := w.StatusOf(id).String()
		if p := c.Producers[name]; p != nil {
			info, _ := c.Producer(name)
			pv := ProducerView{Name: name, Status: status, TransactionalId: info.TransactionalId, ProducerId: info.ProducerId,
				ProducerEpoch: info.ProducerEpoch, State: info.State}
			if e := p.LastError(); !e.OK() {
				pv.LastError = e.String()
			}
			if l := p.Last(); l != nil {
				pv.LastCall, pv.Pending = string(l.Kind), !l.Done
				if l.Done {
					pv.LastResult = l.Result.String()
				}
			}
			s.Producers = append(s.Producers, pv)
		}
		if cons := c.Consumers[name]; cons != nil {
			cv := ConsumerView{Name: name, Status: status, GroupId: cons.Cfg.GroupId, IsolationLevel: "read_uncommitted"}
			if cons.Cfg.IsolationLevel == protocol.ReadCommitted {
				cv.IsolationLevel = "read_committed"
			}
			for _, tp := range cons.Assigned {
				pv := PositionView{Partition: tp.String(), Position: cons.Positions[tp]}
				pv.Received, _ = c.Received(name, tp)
				cv.Positions = append(cv.Positions, pv)
			}
			s.Consumers = append(s.Consumers, cv)
		}
	}
	for _, id := range txnIds {
		s.Transactions = append(s.Transactions, c.transactionView(id))
	}
	pidNames := c.producerNames()
	for _, p := range c.Meta.SortedPartitions() {
		if isUserTopic(p.TP.Topic) {
			s.Partitions = append(s.Partitions, c.partitionView(p, pidNames))
		}
	}
	for _, g := range groups {
		if v, ok := c.Group(g); ok && (v.Generation > 0 || len(v.Members) > 0) {
			s.Groups = append(s.Groups, v)
		}
	}
	for _, b := range c.Brokers {
		if b == nil {
			continue
		}
		for _, o := range b.Group.Snapshot() {
			s.Offsets = append(s.Offsets, OffsetView{Group: o.Group, Partition: o.Partition.String(), Offset: o.Offset, Pending: o.Pending, ProducerId: o.ProducerId})
		}
	}
	return s
}

func (c *Cluster) groups() []string {
	seen := map[string]bool{}
	var out []string
	for _, name := range c.ClientOrder {
		if cons := c.Consumers[name]; cons != nil && cons.Cfg.GroupId != "" && !seen[cons.Cfg.GroupId] {
			seen[cons.Cfg.GroupId] = true
			out = append(out, cons.Cfg.GroupId)
		}
	}
	sort.Strings(out)
	return out
}

// producerNames maps producer ids to the declared clients that held them.
func (c *Cluster) producerNames() map[int64]string {
	m := map[int64]string{}
	for _, name := range c.ClientOrder {
		if p := c.Producers[name]; p != nil {
			for _, s := range p.Sends {
				m[s.ProducerId] = name
			}
			if p.ProducerId >= 0 {
				m[p.ProducerId] = name
			}
		}
	}
	return m
}

func (c *Cluster) transactionView(id string) TransactionView {
	t := c.Transaction(id)
	co := t.Coordinator
	tv := TransactionView{TransactionalId: id, Partition: co.Partition}
	if co.Broker < 0 {
		return tv
	}
	tv.Coordinator = c.World.Name(broker.NodeID(co.Broker))
	tv.CoordinatorEpoch, tv.Loading = co.Epoch, co.Loading
	tv.Known, tv.Metadata = t.Known, t.Metadata
	log := c.Disks[co.Broker].Logs[protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: co.Partition}]
	if log != nil {
		for _, batch := range log.Batches {
			for i, r := range batch.Records {
				if r.Key != id {
					continue
				}
				v := "<tombstone>"
				if r.TxnLog != nil {
					v = r.TxnLog.Summary()
				}
				tv.Log = append(tv.Log, TxnLogEntry{Offset: batch.BaseOffset + int64(i), Value: v})
			}
		}
	}
	return tv
}

func (c *Cluster) partitionView(p *broker.PartitionState, names map[int64]string) PartitionView {
	f, _ := c.PartitionFacts(p.TP)
	pv := PartitionView{Partition: p.TP.String(), LeaderEpoch: f.LeaderEpoch, Replicas: f.Replicas, ISR: f.ISR, Leader: "none"}
	if f.Leader >= 0 {
		pv.Leader = c.World.Name(broker.NodeID(f.Leader))
	}
	log := c.Disks[logHolder(p)].Logs[p.TP]
	if log == nil {
		return pv
	}
	pv.HighWatermark, pv.LSO, pv.LogEndOffset = f.HW, f.LSO, f.LogEnd
	pv.Aborted = append(pv.Aborted, log.AbortedIndex...)
	pv.Ongoing = append(pv.Ongoing, log.Ongoing...)
	pv.Entries = LogEntries(log, names)
	for _, id := range log.ProducerIds() {
		e := log.Producers[id]
		row := ProducerStateView{ProducerId: id, ProducerEpoch: e.ProducerEpoch, CoordinatorEpoch: e.CoordinatorEpoch,
			CurrentTxnFirstOffset: e.CurrentTxnFirstOffset, LastSequence: -1, Batches: append([]partition.BatchMetadata(nil), e.Batches...)}
		if n := len(e.Batches); n > 0 {
			row.LastSequence = e.Batches[n-1].LastSeq
		}
		pv.Producers = append(pv.Producers, row)
	}
	return pv
}

// LogEntries lists a log's records and markers with their transactional
// status, the way `expect log` and the inspector read them. A
// transactional batch's status is that of the first marker of its
// producer after it (aborted; committed below the LSO, else pending),
// pending when there is none: found in one pass from the log's end, as
// the inspector takes a partition's whole log at every move and a scan
// per batch made that quadratic in the log's length.
func LogEntries(log *partition.Log, names map[int64]string) []LogEntryView {
	n := 0
	for i := range log.Batches {
		n += len(log.Batches[i].Records)
	}
	if n == 0 {
		return nil
	}
	status := txnStatuses(log)
	out := make([]LogEntryView, 0, n)
	for i := range log.Batches {
		b := &log.Batches[i]
		for j, r := range b.Records {
			e := LogEntryView{Offset: b.BaseOffset + int64(j), ProducerId: b.ProducerId, ProducerEpoch: b.ProducerEpoch,
				Sequence: -1, Key: r.Key, Value: r.Value, Transactional: b.IsTransactional, Status: status[i], Producer: names[b.ProducerId]}
			if b.BaseSequence >= 0 {
				e.Sequence = b.BaseSequence + int32(j)
			}
			if b.IsControl {
				e.Marker, e.Key, e.Value, e.Status = b.ControlType.String(), "", "", "marker"
			}
			out = append(out, e)
		}
	}
	return out
}

// txnStatuses is each batch's status for LogEntries ("plain" but for
// transactional data batches), from the log's end to its start, keeping
// the first marker after the batch for each producer met so far (a log
// has a few producers: a list beats a map).
func txnStatuses(log *partition.Log) []string {
	lso := log.LSO()
	status := make([]string, len(log.Batches))
	type nextMarker struct {
		pid int64
		ct  protocol.ControlType
	}
	var next []nextMarker
	find := func(pid int64) int { return slices.IndexFunc(next, func(m nextMarker) bool { return m.pid == pid }) }
	for i := len(log.Batches) - 1; i >= 0; i-- {
		b := &log.Batches[i]
		status[i] = "plain"
		if b.IsControl {
			k := find(b.ProducerId)
			if k < 0 {
				next = append(next, nextMarker{pid: b.ProducerId, ct: b.ControlType})
			} else {
				next[k].ct = b.ControlType
			}
			continue
		}
		if !b.IsTransactional {
			continue
		}
		status[i] = "pending"
		if k := find(b.ProducerId); k >= 0 {
			switch {
			case next[k].ct == protocol.ControlAbort:
				status[i] = "aborted"
			case b.BaseOffset < lso:
				status[i] = "committed"
			}
		}
	}
	return status
}

// ClientSends exposes what every producer sent, for the checker.
func (c *Cluster) ClientSends() map[string][]client.SentRecord {
	out := map[string][]client.SentRecord{}
	for name, p := range c.Producers {
		out[name] = p.Sends
	}
	return out
}
