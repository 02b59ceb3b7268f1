package scenario

// The setup statements: cluster, config, topic, producer and consumer.
// Their types, option tables, parsing, canonical text and application
// live here.

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/cluster"
	"txnlab/core/sim"
)

// ---- cluster ----

// ClusterStmt creates the cluster; it is the first statement of a script.
type ClusterStmt struct {
	Base
	Brokers           int    // brokers=N, default 3
	RF                int    // rf=R: replication factor of the internal topics and default of topics; default min(3, Brokers)
	TxnPartitions     int    // txn-partitions=P: partitions of __transaction_state, default 50
	OffsetsPartitions int    // offsets-partitions=Q: partitions of __consumer_offsets, default 50
	Seed              uint64 // seed=S, default 1
	MinLatency        sim.Time
	MaxLatency        sim.Time  // latency=MIN..MAX, default 1ms..5ms
	Given             OptionSet // which of brokers, rf, txn-partitions, offsets-partitions, seed, latency were written
}

var clusterOptions = optTable[ClusterStmt]{
	{key: "brokers",
		def: func(st *ClusterStmt) { st.Brokers = 3 },
		read: func(lp *lineParser, st *ClusterStmt, o option) {
			st.Brokers = int(lp.integer(o.key, o.raw, o.col, 1, MaxBrokers))
			st.RF = min(3, st.Brokers) // rf's default follows
		},
		write: func(st *ClusterStmt) string { return strconv.Itoa(st.Brokers) }},
	{key: "rf",
		def: func(st *ClusterStmt) { st.RF = 3 },
		read: func(lp *lineParser, st *ClusterStmt, o option) {
			st.RF = int(lp.integerWhy(o.key, o.raw, o.col, 1, int64(st.Brokers), " (the number of brokers)"))
		},
		write: func(st *ClusterStmt) string { return strconv.Itoa(st.RF) }},
	intOpt("txn-partitions", 50, 1, MaxInternalPartitions, func(st *ClusterStmt) *int { return &st.TxnPartitions }),
	intOpt("offsets-partitions", 50, 1, MaxInternalPartitions, func(st *ClusterStmt) *int { return &st.OffsetsPartitions }),
	{key: "seed",
		def: func(st *ClusterStmt) { st.Seed = 1 },
		read: func(lp *lineParser, st *ClusterStmt, o option) {
			v, err := strconv.ParseUint(o.raw, 10, 64)
			if err != nil || !allDigits(o.raw) {
				lp.failf(o.col, "seed must be a non-negative integer below 2^64, got %q", o.raw)
			}
			st.Seed = v
		},
		write: func(st *ClusterStmt) string { return strconv.FormatUint(st.Seed, 10) }},
	{key: "latency",
		def:  func(st *ClusterStmt) { st.MinLatency, st.MaxLatency = 1, 5 },
		read: func(lp *lineParser, st *ClusterStmt, o option) { st.MinLatency, st.MaxLatency = lp.latency(o) },
		write: func(st *ClusterStmt) string {
			return FormatDuration(st.MinLatency) + ".." + FormatDuration(st.MaxLatency)
		}},
}

// DefaultCluster returns the cluster a bare "cluster" statement creates.
func DefaultCluster() *ClusterStmt {
	st := &ClusterStmt{}
	clusterOptions.defaults(st)
	return st
}

// String renders the statement canonically.
func (s *ClusterStmt) String() string {
	b := words("cluster")
	clusterOptions.render(b, s, s.Given)
	return b.String()
}

func parseCluster(lp *lineParser, kw token) Stmt {
	if lp.d.Cluster != nil {
		if l := lp.d.Cluster.Pos.Line; l > 0 {
			lp.failf(kw.col, "the cluster was already created on line %d: a script has one cluster statement", l)
		}
		lp.failf(kw.col, "cluster must be the first statement")
	}
	st := DefaultCluster()
	lp.pending = func() { lp.d.Cluster = st }
	st.Given = clusterOptions.parse(lp, "cluster", st).given()
	return st
}

func (lp *lineParser) latency(o option) (lo, hi sim.Time) {
	a, b, ok := strings.Cut(o.raw, "..")
	if !ok {
		d := lp.duration("latency", o.raw, o.col, sim.Hour)
		return d, d
	}
	lo = lp.duration("latency minimum", a, o.col, sim.Hour)
	hi = lp.duration("latency maximum", b, o.col, sim.Hour)
	if lo > hi {
		lp.failf(o.col, "latency minimum %s is above the maximum %s", FormatDuration(lo), FormatDuration(hi))
	}
	return lo, hi
}

