// Package txncoord is the transaction coordinator module of a broker: the
// metadata state machine of every transactional id whose
// __transaction_state partition the broker leads, one file per API
// (named after its key), the records it persists, loading on election,
// marker delivery, the timeout and expiration scans.
//
// As in Kafka, every client-visible outcome except the no-ops is decided
// only after its __transaction_state record is replicated.
package txncoord

import (
	"sort"
	"strconv"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// Config is the coordinator's configuration, with Kafka's names and
// defaults.
type Config struct {
	// TransactionMaxTimeoutMs is transaction.max.timeout.ms.
	TransactionMaxTimeoutMs sim.Time
	// TransactionalIdExpirationMs is transactional.id.expiration.ms.
	TransactionalIdExpirationMs sim.Time
	// AbortTimedOutTransactionsIntervalMs is
	// transaction.abort.timed.out.transaction.cleanup.interval.ms.
	AbortTimedOutTransactionsIntervalMs sim.Time
	// RemoveExpiredTransactionalIdsIntervalMs is
	// transaction.remove.expired.transaction.cleanup.interval.ms.
	RemoveExpiredTransactionalIdsIntervalMs sim.Time
	// RequestTimeoutMs is the broker's request.timeout.ms: it bounds a
	// WriteTxnMarkers request before it is sent again, and how long an
	// expiration tombstone waits to be replicated.
	RequestTimeoutMs sim.Time
	// RetryBackoffMs spaces marker retries (retry.backoff.ms).
	RetryBackoffMs sim.Time
	// LoadTimeMs is how long loading a partition takes in the simulation.
	LoadTimeMs sim.Time
}

// DefaultConfig is Kafka 3.5's defaults.
func DefaultConfig() Config {
	return Config{
		TransactionMaxTimeoutMs:                 15 * sim.Minute,
		TransactionalIdExpirationMs:             7 * sim.Day,
		AbortTimedOutTransactionsIntervalMs:     10 * sim.Second,
		RemoveExpiredTransactionalIdsIntervalMs: sim.Hour,
		RequestTimeoutMs:                        30 * sim.Second,
		RetryBackoffMs:                          100,
		LoadTimeMs:                              2,
	}
}

// Host is what the coordinator needs from the broker that carries it.
type Host interface {
	BrokerNode() sim.NodeID
	LeaderOf(tp protocol.TopicPartition) (sim.NodeID, int32, bool)
	TxnPartitionFor(transactionalId string) int32
	GroupPartitionFor(group string) int32
	AllocateProducerId() int64
	PartitionExists(tp protocol.TopicPartition) bool
	ReplicaLog(tp protocol.TopicPartition) *partition.Log
	AppendInternal(w *sim.World, tp protocol.TopicPartition, batch protocol.RecordBatch, timeout sim.Time, done func(w *sim.World, base int64, err protocol.ErrorCode))
}

// cacheEntry is one loaded __transaction_state partition
// (TxnMetadataCacheEntry).
type cacheEntry struct {
	coordinatorEpoch int32
	txns             map[string]*TransactionMetadata
}

// Coordinator is the module.
type Coordinator struct {
	host    Host
	cfg     *Config
	cache   map[int32]*cacheEntry
	loading map[int32]int32 // partition → coordinator epoch being loaded
	markers markerChannel

	started       sim.Time
	scanScheduled bool
	// LoadTimeMaxMs is the longest a partition took to load, for the
	// operator's metrics (partition-load-time-max).
	LoadTimeMaxMs sim.Time
}

// maybeScheduleTimeoutScan arms the timeout scan on its usual 10 s cadence
// while some transaction is Ongoing: only those can time out, and an idle
// coordinator then costs nothing however far time is advanced.
func (c *Coordinator) maybeScheduleTimeoutScan(w *sim.World) {
	if c.scanScheduled {
		return
	}
	for _, e := range c.cache {
		for _, md := range e.txns {
			if md.State == protocol.Ongoing {
				c.scanScheduled = true
				at := sim.NextTick(c.started, c.cfg.AbortTimedOutTransactionsIntervalMs, w.Now())
				w.AfterFor(c.host.BrokerNode(), c, at-w.Now(), timerTimeoutScan, nil, true)
				return
			}
		}
	}
}

// New creates the module for a broker.
func New(host Host, cfg *Config) *Coordinator {
	c := &Coordinator{host: host, cfg: cfg, cache: map[int32]*cacheEntry{}, loading: map[int32]int32{}}
	c.markers.init()
	return c
}

// Start schedules the periodic scans.
func (c *Coordinator) Start(w *sim.World) {
	c.started = w.Now()
	w.AfterFor(c.host.BrokerNode(), c, c.cfg.RemoveExpiredTransactionalIdsIntervalMs, timerExpireScan, nil, true)
}

// The coordinator's timers. It sets them with sim.World.AfterFor, so
// they fire into Coordinator.Timer without the broker routing them.
const (
	timerLoad          = "txn.load"
	timerTimeoutScan   = "txn.timeout-scan"
	timerExpireScan    = "txn.expire-scan"
	timerSendMarkers   = "txn.send-markers"
	timerMarkerExpiry  = "txn.marker-timeout"
	timerRetryComplete = "txn.retry-complete"
)

// Busy reports outstanding coordinator work: partitions loading,
// transactions whose markers are not all written.
func (c *Coordinator) Busy() bool {
	return len(c.loading) > 0 || len(c.markers.pending) > 0
}

// Timer handles the coordinator's timers.
func (c *Coordinator) Timer(w *sim.World, t *sim.Timer) {
	switch t.Kind {
	case timerLoad:
		c.finishLoad(w, t.Data.(loadJob))
	case timerTimeoutScan:
		c.scanScheduled = false
		c.abortTimedOutTransactions(w)
		c.maybeScheduleTimeoutScan(w)
	case timerExpireScan:
		c.removeExpiredTransactionalIds(w)
		w.AfterFor(c.host.BrokerNode(), c, c.cfg.RemoveExpiredTransactionalIdsIntervalMs, timerExpireScan, nil, true)
	case timerSendMarkers:
		c.sendQueuedMarkers(w)
	case timerMarkerExpiry:
		c.markerRequestTimedOut(w, t.Data.(int64))
	case timerRetryComplete:
		c.writeTxnCompletion(w, t.Data.(*pendingComplete))
	}
}

// Handle dispatches a client request.
func (c *Coordinator) Handle(w *sim.World, env *sim.Envelope) {
	switch m := env.Msg.(type) {
	case *protocol.InitProducerIdRequest:
		c.handleInitProducerId(w, env, m)
	case *protocol.AddPartitionsToTxnRequest:
		c.handleAddPartitionsToTxn(w, env, m)
	case *protocol.AddOffsetsToTxnRequest:
		c.handleAddOffsetsToTxn(w, env, m)
	case *protocol.EndTxnRequest:
		c.handleEndTxn(w, env, m)
	case *protocol.DescribeTransactionsRequest:
		c.handleDescribeTransactions(w, env, m)
	case *protocol.ListTransactionsRequest:
		c.handleListTransactions(w, env, m)
	}
}

// reply answers a request; a client too old to know PRODUCER_FENCED
// reads INVALID_PRODUCER_EPOCH instead (KafkaApis' per-version mapping,
// protocol.ErrorForVersion).
func (c *Coordinator) reply(w *sim.World, env *sim.Envelope, m protocol.Message) {
	switch r := m.(type) {
	case *protocol.InitProducerIdResponse:
		r.ErrorCode = protocol.ErrorForVersion(env.Msg, r.ErrorCode)
	case *protocol.EndTxnResponse:
		r.ErrorCode = protocol.ErrorForVersion(env.Msg, r.ErrorCode)
	case *protocol.AddOffsetsToTxnResponse:
		r.ErrorCode = protocol.ErrorForVersion(env.Msg, r.ErrorCode)
	case *protocol.AddPartitionsToTxnResponse:
		for i := range r.Results {
			r.Results[i].ErrorCode = protocol.ErrorForVersion(env.Msg, r.Results[i].ErrorCode)
		}
	}
	w.Send(c.host.BrokerNode(), env.From, m, env.ID)
}

// lookup is getTransactionState: NOT_COORDINATOR when this broker does not
// lead the id's partition, COORDINATOR_LOAD_IN_PROGRESS while loading.
func (c *Coordinator) lookup(id string) (*cacheEntry, *TransactionMetadata, protocol.ErrorCode) {
	p := c.host.TxnPartitionFor(id)
	if _, ok := c.loading[p]; ok {
		return nil, nil, protocol.COORDINATOR_LOAD_IN_PROGRESS
	}
	e := c.cache[p]
	if e == nil {
		return nil, nil, protocol.NOT_COORDINATOR
	}
	return e, e.txns[id], protocol.NONE
}

// Partition tells which __transaction_state partition an id maps to.
func (c *Coordinator) Partition(id string) int32 { return c.host.TxnPartitionFor(id) }

type loadJob struct {
	partition int32
	epoch     int32
	started   sim.Time
}

// OnElection starts loading a __transaction_state partition this broker
// now leads; its leader epoch becomes the coordinator epoch.
func (c *Coordinator) OnElection(w *sim.World, p int32, leaderEpoch int32) {
	c.dropPartition(p)
	c.loading[p] = leaderEpoch
	w.AfterFor(c.host.BrokerNode(), c, c.cfg.LoadTimeMs, timerLoad, loadJob{p, leaderEpoch, w.Now()}, false)
}

// OnResignation forgets a partition this broker no longer leads.
func (c *Coordinator) OnResignation(w *sim.World, p int32) {
	if _, ok := c.cache[p]; ok {
		w.Note(c.host.BrokerNode(), txnTP(p).String(), sim.NoteCoordinatorResigns)
	}
	c.dropPartition(p)
	delete(c.loading, p)
}

func (c *Coordinator) dropPartition(p int32) {
	delete(c.cache, p)
	c.markers.dropPartition(c, p)
}

func txnTP(p int32) protocol.TopicPartition {
	return protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: p}
}

