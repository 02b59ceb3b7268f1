// Package groupcoord is the group coordinator module of a broker, reduced
// to what transactions need: committed offsets in __consumer_offsets,
// OffsetCommit, OffsetFetch with require_stable, and TxnOffsetCommit
// whose offsets stay pending until the transaction's marker reaches the
// offsets partition (materialised on COMMIT, dropped on ABORT); and the
// classic membership protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup, group.go)
// whose generations fence a zombie's commits (KIP-447).
//
// Simplified: offsets never expire; the membership is not persisted.
package groupcoord

import (
	"sort"
	"strconv"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Host is what the module needs from its broker.
type Host interface {
	BrokerNode() sim.NodeID
	GroupPartitionFor(group string) int32
	ReplicaLog(tp protocol.TopicPartition) *partition.Log
	AppendInternal(w *sim.World, tp protocol.TopicPartition, batch protocol.RecordBatch, timeout sim.Time, done func(w *sim.World, base int64, err protocol.ErrorCode))
}

type offsetKey struct {
	group string
	tp    protocol.TopicPartition
}

type committed struct {
	offset   int64
	position int64 // log offset of the record, so the newest commit wins
	pid      int64 // the transaction that wrote it, -1 for OffsetCommit
}

// offsetsPartition is the state of one loaded __consumer_offsets partition.
type offsetsPartition struct {
	epoch     int32
	committed map[offsetKey]committed
	pending   map[int64]map[offsetKey]committed // producer id → pending offsets
	groups    map[string]*group                 // membership (group.go)
}

// Coordinator is the module.
type Coordinator struct {
	host    Host
	cfg     *Config
	parts   map[int32]*offsetsPartition
	loading map[int32]int32
	// nextMember numbers the member ids this broker hands out.
	nextMember int
}

// New creates the module for a broker; cfg is shared with the broker, so
// a config statement reaches it.
func New(host Host, cfg *Config) *Coordinator {
	return &Coordinator{host: host, cfg: cfg, parts: map[int32]*offsetsPartition{}, loading: map[int32]int32{}}
}

const timerLoad = "group.load"

// OffsetsCommitTimeoutMs is offsets.commit.timeout.ms: how long an offset
// write waits for replication.
const OffsetsCommitTimeoutMs = 5 * sim.Second

// Busy reports partitions still loading.
func (c *Coordinator) Busy() bool { return len(c.loading) > 0 }

type loadJob struct{ partition, epoch int32 }

// OnElection starts loading a partition this broker now leads.
func (c *Coordinator) OnElection(w *sim.World, p, epoch int32) {
	delete(c.parts, p)
	c.loading[p] = epoch
	w.After(c.host.BrokerNode(), 2, timerLoad, loadJob{p, epoch})
}

// OnResignation forgets a partition.
func (c *Coordinator) OnResignation(w *sim.World, p int32) {
	delete(c.parts, p)
	delete(c.loading, p)
}

// Timer finishes a load: replay offset records and markers.
func (c *Coordinator) Timer(w *sim.World, t *sim.Timer) {
	switch t.Kind {
	case timerJoin:
		c.joinExpired(w, t.Data.(joinTimer))
		return
	case timerHeartbeat:
		c.heartbeatExpired(w, t.Data.(heartbeatTimer))
		return
	case timerPending:
		c.pendingExpired(w, t.Data.(pendingTimer))
		return
	case timerLoad:
	default:
		return
	}
	job := t.Data.(loadJob)
	if e, ok := c.loading[job.partition]; !ok || e != job.epoch {
		return
	}
	delete(c.loading, job.partition)
	op := &offsetsPartition{epoch: job.epoch, committed: map[offsetKey]committed{}, pending: map[int64]map[offsetKey]committed{}, groups: map[string]*group{}}
	log := c.host.ReplicaLog(offsetsTP(job.partition))
	for i := range log.Batches {
		b := &log.Batches[i]
		if b.IsControl {
			op.completeTransaction(b.ProducerId, b.ControlType == protocol.ControlCommit)
			continue
		}
		for j, r := range b.Records {
			if r.Offset == nil {
				continue
			}
			op.apply(b, r.Offset, b.BaseOffset+int64(j))
		}
	}
	c.parts[job.partition] = op
	if len(op.committed)+len(op.pending) > 0 {
		w.Note(c.host.BrokerNode(), offsetsTP(job.partition).String(), sim.NoteGroupOffsetsLoaded, strconv.Itoa(len(op.committed)))
	}
}

func offsetsTP(p int32) protocol.TopicPartition {
	return protocol.TopicPartition{Topic: protocol.ConsumerOffsetsTopic, Partition: p}
}

func (op *offsetsPartition) apply(b *protocol.RecordBatch, v *protocol.OffsetCommitValue, position int64) {
	k := offsetKey{v.Group, v.Partition}
	if b.IsTransactional {
		m := op.pending[b.ProducerId]
		if m == nil {
			m = map[offsetKey]committed{}
			op.pending[b.ProducerId] = m
		}
		m[k] = committed{v.CommittedOffset, position, b.ProducerId}
		return
	}
	op.committed[k] = committed{v.CommittedOffset, position, -1}
}

func (c *Coordinator) partitionOf(group string) (*offsetsPartition, int32, protocol.ErrorCode) {
	p := c.host.GroupPartitionFor(group)
	if _, ok := c.loading[p]; ok {
		return nil, p, protocol.COORDINATOR_LOAD_IN_PROGRESS
	}
	op := c.parts[p]
	if op == nil {
		return nil, p, protocol.NOT_COORDINATOR
	}
	return op, p, protocol.NONE
}

// Handle dispatches the group coordinator's requests, each
// in the file named after its API key.
func (c *Coordinator) Handle(w *sim.World, env *sim.Envelope) {
	switch m := env.Msg.(type) {
	case *protocol.OffsetCommitRequest:
		c.handleOffsetCommit(w, env, m)
	case *protocol.TxnOffsetCommitRequest:
		c.handleTxnOffsetCommit(w, env, m)
	case *protocol.OffsetFetchRequest:
		c.handleOffsetFetch(w, env, m)
	case *protocol.JoinGroupRequest:
		c.handleJoinGroup(w, env, m)
	case *protocol.SyncGroupRequest:
		c.handleSyncGroup(w, env, m)
	case *protocol.HeartbeatRequest:
		c.handleHeartbeat(w, env, m)
	case *protocol.LeaveGroupRequest:
		c.handleLeaveGroup(w, env, m)
	}
}

// commit (GroupMetadataManager.storeOffsets) appends offset records (a transactional batch for
// TxnOffsetCommit, carrying the producer id and epoch so a fenced producer
// is rejected by the log's epoch check) and applies them once replicated.
//
// validate, run once the coordinator knows the group's partition, fences
// the commit by its group metadata (OffsetCommit's and TxnOffsetCommit's
// own checks): any error but NONE answers every partition with it.
func (c *Coordinator) commit(w *sim.World, group string, offsets []protocol.OffsetEntry, pid int64, epoch int16, txn bool,
	validate func(w *sim.World, op *offsetsPartition, p int32) protocol.ErrorCode, done func(*sim.World, []protocol.PartitionError)) {
	all := func(err protocol.ErrorCode) []protocol.PartitionError {
		rs := make([]protocol.PartitionError, len(offsets))
		for i, o := range offsets {
			rs[i] = protocol.PartitionError{TopicPartition: o.TopicPartition, ErrorCode: err}
		}
		return rs
	}
	op, p, err := c.partitionOf(group)
	if err == protocol.NONE {
		err = validate(w, op, p)
	}
	if err != protocol.NONE {
		done(w, all(err))
		return
	}
	if len(offsets) == 0 {
		// Nothing to store: Kafka answers at once and appends nothing
		// (GroupMetadataManager.storeOffsets with no offsets left).
		done(w, nil)
		return
	}
	batch := protocol.RecordBatch{ProducerId: pid, ProducerEpoch: epoch, IsTransactional: txn}
	for _, o := range offsets {
		v := &protocol.OffsetCommitValue{Group: group, Partition: o.TopicPartition, CommittedOffset: o.CommittedOffset}
		batch.Records = append(batch.Records, protocol.Record{Key: group + "/" + o.TopicPartition.String(), Offset: v})
	}
	c.host.AppendInternal(w, offsetsTP(p), batch, OffsetsCommitTimeoutMs, func(w *sim.World, base int64, err protocol.ErrorCode) {
		switch err {
		case protocol.NONE:
		case protocol.NOT_LEADER_OR_FOLLOWER:
			err = protocol.NOT_COORDINATOR
		case protocol.NOT_ENOUGH_REPLICAS, protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND:
			err = protocol.COORDINATOR_NOT_AVAILABLE
		}
		if err == protocol.NONE && c.parts[p] == op {
			for i := range batch.Records {
				batch.BaseOffset = base
				op.apply(&batch, batch.Records[i].Offset, base+int64(i))
			}
		}
		done(w, all(err))
	})
}

// Serves reports whether this coordinator has loaded __consumer_offsets
// partition p and answers for its groups: the invariant checker compares
// its answers with the partition's log only then.
func (c *Coordinator) Serves(p int32) bool {
	_, loading := c.loading[p]
	return c.parts[p] != nil && !loading
}

// OffsetView is one offset as the inspector shows it.
type OffsetView struct {
	Group     string
	Partition protocol.TopicPartition
	Offset    int64
	// ProducerId is the transaction that wrote the offset (-1: a plain
	// OffsetCommit).
	ProducerId int64
	Pending    bool `json:",omitempty"`
}

// Snapshot lists committed and pending offsets, sorted.
func (c *Coordinator) Snapshot() []OffsetView {
	var out []OffsetView
	for _, op := range c.parts {
		for k, v := range op.committed {
			out = append(out, OffsetView{Group: k.group, Partition: k.tp, Offset: v.offset, ProducerId: v.pid})
		}
		for pid, m := range op.pending {
			for k, v := range m {
				out = append(out, OffsetView{Group: k.group, Partition: k.tp, Offset: v.offset, ProducerId: pid, Pending: true})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Partition != b.Partition {
			return a.Partition.Less(b.Partition)
		}
		if a.Pending != b.Pending {
			return !a.Pending
		}
		return a.ProducerId < b.ProducerId
	})
	return out
}