func (st *ClusterStmt) apply(s *Session) *Error {
	if s.Cluster != nil {
		return s.errorf(st, "the cluster is already created: cluster must be the first statement")
	}
	if err := s.startCluster(st); err != nil {
		return s.errorf(st, "%v", err)
	}
	return nil
}

func (s *Session) startCluster(st *ClusterStmt) error {
	cfg := cluster.Config{Brokers: st.Brokers, RF: st.RF, TxnPartitions: st.TxnPartitions,
		OffsetsPartitions: st.OffsetsPartitions, Seed: st.Seed, LatencyMin: st.MinLatency, LatencyMax: st.MaxLatency}
	if s.SeedOverride != 0 {
		cfg.Seed = s.SeedOverride
	}
	c, err := cluster.New(cfg)
	if err != nil {
		return err
	}
	s.Cluster = c
	s.settle()
	return nil
}

// settle lets the brokers take up their roles (loading the internal
// partitions) before the script goes on, as a cluster does before a
// client connects.
func (s *Session) settle() {
	s.Cluster.RunIdle(sim.Second)
}

// ---- config ----

// ConfigKey describes one broker setting the config statement accepts.
type ConfigKey struct {
	Name     string
	Duration bool  // the value is a duration (every *.ms key)
	Default  int64 // Kafka's default: milliseconds for durations
	Min, Max int64 // accepted range
}

// ConfigKeys is every broker setting the config statement accepts, with
// Kafka's defaults. Durations are capped at 2147483647ms, as these are
// int settings in Kafka.
var ConfigKeys = []ConfigKey{
	{"transaction.max.timeout.ms", true, 900_000, 1, math.MaxInt32},
	{"transactional.id.expiration.ms", true, 604_800_000, 1, math.MaxInt32},
	{"transaction.abort.timed.out.transaction.cleanup.interval.ms", true, 10_000, 1, math.MaxInt32},
	{"transaction.remove.expired.transaction.cleanup.interval.ms", true, 3_600_000, 1, math.MaxInt32},
	{"broker.session.timeout.ms", true, 9_000, 1, math.MaxInt32},
	{"request.timeout.ms", true, 30_000, 1, math.MaxInt32},
	{"producer.id.expiration.ms", true, 86_400_000, 1, math.MaxInt32},
	{"producer.id.expiration.check.interval.ms", true, 600_000, 1, math.MaxInt32},
	{"min.insync.replicas", false, 1, 1, MaxBrokers},
	{"transaction.state.log.min.isr", false, 2, 1, MaxBrokers},
	// KIP-890 (docs/kafka-fidelity.md, "Kafka 4: verification and
	// transaction version 2"). Kafka 3.6+ defaults verification to true;
	// the defaults here are Kafka 3.5's protocol.
	{"transaction.partition.verification.enable", false, 0, 0, 1},
	{"transaction.version", false, 0, 0, 2},
	// A release's behaviours rather than Kafka settings (kafka=3.6 and
	// later switch them off; docs/kafka-fidelity.md §19): the leader
	// epoch bumped on an ISR shrink (until KAFKA-15021, 3.6) and the
	// coordinators reloaded on every change of their partition (until
	// KAFKA-15468, 3.8).
	{"leader.epoch.bump.on.isr.shrink", false, 1, 0, 1},
	{"coordinator.reload.on.partition.change", false, 1, 0, 1},
	// The group coordinator's (group.go).
	{"group.initial.rebalance.delay.ms", true, 3_000, 0, math.MaxInt32},
	{"group.min.session.timeout.ms", true, 6_000, 1, math.MaxInt32},
	{"group.max.session.timeout.ms", true, 1_800_000, 1, math.MaxInt32},
}

// BoolConfigKeys are the config keys written true/false (held as 1/0).
var BoolConfigKeys = map[string]bool{"transaction.partition.verification.enable": true,
	"leader.epoch.bump.on.isr.shrink": true, "coordinator.reload.on.partition.change": true}

// ConfigKeyByName finds a broker setting.
func ConfigKeyByName(name string) (ConfigKey, bool) {
	for _, k := range ConfigKeys {
		if k.Name == name {
			return k, true
		}
	}
	return ConfigKey{}, false
}

// Setting is one KEY=VALUE of a config statement. Value is milliseconds
// for durations.
type Setting struct {
	Key   string
	Value int64
}