// finishLoad replays the partition (last value per key wins, a tombstone
// removes the key), installs the cache, and sends the markers again for
// every transaction found in PrepareCommit or PrepareAbort.
func (c *Coordinator) finishLoad(w *sim.World, job loadJob) {
	if e, ok := c.loading[job.partition]; !ok || e != job.epoch {
		return
	}
	if leader, epoch, ok := c.host.LeaderOf(txnTP(job.partition)); !ok || leader != c.host.BrokerNode() || epoch != job.epoch {
		delete(c.loading, job.partition)
		return
	}
	delete(c.loading, job.partition)
	// transaction-coordinator-metrics partition-load-time-max (over the
	// whole run, where Kafka keeps the last 30 s).
	c.LoadTimeMaxMs = max(c.LoadTimeMaxMs, w.Now()-job.started)
	entry := &cacheEntry{coordinatorEpoch: job.epoch, txns: map[string]*TransactionMetadata{}}
	log := c.host.ReplicaLog(txnTP(job.partition))
	for _, b := range log.Batches {
		for _, r := range b.Records {
			if r.Tombstone {
				delete(entry.txns, r.Key)
				continue
			}
			if r.TxnLog == nil {
				continue
			}
			entry.txns[r.Key] = fromLogValue(r.Key, r.TxnLog)
		}
	}
	c.cache[job.partition] = entry
	c.maybeScheduleTimeoutScan(w) // loaded Ongoing transactions keep their start time
	ids := sortedIds(entry.txns)
	if len(log.Batches) > 0 {
		w.Note(c.host.BrokerNode(), txnTP(job.partition).String(), sim.NoteTxnLoaded,
			strconv.Itoa(len(ids)), strconv.Itoa(int(job.epoch)))
	}
	for _, id := range ids {
		md := entry.txns[id]
		if md.State == protocol.PrepareCommit || md.State == protocol.PrepareAbort {
			if w.Broken(safety.MarkerRecovery) {
				// Decided, and now never finished: nothing else
				// sends a prepared transaction's markers.
				w.Note(c.host.BrokerNode(), "txn "+id, sim.NoteTxnLeftPrepared, md.State.String())
				continue
			}
			w.Note(c.host.BrokerNode(), "txn "+id, sim.NoteTxnFoundWhileLoading, md.State.String())
			c.markers.add(w, c, id, job.epoch, md.State == protocol.PrepareCommit, md, md.prepareComplete(w.Now()))
		}
	}
}

