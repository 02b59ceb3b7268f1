// Package cluster wires brokers, their coordinators, the controller and
// the clients into one simulated cluster, and is the API every host uses:
// the scenario interpreter applies statements through it, the UI and the
// CLI read its trace and snapshots.
package cluster

import (
	"fmt"
	"sort"

	"txnlab/core/broker"
	"txnlab/core/client"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// ControllerNode is the KRaft controller's node, named "controller": the
// first code after the brokers' (New names it right after them).
const ControllerNode = broker.NodesEnd

// Config describes a cluster to create.
type Config struct {
	Brokers           int
	RF                int
	TxnPartitions     int
	OffsetsPartitions int
	Seed              uint64
	LatencyMin        sim.Time
	LatencyMax        sim.Time
}

// DefaultConfig is the language's defaults: 3 brokers, rf 3, 50 and 50
// internal partitions, seed 1, latency 1–5 ms.
func DefaultConfig() Config {
	return Config{Brokers: 3, RF: 3, TxnPartitions: 50, OffsetsPartitions: 50, Seed: 1, LatencyMin: 1, LatencyMax: 5}
}

// Limits keep any host safe from a script that asks too much.
const (
	MaxBrokers    = 9
	MaxPartitions = 64
	MaxClients    = 32
	MaxTopics     = 32 // as the parser allows
)

// Cluster is one simulated Kafka cluster and its clients.
type Cluster struct {
	Cfg       Config
	World     *sim.World
	Meta      *broker.Metadata
	BrokerCfg broker.Config
	Disks     []*broker.Disk
	Brokers   []*broker.Broker // nil while crashed
	Producers map[string]*client.Producer
	Consumers map[string]*client.Consumer
	// ClientOrder lists client names in declaration order.
	ClientOrder []string
	// Externals are the nodes programs outside the simulation speak
	// through (external.go), by name; they are not in ClientOrder.
	Externals   map[string]*External
	admin       *client.Admin // made by the first admin call (admin.go)
	incarnation []int
	fenced      []bool
}

// New creates and starts a cluster.
func New(cfg Config) (*Cluster, error) {
	if cfg.Brokers < 1 || cfg.Brokers > MaxBrokers {
		return nil, fmt.Errorf("brokers must be between 1 and %d", MaxBrokers)
	}
	if cfg.RF < 1 || cfg.RF > cfg.Brokers {
		return nil, fmt.Errorf("rf must be between 1 and the number of brokers (%d)", cfg.Brokers)
	}
	w := sim.NewWorld(cfg.Seed)
	w.Net.MinLatency, w.Net.MaxLatency = cfg.LatencyMin, cfg.LatencyMax
	c := &Cluster{Cfg: cfg, World: w, BrokerCfg: broker.DefaultConfig(),
		Meta:        broker.NewMetadata(int32(cfg.Brokers), int32(cfg.RF), int32(cfg.TxnPartitions), int32(cfg.OffsetsPartitions)),
		Producers:   map[string]*client.Producer{},
		Consumers:   map[string]*client.Consumer{},
		incarnation: make([]int, cfg.Brokers),
		fenced:      make([]bool, cfg.Brokers),
	}
	// The brokers' and the controller's codes are the same in every
	// cluster (broker.NodeID computes them); clients follow in the
	// order the script declares them.
	broker.RegisterNodes(w)
	if w.Node("controller") != ControllerNode {
		panic("cluster: the controller's code moved")
	}
	w.AddNode(ControllerNode, &controller{c: c})
	for i := 0; i < cfg.Brokers; i++ {
		disk := broker.NewDisk()
		c.Disks = append(c.Disks, disk)
		b := broker.New(int32(i), c.Meta, disk, &c.BrokerCfg)
		c.Brokers = append(c.Brokers, b)
		w.AddNode(b.Node, b)
	}
	for _, b := range c.Brokers {
		b.Start(w)
	}
	return c, nil
}

// CreateTopic adds a topic; its leaders take office at once.
func (c *Cluster) CreateTopic(name string, partitions, rf int) error {
	if _, ok := c.Meta.Topic(name); ok {
		return fmt.Errorf("topic %q already exists", name)
	}
	if len(c.Meta.Topics) >= MaxTopics+2 {
		return fmt.Errorf("at most %d topics", MaxTopics)
	}
	if partitions < 1 || partitions > MaxPartitions {
		return fmt.Errorf("partitions must be between 1 and %d", MaxPartitions)
	}
	if rf < 1 || rf > c.Cfg.Brokers {
		return fmt.Errorf("rf must be between 1 and the number of brokers (%d)", c.Cfg.Brokers)
	}
	c.Meta.AddTopic(name, int32(partitions), rf, max(c.BrokerCfg.MinInsyncReplicas, 1))
	c.metadataChanged()
	return nil
}

// SetMinInsyncReplicas changes the broker setting min.insync.replicas.
// Topics have no override in txnlab, so as in Kafka it applies to every
// user topic, those that exist and those created later; the internal
// topics keep their own (transaction.state.log.min.isr, and 1 for
// __consumer_offsets, docs/kafka-fidelity.md S12).
func (c *Cluster) SetMinInsyncReplicas(n int) {
	c.BrokerCfg.MinInsyncReplicas = n
	for _, p := range c.Meta.SortedPartitions() {
		if isUserTopic(p.TP.Topic) {
			p.MinISR = n
		}
	}
}

func (c *Cluster) metadataChanged() {
	for _, b := range c.Brokers {
		if b != nil && c.World.StatusOf(b.Node) == sim.Up {
			b.OnMetadataChange(c.World)
		}
	}
}

// AddProducer declares a producer process.
func (c *Cluster) AddProducer(name string, cfg client.ProducerConfig) error {
	if err := c.checkClientName(name); err != nil {
		return err
	}
	if cfg.TransactionalId != "" && !cfg.EnableIdempotence {
		return fmt.Errorf("a transactional producer needs enable.idempotence=true")
	}
	id := c.World.Node(name)
	p := client.NewProducer(id, cfg, clientMeta{c})
	c.Producers[name] = p
	c.ClientOrder = append(c.ClientOrder, name)
	c.World.AddNode(id, p)
	return nil
}

// AddConsumer declares a consumer process.
func (c *Cluster) AddConsumer(name string, cfg client.ConsumerConfig) error {
	if err := c.checkClientName(name); err != nil {
		return err
	}
	id := c.World.Node(name)
	cons := client.NewConsumer(id, cfg, clientMeta{c})
	c.Consumers[name] = cons
	c.ClientOrder = append(c.ClientOrder, name)
	c.World.AddNode(id, cons)
	return nil
}

func (c *Cluster) checkClientName(name string) error {
	if c.Producers[name] != nil || c.Consumers[name] != nil || c.Externals[name] != nil {
		return fmt.Errorf("client %q is already declared", name)
	}
	if len(c.ClientOrder)+len(c.Externals) >= MaxClients {
		return fmt.Errorf("at most %d clients", MaxClients)
	}
	if broker.IsBrokerName(name) || name == c.World.Name(ControllerNode) || name == AdminName || name == "" {
		return fmt.Errorf("%q is a reserved node name", name)
	}
	return nil
}

// Node is the node a script names: a broker, the controller or a client
// (ok false for a name no node of this cluster has).
func (c *Cluster) Node(name string) (sim.NodeID, bool) {
	id, ok := c.World.Lookup(name)
	if !ok || c.World.Handler(id) == nil {
		return sim.NoNode, false
	}
	return id, true
}

// Crash stops a node. A broker loses its memory (its logs survive); a
// client dies with its in-flight work.
func (c *Cluster) Crash(node sim.NodeID) error {
	switch c.World.StatusOf(node) {
	case sim.Crashed:
		return fmt.Errorf("%s is already crashed", c.World.Name(node))
	}
	if c.World.Handler(node) == nil {
		return fmt.Errorf("unknown node %s", c.World.Name(node))
	}
	c.World.Crash(node)
	if id, ok := broker.IDOf(node); ok {
		c.Brokers[id] = nil
		c.incarnation[id]++
		c.World.After(ControllerNode, c.BrokerCfg.SessionTimeoutMs, "session-timeout", sessionCheck{id, c.incarnation[id]})
	}
	return nil
}

// Restart brings a crashed broker back; it recovers from its logs.
func (c *Cluster) Restart(node sim.NodeID) error {
	id, ok := broker.IDOf(node)
	if !ok {
		return fmt.Errorf("only brokers can be restarted; a crashed client is gone: declare a new one")
	}
	if int(id) >= len(c.Brokers) {
		return fmt.Errorf("unknown broker %s", c.World.Name(node))
	}
	if c.World.StatusOf(node) != sim.Crashed {
		return fmt.Errorf("%s is not crashed", c.World.Name(node))
	}
	// A broker that re-registers replaces its old incarnation at once.
	if !c.fenced[id] {
		c.fence(id)
	}
	b := broker.New(id, c.Meta, c.Disks[id], &c.BrokerCfg)
	c.Brokers[id] = b
	c.incarnation[id]++
	c.World.Restart(node, b)
	c.unfence(id)
	b.Start(c.World)
	return nil
}

// Pause stalls a process: a client (a long GC pause, the zombie) or a
// broker (a zombie coordinator). A paused broker stops heart-beating, so
// the controller fences it after broker.session.timeout.ms.
func (c *Cluster) Pause(node sim.NodeID) error {
	if c.World.Handler(node) == nil || node == ControllerNode {
		return fmt.Errorf("unknown node %s", c.World.Name(node))
	}
	if c.World.StatusOf(node) != sim.Up {
		return fmt.Errorf("%s is %s", c.World.Name(node), c.World.StatusOf(node))
	}
	c.World.Pause(node)
	if id, ok := broker.IDOf(node); ok {
		c.World.After(ControllerNode, c.BrokerCfg.SessionTimeoutMs, "session-timeout", sessionCheck{id, c.incarnation[id]})
	}
	return nil
}

// Resume wakes a paused process, which finds what arrived meanwhile. A
// broker fenced meanwhile registers again.
func (c *Cluster) Resume(node sim.NodeID) error {
	if c.World.StatusOf(node) != sim.Paused {
		return fmt.Errorf("%s is not paused", c.World.Name(node))
	}
	c.World.Resume(node)
	if id, ok := broker.IDOf(node); ok && c.fenced[id] {
		// It learns it was fenced only at its next heartbeat
		// (broker.heartbeat.interval.ms, 2 s): until then it acts on
		// what it knew, like a zombie coordinator does.
		c.World.After(ControllerNode, 2*sim.Second, "register", id)
	} else if ok {
		// Not fenced: it catches up on the metadata it missed while
		// paused, as a Kafka broker replays the metadata log after a
		// pause. Without this, a broker elected coordinator during its
		// pause answered NOT_COORDINATOR for good.
		if b := c.Broker(id); b != nil {
			b.OnMetadataChange(c.World)
		}
	}
	return nil
}

// Isolate cuts a node from every other node and from the controller; an
// isolated broker is fenced after broker.session.timeout.ms.
func (c *Cluster) Isolate(node sim.NodeID) {
	for _, other := range c.World.Nodes() {
		if other != node {
			c.World.Net.Cut(node, other)
		}
	}
	c.World.Note(node, "", sim.NoteIsolated)
	c.NetworkMayLose()
	if id, ok := broker.IDOf(node); ok {
		c.World.After(ControllerNode, c.BrokerCfg.SessionTimeoutMs, "session-timeout", sessionCheck{id, c.incarnation[id]})
	}
}

// Partition cuts every pair of nodes across the groups.
func (c *Cluster) Partition(groups [][]sim.NodeID) {
	for i, g := range groups {
		for _, a := range g {
			for _, h := range groups[i+1:] {
				for _, b := range h {
					c.World.Net.Cut(a, b)
				}
			}
		}
	}
	c.NetworkMayLose()
}

// NetworkMayLose is called when a drop rule or a cut is installed: brokers
// arm timeouts on their outstanding fetches.
func (c *Cluster) NetworkMayLose() {
	for _, b := range c.Brokers {
		if b != nil && c.World.StatusOf(b.Node) == sim.Up {
			b.ArmFetchTimeouts(c.World)
		}
	}
}

// Heal removes every cut, drop and delay rule; fenced brokers that are up
// register again.
func (c *Cluster) Heal() {
	c.World.Net.Heal()
	c.World.Note(ControllerNode, "", sim.NoteHealed)
	for _, b := range c.Brokers {
		if b != nil && c.World.StatusOf(b.Node) == sim.Up {
			b.RestartFetchers(c.World)
		}
	}
	for id := range c.Brokers {
		if c.fenced[id] && c.World.StatusOf(broker.NodeID(int32(id))) == sim.Up {
			c.unfence(int32(id))
		}
	}
}

// clientMeta is the clients' view of the cluster's metadata.
type clientMeta struct{ c *Cluster }

func (m clientMeta) LeaderOf(tp protocol.TopicPartition) (sim.NodeID, bool) {
	l := m.c.Meta.Leader(tp)
	if l < 0 {
		return sim.NoNode, false
	}
	return broker.NodeID(l), true
}

// PartitionCount is the number of partitions of a topic (0: unknown).
func (m clientMeta) BrokerNode(id int32) sim.NodeID { return broker.NodeID(id) }

func (m clientMeta) PartitionCount(topic string) int32 {
	var n int32
	for tp := range m.c.Meta.Partitions {
		if tp.Topic == topic {
			n++
		}
	}
	return n
}

// TransactionVersion is the finalized transaction.version the brokers
// advertise.
func (m clientMeta) TransactionVersion() int16 { return m.c.BrokerCfg.TransactionVersion }

func (m clientMeta) Bootstrap(attempt int) sim.NodeID {
	var alive []int32
	for i, ok := range m.c.Meta.Alive {
		if ok {
			alive = append(alive, int32(i))
		}
	}
	if len(alive) == 0 {
		return broker.NodeID(int32(attempt % len(m.c.Meta.Alive)))
	}
	return broker.NodeID(alive[attempt%len(alive)])
}

// CoordinatorOf is the broker leading a transactional id's
// __transaction_state partition, with the partition.
func (c *Cluster) CoordinatorOf(transactionalId string) (int32, int32) {
	p := c.Meta.TxnPartitionFor(transactionalId)
	return c.Meta.Leader(protocol.TopicPartition{Topic: protocol.TransactionStateTopic, Partition: p}), p
}

// GroupCoordinatorOf is the broker leading a group's __consumer_offsets
// partition.
func (c *Cluster) GroupCoordinatorOf(group string) (int32, int32) {
	p := c.Meta.GroupPartitionFor(group)
	return c.Meta.Leader(protocol.TopicPartition{Topic: protocol.ConsumerOffsetsTopic, Partition: p}), p
}

// TransactionalIds lists the transactional ids of declared producers,
// sorted.
func (c *Cluster) TransactionalIds() []string {
	seen := map[string]bool{}
	var ids []string
	for _, name := range c.ClientOrder {
		if p := c.Producers[name]; p != nil && p.Cfg.TransactionalId != "" && !seen[p.Cfg.TransactionalId] {
			seen[p.Cfg.TransactionalId] = true
			ids = append(ids, p.Cfg.TransactionalId)
		}
	}
	sort.Strings(ids)
	return ids
}

// Broker returns a live broker, or nil.
func (c *Cluster) Broker(id int32) *broker.Broker {
	if id < 0 || int(id) >= len(c.Brokers) {
		return nil
	}
	return c.Brokers[id]
}