// ConfigStmt sets broker configuration from this line on.
type ConfigStmt struct {
	Base
	Settings []Setting // in the order written; each key at most once
}

// String renders the statement canonically.
func (s *ConfigStmt) String() string {
	b := words("config")
	for _, st := range s.Settings {
		if k, ok := ConfigKeyByName(st.Key); ok && k.Duration {
			b.opt(st.Key, FormatDuration(sim.Time(st.Value)))
		} else if BoolConfigKeys[st.Key] {
			b.opt(st.Key, strconv.FormatBool(st.Value != 0))
		} else {
			b.opt(st.Key, strconv.FormatInt(st.Value, 10))
		}
	}
	return b.String()
}

func parseConfig(lp *lineParser, kw token) Stmt {
	if !lp.more() {
		lp.failf(lp.endCol(), "config needs at least one KEY=VALUE, e.g. config transaction.max.timeout.ms=15m")
	}
	keys := make([]string, len(ConfigKeys))
	for i, k := range ConfigKeys {
		keys[i] = k.Name
	}
	st := &ConfigStmt{}
	for _, o := range lp.options("config", keys).list {
		k, _ := ConfigKeyByName(o.key)
		var v int64
		if BoolConfigKeys[o.key] {
			if lp.boolean(o) {
				v = 1
			}
		} else if k.Duration {
			v = int64(lp.duration(o.key, o.raw, o.col, sim.Time(k.Max)))
			if v < k.Min {
				lp.failf(o.col, "%s must be at least %s, got %s", o.key, FormatDuration(sim.Time(k.Min)), o.raw)
			}
		} else {
			v = lp.integer(o.key, o.raw, o.col, k.Min, k.Max)
		}
		st.Settings = append(st.Settings, Setting{Key: o.key, Value: v})
	}
	return st
}

func (st *ConfigStmt) apply(s *Session) *Error {
	for _, kv := range st.Settings {
		if err := s.Cluster.Configure(kv.Key, kv.Value); err != nil {
			return s.errorf(st, "%v", err)
		}
	}
	return nil
}

// ---- topic ----

// TopicStmt creates a topic.
type TopicStmt struct {
	Base
	Name       string
	Partitions int       // partitions=N, default 1
	RF         int       // rf=R, default the cluster's rf
	Given      OptionSet // which of partitions, rf were written
}

var topicOptions = optTable[TopicStmt]{
	intOpt("partitions", 1, 1, MaxPartitions, func(st *TopicStmt) *int { return &st.Partitions }),
	{key: "rf", // default: the cluster's rf, set by the parser
		read: func(lp *lineParser, st *TopicStmt, o option) {
			st.RF = int(lp.integerWhy(o.key, o.raw, o.col, 1, int64(lp.d.brokers()), " (the number of brokers)"))
		},
		write: func(st *TopicStmt) string { return strconv.Itoa(st.RF) }},
}

// String renders the statement canonically.
func (s *TopicStmt) String() string {
	b := words("topic", s.Name)
	topicOptions.render(b, s, s.Given)
	return b.String()
}

func parseTopic(lp *lineParser, kw token) Stmt {
	t := lp.next("topic needs a name, e.g. topic orders partitions=2")
	name := t.raw
	if t.quoted || !validTopic(name) {
		lp.failf(t.col, "topic name %q may only hold letters, digits, '.', '_' and '-' (at most 249)", t.raw)
	}
	if name == "." || name == ".." {
		lp.failf(t.col, "topic name %q is not allowed", name)
	}
	if strings.HasPrefix(name, "__") {
		lp.failf(t.col, "topic names starting with __ are reserved for Kafka's internal topics")
	}
	if prev, ok := lp.d.Topic(name); ok {
		lp.failf(t.col, "topic %q is already declared on line %d", name, prev.Line)
	}
	if len(lp.d.topics) >= MaxTopics {
		lp.failf(t.col, "too many topics: at most %d", MaxTopics)
	}
	st := &TopicStmt{Name: name}
	topicOptions.defaults(st)
	st.RF = lp.d.Cluster.RF
	lp.pending = func() {
		lp.d.topics = append(lp.d.topics, TopicDecl{Name: name, Partitions: st.Partitions, RF: st.RF, Line: lp.line})
	}
	st.Given = topicOptions.parse(lp, "topic", st).given()
	return st
}

func (st *TopicStmt) apply(s *Session) *Error {
	rf := st.RF
	if !st.Given.Has("rf") {
		rf = s.Cluster.Cfg.RF
	}
	if err := s.Cluster.CreateTopic(st.Name, st.Partitions, rf); err != nil {
		return s.errorf(st, "%v", err)
	}
	s.settle()
	return nil
}