func sortedIds(m map[string]*TransactionMetadata) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// appendTransactionToLog persists a transition's target and completes the
// transition only once the record is replicated (§4.3 of the reference).
// The append waits up to the transaction's timeout, as Kafka 3.5's
// TransactionStateManager.appendTransactionToLog does (txnTimeoutMs of
// the new metadata); an expiration tombstone waits request.timeout.ms, as
// writeTombstonesForExpiredTransactionalIds does.
func (c *Coordinator) appendTransactionToLog(w *sim.World, id string, coordinatorEpoch int32, md *TransactionMetadata, target transit, done func(w *sim.World, err protocol.ErrorCode)) {
	p := c.host.TxnPartitionFor(id)
	if e := c.cache[p]; e == nil || e.coordinatorEpoch != coordinatorEpoch {
		md.clearPending()
		done(w, protocol.NOT_COORDINATOR)
		return
	}
	rec := protocol.Record{Key: id}
	if target.State == protocol.Dead {
		rec.Tombstone = true
	} else {
		v := target.logValue()
		rec.TxnLog = &v
	}
	timeout := sim.Time(target.TxnTimeoutMs)
	if rec.Tombstone {
		timeout = c.cfg.RequestTimeoutMs
	}
	batch := protocol.RecordBatch{ProducerId: protocol.NoProducerId, ProducerEpoch: protocol.NoProducerEpoch, Records: []protocol.Record{rec}}
	c.host.AppendInternal(w, txnTP(p), batch, timeout, func(w *sim.World, _ int64, err protocol.ErrorCode) {
		err = mapAppendError(err)
		if err == protocol.NONE {
			// The cache may have changed while the record was being
			// written: another coordinator epoch (TransactionStateManager
			// answers NOT_COORDINATOR), or a reload at the same epoch
			// after an ISR change (3.5 to 3.7), which put new metadata in
			// the cache: Kafka's completeTransitionTo then finds no
			// pending state on it and throws, so the transition is not
			// completed; the reload, which read this record, carries on
			// from it. txnlab answers NOT_COORDINATOR there too.
			if e := c.cache[p]; e == nil || e.coordinatorEpoch != coordinatorEpoch || e.txns[id] != md {
				err = protocol.NOT_COORDINATOR
			}
		}
		if err != protocol.NONE {
			md.clearPending()
			done(w, err)
			return
		}
		md.completeTransitionTo(w, c.host.BrokerNode(), target)
		if target.State == protocol.Ongoing {
			c.maybeScheduleTimeoutScan(w)
		}
		done(w, protocol.NONE)
	})
}

