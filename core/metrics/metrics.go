// Package metrics computes, from a cluster's state, the numbers an
// on-call engineer watches for transactions: each named as Kafka names
// it, with its MBean or metric group, so a learner meets on the chart
// what a dashboard would show. Values are read, never kept: a series is
// sampled from a run (Record), and nothing here changes the simulation.
package metrics

import (
	"strconv"
	"strings"

	"txnlab/core/broker"
	"txnlab/core/client"
	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Metric is one metric: Kafka's name, where Kafka publishes it, what its
// subjects are and what it means.
type Metric struct {
	// Name is Kafka's name of the metric (the MBean's name= or the
	// metric's name in its group).
	Name string
	// MBean is where Kafka publishes it, with its subject's tags in
	// braces; "" for a value Kafka shows through an API instead.
	MBean string
	// Scope is what a subject is: "partition", "broker" or "producer".
	Scope string
	// Unit of the value.
	Unit string
	// Means says, in English, what it counts and how txnlab computes it.
	Means string
}

// The metrics, in the order a chart lists them.
var (
	HighWatermark = &Metric{Name: "HighWatermark", Scope: "partition", Unit: "offset",
		Means: "the partition leader's high watermark (ListOffsets LATEST; Kafka publishes no gauge of it)"}
	LastStableOffset = &Metric{Name: "LastStableOffset", Scope: "partition", Unit: "offset",
		Means: "the leader's last stable offset: the first offset of the oldest open transaction, or the high watermark (ListOffsets with read_committed)"}
	LastStableOffsetLag = &Metric{Name: "LastStableOffsetLag", MBean: "kafka.cluster:type=Partition,name=LastStableOffsetLag,topic={topic},partition={partition}",
		Scope: "partition", Unit: "offsets", Means: "high watermark minus last stable offset (UnifiedLog.lastStableOffsetLag): what read_committed consumers cannot read yet"}
	PartitionsWithLateTransactions = &Metric{Name: "PartitionsWithLateTransactionsCount", MBean: "kafka.server:type=ReplicaManager,name=PartitionsWithLateTransactionsCount",
		Scope: "broker", Unit: "partitions", Means: "partitions this broker leads whose oldest open transaction last wrote more than transaction.max.timeout.ms plus 5 minutes ago (ProducerStateManager.hasLateTransaction): hanging, most likely"}
	PartitionLoadTimeMax = &Metric{Name: "partition-load-time-max", MBean: "kafka.server:type=transaction-coordinator-metrics,name=partition-load-time-max",
		Scope: "broker", Unit: "ms", Means: "the longest this broker's transaction coordinator took to load a __transaction_state partition (over the run; Kafka keeps 30 s)"}
	OngoingTransactions = &Metric{Name: "ongoing-transactions", Scope: "broker", Unit: "transactions",
		Means: "transactions this broker's coordinator holds in Ongoing, PrepareCommit or PrepareAbort (ListTransactions with those states; Kafka publishes no gauge of it)"}
	TxnInitTime   = producerTime("txn-init", "initTransactions")
	TxnBeginTime  = producerTime("txn-begin", "beginTransaction")
	TxnSendOffset = producerTime("txn-send-offsets", "sendOffsetsToTransaction")
	TxnCommitTime = producerTime("txn-commit", "commitTransaction")
	TxnAbortTime  = producerTime("txn-abort", "abortTransaction")
	RecordRetries = &Metric{Name: "record-retry-total", MBean: "kafka.producer:type=producer-metrics,client-id={client}", Scope: "producer", Unit: "batches",
		Means: "Produce batches the producer sent again (Kafka counts records; the rate is record-retry-rate)"}
)

func producerTime(name, call string) *Metric {
	return &Metric{Name: name + "-time-ns-total", MBean: "kafka.producer:type=producer-metrics,client-id={client}", Scope: "producer", Unit: "ns",
		Means: "total time the producer has spent in " + call + " (KafkaProducerMetrics), in virtual time; a call still running counts up to now, where Kafka adds it when it returns"}
}

// All lists every metric in chart order.
var All = []*Metric{HighWatermark, LastStableOffset, LastStableOffsetLag, PartitionsWithLateTransactions, PartitionLoadTimeMax,
	OngoingTransactions, TxnInitTime, TxnBeginTime, TxnSendOffset, TxnCommitTime, TxnAbortTime, RecordRetries}

// ByName finds a metric.
func ByName(name string) (*Metric, bool) {
	for _, m := range All {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// Value is one metric's value for one subject (a partition, a broker, a
// producer).
type Value struct {
	Metric  *Metric
	Subject string
	Value   int64
}

// lateTransactionBufferMs is ProducerStateManager.LATE_TRANSACTION_BUFFER_MS.
const lateTransactionBufferMs = 5 * sim.Minute

// Read computes every metric's values now, in chart order, subjects in
// order.
func Read(c *cluster.Cluster) []Value {
	var r retries
	r.scan(c)
	return read(c, r.byProducer)
}

func read(c *cluster.Cluster, retries map[string]int64) []Value {
	var out []Value
	add := func(m *Metric, subject string, v int64) { out = append(out, Value{m, subject, v}) }
	tps := userPartitions(c)
	for _, m := range []*Metric{HighWatermark, LastStableOffset, LastStableOffsetLag} {
		for _, tp := range tps {
			f, _ := c.PartitionFacts(tp)
			switch m {
			case HighWatermark:
				add(m, tp.String(), f.HW)
			case LastStableOffset:
				add(m, tp.String(), f.LSO)
			default:
				add(m, tp.String(), f.HW-f.LSO)
			}
		}
	}
	for i, b := range c.Brokers {
		name := "broker-" + strconv.Itoa(i)
		late, ongoing, load := int64(0), int64(0), int64(0)
		if b != nil {
			late = lateTransactions(c, b, tps)
			load = int64(b.Txn.LoadTimeMaxMs)
			ongoing = b.Txn.OpenTransactions()
		}
		add(PartitionsWithLateTransactions, name, late)
		add(PartitionLoadTimeMax, name, load)
		add(OngoingTransactions, name, ongoing)
	}
	for _, m := range []*Metric{TxnInitTime, TxnBeginTime, TxnSendOffset, TxnCommitTime, TxnAbortTime, RecordRetries} {
		for _, name := range c.ClientOrder {
			p := c.Producers[name]
			if p == nil {
				continue
			}
			if m == RecordRetries {
				add(m, name, retries[name])
				continue
			}
			add(m, name, callTimeNs(p, callOf[m], c.World.Now()))
		}
	}
	return out
}

// callOf is the producer call each time metric totals.
var callOf = map[*Metric]client.CallKind{TxnInitTime: client.CallInit, TxnBeginTime: client.CallBegin,
	TxnSendOffset: client.CallSendOffsets, TxnCommitTime: client.CallCommit, TxnAbortTime: client.CallAbort}

// callTimeNs totals the time spent in a kind of call. Kafka's sensor
// records a call when it returns; a call still running counts here up to
// now, so that a chart shows a hung commit climbing (Means says so).
func callTimeNs(p *client.Producer, kind client.CallKind, now sim.Time) int64 {
	var total sim.Time
	for _, call := range p.Calls() {
		if call.Kind != kind {
			continue
		}
		end := call.End
		if !call.Done {
			end = now
		}
		total += end - call.Start
	}
	return int64(total) * 1_000_000
}

// lateTransactions counts the partitions b leads, of the user partitions
// tps, whose oldest open transaction is late
// (ProducerStateManager.hasLateTransaction).
func lateTransactions(c *cluster.Cluster, b *broker.Broker, tps []protocol.TopicPartition) int64 {
	maxTimeout := c.BrokerCfg.Txn.TransactionMaxTimeoutMs
	now := int64(c.World.Now())
	var n int64
	for _, tp := range tps {
		if c.LeaderOf(tp) != b.ID {
			continue
		}
		log := b.Disk.Logs[tp]
		if log == nil {
			continue
		}
		oldest, last := int64(-1), int64(-1)
		for _, pid := range log.ProducerIds() {
			e := log.Producers[pid]
			if e.CurrentTxnFirstOffset >= 0 && (oldest < 0 || e.CurrentTxnFirstOffset < oldest) {
				oldest, last = e.CurrentTxnFirstOffset, e.LastTimestamp
			}
		}
		if last > 0 && now-last > int64(maxTimeout+lateTransactionBufferMs) {
			n++
		}
	}
	return n
}

// retries counts, per producer, the Produce batches sent again: a batch
// whose partition, producer id, epoch and first sequence an earlier
// Produce of the same producer carried. It reads the trace from where it
// stopped, so a series pays for each event once.
type retries struct {
	next       int
	seen       map[batchKey]bool
	byProducer map[string]int64
}

type batchKey struct {
	from  sim.NodeID
	tp    protocol.TopicPartition
	pid   int64
	epoch int16
	seq   int32
}

func (r *retries) scan(c *cluster.Cluster) {
	if r.seen == nil {
		r.seen, r.byProducer = map[batchKey]bool{}, map[string]int64{}
	}
	t := &c.World.Trace
	for ; r.next < t.Len(); r.next++ {
		e := t.At(r.next)
		if e.Kind != sim.KindSend || e.Resp || e.Msg == nil {
			continue
		}
		m, ok := e.Msg.(*protocol.ProduceRequest)
		if !ok {
			continue
		}
		for _, p := range m.Partitions {
			if p.Records.BaseSequence < 0 {
				continue
			}
			k := batchKey{e.Node, p.TopicPartition, p.Records.ProducerId, p.Records.ProducerEpoch, p.Records.BaseSequence}
			if r.seen[k] {
				r.byProducer[c.World.Name(e.Node)]++
			}
			r.seen[k] = true
		}
	}
}

// userPartitions lists the partitions of user topics in order, from the
// metadata's cached sorted list: it is read at every step.
func userPartitions(c *cluster.Cluster) []protocol.TopicPartition {
	var out []protocol.TopicPartition
	for _, p := range c.Meta.SortedPartitions() {
		if !strings.HasPrefix(p.TP.Topic, "__") {
			out = append(out, p.TP)
		}
	}
	return out
}

// Point is a value at a virtual time.
type Point struct {
	At sim.Time
	Value
}

// Series records the values a run takes: Record after each step keeps a
// point only where a value changed (and each value's first), so a long
// quiet stretch costs nothing.
type Series struct {
	Points  []Point
	last    map[[2]string]int64
	retries retries
}

// Record samples the cluster now.
func (s *Series) Record(c *cluster.Cluster) {
	if s.last == nil {
		s.last = map[[2]string]int64{}
	}
	now := c.World.Now()
	s.retries.scan(c)
	for _, v := range read(c, s.retries.byProducer) {
		k := [2]string{v.Metric.Name, v.Subject}
		if old, ok := s.last[k]; ok && old == v.Value {
			continue
		}
		s.last[k] = v.Value
		s.Points = append(s.Points, Point{At: now, Value: v})
	}
}

// MBeanOf is a metric's MBean for one subject, tags filled in.
func MBeanOf(m *Metric, subject string) string {
	if m.MBean == "" {
		return ""
	}
	topic, partition, _ := strings.Cut(subject, "/")
	r := strings.NewReplacer("{topic}", topic, "{partition}", partition, "{client}", subject)
	return r.Replace(m.MBean)
}