// ---- producer and consumer ----

// ClientKind tells producers from consumers.
type ClientKind uint8

// The client kinds.
const (
	KindProducer ClientKind = iota + 1
	KindConsumer
)

var clientKindNames = []string{"", "producer", "consumer", "client"}

// String returns "producer" or "consumer".
func (k ClientKind) String() string { return enumString(k, clientKindNames, "ClientKind") }

// Acks is the producer's acks setting, with Kafka's numbers.
type Acks int8

// The acks settings.
const (
	AcksAll    Acks = -1 // written "all" (or -1)
	AcksNone   Acks = 0
	AcksLeader Acks = 1
)

// String returns "all", "1" or "0".
func (a Acks) String() string {
	if a == AcksAll {
		return "all"
	}
	return strconv.Itoa(int(a))
}

// IsolationLevel is the consumer's isolation.level, with Kafka's numbers.
type IsolationLevel uint8

// The isolation levels.
const (
	ReadUncommitted IsolationLevel = 0
	ReadCommitted   IsolationLevel = 1
)

var isolationNames = []string{"read_uncommitted", "read_committed"}

// String returns Kafka's name of the level.
func (l IsolationLevel) String() string { return enumString(l, isolationNames, "IsolationLevel") }

// declName checks the name of a new client and reserves it.
func (lp *lineParser) declName(what string) token {
	t := lp.next(what + " needs a name, e.g. " + what + " p1")
	if t.quoted || !validClientName(t.raw) {
		lp.failf(t.col, "client name %q must start with a lowercase letter and hold only a-z, 0-9, '_' and '-'", t.raw)
	}
	if reserved[t.raw] {
		lp.failf(t.col, "client name %q is a keyword of the language: choose another name", t.raw)
	}
	if _, ok := brokerIndex(t.raw); ok {
		lp.failf(t.col, "client name %q looks like a broker: choose another name", t.raw)
	}
	if c, ok := lp.d.Client(t.raw); ok {
		lp.failf(t.col, "client %q is already declared on line %d: a crashed or closed client stays declared; declare a new name", t.raw, c.Line)
	}
	if len(lp.d.clients) >= MaxClients {
		lp.failf(t.col, "too many clients: at most %d", MaxClients)
	}
	return t
}

// ProducerStmt declares a producer. Without a transactional id it is an
// idempotent (or, with enable.idempotence=false, a plain) producer.
type ProducerStmt struct {
	Base
	Name               string
	TransactionalID    string   // transactional.id, "" when not transactional
	TransactionTimeout sim.Time // transaction.timeout.ms, default 60s
	EnableIdempotence  bool     // enable.idempotence, default true unless acks is not all (as Kafka 3.2+)
	Acks               Acks     // acks, default all
	RequestTimeout     sim.Time // request.timeout.ms, default 30s
	DeliveryTimeout    sim.Time // delivery.timeout.ms, default 120s (raised to request.timeout.ms if that is larger)
	MaxBlock           sim.Time // max.block.ms, default 60s
	RetryBackoff       sim.Time // retry.backoff.ms, default 100ms
	MaxInFlight        int      // max.in.flight.requests.per.connection, default 5 (at most 5 with idempotence)
	Given              OptionSet
}

// int32Max caps the producer's durations: they are int settings in Kafka.
const int32Max = sim.Time(math.MaxInt32)

var producerOptions = optTable[ProducerStmt]{
	textOpt("transactional.id", func(st *ProducerStmt) *string { return &st.TransactionalID }),
	durOpt("transaction.timeout.ms", 60*sim.Second, int32Max, func(st *ProducerStmt) *sim.Time { return &st.TransactionTimeout }),
	boolOpt("enable.idempotence", true, func(st *ProducerStmt) *bool { return &st.EnableIdempotence }),
	{key: "acks",
		def: func(st *ProducerStmt) { st.Acks = AcksAll },
		read: func(lp *lineParser, st *ProducerStmt, o option) {
			switch o.raw {
			case "all", "-1":
				st.Acks = AcksAll
			case "1":
				st.Acks = AcksLeader
			case "0":
				st.Acks = AcksNone
			default:
				lp.failf(o.col, "acks must be all, -1, 1 or 0, got %q", o.raw)
			}
		},
		write: func(st *ProducerStmt) string { return st.Acks.String() }},
	durOpt("request.timeout.ms", 30*sim.Second, int32Max, func(st *ProducerStmt) *sim.Time { return &st.RequestTimeout }),
	durOpt("delivery.timeout.ms", 120*sim.Second, int32Max, func(st *ProducerStmt) *sim.Time { return &st.DeliveryTimeout }),
	durOpt("max.block.ms", 60*sim.Second, int32Max, func(st *ProducerStmt) *sim.Time { return &st.MaxBlock }),
	durOpt("retry.backoff.ms", 100, int32Max, func(st *ProducerStmt) *sim.Time { return &st.RetryBackoff }),
	intOpt("max.in.flight.requests.per.connection", 5, 1, math.MaxInt32, func(st *ProducerStmt) *int { return &st.MaxInFlight }),
}