// mapAppendError is how TransactionStateManager reports a failed append.
func mapAppendError(err protocol.ErrorCode) protocol.ErrorCode {
	switch err {
	case protocol.NONE:
		return protocol.NONE
	case protocol.UNKNOWN_TOPIC_OR_PARTITION, protocol.NOT_ENOUGH_REPLICAS,
		protocol.NOT_ENOUGH_REPLICAS_AFTER_APPEND, protocol.REQUEST_TIMED_OUT:
		return protocol.COORDINATOR_NOT_AVAILABLE
	case protocol.NOT_LEADER_OR_FOLLOWER, protocol.KAFKA_STORAGE_ERROR:
		return protocol.NOT_COORDINATOR
	default:
		return protocol.UNKNOWN_SERVER_ERROR
	}
}

// Snapshot is the coordinator's state for the inspector.
type Snapshot struct {
	Partition        int32
	CoordinatorEpoch int32
	Loading          bool
	Transactions     []MetadataView
}

// Snapshot lists every loaded and loading partition.
func (c *Coordinator) Snapshot() []Snapshot {
	var out []Snapshot
	for p, e := range c.cache {
		s := Snapshot{Partition: p, CoordinatorEpoch: e.coordinatorEpoch}
		for _, id := range sortedIds(e.txns) {
			s.Transactions = append(s.Transactions, e.txns[id].View())
		}
		out = append(out, s)
	}
	for p, epoch := range c.loading {
		out = append(out, Snapshot{Partition: p, CoordinatorEpoch: epoch, Loading: true})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Partition < out[j].Partition })
	return out
}

// OpenTransactions counts the transactions this coordinator holds that
// are Ongoing or preparing to end (the operator's ongoing-transaction
// gauge). It counts in place: the metrics read it at every step of a
// run, and building Snapshot's views for it was most of their cost.
func (c *Coordinator) OpenTransactions() int64 {
	var n int64
	for _, e := range c.cache {
		for _, md := range e.txns {
			switch md.State {
			case protocol.Ongoing, protocol.PrepareCommit, protocol.PrepareAbort:
				n++
			}
		}
	}
	return n
}

// Lookup returns a view of an id's metadata if this broker holds it.
func (c *Coordinator) Lookup(id string) (MetadataView, int32, bool) {
	p := c.host.TxnPartitionFor(id)
	e := c.cache[p]
	if e == nil {
		return MetadataView{}, 0, false
	}
	md := e.txns[id]
	if md == nil {
		return MetadataView{}, e.coordinatorEpoch, false
	}
	return md.View(), e.coordinatorEpoch, true
}

// CoordinatorEpoch returns the epoch of a loaded partition.
func (c *Coordinator) CoordinatorEpoch(p int32) (int32, bool) {
	if e := c.cache[p]; e != nil {
		return e.coordinatorEpoch, true
	}
	return 0, false
}
