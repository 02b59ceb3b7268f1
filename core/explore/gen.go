package explore

import (
	"fmt"
	"strings"

	"txnlab/core/broker"
	"txnlab/core/check"
	"txnlab/core/client"
	"txnlab/core/cluster"
	"txnlab/core/safety"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// Options configure one generated run.
type Options struct {
	// Seed makes the run: the same seed gives the same script and history.
	Seed uint64
	// Break is a mechanism to switch off at the start of the script
	// (nil for none); the generator then leans towards the situations
	// that mechanism guards.
	Break *safety.Mechanism
	// NoBias keeps the generator's usual mix even with Break set: a
	// measure of how often random schedules alone run into the anomaly.
	NoBias bool
	// Actions is how many random actions the main phase draws (0: 24).
	Actions int
	// StepBudget bounds the simulation events of the whole run (0: the
	// default).
	StepBudget int
	// Config is KEY=VALUE words of a config statement written right
	// after the cluster statement ("" for none), e.g.
	// "transaction.version=2" to explore Kafka 4's protocol.
	Config string
	// Pause, when set, is called every few thousand steps of the run:
	// a host that must not block (a page exploring in slices) hands
	// control back in it. When it returns false the run ends there,
	// with an error.
	Pause func() bool
}

// Run is one generated and executed scenario.
type Run struct {
	Seed  uint64
	Lines []string
	// Body is how many of Lines come before the liveness phase.
	Body int
	// Violations is the checker's verdict at the end, with the liveness
	// checks on (the script ends healed and quiescent).
	Violations []check.Violation
	// Err is a script error: a generator bug, since every statement is
	// chosen to be valid where it stands.
	Err error
	// Panic is the message of a panic in the simulation ("" when none);
	// Err is then set too and Lines end with the line that panicked.
	Panic string
	// Exhausted is set when the step budget ended the run early; such a
	// run is not judged.
	Exhausted bool
	Steps     int
}

// Script renders the run's script.
func (r *Run) Script() string { return Join(r.Lines) }

// classic lists the mechanisms of Kafka 3.5's classic protocol, in the
// table's order: unbiased runs weave motifs of these at random. (The
// KIP-890 ones, safety.Mechanism.TV2, are at work only under transaction
// version 2, which a run breaking one asks for.)
var classic = func() []*safety.Mechanism {
	var out []*safety.Mechanism
	for _, m := range safety.Mechanisms {
		if !m.TV2 {
			out = append(out, m)
		}
	}
	return out
}()

type topicInfo struct {
	name  string
	parts int
}

type prodInfo struct {
	name    string
	txnID   string // "" for an idempotent producer
	retired bool   // replaced after a fatal error; not driven any more
	lastTP  string // where its last send went: overlapping sends aim there
}

type consInfo struct {
	name  string
	rc    bool
	group string
	tps   []string
}

// gen builds a script statement by statement while running it, so each
// choice is made against the live state (which client is paused, which
// broker leads a coordinator partition now) and is valid where it stands.
// Replaying the finished text gives the same run: the simulation is
// deterministic.
type gen struct {
	r      *sim.Rand
	opts   Options
	sess   *scenario.Session
	decls  *scenario.Decls
	lines  []string
	err    error
	steps  int
	budget int
	full   bool
	// pause, when set, is called every pauseSteps steps; false ends
	// the run with errPaused.
	pause func() bool

	brokers   int
	topics    []topicInfo
	producers []*prodInfo
	consumers []*consInfo
	txnIDs    []string
	groups    []string
	nextVal   int
	nextProd  int
	nextCons  int
}

// linesReserved is what the generator keeps free of the script's
// MaxLines for one more action (a motif writes at most ~20 lines) and the
// liveness phase (a heal, a restart per broker, a resume and a wait per
// client, two polls per consumer: under 150 lines with 32 clients).
const linesReserved = 300

// Generate draws a scenario from opts.Seed, running it as it is built,
// ends it with a liveness phase (heal, restart, resume, run, poll) and
// judges the history.
func Generate(opts Options) (run *Run) {
	if opts.Actions <= 0 {
		opts.Actions = 24
	}
	if opts.StepBudget <= 0 {
		opts.StepBudget = DefaultStepBudget
	}
	g := &gen{r: sim.NewRand(sim.DeriveSeed(opts.Seed, "explore")), opts: opts, decls: scenario.NewDecls(), budget: opts.StepBudget, pause: opts.Pause}
	g.sess = scenario.NewSession("explore", &scenario.Script{File: "explore", Decls: g.decls})
	defer func() {
		// A panic in the simulation is a finding: the lines so far
		// reproduce it (the last one panicked).
		if r := recover(); r != nil {
			run = &Run{Seed: opts.Seed, Lines: g.lines, Body: len(g.lines), Steps: g.steps, Panic: fmt.Sprint(r),
				Err: fmt.Errorf("panic at line %d: %v", len(g.lines), r)}
		}
	}()
	g.setup()
	// Past MaxLines-linesReserved, the actions stop: the last one and the
	// liveness phase must still fit under the language's line limit.
	for i := 0; i < opts.Actions && g.ok() && len(g.lines) < scenario.MaxLines-linesReserved; i++ {
		before := g.steps
		g.action()
		if g.steps-before > interveneAfter {
			g.intervene()
		}
	}
	body := len(g.lines)
	g.liveness()
	run = &Run{Seed: opts.Seed, Lines: g.lines, Body: body, Err: g.err, Exhausted: g.full, Steps: g.steps}
	if g.err == nil && !g.full && g.sess.Cluster != nil {
		run.Violations = judge(g.sess, true)
	}
	return run
}

func (g *gen) ok() bool { return g.err == nil && !g.full }

// emit parses one line, appends it to the session's script and runs it.
func (g *gen) emit(format string, args ...any) bool {
	if !g.ok() {
		return false
	}
	line := fmt.Sprintf(format, args...)
	st, err := scenario.ParseLine(line, len(g.lines)+1, g.decls)
	if err != nil {
		g.err = fmt.Errorf("generator wrote an invalid line %q: %v", line, err)
		return false
	}
	g.lines = append(g.lines, line)
	g.sess.Script.Statements = append(g.sess.Script.Statements, st)
	for !g.sess.Done() {
		if g.steps >= g.budget {
			g.full = true
			return false
		}
		g.sess.Step()
		g.steps++
		if stopsAt(g.pause, g.steps) {
			g.err = errPaused
			return false
		}
	}
	if g.sess.Err != nil {
		g.err = fmt.Errorf("generator wrote a line that cannot apply: %v", g.sess.Err)
		return false
	}
	return true
}

func (g *gen) c() *cluster.Cluster { return g.sess.Cluster }
func (g *gen) w() *sim.World       { return g.sess.Cluster.World }

func (g *gen) pick(n int) int    { return g.r.Intn(n) }
func (g *gen) chance(p int) bool { return g.r.Intn(100) < p }
func (g *gen) between(lo, hi int) int {
	return int(g.r.Range(int64(lo), int64(hi)))
}

// ---- setup ---------------------------------------------------------------

func (g *gen) setup() {
	g.brokers = g.between(3, 5)
	// Few internal partitions most of the time: the brokers replicate
	// every partition, so Kafka's 50 + 50 multiply the cost of each event
	// (and few partitions make transactional ids share coordinators).
	internal := func() int {
		if g.chance(15) {
			return 50
		}
		return []int{1, 2, 3, 5, 8}[g.pick(5)]
	}
	g.emit("cluster brokers=%d txn-partitions=%d offsets-partitions=%d seed=%d", g.brokers, internal(), internal(), g.opts.Seed%1_000_000_007+1)
	if g.opts.Break != nil {
		g.emit("break %s", g.opts.Break.Name)
	}
	if c := g.protocolConfig(); c != "" {
		g.emit("config %s", c)
	}
	if g.chance(25) {
		g.emit("config transaction.abort.timed.out.transaction.cleanup.interval.ms=%s", []string{"1s", "2s", "5s"}[g.pick(3)])
	}
	if g.chance(30) {
		// A faster controller: failover after a crash or a cut comes
		// sooner (and costs fewer retries).
		g.emit("config broker.session.timeout.ms=%s", []string{"2s", "4s"}[g.pick(2)])
	}
	if g.chance(15) {
		g.emit("config min.insync.replicas=2")
	}
	if g.chance(10) {
		g.emit("config transaction.state.log.min.isr=1")
	}
	names := []string{"orders", "payments", "audit"}
	nt := g.between(1, 3)
	for i := 0; i < nt; i++ {
		t := topicInfo{name: names[i], parts: g.between(1, 3)}
		g.topics = append(g.topics, t)
		g.emit("topic %s partitions=%d", t.name, t.parts)
	}
	ids := []string{"tx-a", "tx-b", "tx-c"}
	nids := g.between(1, 3)
	g.txnIDs = ids[:nids]
	g.groups = []string{"g1", "g2"}[:g.between(1, 2)]
	// Transactional producers: each id has one, some a second (a zombie
	// in waiting), declared later.
	for _, id := range g.txnIDs {
		g.newProducer(id)
	}
	if g.chance(50) || (g.bias() != nil && g.bias().Provoke.Idempotent) {
		g.newProducer("")
	}
	if g.chance(10) {
		// A plain producer (no idempotence, acks=1): the checker demands
		// neither exactly-once nor durability of it, but its records
		// share the partitions and the LSO logic.
		g.nextProd++
		p := &prodInfo{name: "p" + itoa(g.nextProd)}
		if g.emit("producer %s enable.idempotence=false acks=1", p.name) {
			g.producers = append(g.producers, p)
		}
	}
	nc := g.between(1, 3)
	for i := 0; i < nc; i++ {
		rc := g.chance(60)
		if i == 0 && g.wantsRC() {
			rc = true
		}
		g.newConsumer(rc)
	}
}

// bias is the mechanism the generator leans towards: the broken one,
// unless NoBias asks for the same mix as with nothing broken.
// protocolConfig is the config line of the run's protocol settings.
func (g *gen) protocolConfig() string {
	if g.opts.Config != "" {
		return g.opts.Config
	}
	if g.opts.Break != nil && g.opts.Break.TV2 {
		return "transaction.version=2"
	}
	return ""
}

func (g *gen) bias() *safety.Mechanism {
	if g.opts.NoBias {
		return nil
	}
	return g.opts.Break
}

func (g *gen) wantsRC() bool {
	return g.bias() != nil && g.bias().Provoke.ReadCommitted
}

func (g *gen) newProducer(txnID string) *prodInfo {
	g.nextProd++
	p := &prodInfo{name: "p" + itoa(g.nextProd), txnID: txnID}
	line := "producer " + p.name
	if txnID != "" {
		line += " transactional.id=" + txnID
		if g.chance(25) {
			line += " transaction.timeout.ms=" + []string{"2s", "5s", "10s"}[g.pick(3)]
		}
	}
	if !g.emit("%s", line) {
		return p
	}
	g.producers = append(g.producers, p)
	return p
}

func (g *gen) newConsumer(rc bool) *consInfo {
	g.nextCons++
	c := &consInfo{name: "c" + itoa(g.nextCons), rc: rc}
	line := "consumer " + c.name
	if rc {
		line += " isolation.level=read_committed"
	} else if g.chance(30) {
		line += " isolation.level=read_uncommitted"
	}
	if g.chance(40) {
		c.group = g.groups[g.pick(len(g.groups))]
		line += " group.id=" + c.group
	}
	if !g.emit("%s", line) {
		return c
	}
	g.consumers = append(g.consumers, c)
	// Assign every partition, or a random subset.
	for _, t := range g.topics {
		for p := 0; p < t.parts; p++ {
			if g.wantsRC() || g.chance(70) {
				c.tps = append(c.tps, t.name+"/"+itoa(p))
			}
		}
	}
	if len(c.tps) == 0 {
		c.tps = []string{g.topics[0].name + "/0"}
	}
	g.emit("%s assign %s", c.name, strings.Join(c.tps, " "))
	return c
}

// ---- live state ----------------------------------------------------------

func (g *gen) status(name string) sim.Status {
	id, _ := g.w().Lookup(name) // an unknown name is reported crashed
	return g.w().StatusOf(id)
}

func (g *gen) lastCall(name string) *client.Call {
	if p := g.c().Producers[name]; p != nil {
		return p.Last()
	}
	if c := g.c().Consumers[name]; c != nil {
		return c.Last()
	}
	return nil
}

// usable: up, and no call of its own still pending.
func (g *gen) usable(name string) bool {
	if g.status(name) != sim.Up {
		return false
	}
	last := g.lastCall(name)
	return last == nil || last.Done
}

func (g *gen) producer(name string) *client.Producer { return g.c().Producers[name] }

// onlySendsPending: up, with sends still waiting for their acks and no
// other call. Such a producer may send again, commit or abort (Java's
// send is asynchronous), which is how several batches of one partition
// come to be in flight at once.
func (g *gen) onlySendsPending(name string) bool {
	p := g.producer(name)
	if p == nil || g.status(name) != sim.Up {
		return false
	}
	pending := false
	for _, c := range p.Calls() {
		if !c.Done {
			if c.Kind != client.CallSend {
				return false
			}
			pending = true
		}
	}
	return pending
}

func (g *gen) liveProducers(pred func(*prodInfo, *client.Producer) bool) []*prodInfo {
	var out []*prodInfo
	for _, p := range g.producers {
		if p.retired || !g.usable(p.name) {
			continue
		}
		if pred == nil || pred(p, g.producer(p.name)) {
			out = append(out, p)
		}
	}
	return out
}

func (g *gen) liveConsumers(pred func(*consInfo) bool) []*consInfo {
	var out []*consInfo
	for _, c := range g.consumers {
		if !g.usable(c.name) {
			continue
		}
		if pred == nil || pred(c) {
			out = append(out, c)
		}
	}
	return out
}

func (g *gen) randomTP() string {
	t := g.topics[g.pick(len(g.topics))]
	return t.name + "/" + itoa(g.pick(t.parts))
}

func (g *gen) allTPs() []string {
	var out []string
	for _, t := range g.topics {
		for p := 0; p < t.parts; p++ {
			out = append(out, t.name+"/"+itoa(p))
		}
	}
	return out
}

func (g *gen) records() string {
	n := 1
	if g.chance(30) {
		n = g.between(2, 3)
	}
	var kv []string
	for i := 0; i < n; i++ {
		g.nextVal++
		kv = append(kv, "k"+itoa(g.nextVal)+"=v"+itoa(g.nextVal))
	}
	return strings.Join(kv, " ")
}

func (g *gen) bg() string {
	if g.chance(12) {
		return " &"
	}
	return ""
}

func (g *gen) upBrokers() []int {
	var out []int
	for i := 0; i < g.brokers; i++ {
		if g.w().StatusOf(broker.NodeID(int32(i))) == sim.Up {
			out = append(out, i)
		}
	}
	return out
}

// pausedBrokers lists the brokers stalled by a pause.
func (g *gen) pausedBrokers() []int {
	var out []int
	for i := 0; i < g.brokers; i++ {
		if g.w().StatusOf(broker.NodeID(int32(i))) == sim.Paused {
			out = append(out, i)
		}
	}
	return out
}

func (g *gen) crashedBrokers() []int {
	var out []int
	for i := 0; i < g.brokers; i++ {
		if g.w().StatusOf(broker.NodeID(int32(i))) == sim.Crashed {
			out = append(out, i)
		}
	}
	return out
}

// ---- the main phase --------------------------------------------------------

func (g *gen) action() {
	if g.bias() != nil && g.chance(35) {
		g.motif(g.opts.Break)
		return
	}
	if g.bias() == nil && g.chance(8) {
		g.motif(classic[g.pick(len(classic))])
		return
	}
	if g.chance(6) {
		g.motifInterleave()
		return
	}
	// Broken mechanisms keep the mix their bias was tuned with: batches
	// in flight are the ground only of those whose entry says so
	// (safety.Provocation.Pipeline).
	if (g.opts.Break == nil || g.opts.Break.Provoke.Pipeline) && g.chance(5) {
		g.motifPipeline()
		return
	}
	switch n := g.pick(100); {
	case n < 45:
		g.producerStep()
	case n < 60:
		g.consumerStep()
	case n < 65:
		g.waitStep()
	default:
		g.fault()
	}
}

// overlappingStep is the next call of a producer whose sends are still
// in flight: another send, mostly in the background so that the window
// fills, or (in a transaction) the commit or abort that flushes or fails
// them.
func (g *gen) overlappingStep(p *prodInfo, cp *client.Producer) {
	switch n := g.pick(100); {
	case p.txnID == "" || cp.State != client.InTransaction || n < 60:
		if p.txnID != "" && cp.State != client.InTransaction {
			g.emit("%s abort%s", p.name, g.bg())
			return
		}
		// The earlier batch must have left the accumulator (network
		// latency is 1-5 ms) for this one to be a second request rather
		// than records appended to the same batch.
		g.emit("run for=%dms", g.between(1, 4))
		bg := " &"
		if g.chance(25) {
			bg = ""
		}
		tp := p.lastTP
		if tp == "" || g.chance(25) {
			tp = g.randomTP()
		}
		if g.ok() && g.onlySendsPending(p.name) {
			g.emit("%s send %s %s%s", p.name, tp, g.records(), bg)
		}
	case n < 85:
		g.emit("%s commit%s", p.name, g.bg())
	default:
		g.emit("%s abort%s", p.name, g.bg())
	}
}

// producerStep drives one producer one step along its state machine.
func (g *gen) producerStep() {
	ps := g.liveProducers(nil)
	for _, p := range g.producers {
		if !p.retired && g.onlySendsPending(p.name) {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	p := ps[g.pick(len(ps))]
	// A producer with sends in flight is a rare pick among many; lean
	// towards it so that the window fills more than once in a while.
	for _, q := range ps {
		if g.onlySendsPending(q.name) && g.chance(60) {
			p = q
			break
		}
	}
	cp := g.producer(p.name)
	if g.onlySendsPending(p.name) {
		g.overlappingStep(p, cp)
		return
	}
	if p.txnID == "" {
		p.lastTP = g.randomTP()
		g.emit("%s send %s %s%s", p.name, p.lastTP, g.records(), g.bg())
		return
	}
	switch cp.State {
	case client.Uninitialized:
		g.emit("%s init%s", p.name, g.bg())
	case client.Ready:
		g.emit("%s begin", p.name)
	case client.InTransaction:
		switch n := g.pick(100); {
		case n < 50:
			p.lastTP = g.randomTP()
			g.emit("%s send %s %s%s", p.name, p.lastTP, g.records(), g.bg())
		case n < 62:
			g.emit("%s send-offsets %s %s=%d%s", p.name, g.groups[g.pick(len(g.groups))], g.randomTP(), g.between(0, 9), g.bg())
		case n < 85:
			g.emit("%s commit%s", p.name, g.bg())
		default:
			g.emit("%s abort%s", p.name, g.bg())
		}
	case client.AbortableError:
		g.emit("%s abort%s", p.name, g.bg())
	case client.FatalError:
		// The application gives up on it and starts a new producer with
		// the same transactional.id.
		p.retired = true
		if g.chance(50) {
			g.emit("%s close", p.name)
		}
		if len(g.c().ClientOrder) < cluster.MaxClients-2 {
			np := g.newProducer(p.txnID)
			g.emit("%s init%s", np.name, g.bg())
		}
	default:
		// A call that timed out (max.block.ms) left it mid-way; the
		// work goes on in the background. Let time pass.
		g.emit("run for=%s", []string{"1s", "5s", "30s"}[g.pick(3)])
	}
}

func (g *gen) consumerStep() {
	cs := g.liveConsumers(nil)
	if len(cs) == 0 {
		return
	}
	c := cs[g.pick(len(cs))]
	switch n := g.pick(100); {
	case n < 75:
		g.emit("%s poll%s", c.name, g.bg())
	case n < 85:
		g.emit("%s seek %s 0", c.name, c.tps[g.pick(len(c.tps))])
	default:
		if c.group != "" {
			g.emit("%s commit", c.name)
		} else {
			g.emit("%s poll", c.name)
		}
	}
}

func (g *gen) waitStep() {
	for _, name := range g.c().ClientOrder {
		if g.status(name) != sim.Up {
			continue
		}
		if last := g.lastCall(name); last != nil && !last.Done {
			g.emit("wait %s", name)
			return
		}
	}
	g.emit("run for=%s", []string{"1s", "10s", "30s"}[g.pick(3)])
}

var apis = []string{"Produce", "Fetch", "FindCoordinator", "InitProducerId", "AddPartitionsToTxn",
	"AddOffsetsToTxn", "EndTxn", "WriteTxnMarkers", "TxnOffsetCommit", "OffsetCommit", "OffsetFetch"}

func (g *gen) fault() {
	switch n := g.pick(100); {
	case n < 7:
		up := g.upBrokers()
		if len(up) > 1 && g.mayCrash() {
			g.emit("crash broker-%d", up[g.pick(len(up))])
		}
	case n < 12:
		if g.mayCrash() {
			g.crashRole()
		}
	case n < 22:
		if g.mayCrash() {
			g.crashCoordinator()
		}
	case n < 34:
		if down := g.crashedBrokers(); len(down) > 0 {
			g.emit("restart broker-%d", down[g.pick(len(down))])
		} else {
			g.emit("advance %s", g.duration())
		}
	case n < 44:
		g.pauseOrResume()
	case n < 56:
		g.drop()
	case n < 62:
		g.emit("delay %s by=%s", g.api(), []string{"500ms", "2s", "5s", "15s"}[g.pick(4)])
	case n < 67:
		g.isolate()
	case n < 72:
		g.emit("heal")
	case n < 76 && len(g.crashedBrokers()) > 0:
		g.emit("restart broker-%d", g.crashedBrokers()[0])
	case n < 88:
		g.emit("advance %s", g.duration())
	case n < 96:
		g.emit("run for=%s", []string{"100ms", "1s", "10s", "20s"}[g.pick(4)])
	default:
		g.zombie()
	}
}

// crashRole crashes the broker in a role now: a partition's leader or a
// group's coordinator, named as the script would.
func (g *gen) crashRole() bool {
	if len(g.upBrokers()) < 2 {
		return false
	}
	var ref string
	var leader int32
	if g.chance(70) {
		tp := g.randomTP()
		l, ok := g.leaderOf(tp)
		if !ok {
			return false
		}
		ref, leader = "leader("+tp+")", l
	} else {
		grp := g.groups[g.pick(len(g.groups))]
		l, _ := g.c().GroupCoordinatorOf(grp)
		if l < 0 {
			return false
		}
		ref, leader = "group-coordinator("+grp+")", l
	}
	if g.w().StatusOf(broker.NodeID(leader)) != sim.Up {
		return false
	}
	return g.emit("crash %s", ref)
}

// mayCrash keeps most runs to one broker down at a time: with two of
// three down the internal topics lose their min.insync.replicas and
// every client retries for minutes of virtual time, which costs much and
// teaches little.
func (g *gen) mayCrash() bool {
	switch len(g.crashedBrokers()) {
	case 0:
		return true
	case 1:
		return g.chance(15)
	}
	return false
}

func (g *gen) api() string {
	a := apis[g.pick(len(apis))]
	if g.chance(40) {
		a += ".response"
	}
	return a
}

func (g *gen) duration() string {
	return []string{"500ms", "1s", "3s", "5s", "10s", "12s", "30s", "70s"}[g.pick(8)]
}

func (g *gen) drop() {
	line := "drop " + g.api()
	if g.chance(20) {
		up := g.upBrokers()
		if len(up) > 0 {
			line += " to=broker-" + itoa(up[g.pick(len(up))])
		}
	}
	if g.chance(90) {
		line += " count=" + itoa(g.between(1, 3))
	}
	g.emit("%s", line)
}

func (g *gen) crashCoordinator() bool {
	return g.crashCoordinatorOf(g.txnIDs[g.pick(len(g.txnIDs))])
}

// crashCoordinatorOf crashes the broker leading id's coordinator
// partition, when one leads it now and another broker stays up.
func (g *gen) crashCoordinatorOf(id string) bool {
	leader, _ := g.c().CoordinatorOf(id)
	if leader < 0 || g.w().StatusOf(broker.NodeID(leader)) != sim.Up || len(g.upBrokers()) < 2 {
		return false
	}
	return g.emit("crash coordinator(%s)", id)
}

func (g *gen) pauseOrResume() {
	if g.chance(30) {
		g.pauseOrResumeBroker()
		return
	}
	var paused, up []string
	for _, name := range g.c().ClientOrder {
		switch g.status(name) {
		case sim.Paused:
			paused = append(paused, name)
		case sim.Up:
			up = append(up, name)
		}
	}
	if len(paused) > 0 && (len(up) == 0 || g.chance(50)) {
		g.emit("resume %s", paused[g.pick(len(paused))])
		return
	}
	if len(up) > 0 {
		if g.chance(8) {
			// A client process dies for good.
			name := up[g.pick(len(up))]
			if g.emit("crash %s", name) {
				for _, p := range g.producers {
					if p.name == name {
						p.retired = true
					}
				}
			}
			return
		}
		g.emit("pause %s", up[g.pick(len(up))])
	}
}

// pauseOrResumeBroker stalls a broker in a role, a transaction
// coordinator or a partition's leader, as a long GC pause does: it keeps
// its state and, resumed, acts on it. That is the zombie the coordinator
// epoch and the leader epoch exist for: the controller fences it after
// broker.session.timeout.ms, a successor takes over, and the resumed
// broker's late markers and answers must be refused. One broker at a
// time, and only while every other is up, so that the cluster keeps its
// min.insync.replicas.
func (g *gen) pauseOrResumeBroker() {
	if paused := g.pausedBrokers(); len(paused) > 0 {
		g.emit("resume broker-%d", paused[g.pick(len(paused))])
		return
	}
	if len(g.upBrokers()) < g.brokers || g.brokers < 2 {
		return
	}
	if g.chance(50) && len(g.txnIDs) > 0 {
		id := g.txnIDs[g.pick(len(g.txnIDs))]
		if leader, _ := g.c().CoordinatorOf(id); leader >= 0 {
			g.emit("pause coordinator(%s)", id)
		}
		return
	}
	tp := g.randomTP()
	if _, ok := g.leaderOf(tp); ok {
		g.emit("pause leader(%s)", tp)
	}
}

func (g *gen) isolate() {
	switch g.pick(3) {
	case 0:
		g.emit("isolate broker-%d", g.pick(g.brokers))
	case 1:
		if len(g.producers) > 0 {
			g.emit("isolate %s", g.producers[g.pick(len(g.producers))].name)
		}
	default:
		// Split the brokers in two groups.
		cut := g.between(1, g.brokers-1)
		var a, b []string
		for i := 0; i < g.brokers; i++ {
			if i < cut {
				a = append(a, "broker-"+itoa(i))
			} else {
				b = append(b, "broker-"+itoa(i))
			}
		}
		g.emit("partition %s | %s", strings.Join(a, ","), strings.Join(b, ","))
	}
}

// zombie declares a second producer for a transactional id in use and
// initialises it, fencing the first.
func (g *gen) zombie() *prodInfo {
	if len(g.c().ClientOrder) >= cluster.MaxClients-2 {
		return nil
	}
	id := g.txnIDs[g.pick(len(g.txnIDs))]
	p := g.newProducer(id)
	if g.ok() {
		g.emit("%s init%s", p.name, g.bg())
	}
	return p
}

// interveneAfter is how many events one action may take before the
// generator, like an operator, lifts the faults: a cluster stuck behind
// a fault only repeats the same retries, each costing events, until
// someone heals it.
const interveneAfter = 2000

func (g *gen) intervene() {
	g.emit("heal")
	for _, b := range g.crashedBrokers() {
		g.emit("restart broker-%d", b)
	}
	for _, b := range g.pausedBrokers() {
		g.emit("resume broker-%d", b)
	}
}

// ---- the liveness phase ----------------------------------------------------

// liveness removes every fault and lets the cluster settle, so the final
// check may demand that every decided transaction completed. It draws no
// randomness: the shrinker re-derives it for each candidate body.
func (g *gen) liveness() {
	if !g.ok() {
		return
	}
	g.emit("heal")
	for _, b := range g.crashedBrokers() {
		g.emit("restart broker-%d", b)
	}
	for _, b := range g.pausedBrokers() {
		g.emit("resume broker-%d", b)
	}
	for _, name := range g.c().ClientOrder {
		if g.status(name) == sim.Paused {
			g.emit("resume %s", name)
		}
	}
	for _, name := range g.c().ClientOrder {
		if g.status(name) != sim.Up {
			continue
		}
		if last := g.lastCall(name); last != nil && !last.Done {
			g.emit("wait %s", name)
		}
	}
	g.emit("run")
	// Background timers do not keep `run` going: a transaction left
	// Ongoing (its producer fenced or failed mid-commit) is aborted by
	// the coordinator's timeout task, at most transaction.timeout.ms
	// (60s by default, the generator's largest) plus the 10s check
	// interval later.
	g.emit("advance 75s")
	g.emit("run")
	for round := 0; round < 2; round++ {
		for _, name := range g.c().ClientOrder {
			if g.c().Consumers[name] != nil && g.usable(name) {
				g.emit("%s poll", name)
			}
		}
	}
	g.emit("run")
}

// Replay runs a script body statement by statement, appends the liveness
// phase the live state calls for (heal, restart, resume, wait, run,
// polls) and judges the whole with the liveness checks on. It is how the
// shrinker judges a candidate for a violation only the final check sees.
func Replay(body []string, budget int) *Run {
	r, _ := replay(body, budget, 0, nil)
	return r
}

// replay is Replay under a seed (0: the cluster statement's), returning
// the session too, whose Results hold the body's expectations; pause is
// execSeed's.
func replay(body []string, budget int, seed uint64, pause func() bool) (run *Run, sess *scenario.Session) {
	if budget <= 0 {
		budget = DefaultStepBudget
	}
	g := &gen{r: sim.NewRand(1), decls: scenario.NewDecls(), budget: budget, pause: pause}
	g.sess = scenario.NewSession("explore", &scenario.Script{File: "explore", Decls: g.decls})
	g.sess.SeedOverride = seed
	sess = g.sess
	defer func() {
		if r := recover(); r != nil {
			run = &Run{Lines: g.lines, Body: len(body), Steps: g.steps, Panic: fmt.Sprint(r),
				Err: fmt.Errorf("panic at line %d: %v", len(g.lines), r)}
		}
	}()
	for _, l := range body {
		if !g.emit("%s", l) {
			break
		}
	}
	if g.ok() && g.sess.Cluster != nil {
		g.brokers = g.c().Cfg.Brokers
		g.liveness()
	}
	run = &Run{Lines: g.lines, Err: g.err, Exhausted: g.full, Steps: g.steps, Body: len(body)}
	if g.err == nil && !g.full && g.sess.Cluster != nil {
		run.Violations = judge(g.sess, true)
	}
	return run, sess
}
