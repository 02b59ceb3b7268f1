package scenario

import (
	"fmt"

	"txnlab/core/broker"
	"txnlab/core/client"
	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Result is the outcome of one expectation.
type Result struct {
	Pos      Pos
	Line     string
	OK       bool
	Expected string `json:",omitempty"`
	Actual   string `json:",omitempty"`
}

// String renders the result as the CLI prints it.
func (r Result) String() string {
	if r.OK {
		return fmt.Sprintf("ok   %d: %s", r.Pos.Line, r.Line)
	}
	return fmt.Sprintf("FAIL %d: %s\n       expected: %s\n       actual:   %s", r.Pos.Line, r.Line, r.Expected, r.Actual)
}

// Session runs a script statement by statement and, inside a statement
// that waits, event by event: a UI can step through it, a CLI runs it to
// the end. The same script and seed always give the same trace.
type Session struct {
	Script  *Script
	File    string
	Cluster *cluster.Cluster
	Results []Result
	// Err is the first script error met while running (a statement that
	// cannot apply, such as resuming a client that is not paused); the
	// run stops there.
	Err *Error
	// SeedOverride, when non-zero, replaces the cluster statement's seed.
	SeedOverride uint64
	// MaxEvents bounds the history: a script whose trace grows past it
	// stops with an error naming the line, instead of exhausting memory.
	// NewSession sets DefaultMaxEvents; a browser host may set less.
	MaxEvents int
	// MaxStepsPerStatement bounds the events one statement may run; past
	// it the run stops with an error naming the line (0:
	// cluster.MaxStepsPerStatement).
	MaxStepsPerStatement int

	pc     int
	active *wait
	// midStep: StepVisibleSome stopped inside a visible step.
	midStep bool
	// deliveries is the one map every statement counts its deliveries
	// in (see wait.delivered), emptied for each: a new map per statement
	// regrew from nothing every time, 3% of a run.
	deliveries map[deliveryKey]int
}

// freshDeliveries returns the delivery counts, empty, for a statement
// starting (only one statement is active at a time).
func (s *Session) freshDeliveries() map[deliveryKey]int {
	if s.deliveries == nil {
		s.deliveries = map[deliveryKey]int{}
	} else {
		clear(s.deliveries)
	}
	return s.deliveries
}

// wait is a statement in progress: it holds until done() or the limit.
type wait struct {
	stmt  Stmt
	done  func() bool
	limit sim.Time
	// advanceTo is set for `advance`: the clock jumps there at the end.
	advanceTo sim.Time
	isAdvance bool
	onLimit   string
	steps     int
	// start is when the statement began; delivered counts the visible
	// deliveries since then, by message, so the playground can name the
	// exact moment a learner paused at (run until … nth=N).
	start     sim.Time
	delivered map[deliveryKey]int
	untilSeen *int // run until: matching messages let through so far
}

type deliveryKey struct {
	api      protocol.APIKey
	response bool
	from, to sim.NodeID
}

func keyOf(env *sim.Envelope) deliveryKey {
	return deliveryKey{env.Msg.APIKey(), env.Msg.IsResponse(), env.From, env.To}
}

// DefaultMaxEvents is the history bound of a session (about 230 MB of
// events natively).
const DefaultMaxEvents = 1_000_000

// NewSession prepares a script for running.
func NewSession(file string, s *Script) *Session {
	return &Session{Script: s, File: file, MaxEvents: DefaultMaxEvents}
}

// Done reports whether every statement has run (or an error stopped it).
func (s *Session) Done() bool {
	return s.Err != nil || (s.active == nil && s.pc >= len(s.Script.Statements))
}

// Line is the 1-based line of the statement running or about to run, 0
// when done.
func (s *Session) Line() int {
	if s.active != nil {
		return s.active.stmt.Position().Line
	}
	if s.pc < len(s.Script.Statements) {
		return s.Script.Statements[s.pc].Position().Line
	}
	return 0
}

// Failed counts failed expectations.
func (s *Session) Failed() int {
	n := 0
	for _, r := range s.Results {
		if !r.OK {
			n++
		}
	}
	return n
}

// Run runs the whole script.
func (s *Session) Run() {
	for !s.Done() {
		s.Step()
	}
}

// Step does one unit of work: starts the next statement, or runs one
// event of the statement in progress.
func (s *Session) Step() {
	if s.Done() {
		return
	}
	if s.active != nil {
		st := s.active.stmt
		s.stepActive()
		s.assertAfter(st)
		return
	}
	st := s.Script.Statements[s.pc]
	s.pc++
	if err := s.apply(st); err != nil {
		s.Err = err
	}
	s.assertAfter(st)
}

// StepToNextEvent steps until the trace grows (or the script ends), the
// unit of the UI's Step button.
func (s *Session) StepToNextEvent(visible func(e *sim.Event) bool) {
	start := 0
	if s.Cluster != nil {
		start = s.Cluster.World.Trace.Len()
	}
	for !s.Done() {
		s.Step()
		if s.Cluster == nil {
			continue
		}
		trace := &s.Cluster.World.Trace
		for i := start; i < trace.Len(); i++ {
			if visible == nil || visible(trace.At(i)) {
				return
			}
		}
		start = trace.Len()
	}
}

func (s *Session) stepActive() {
	a := s.active
	w := s.Cluster.World
	if a.done != nil && a.done() {
		s.active = nil
		return
	}
	bound := s.MaxStepsPerStatement
	if bound <= 0 {
		bound = cluster.MaxStepsPerStatement
	}
	if a.steps >= bound {
		// An error, not a silent stop: the clock would be short of what
		// the statement asked, and every later line would run on a
		// history the script did not describe.
		s.Err = s.errorf(a.stmt, "stopped after %d events (the per-statement bound) at %s; run for less time or fix what keeps retrying", a.steps, w.Now().Human())
		s.active = nil
		return
	}
	next, ok := w.Peek()
	if !ok || next.At > a.limit {
		if a.isAdvance {
			w.AdvanceTo(a.advanceTo, 0)
		} else if a.limit > w.Now() && (!ok || next.At > a.limit) {
			w.AdvanceTo(a.limit, 0)
		}
		if a.onLimit != "" && !(a.done != nil && a.done()) {
			w.Note("", "", a.onLimit)
		}
		s.active = nil
		return
	}
	if next.Env != nil && !next.Env.Internal {
		a.delivered[keyOf(next.Env)]++
	}
	w.Step()
	a.steps++
	if s.MaxEvents > 0 && w.Trace.Len() > s.MaxEvents {
		s.Err = s.errorf(a.stmt, "the history passed %d events here; run for less time or fix what keeps retrying", s.MaxEvents)
		s.active = nil
		return
	}
	if a.done != nil && a.done() {
		s.active = nil
	}
}

func (s *Session) errorf(st Stmt, format string, args ...any) *Error {
	return &Error{File: s.File, Pos: st.Position(), Msg: fmt.Sprintf(format, args...)}
}

// apply starts one statement. A statement that cannot apply returns an
// error and changes nothing.
func (s *Session) apply(st Stmt) *Error {
	if _, isCluster := st.(*ClusterStmt); !isCluster && s.Cluster == nil {
		if err := s.startCluster(DefaultCluster()); err != nil {
			return s.errorf(st, "%v", err)
		}
	}
	switch st := st.(type) {
	case *ClusterStmt:
		if s.Cluster != nil {
			return s.errorf(st, "the cluster is already created: cluster must be the first statement")
		}
		if err := s.startCluster(st); err != nil {
			return s.errorf(st, "%v", err)
		}
	case *ConfigStmt:
		return s.config(st)
	case *TopicStmt:
		rf := st.RF
		if !st.Given.Has("rf") {
			rf = s.Cluster.Cfg.RF
		}
		if err := s.Cluster.CreateTopic(st.Name, st.Partitions, rf); err != nil {
			return s.errorf(st, "%v", err)
		}
		s.settle()
	case *ProducerStmt:
		cfg := client.DefaultProducerConfig()
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
		if err := s.Cluster.AddProducer(st.Name, cfg); err != nil {
			return s.errorf(st, "%v", err)
		}
	case *ConsumerStmt:
		cfg := client.DefaultConsumerConfig()
		cfg.IsolationLevel = int8(st.IsolationLevel)
		cfg.GroupId = st.GroupID
		st.applyGroupOptions(&cfg)
		if err := s.Cluster.AddConsumer(st.Name, cfg); err != nil {
			return s.errorf(st, "%v", err)
		}
	case *ProducerActionStmt:
		return s.producerAction(st)
	case *ConsumerActionStmt:
		return s.consumerAction(st)
	case *WaitStmt:
		last := s.lastCall(st.Client)
		if last == nil {
			return s.errorf(st, "%s has made no call to wait for", st.Client)
		}
		s.waitFor(st, func() bool { return last.Done }, 10*sim.Minute, fmt.Sprintf("wait %s: the call did not return within 10m", st.Client))
	case *CrashStmt:
		n, err := s.resolve(st, st.Node)
		if err != nil {
			return err
		}
		if s.Cluster.World.StatusOf(n) == sim.Crashed {
			// Crashing what is down changes nothing; in the playground a
			// learner may have crashed it a moment before the script does.
			s.Cluster.World.Note("", "", fmt.Sprintf("line %d: %s is already down", st.Position().Line, n))
			return nil
		}
		if e := s.Cluster.Crash(n); e != nil {
			return s.errorf(st, "%v", e)
		}
	case *RestartStmt:
		n, err := s.resolve(st, st.Node)
		if err != nil {
			return err
		}
		if e := s.Cluster.Restart(n); e != nil {
			return s.errorf(st, "%v", e)
		}
	case *PauseStmt:
		n, err := s.resolve(st, st.Node)
		if err != nil {
			return err
		}
		if e := s.Cluster.Pause(n); e != nil {
			return s.errorf(st, "%v", e)
		}
	case *ResumeStmt:
		n, err := s.resolve(st, st.Node)
		if err != nil {
			return err
		}
		if e := s.Cluster.Resume(n); e != nil {
			return s.errorf(st, "%v", e)
		}
	case *IsolateStmt:
		n, err := s.resolve(st, st.Node)
		if err != nil {
			return err
		}
		s.Cluster.Isolate(n)
	case *PartitionStmt:
		var groups [][]sim.NodeID
		for _, g := range st.Groups {
			var ids []sim.NodeID
			for _, ref := range g {
				n, err := s.resolve(st, ref)
				if err != nil {
					return err
				}
				ids = append(ids, n)
			}
			groups = append(groups, ids)
		}
		s.Cluster.Partition(groups)
		s.Cluster.World.Note("", "", "network partitioned: "+st.String()[len("partition "):])
	case *HealStmt:
		s.Cluster.Heal()
	case *DropStmt:
		m, err := s.match(st, st.Match)
		if err != nil {
			return err
		}
		remaining := st.Count // 0: every such message until heal
		if remaining == 0 {
			remaining = -1
		}
		s.Cluster.World.Net.Drops = append(s.Cluster.World.Net.Drops, &sim.DropRule{Match: m, Remaining: remaining})
		s.Cluster.NetworkMayLose()
		s.Cluster.World.Note("", "", st.String())
	case *DelayStmt:
		m, err := s.match(st, st.Match)
		if err != nil {
			return err
		}
		s.Cluster.World.Net.Delays = append(s.Cluster.World.Net.Delays, sim.DelayRule{Match: m, By: st.By})
		s.Cluster.World.Note("", "", st.String())
	case *RunStmt:
		s.waitFor(st, s.Cluster.World.Idle, st.For, "run stopped after "+st.For.Human()+" with work still outstanding")
	case *RunUntilStmt:
		m, err := s.match(st, st.Match)
		if err != nil {
			return err
		}
		w := s.Cluster.World
		seen, nth := new(int), st.Nth
		if nth < 1 {
			nth = 1
		}
		var counted *sim.Envelope
		s.waitFor(st, func() bool {
			next, ok := w.Peek()
			if !ok || next.Env == nil || next.Env == counted || !matches(m, next.Env) {
				return false
			}
			if *seen+1 >= nth {
				return true
			}
			*seen, counted = *seen+1, next.Env // let this one through
			return false
		}, st.For, "run until "+st.Match.String()+": no such message within "+st.For.Human())
		if s.active != nil {
			s.active.untilSeen = seen
		}
	case *AdvanceStmt:
		w := s.Cluster.World
		s.active = &wait{stmt: st, limit: w.Now() + st.By, advanceTo: w.Now() + st.By, isAdvance: true,
			start: w.Now(), delivered: s.freshDeliveries()}
	case *BreakStmt:
		s.Cluster.World.SetBroken(sim.Mechanism(st.Mechanism.String()), true)
		s.Cluster.World.Note("", "", "break "+st.Mechanism.String()+": this safety mechanism is now OFF")
	case *RestoreStmt:
		s.Cluster.World.SetBroken(sim.Mechanism(st.Mechanism.String()), false)
		s.Cluster.World.Note("", "", "restore "+st.Mechanism.String())
	case *RequestStmt:
		return s.request(st)
	case *TxnSeedStmt:
		return s.txnSeed(st)
	default:
		return s.expect(st)
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

func (s *Session) config(st *ConfigStmt) *Error {
	cfg := &s.Cluster.BrokerCfg
	for _, kv := range st.Settings {
		d := sim.Time(kv.Value)
		switch kv.Key {
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
		case "group.initial.rebalance.delay.ms":
			cfg.Group.InitialRebalanceDelayMs = d
		case "group.min.session.timeout.ms":
			cfg.Group.MinSessionTimeoutMs = d
		case "group.max.session.timeout.ms":
			cfg.Group.MaxSessionTimeoutMs = d
		case "producer.id.expiration.ms":
			s.Cluster.SetProducerIdExpiration(d, 0)
		case "producer.id.expiration.check.interval.ms":
			s.Cluster.SetProducerIdExpiration(0, d)
		case "transaction.partition.verification.enable":
			cfg.TransactionPartitionVerificationEnable = kv.Value != 0
		case "transaction.version":
			cfg.TransactionVersion = int16(kv.Value)
		case "min.insync.replicas":
			s.Cluster.SetMinInsyncReplicas(int(kv.Value))
		case "transaction.state.log.min.isr":
			for _, p := range s.Cluster.Meta.SortedPartitions() {
				if p.TP.Topic == protocol.TransactionStateTopic {
					p.MinISR = int(kv.Value)
				}
			}
		}
	}
	return nil
}

func (s *Session) waitFor(st Stmt, done func() bool, d sim.Time, onLimit string) {
	w := s.Cluster.World
	s.active = &wait{stmt: st, done: done, limit: w.Now() + d, onLimit: onLimit, start: w.Now(), delivered: s.freshDeliveries()}
	if done() {
		s.active = nil
	}
}

func (s *Session) lastCall(name string) *client.Call {
	if p := s.Cluster.Producers[name]; p != nil {
		return p.Last()
	}
	if c := s.Cluster.Consumers[name]; c != nil {
		return c.Last()
	}
	return nil
}

func (s *Session) clientUsable(st Stmt, name string) *Error {
	switch s.Cluster.World.StatusOf(sim.NodeID(name)) {
	case sim.Crashed:
		return s.errorf(st, "%s has crashed: a crashed client cannot act; declare a new one", name)
	case sim.Paused:
		return s.errorf(st, "%s is paused: resume it first", name)
	}
	if last := s.lastCall(name); last != nil && !last.Done {
		return s.errorf(st, "%s is still in its %s call: wait for it first (wait %s)", name, last.Kind, name)
	}
	return nil
}

func (s *Session) producerAction(st *ProducerActionStmt) *Error {
	p := s.Cluster.Producers[st.Client]
	if p == nil {
		return s.errorf(st, "%s is not a producer", st.Client)
	}
	if err := s.clientUsable(st, st.Client); err != nil {
		return err
	}
	w := s.Cluster.World
	var call *client.Call
	switch st.Op {
	case ProducerInit:
		call = p.Init(w)
	case ProducerBegin:
		call = p.Begin(w)
	case ProducerSend:
		if err := s.checkTP(st, st.TP); err != nil {
			return err
		}
		recs := make([]protocol.Record, len(st.Records))
		for i, kv := range st.Records {
			recs[i] = protocol.Record{Key: kv.Key, Value: kv.Value}
		}
		call = p.Send(w, st.TP, recs)
	case ProducerSendOffsets:
		var offs []protocol.OffsetEntry
		for _, o := range st.Offsets {
			offs = append(offs, protocol.OffsetEntry{TopicPartition: o.TP, CommittedOffset: o.Offset})
		}
		call = s.sendOffsets(st, p, w, offs)
	case ProducerCommit:
		call = p.Commit(w)
	case ProducerAbort:
		call = p.Abort(w)
	case ProducerClose:
		call = p.Close(w)
	}
	if !st.Background {
		s.waitFor(st, func() bool { return call.Done }, 10*sim.Minute, st.Client+" "+st.Op.String()+": the call did not return within 10m")
	}
	return nil
}

func (s *Session) checkTP(st Stmt, tp protocol.TopicPartition) *Error {
	if s.Cluster.Meta.Partitions[tp] == nil {
		return s.errorf(st, "unknown partition %s: declare the topic first (topic NAME partitions=N)", tp)
	}
	return nil
}

func (s *Session) consumerAction(st *ConsumerActionStmt) *Error {
	c := s.Cluster.Consumers[st.Client]
	if c == nil {
		return s.errorf(st, "%s is not a consumer", st.Client)
	}
	if err := s.clientUsable(st, st.Client); err != nil {
		return err
	}
	w := s.Cluster.World
	var call *client.Call
	switch st.Op {
	case ConsumerAssign:
		for _, tp := range st.Partitions {
			if err := s.checkTP(st, tp); err != nil {
				return err
			}
		}
		call = c.Assign(w, st.Partitions)
	case ConsumerPoll:
		call = c.Poll(w)
	case ConsumerSeek:
		if err := s.checkTP(st, st.TP); err != nil {
			return err
		}
		call = c.Seek(w, st.TP, st.Offset)
	case ConsumerCommit:
		call = c.Commit(w)
	case ConsumerSubscribe:
		call = c.Subscribe(w, st.Topics)
	}
	if !st.Background {
		s.waitFor(st, func() bool { return call.Done }, 10*sim.Minute, st.Client+" "+st.Op.String()+": the call did not return within 10m")
	}
	return nil
}

// resolve turns a node reference into a node, at the moment the line runs.
func (s *Session) resolve(st Stmt, ref NodeRef) (sim.NodeID, *Error) {
	c := s.Cluster
	switch ref.Kind {
	case NodeBroker:
		if ref.Index >= c.Cfg.Brokers {
			return "", s.errorf(st, "there is no broker-%d: the cluster has brokers broker-0 … broker-%d", ref.Index, c.Cfg.Brokers-1)
		}
		return broker.NodeID(int32(ref.Index)), nil
	case NodeClient:
		if c.Producers[ref.Name] == nil && c.Consumers[ref.Name] == nil {
			return "", s.errorf(st, "unknown client %q", ref.Name)
		}
		return sim.NodeID(ref.Name), nil
	case NodeCoordinator:
		l, p := c.CoordinatorOf(ref.Name)
		if l < 0 {
			return "", s.errorf(st, "no broker leads __transaction_state/%d (the partition of %q) now", p, ref.Name)
		}
		return broker.NodeID(l), nil
	case NodeGroupCoordinator:
		l, p := c.GroupCoordinatorOf(ref.Name)
		if l < 0 {
			return "", s.errorf(st, "no broker leads __consumer_offsets/%d (the partition of group %q) now", p, ref.Name)
		}
		return broker.NodeID(l), nil
	case NodeLeader:
		if err := s.checkTP(st, ref.TP); err != nil {
			return "", err
		}
		l := c.Meta.Leader(ref.TP)
		if l < 0 {
			return "", s.errorf(st, "%s has no leader now", ref.TP)
		}
		return broker.NodeID(l), nil
	}
	return "", nil
}

func (s *Session) match(st Stmt, m MessageMatch) (sim.Match, *Error) {
	out := sim.Match{API: m.API, Response: m.Response}
	var err *Error
	if !m.From.IsZero() {
		if out.From, err = s.resolve(st, m.From); err != nil {
			return out, err
		}
	}
	if !m.To.IsZero() {
		if out.To, err = s.resolve(st, m.To); err != nil {
			return out, err
		}
	}
	return out, nil
}

// matches tells whether a message is one a script names. Replication
// traffic between brokers (follower fetches) is never matched: scripts
// speak of what clients and coordinators exchange.
func matches(m sim.Match, env *sim.Envelope) bool {
	return !env.Internal && env.Msg.APIKey() == m.API && env.Msg.IsResponse() == m.Response &&
		(m.From == "" || m.From == env.From) && (m.To == "" || m.To == env.To)
}
