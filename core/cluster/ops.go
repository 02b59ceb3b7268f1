package cluster

// The operations a host may ask of the cluster besides crashing,
// restarting, pausing and cutting nodes (cluster.go): the network's drop
// and delay rules, the mechanisms a script breaks, the broker settings of
// the config statement, and the calls of the Java clients. The scenario
// interpreter applies every statement through these, so it never reaches
// into the network, the brokers or the clients itself.

import (
	"fmt"

	"txnlab/core/broker"
	"txnlab/core/client"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
)

// ProducerConfig is a producer's settings (the Java client's names).
type ProducerConfig = client.ProducerConfig

// ConsumerConfig is a consumer's settings (the Java client's names).
type ConsumerConfig = client.ConsumerConfig

// Call is one client call: it starts, and later returns with a
// CallResult.
type Call = client.Call

// CallSend is the kind of a producer's send call.
const CallSend = client.CallSend

// CallResult is how a call ended: success, a broker's error code, or an
// exception the client raised itself.
type CallResult = client.Result

// DefaultProducerConfig is the Java producer's defaults.
func DefaultProducerConfig() ProducerConfig { return client.DefaultProducerConfig() }

// The assignors a consumer may offer (ConsumerConfig.Assignors).
const (
	RangeAssignor      = client.RangeAssignor
	RoundRobinAssignor = client.RoundRobinAssignor
)

// DefaultConsumerConfig is the Java consumer's defaults.
func DefaultConsumerConfig() ConsumerConfig { return client.DefaultConsumerConfig() }

// BrokerNode is the node name of broker id.
func BrokerNode(id int32) sim.NodeID { return broker.NodeID(id) }

// Drop installs a rule that loses matching messages in transit: the next
// count of them, or every one until Heal when count is 0.
func (c *Cluster) Drop(m sim.Match, count int) {
	remaining := count
	if remaining == 0 {
		remaining = -1
	}
	c.World.Net.Drops = append(c.World.Net.Drops, &sim.DropRule{Match: m, Remaining: remaining})
	c.NetworkMayLose()
}

// Delay installs a rule that adds by to the latency of matching messages,
// until Heal.
func (c *Cluster) Delay(m sim.Match, by sim.Time) {
	c.World.Net.Delays = append(c.World.Net.Delays, sim.DelayRule{Match: m, By: by})
}

// SetBroken switches a safety mechanism off (broken) or back on.
func (c *Cluster) SetBroken(m *safety.Mechanism, broken bool) { c.World.SetBroken(m, broken) }

// Configure sets one broker setting, by Kafka's name, from now on: value
// is milliseconds for durations and 1/0 for booleans. Unknown keys are an
// error; the scenario language's config statement checks ranges first.
func (c *Cluster) Configure(key string, value int64) error {
	cfg := &c.BrokerCfg
	d := sim.Time(value)
	switch key {
	case "transaction.max.timeout.ms":
		cfg.Txn.TransactionMaxTimeoutMs = d
	case "transactional.id.expiration.ms":
		cfg.Txn.TransactionalIdExpirationMs = d
	case "transaction.abort.timed.out.transaction.cleanup.interval.ms":
		cfg.Txn.AbortTimedOutTransactionsIntervalMs = d
	case "transaction.remove.expired.transaction.cleanup.interval.ms":
		cfg.Txn.RemoveExpiredTransactionalIdsIntervalMs = d
	case "broker.session.timeout.ms":
		cfg.SessionTimeoutMs = d
	case "request.timeout.ms":
		cfg.RequestTimeoutMs = d
		cfg.Txn.RequestTimeoutMs = d
	case "producer.id.expiration.ms":
		c.SetProducerIdExpiration(d, 0)
	case "producer.id.expiration.check.interval.ms":
		c.SetProducerIdExpiration(0, d)
	case "group.initial.rebalance.delay.ms":
		cfg.Group.InitialRebalanceDelayMs = d
	case "group.min.session.timeout.ms":
		cfg.Group.MinSessionTimeoutMs = d
	case "group.max.session.timeout.ms":
		cfg.Group.MaxSessionTimeoutMs = d
	case "transaction.partition.verification.enable":
		cfg.TransactionPartitionVerificationEnable = value != 0
	case "transaction.version":
		cfg.TransactionVersion = int16(value)
	case "leader.epoch.bump.on.isr.shrink":
		cfg.KeepLeaderEpochOnISRShrink = value == 0
	case "coordinator.reload.on.partition.change":
		cfg.KeepCoordinatorOnPartitionChange = value == 0
	case "min.insync.replicas":
		c.SetMinInsyncReplicas(int(value))
	case "transaction.state.log.min.isr":
		for _, p := range c.Meta.SortedPartitions() {
			if p.TP.Topic == protocol.TransactionStateTopic {
				p.MinISR = int(value)
			}
		}
	default:
		return fmt.Errorf("unknown broker setting %q", key)
	}
	return nil
}

// The producer's calls, as the Java KafkaProducer names them. Each starts
// the call and returns it; the caller waits on Call.Done.

// InitTransactions calls initTransactions() on producer name.
func (c *Cluster) InitTransactions(name string) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.Init(c.World) })
}

// BeginTransaction calls beginTransaction().
func (c *Cluster) BeginTransaction(name string) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.Begin(c.World) })
}

// Send calls send() for each record, then waits for their acks.
func (c *Cluster) Send(name string, tp protocol.TopicPartition, recs []protocol.Record) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.Send(c.World, tp, recs) })
}

// SendOffsetsToTransaction calls sendOffsetsToTransaction().
func (c *Cluster) SendOffsetsToTransaction(name, group string, offs []protocol.OffsetEntry) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.SendOffsets(c.World, group, offs) })
}

// CommitTransaction calls commitTransaction().
func (c *Cluster) CommitTransaction(name string) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.Commit(c.World) })
}

// AbortTransaction calls abortTransaction().
func (c *Cluster) AbortTransaction(name string) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.Abort(c.World) })
}

// CloseProducer calls close().
func (c *Cluster) CloseProducer(name string) (*Call, error) {
	return c.producerCall(name, func(p *client.Producer) *Call { return p.Close(c.World) })
}

func (c *Cluster) producerCall(name string, call func(*client.Producer) *Call) (*Call, error) {
	p := c.Producers[name]
	if p == nil {
		return nil, fmt.Errorf("%s is not a producer", name)
	}
	return call(p), nil
}

// The consumer's calls, as the Java KafkaConsumer names them.

// Assign calls assign().
func (c *Cluster) Assign(name string, tps []protocol.TopicPartition) (*Call, error) {
	return c.consumerCall(name, func(k *client.Consumer) *Call { return k.Assign(c.World, tps) })
}

// Poll calls poll(): one fetch round.
func (c *Cluster) Poll(name string) (*Call, error) {
	return c.consumerCall(name, func(k *client.Consumer) *Call { return k.Poll(c.World) })
}

// Seek calls seek().
func (c *Cluster) Seek(name string, tp protocol.TopicPartition, offset int64) (*Call, error) {
	return c.consumerCall(name, func(k *client.Consumer) *Call { return k.Seek(c.World, tp, offset) })
}

// CommitSync calls commitSync() of the current positions.
func (c *Cluster) CommitSync(name string) (*Call, error) {
	return c.consumerCall(name, func(k *client.Consumer) *Call { return k.Commit(c.World) })
}

func (c *Cluster) consumerCall(name string, call func(*client.Consumer) *Call) (*Call, error) {
	k := c.Consumers[name]
	if k == nil {
		return nil, fmt.Errorf("%s is not a consumer", name)
	}
	return call(k), nil
}