// String renders the statement canonically.
func (s *ProducerStmt) String() string {
	b := words("producer", s.Name)
	producerOptions.render(b, s, s.Given)
	return b.String()
}

func parseProducer(lp *lineParser, kw token) Stmt {
	t := lp.declName("producer")
	st := &ProducerStmt{Name: t.raw}
	producerOptions.defaults(st)
	lp.pending = func() {
		lp.d.clients = append(lp.d.clients, ClientDecl{Name: st.Name, Kind: KindProducer, Line: lp.line,
			TransactionalID: st.TransactionalID})
	}
	// What Kafka checks across options, each check once the options it
	// reads have been read.
	opts := producerOptions.scan(lp, "producer")
	producerOptions.read(lp, st, opts, "transactional.id", "transaction.timeout.ms", "acks",
		"max.in.flight.requests.per.connection", "enable.idempotence")
	if o, ok := opts.get("enable.idempotence"); ok {
		if st.EnableIdempotence && st.Acks != AcksAll {
			lp.failf(o.col, "enable.idempotence=true needs acks=all, as in Kafka")
		}
		if st.EnableIdempotence && st.MaxInFlight > 5 {
			m, _ := opts.get("max.in.flight.requests.per.connection")
			lp.failf(m.col, "max.in.flight.requests.per.connection must be at most 5 to use the idempotent producer, as in Kafka")
		}
	} else if st.Acks != AcksAll || st.MaxInFlight > 5 {
		// Kafka 3.2+: idempotence not set explicitly is turned off by a
		// conflicting acks or max.in.flight.requests.per.connection.
		st.EnableIdempotence = false
	}
	if st.TransactionalID != "" && !st.EnableIdempotence {
		o, _ := opts.get("transactional.id")
		if st.MaxInFlight > 5 && st.Acks == AcksAll && !opts.has("enable.idempotence") {
			lp.failf(o.col, "a transactional producer needs idempotence: max.in.flight.requests.per.connection above 5 turns it off; write at most 5, as in Kafka")
		}
		lp.failf(o.col, "a transactional producer needs idempotence: drop enable.idempotence=false and keep acks=all, as in Kafka")
	}
	producerOptions.read(lp, st, opts, "request.timeout.ms", "delivery.timeout.ms")
	if o, ok := opts.get("delivery.timeout.ms"); ok {
		if st.DeliveryTimeout < st.RequestTimeout {
			lp.failf(o.col, "delivery.timeout.ms must be at least request.timeout.ms (%s), as in Kafka", FormatDuration(st.RequestTimeout))
		}
	} else if st.DeliveryTimeout < st.RequestTimeout {
		st.DeliveryTimeout = st.RequestTimeout
	}
	producerOptions.read(lp, st, opts, "max.block.ms", "retry.backoff.ms")
	st.Given = opts.given()
	return st
}

func (st *ProducerStmt) apply(s *Session) *Error {
	cfg := cluster.DefaultProducerConfig()
	cfg.TransactionalId = st.TransactionalID
	cfg.TransactionTimeoutMs = st.TransactionTimeout
	cfg.EnableIdempotence = st.EnableIdempotence
	cfg.Acks = int16(st.Acks)
	cfg.RequestTimeoutMs = st.RequestTimeout
	cfg.DeliveryTimeoutMs = st.DeliveryTimeout
	if st.Given.Has("max.block.ms") {
		cfg.MaxBlockMs = st.MaxBlock
	}
	if st.Given.Has("retry.backoff.ms") {
		cfg.RetryBackoffMs = st.RetryBackoff
	}
	cfg.MaxInFlight = st.MaxInFlight
	if err := s.Cluster.AddProducer(st.Name, cfg); err != nil {
		return s.errorf(st, "%v", err)
	}
	return nil
}

// ConsumerStmt declares a consumer.
type ConsumerStmt struct {
	Base
	Name           string
	IsolationLevel IsolationLevel // isolation.level, default read_uncommitted
	GroupID        string         // group.id, "" for none
	Group          GroupOptions   // membership options (group.go)
	// FetchMaxWait and FetchMinBytes are fetch.max.wait.ms and
	// fetch.min.bytes: how long a fetch may wait at the leader for how
	// many bytes (DelayedFetch).
	FetchMaxWait  sim.Time
	FetchMinBytes int32
	Given         OptionSet
}

var consumerOptions = optTable[ConsumerStmt]{
	{key: "isolation.level",
		read: func(lp *lineParser, st *ConsumerStmt, o option) {
			switch o.raw {
			case "read_committed":
				st.IsolationLevel = ReadCommitted
			case "read_uncommitted":
				st.IsolationLevel = ReadUncommitted
			default:
				lp.failf(o.col, "isolation.level must be read_committed or read_uncommitted, got %q%s",
					o.raw, didYouMean(o.raw, isolationNames))
			}
		},
		write: func(st *ConsumerStmt) string { return st.IsolationLevel.String() }},
	textOpt("group.id", func(st *ConsumerStmt) *string { return &st.GroupID }),
	// group membership (group.go)
	durOpt("session.timeout.ms", 0, int32Max, func(st *ConsumerStmt) *sim.Time { return &st.Group.SessionTimeout }),
	durOpt("heartbeat.interval.ms", 0, int32Max, func(st *ConsumerStmt) *sim.Time { return &st.Group.HeartbeatInterval }),
	durOpt("max.poll.interval.ms", 0, int32Max, func(st *ConsumerStmt) *sim.Time { return &st.Group.MaxPollInterval }),
	textOpt("group.instance.id", func(st *ConsumerStmt) *string { return &st.Group.GroupInstanceID }),
	{key: "partition.assignment.strategy",
		read: func(lp *lineParser, st *ConsumerStmt, o option) {
			for i, name := range strings.Split(o.raw, ",") {
				if !slices.Contains(assignorNames, name) {
					lp.failf(o.vcol, "partition.assignment.strategy lists assignors (%s), preferred first; got %q%s",
						strings.Join(assignorNames, ", "), name, didYouMean(name, assignorNames))
				}
				if slices.Contains(st.Group.Assignors[:i], name) {
					lp.failf(o.vcol, "partition.assignment.strategy lists %s twice", name)
				}
				st.Group.Assignors = append(st.Group.Assignors, name)
			}
		},
		write: func(st *ConsumerStmt) string { return strings.Join(st.Group.Assignors, ",") }},
	durOpt("fetch.max.wait.ms", 0, int32Max, func(st *ConsumerStmt) *sim.Time { return &st.FetchMaxWait }),
	intOpt("fetch.min.bytes", int32(1), 0, math.MaxInt32, func(st *ConsumerStmt) *int32 { return &st.FetchMinBytes }),
}

// assignorNames are the assignors partition.assignment.strategy may list.
var assignorNames = []string{cluster.RangeAssignor, cluster.RoundRobinAssignor}

// String renders the statement canonically.
func (s *ConsumerStmt) String() string {
	b := words("consumer", s.Name)
	consumerOptions.render(b, s, s.Given)
	return b.String()
}

func parseConsumer(lp *lineParser, kw token) Stmt {
	t := lp.declName("consumer")
	st := &ConsumerStmt{Name: t.raw}
	lp.pending = func() {
		lp.d.clients = append(lp.d.clients, ClientDecl{Name: st.Name, Kind: KindConsumer, Line: lp.line, GroupID: st.GroupID})
	}
	opts := consumerOptions.parse(lp, "consumer", st)
	lp.checkGroupOptions(st, opts)
	st.Given = opts.given()
	return st
}

func (st *ConsumerStmt) apply(s *Session) *Error {
	cfg := cluster.DefaultConsumerConfig()
	cfg.IsolationLevel = int8(st.IsolationLevel)
	cfg.GroupId = st.GroupID
	st.applyGroupOptions(&cfg)
	if st.Given.Has("fetch.max.wait.ms") {
		cfg.FetchMaxWaitMs = st.FetchMaxWait
	}
	if st.Given.Has("fetch.min.bytes") {
		cfg.FetchMinBytes = st.FetchMinBytes
	}
	if err := s.Cluster.AddConsumer(st.Name, cfg); err != nil {
		return s.errorf(st, "%v", err)
	}
	return nil
}
