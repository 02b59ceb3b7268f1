package scenario

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// ---- Symbol table ----

// ClientDecl is what the parser knows about a declared client.
type ClientDecl struct {
	Name            string
	Kind            ClientKind
	Line            int    // where it was declared (0 if unknown)
	TransactionalID string // producers: "" when not transactional
	GroupID         string // consumers: "" when none
}

// TopicDecl is what the parser knows about a topic.
type TopicDecl struct {
	Name       string
	Partitions int
	RF         int
	Line       int  // where it was declared (0 for internal topics)
	Internal   bool // __transaction_state or __consumer_offsets
}

// Decls is the parser's symbol table: the cluster, the topics and the
// clients declared so far, in order. Parse builds one per script; a UI
// keeps the one of its script (Script.Decls) and passes it to ParseLine to
// check one more line, which adds that line's declaration on success.
type Decls struct {
	// Cluster is the cluster statement, nil before it. When a script does
	// not start with one, Parse reports it and carries on with
	// DefaultCluster() (whose Pos.Line is 0).
	Cluster *ClusterStmt
	clients []ClientDecl
	topics  []TopicDecl
}

// NewDecls returns an empty symbol table: the state before line 1.
func NewDecls() *Decls { return &Decls{} }

// Clone returns an independent copy, so a caller can try a line without
// changing its table.
func (d *Decls) Clone() *Decls {
	c := &Decls{clients: append([]ClientDecl(nil), d.clients...), topics: append([]TopicDecl(nil), d.topics...)}
	if d.Cluster != nil {
		cl := *d.Cluster
		cl.Given = append(OptionSet(nil), d.Cluster.Given...)
		c.Cluster = &cl
	}
	return c
}

// Client looks up a declared client.
func (d *Decls) Client(name string) (ClientDecl, bool) {
	for _, c := range d.clients {
		if c.Name == name {
			return c, true
		}
	}
	return ClientDecl{}, false
}

// Clients returns the declared clients in declaration order.
func (d *Decls) Clients() []ClientDecl { return append([]ClientDecl(nil), d.clients...) }

// Topic looks up a declared topic, or an internal topic (sized by the
// cluster statement).
func (d *Decls) Topic(name string) (TopicDecl, bool) {
	cl := d.Cluster
	if cl == nil {
		cl = DefaultCluster()
	}
	switch name {
	case protocol.TransactionStateTopic:
		return TopicDecl{Name: name, Partitions: cl.TxnPartitions, RF: cl.RF, Internal: true}, true
	case protocol.ConsumerOffsetsTopic:
		return TopicDecl{Name: name, Partitions: cl.OffsetsPartitions, RF: cl.RF, Internal: true}, true
	}
	for _, t := range d.topics {
		if t.Name == name {
			return t, true
		}
	}
	return TopicDecl{}, false
}

// Topics returns the declared topics in declaration order (internal
// topics excluded).
func (d *Decls) Topics() []TopicDecl { return append([]TopicDecl(nil), d.topics...) }

func (d *Decls) brokers() int {
	if d.Cluster == nil {
		return DefaultCluster().Brokers
	}
	return d.Cluster.Brokers
}

// ---- Entry points ----

// Parse parses a whole script. It returns every statement that parsed and,
// if any line did not, an ErrorList with the first error of each such
// line, sorted by position. file names the script in error messages ("" is
// rendered as "script"). Parse never panics.
func Parse(file, src string) (*Script, error) {
	s := &Script{File: file, Decls: NewDecls()}
	var errs ErrorList
	src = strings.TrimPrefix(src, "\uFEFF")
	for lineNo := 1; len(src) > 0; lineNo++ {
		text := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		if lineNo > MaxLines {
			errs = append(errs, &Error{File: file, Pos: Pos{lineNo, 1},
				Msg: "script too long: at most " + strconv.Itoa(MaxLines) + " lines"})
			break
		}
		st, err := parseLine(text, lineNo, s.Decls, true)
		if err != nil {
			err.File = file
			errs = append(errs, err)
			continue
		}
		if st != nil {
			s.Statements = append(s.Statements, st)
		}
	}
	errs.sortErrors()
	return s, errs.Err()
}

// ParseLine parses one line of a script, numbered lineNo, in the context
// of the declarations before it. It returns (nil, nil) for a blank or
// comment line. On success the line's declaration (cluster, topic,
// producer, consumer), if any, is added to decls; on error decls is left
// as it was and the error is an ErrorList of one *Error. A nil decls is
// an empty table.
func ParseLine(src string, lineNo int, decls *Decls) (Stmt, error) {
	if decls == nil {
		decls = NewDecls()
	}
	if lineNo < 1 {
		lineNo = 1
	}
	if lineNo > MaxLines {
		return nil, ErrorList{{Pos: Pos{lineNo, 1}, Msg: "script too long: at most " + strconv.Itoa(MaxLines) + " lines"}}
	}
	st, err := parseLine(src, lineNo, decls, false)
	if err != nil {
		return nil, ErrorList{err}
	}
	return st, nil
}

// bailout carries the first error of a line up from deep in its parser.
type bailout struct{ err *Error }

// lineParser parses the tokens of one line.
type lineParser struct {
	d       *Decls
	line    int
	toks    []token
	i       int
	pending func() // the line's declaration, applied when the line is accepted
}

// parseLine parses one line. In script mode (Parse) a declaration is kept
// even when the rest of its line is wrong, and a missing cluster statement
// is replaced by the default one, so one mistake does not cascade into
// errors on every later line.
func parseLine(src string, lineNo int, d *Decls, script bool) (st Stmt, err *Error) {
	src = strings.TrimSuffix(src, "\r")
	ll, lerr := lexLine(src, lineNo)
	if lerr != nil {
		return nil, lerr
	}
	if len(ll.toks) == 0 {
		return nil, nil
	}
	lp := &lineParser{d: d, line: lineNo, toks: ll.toks}
	var clusterErr *Error
	if d.Cluster == nil && ll.toks[0].raw != "cluster" {
		clusterErr = &Error{Pos: Pos{lineNo, ll.toks[0].col},
			Msg: `the script must start with a cluster statement, e.g. "cluster brokers=3"`}
		if !script {
			return nil, clusterErr
		}
		d.Cluster = DefaultCluster()
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			st, err = nil, b.err
		}
		if lp.pending != nil && (err == nil || script) {
			lp.pending()
		}
		if clusterErr != nil {
			st, err = nil, clusterErr
		}
	}()
	st = lp.statement()
	setBase(st, Base{Pos: Pos{lineNo, ll.toks[0].col}, Text: ll.source})
	return st, nil
}

// failf stops the line with an error at column col.
func (lp *lineParser) failf(col int, format string, args ...any) {
	panic(bailout{&Error{Pos: Pos{lp.line, col}, Msg: fmt.Sprintf(format, args...)}})
}

func (lp *lineParser) more() bool { return lp.i < len(lp.toks) }

// next returns the next token, or fails with missing at the end of the line.
func (lp *lineParser) next(missing string) token {
	if !lp.more() {
		lp.failf(lp.endCol(), "%s", missing)
	}
	t := lp.toks[lp.i]
	lp.i++
	return t
}

// done fails if tokens are left.
func (lp *lineParser) done(what string) {
	if lp.more() {
		t := lp.toks[lp.i]
		lp.failf(t.col, "unexpected %q: %s", t.raw, what)
	}
}

// endCol is the column just after the last token and one space: where a
// missing token would go.
func (lp *lineParser) endCol() int {
	last := lp.toks[len(lp.toks)-1]
	return last.col + utf8.RuneCountInString(last.raw) + 1
}

// ---- Statements ----

var statementVerbs = []string{"cluster", "config", "topic", "producer", "consumer", "wait",
	"crash", "restart", "pause", "resume", "isolate", "partition", "heal", "drop", "delay",
	"run", "advance", "break", "restore", "expect", "request", "txn"}

var expectSubjects = []string{"txn", "partition", "log", "offsets", "trace", "coordinator",
	"group", "invariants", "violation"}

var clientWords = []string{"ok", "error", "pending", "state", "records", "position", "aborted"}

// reserved holds the words a client may not be named: every keyword that
// can start a statement or follow expect, the action verbs and the node
// functions.
var reserved = func() map[string]bool {
	m := map[string]bool{"absent": true, "until": true, "leader": true, "group-coordinator": true}
	for _, l := range [][]string{statementVerbs, expectSubjects, clientWords,
		producerOpNames[1:], consumerOpNames[1:]} {
		for _, w := range l {
			m[w] = true
		}
	}
	return m
}()

func (lp *lineParser) statement() Stmt {
	kw := lp.next("")
	if !kw.quoted {
		switch kw.raw {
		case "cluster":
			return lp.cluster(kw)
		case "config":
			return lp.config()
		case "topic":
			return lp.topic()
		case "producer":
			return lp.producer()
		case "consumer":
			return lp.consumer()
		case "wait":
			return &WaitStmt{Client: lp.clientArg("wait").Name}
		case "crash":
			return &CrashStmt{Node: lp.nodeArg("crash")}
		case "restart":
			return &RestartStmt{Node: lp.nodeArg("restart")}
		case "pause":
			return &PauseStmt{Node: lp.nodeArg("pause")}
		case "resume":
			return &ResumeStmt{Node: lp.nodeArg("resume")}
		case "isolate":
			return &IsolateStmt{Node: lp.nodeArg("isolate")}
		case "partition":
			return lp.partition()
		case "heal":
			lp.done("heal takes no arguments")
			return &HealStmt{}
		case "drop":
			return lp.drop()
		case "delay":
			return lp.delay()
		case "run":
			return lp.run()
		case "advance":
			t := lp.next("advance needs a duration, e.g. advance 10s")
			d := lp.duration("advance", t.raw, t.col, MaxDuration)
			lp.done("advance takes one duration")
			return &AdvanceStmt{By: d}
		case "break":
			return &BreakStmt{Mechanism: lp.mechanism("break")}
		case "restore":
			return &RestoreStmt{Mechanism: lp.mechanism("restore")}
		case "expect":
			return lp.expect()
		case "request":
			return lp.request()
		case "txn":
			return lp.txnSeed()
		}
		if c, ok := lp.d.Client(kw.raw); ok {
			if c.Kind == KindProducer {
				return lp.producerAction(c)
			}
			return lp.consumerAction(c)
		}
		if isAction(kw.raw) {
			lp.failf(kw.col, "%q needs a client first: write \"NAME %s ...\" with a declared producer or consumer", kw.raw, kw.raw)
		}
		if validClientName(kw.raw) && len(lp.toks) > 1 && isAction(lp.toks[1].raw) {
			lp.unknownClient(kw)
		}
	}
	cands := append([]string(nil), statementVerbs...)
	cands = append(cands, producerOpNames[1:]...)
	cands = append(cands, consumerOpNames[1:]...)
	for _, c := range lp.d.clients {
		cands = append(cands, c.Name)
	}
	lp.failf(kw.col, "unknown statement %q%s", kw.raw, didYouMean(kw.text, cands))
	return nil
}

func isAction(w string) bool {
	for _, n := range producerOpNames[1:] {
		if n == w {
			return true
		}
	}
	for _, n := range consumerOpNames[1:] {
		if n == w {
			return true
		}
	}
	return false
}

// setBase stores the position and text in a parsed statement.
func setBase(st Stmt, b Base) {
	switch s := st.(type) {
	case *ClusterStmt:
		s.Base = b
	case *ConfigStmt:
		s.Base = b
	case *TopicStmt:
		s.Base = b
	case *ProducerStmt:
		s.Base = b
	case *ConsumerStmt:
		s.Base = b
	case *ProducerActionStmt:
		s.Base = b
	case *ConsumerActionStmt:
		s.Base = b
	case *WaitStmt:
		s.Base = b
	case *CrashStmt:
		s.Base = b
	case *RestartStmt:
		s.Base = b
	case *PauseStmt:
		s.Base = b
	case *ResumeStmt:
		s.Base = b
	case *IsolateStmt:
		s.Base = b
	case *PartitionStmt:
		s.Base = b
	case *HealStmt:
		s.Base = b
	case *DropStmt:
		s.Base = b
	case *DelayStmt:
		s.Base = b
	case *RunStmt:
		s.Base = b
	case *RunUntilStmt:
		s.Base = b
	case *AdvanceStmt:
		s.Base = b
	case *BreakStmt:
		s.Base = b
	case *RestoreStmt:
		s.Base = b
	case *ExpectOutcomeStmt:
		s.Base = b
	case *ExpectStateStmt:
		s.Base = b
	case *ExpectTxnStmt:
		s.Base = b
	case *ExpectRecordsStmt:
		s.Base = b
	case *ExpectPartitionStmt:
		s.Base = b
	case *ExpectLogStmt:
		s.Base = b
	case *ExpectOffsetsStmt:
		s.Base = b
	case *ExpectTraceStmt:
		s.Base = b
	case *ExpectCoordinatorStmt:
		s.Base = b
	case *ExpectGroupStmt:
		s.Base = b
	case *ExpectInvariantsStmt:
		s.Base = b
	case *ExpectViolationStmt:
		s.Base = b
	case *RequestStmt:
		s.Base = b
	case *TxnSeedStmt:
		s.Base = b
	case *ExpectPositionStmt:
		s.Base = b
	case *ExpectAbortedStmt:
		s.Base = b
	default:
		panic(fmt.Sprintf("scenario: setBase: unhandled statement %T", st))
	}
}

// ---- Setup ----

func (lp *lineParser) cluster(kw token) Stmt {
	if lp.d.Cluster != nil {
		if l := lp.d.Cluster.Pos.Line; l > 0 {
			lp.failf(kw.col, "the cluster was already created on line %d: a script has one cluster statement", l)
		}
		lp.failf(kw.col, "cluster must be the first statement")
	}
	st := DefaultCluster()
	lp.pending = func() { lp.d.Cluster = st }
	opts := lp.options("cluster", []string{"brokers", "rf", "txn-partitions", "offsets-partitions", "seed", "latency"})
	if o, ok := opts.get("brokers"); ok {
		st.Brokers = int(lp.integer(o.key, o.raw, o.col, 1, MaxBrokers))
	}
	st.RF = min(3, st.Brokers)
	if o, ok := opts.get("rf"); ok {
		st.RF = int(lp.integerWhy(o.key, o.raw, o.col, 1, int64(st.Brokers), " (the number of brokers)"))
	}
	if o, ok := opts.get("txn-partitions"); ok {
		st.TxnPartitions = int(lp.integer(o.key, o.raw, o.col, 1, MaxInternalPartitions))
	}
	if o, ok := opts.get("offsets-partitions"); ok {
		st.OffsetsPartitions = int(lp.integer(o.key, o.raw, o.col, 1, MaxInternalPartitions))
	}
	if o, ok := opts.get("seed"); ok {
		v, err := strconv.ParseUint(o.raw, 10, 64)
		if err != nil || !allDigits(o.raw) {
			lp.failf(o.col, "seed must be a non-negative integer below 2^64, got %q", o.raw)
		}
		st.Seed = v
	}
	if o, ok := opts.get("latency"); ok {
		st.MinLatency, st.MaxLatency = lp.latency(o)
	}
	st.Given = opts.given()
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

func (lp *lineParser) config() Stmt {
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

func (lp *lineParser) topic() Stmt {
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
	st := &TopicStmt{Name: name, Partitions: 1, RF: lp.d.Cluster.RF}
	lp.pending = func() {
		lp.d.topics = append(lp.d.topics, TopicDecl{Name: name, Partitions: st.Partitions, RF: st.RF, Line: lp.line})
	}
	opts := lp.options("topic", []string{"partitions", "rf"})
	if o, ok := opts.get("partitions"); ok {
		st.Partitions = int(lp.integer(o.key, o.raw, o.col, 1, MaxPartitions))
	}
	if o, ok := opts.get("rf"); ok {
		st.RF = int(lp.integerWhy(o.key, o.raw, o.col, 1, int64(lp.d.brokers()), " (the number of brokers)"))
	}
	st.Given = opts.given()
	return st
}

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

func (lp *lineParser) producer() Stmt {
	t := lp.declName("producer")
	st := &ProducerStmt{Name: t.raw, TransactionTimeout: 60 * sim.Second, EnableIdempotence: true,
		Acks: AcksAll, RequestTimeout: 30 * sim.Second, DeliveryTimeout: 120 * sim.Second,
		MaxBlock: 60 * sim.Second, RetryBackoff: 100, MaxInFlight: 5}
	lp.pending = func() {
		lp.d.clients = append(lp.d.clients, ClientDecl{Name: st.Name, Kind: KindProducer, Line: lp.line,
			TransactionalID: st.TransactionalID})
	}
	opts := lp.options("producer", []string{"transactional.id", "transaction.timeout.ms",
		"enable.idempotence", "acks", "request.timeout.ms", "delivery.timeout.ms",
		"max.block.ms", "retry.backoff.ms", "max.in.flight.requests.per.connection"})
	if o, ok := opts.get("transactional.id"); ok {
		st.TransactionalID = lp.nonEmpty(o.key, o.raw, o.vcol)
	}
	const int32Max = sim.Time(math.MaxInt32)
	if o, ok := opts.get("transaction.timeout.ms"); ok {
		st.TransactionTimeout = lp.duration(o.key, o.raw, o.col, int32Max)
	}
	if o, ok := opts.get("acks"); ok {
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
	}
	if o, ok := opts.get("max.in.flight.requests.per.connection"); ok {
		st.MaxInFlight = int(lp.integer(o.key, o.raw, o.col, 1, math.MaxInt32))
	}
	if o, ok := opts.get("enable.idempotence"); ok {
		st.EnableIdempotence = lp.boolean(o)
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
	if o, ok := opts.get("request.timeout.ms"); ok {
		st.RequestTimeout = lp.duration(o.key, o.raw, o.col, int32Max)
	}
	if o, ok := opts.get("delivery.timeout.ms"); ok {
		st.DeliveryTimeout = lp.duration(o.key, o.raw, o.col, int32Max)
		if st.DeliveryTimeout < st.RequestTimeout {
			lp.failf(o.col, "delivery.timeout.ms must be at least request.timeout.ms (%s), as in Kafka", FormatDuration(st.RequestTimeout))
		}
	} else if st.DeliveryTimeout < st.RequestTimeout {
		st.DeliveryTimeout = st.RequestTimeout
	}
	if o, ok := opts.get("max.block.ms"); ok {
		st.MaxBlock = lp.duration(o.key, o.raw, o.col, int32Max)
	}
	if o, ok := opts.get("retry.backoff.ms"); ok {
		st.RetryBackoff = lp.duration(o.key, o.raw, o.col, int32Max)
	}
	st.Given = opts.given()
	return st
}

func (lp *lineParser) consumer() Stmt {
	t := lp.declName("consumer")
	st := &ConsumerStmt{Name: t.raw}
	lp.pending = func() {
		lp.d.clients = append(lp.d.clients, ClientDecl{Name: st.Name, Kind: KindConsumer, Line: lp.line, GroupID: st.GroupID})
	}
	opts := lp.options("consumer", append([]string{"isolation.level", "group.id"}, consumerGroupOptions...))
	if o, ok := opts.get("isolation.level"); ok {
		switch o.raw {
		case "read_committed":
			st.IsolationLevel = ReadCommitted
		case "read_uncommitted":
			st.IsolationLevel = ReadUncommitted
		default:
			lp.failf(o.col, "isolation.level must be read_committed or read_uncommitted, got %q%s",
				o.raw, didYouMean(o.raw, isolationNames))
		}
	}
	if o, ok := opts.get("group.id"); ok {
		st.GroupID = lp.nonEmpty(o.key, o.raw, o.vcol)
	}
	lp.groupOptions(st, opts)
	st.Given = opts.given()
	return st
}

// ---- Client actions ----

// background consumes a trailing unquoted "&".
func (lp *lineParser) background() bool {
	last := lp.toks[len(lp.toks)-1]
	if len(lp.toks) > lp.i && last.raw == "&" {
		lp.toks = lp.toks[:len(lp.toks)-1]
		return true
	}
	return false
}

func (lp *lineParser) producerAction(c ClientDecl) Stmt {
	bg := lp.background()
	opT := lp.next(fmt.Sprintf("%s is a producer: say what it does (%s)", c.Name, strings.Join(producerOpNames[1:], ", ")))
	op, ok := enumByName[ProducerOp](opT.raw, producerOpNames)
	if !ok || opT.quoted {
		lp.failf(opT.col, "unknown producer action %q%s (a producer can %s)", opT.raw,
			didYouMean(opT.text, producerOpNames[1:]), strings.Join(producerOpNames[1:], ", "))
	}
	if op.Transactional() && c.TransactionalID == "" {
		lp.failf(opT.col, "%s has no transactional.id: %s is a transactional call; declare the producer with transactional.id=ID", c.Name, op)
	}
	st := &ProducerActionStmt{Client: c.Name, Op: op, Background: bg}
	switch op {
	case ProducerSend:
		t := lp.next("send needs a partition and records, e.g. " + c.Name + " send orders/0 k1=v1")
		st.TP = lp.topicPartition(t.raw, t.col)
		if strings.HasPrefix(st.TP.Topic, "__") {
			lp.failf(t.col, "cannot send to the internal topic %s", st.TP.Topic)
		}
		if !lp.more() {
			lp.failf(lp.endCol(), "send needs at least one record KEY=VALUE after %s", st.TP)
		}
		for lp.more() {
			st.Records = append(st.Records, lp.record(lp.next("")))
		}
	case ProducerSendOffsets:
		g := lp.next("send-offsets needs a group and offsets, e.g. " + c.Name + " send-offsets g1 orders/0=5")
		if !lp.sendOffsetsConsumer(st, g) {
			st.Group = lp.nonEmpty("the group", g.raw, g.col)
		}
		if !lp.more() {
			lp.failf(lp.endCol(), "send-offsets needs at least one TOPIC/PARTITION=OFFSET after the group")
		}
		seen := map[protocol.TopicPartition]bool{}
		for lp.more() {
			t := lp.next("")
			tp, val, vcol := lp.tpEquals(t, "TOPIC/PARTITION=OFFSET")
			if seen[tp] {
				lp.failf(t.col, "%s is given twice", tp)
			}
			seen[tp] = true
			st.Offsets = append(st.Offsets, TPOffset{TP: tp, Offset: lp.integer("the offset", val, vcol, 0, math.MaxInt64)})
		}
	default:
		lp.done(fmt.Sprintf("%s takes no arguments (a trailing & is allowed)", op))
	}
	return st
}

// record parses KEY=VALUE; either side may be quoted, and must be to be
// empty.
func (lp *lineParser) record(t token) KV {
	eq := indexOutside(t.raw, "=", false)
	if eq < 0 || t.quoted {
		lp.failf(t.col, "expected a record KEY=VALUE, got %q", t.raw)
	}
	k, kq := lp.value(t.raw[:eq], t.col)
	if k == "" && !kq {
		lp.failf(t.col, `record key is empty: write ""=VALUE for an empty key`)
	}
	vcol := runeCol(t.raw, t.col, eq+1)
	v, vq := lp.value(t.raw[eq+1:], vcol)
	if v == "" && !vq {
		lp.failf(vcol, `record value is empty: write KEY="" for an empty value`)
	}
	return KV{Key: k, Value: v}
}

func (lp *lineParser) consumerAction(c ClientDecl) Stmt {
	bg := lp.background()
	opT := lp.next(fmt.Sprintf("%s is a consumer: say what it does (%s)", c.Name, strings.Join(consumerOpNames[1:], ", ")))
	op, ok := enumByName[ConsumerOp](opT.raw, consumerOpNames)
	if !ok || opT.quoted {
		extra := ""
		if _, isP := enumByName[ProducerOp](opT.raw, producerOpNames); isP {
			extra = "; " + c.Name + " is a consumer"
		}
		lp.failf(opT.col, "unknown consumer action %q%s (a consumer can %s)%s", opT.raw,
			didYouMean(opT.text, consumerOpNames[1:]), strings.Join(consumerOpNames[1:], ", "), extra)
	}
	st := &ConsumerActionStmt{Client: c.Name, Op: op, Background: bg}
	switch op {
	case ConsumerAssign:
		if !lp.more() {
			lp.failf(lp.endCol(), "assign needs at least one TOPIC/PARTITION, e.g. %s assign orders/0", c.Name)
		}
		for lp.more() {
			t := lp.next("")
			tp := lp.topicPartition(t.raw, t.col)
			for _, p := range st.Partitions {
				if p == tp {
					lp.failf(t.col, "%s is given twice", tp)
				}
			}
			st.Partitions = append(st.Partitions, tp)
		}
	case ConsumerSeek:
		t := lp.next("seek needs a partition and an offset, e.g. " + c.Name + " seek orders/0 0")
		st.TP = lp.topicPartition(t.raw, t.col)
		o := lp.next("seek needs an offset after " + st.TP.String())
		st.Offset = lp.integer("the offset", o.raw, o.col, 0, math.MaxInt64)
		lp.done("seek takes a partition and an offset")
	case ConsumerCommit:
		if c.GroupID == "" {
			lp.failf(opT.col, "%s has no group.id: commit needs one; declare the consumer with group.id=GROUP", c.Name)
		}
		lp.done("commit takes no arguments (a trailing & is allowed)")
	case ConsumerSubscribe:
		lp.subscribe(c, st, opT)
	default:
		lp.done(fmt.Sprintf("%s takes no arguments (a trailing & is allowed)", op))
	}
	return st
}

// ---- Faults and time ----

func (lp *lineParser) nodeArg(verb string) NodeRef {
	t := lp.next(verb + " needs a node: broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)")
	n := lp.nodeRef(t.raw, t.col)
	lp.done(verb + " takes one node")
	if verb == "restart" && n.Kind == NodeClient {
		lp.failf(t.col, "a crashed client cannot be restarted: declare a new one")
	}
	return n
}

func (lp *lineParser) partition() Stmt {
	if !lp.more() {
		lp.failf(lp.endCol(), "partition needs groups of nodes, e.g. partition broker-0,p1 | broker-1,broker-2")
	}
	st := &PartitionStmt{}
	var group []NodeRef
	seen := map[NodeRef]bool{}
	expectNode := true // a node must come next
	sepCol := 0
	closeGroup := func(col int) {
		if len(group) == 0 {
			lp.failf(col, "empty group: put at least one node between the bars")
		}
		st.Groups = append(st.Groups, group)
		group = nil
	}
	for lp.more() {
		t := lp.next("")
		raw := t.raw
		off := 0
		for off < len(raw) {
			rest := raw[off:]
			i := indexOutside(rest, ",|", true)
			if i != 0 {
				item := rest
				if i > 0 {
					item = rest[:i]
				}
				col := runeCol(t.raw, t.col, off)
				if !expectNode {
					lp.failf(col, "expected ',' or '|' before %q", item)
				}
				n := lp.nodeRef(item, col)
				if seen[n] {
					lp.failf(col, "%s is named twice", n)
				}
				seen[n] = true
				group = append(group, n)
				expectNode = false
				off += len(item)
				continue
			}
			col := runeCol(t.raw, t.col, off)
			if expectNode {
				lp.failf(col, "expected a node before %q", rest[:1])
			}
			if rest[0] == '|' {
				closeGroup(col)
			}
			expectNode = true
			sepCol = col
			off++
		}
	}
	if expectNode {
		lp.failf(sepCol, "expected a node after the last separator")
	}
	closeGroup(lp.endCol())
	if len(st.Groups) < 2 {
		lp.failf(lp.toks[1].col, "partition needs at least two groups separated by '|' (use isolate to cut off one node)")
	}
	return st
}

// match parses API[.response].
func (lp *lineParser) match(t token) MessageMatch {
	name, suffix, hasSuffix := strings.Cut(t.raw, ".")
	api, ok := protocol.APIByName(name)
	if !ok || t.quoted {
		names := make([]string, len(protocol.APIs))
		for i, k := range protocol.APIs {
			names[i] = k.String()
		}
		hint := didYouMean(name, names)
		if hint == "" {
			hint = " (APIs: " + strings.Join(names, ", ") + ")"
		}
		lp.failf(t.col, "unknown API %q%s", name, hint)
	}
	m := MessageMatch{API: api}
	if hasSuffix {
		if suffix != "response" {
			lp.failf(runeCol(t.raw, t.col, len(name)), "unknown suffix %q: write %s for requests or %s.response for responses", "."+suffix, name, name)
		}
		m.Response = true
	}
	return m
}

func (lp *lineParser) matchEnds(m *MessageMatch, opts options) {
	if o, ok := opts.get("from"); ok {
		m.From = lp.nodeRef(o.raw, o.vcol)
	}
	if o, ok := opts.get("to"); ok {
		m.To = lp.nodeRef(o.raw, o.vcol)
	}
}

func (lp *lineParser) drop() Stmt {
	t := lp.next("drop needs an API, e.g. drop WriteTxnMarkers count=1")
	st := &DropStmt{Match: lp.match(t)}
	opts := lp.options("drop", []string{"from", "to", "count"})
	lp.matchEnds(&st.Match, opts)
	if o, ok := opts.get("count"); ok {
		st.Count = int(lp.integer(o.key, o.raw, o.col, 1, MaxCount))
	}
	return st
}

func (lp *lineParser) delay() Stmt {
	t := lp.next("delay needs an API and by=DURATION, e.g. delay EndTxn.response by=2s")
	st := &DelayStmt{Match: lp.match(t)}
	opts := lp.options("delay", []string{"by", "from", "to"})
	lp.matchEnds(&st.Match, opts)
	o, ok := opts.get("by")
	if !ok {
		lp.failf(lp.endCol(), "delay needs by=DURATION, e.g. by=2s")
	}
	st.By = lp.duration(o.key, o.raw, o.col, MaxDuration)
	return st
}

func (lp *lineParser) run() Stmt {
	if lp.more() && lp.toks[lp.i].raw == "until" {
		lp.i++
		t := lp.next("run until needs an API, e.g. run until EndTxn.response")
		st := &RunUntilStmt{Match: lp.match(t), For: DefaultRunFor, Nth: 1}
		opts := lp.options("run until", []string{"from", "to", "nth", "for"})
		lp.matchEnds(&st.Match, opts)
		if o, ok := opts.get("nth"); ok {
			st.Nth = int(lp.integer(o.key, o.raw, o.col, 1, MaxCount))
			st.Given = append(st.Given, "nth")
		}
		if o, ok := opts.get("for"); ok {
			st.For = lp.duration(o.key, o.raw, o.col, MaxDuration)
			st.Given = append(st.Given, "for")
		}
		return st
	}
	st := &RunStmt{For: DefaultRunFor}
	opts := lp.options("run", []string{"for"})
	if o, ok := opts.get("for"); ok {
		st.For = lp.duration(o.key, o.raw, o.col, MaxDuration)
		st.Given = OptionSet{"for"}
	}
	return st
}

func (lp *lineParser) mechanism(verb string) Mechanism {
	names := enumNames(mechanismNames)
	t := lp.next(verb + " needs a mechanism: " + strings.Join(names, ", "))
	m, ok := MechanismByName(t.raw)
	if !ok || t.quoted {
		lp.failf(t.col, "unknown mechanism %q%s (mechanisms: %s)", t.raw, didYouMean(t.text, names), strings.Join(names, ", "))
	}
	lp.done(verb + " takes one mechanism")
	return m
}

// ---- Expectations ----

func (lp *lineParser) expect() Stmt {
	t := lp.next("expect needs a subject: a client name, or one of " + strings.Join(expectSubjects, ", "))
	if !t.quoted {
		switch t.raw {
		case "txn":
			return lp.expectTxn()
		case "partition":
			return lp.expectPartition()
		case "log":
			return lp.expectLog()
		case "offsets":
			return lp.expectOffsets()
		case "trace":
			return lp.expectTrace()
		case "coordinator":
			return lp.expectCoordinator()
		case "group":
			return lp.expectGroup()
		case "invariants":
			lp.done("expect invariants takes no arguments")
			return &ExpectInvariantsStmt{}
		case "violation":
			st := &ExpectViolationStmt{}
			if lp.more() {
				v := lp.next("")
				inv, ok := InvariantByName(v.raw)
				if !ok || v.quoted {
					names := enumNames(invariantNames)
					lp.failf(v.col, "unknown invariant %q%s (invariants: %s)", v.raw, didYouMean(v.text, names), strings.Join(names, ", "))
				}
				st.Invariant = inv
				lp.done("expect violation takes at most one invariant")
			}
			return st
		}
		if c, ok := lp.d.Client(t.raw); ok {
			return lp.expectClient(c)
		}
		if validClientName(t.raw) && !lp.nearKeyword(t.raw, expectSubjects) {
			lp.unknownClient(t)
		}
	}
	cands := append([]string(nil), expectSubjects...)
	for _, c := range lp.d.clients {
		cands = append(cands, c.Name)
	}
	lp.failf(t.col, "unknown expectation %q%s: expected a client name or one of %s", t.raw,
		didYouMean(t.text, cands), strings.Join(expectSubjects, ", "))
	return nil
}

// nearKeyword reports whether w looks like a misspelt keyword rather than
// an undeclared name.
func (lp *lineParser) nearKeyword(w string, kws []string) bool {
	return didYouMean(w, kws) != ""
}

func (lp *lineParser) expectClient(c ClientDecl) Stmt {
	t := lp.next("expect " + c.Name + " needs ok, error NAME, pending, state STATE, records TOPIC/PART = ..., position TOPIC/PART=N or aborted TOPIC/PART = ...")
	switch t.raw {
	case "ok":
		lp.done("expect " + c.Name + " ok takes no arguments")
		return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomeOK}
	case "pending":
		lp.done("expect " + c.Name + " pending takes no arguments")
		return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomePending}
	case "error":
		e := lp.next("expect " + c.Name + " error needs a Kafka error name, e.g. PRODUCER_FENCED")
		code := lp.errorName(e.raw, e.col)
		lp.done("expect error takes one error name")
		return &ExpectOutcomeStmt{Client: c.Name, Outcome: OutcomeError, Error: code}
	case "state":
		if c.Kind != KindProducer {
			lp.failf(t.col, "%s is a consumer: state applies to producers", c.Name)
		}
		s := lp.next("expect " + c.Name + " state needs a state, e.g. READY")
		state, ok := ClientStateByName(s.raw)
		if !ok || s.quoted {
			names := enumNames(clientStateNames)
			lp.failf(s.col, "unknown client state %q%s (states: %s)", s.raw, didYouMean(s.text, names), strings.Join(names, ", "))
		}
		st := &ExpectStateStmt{Client: c.Name, State: state}
		opts := lp.options("expect state", []string{"epoch"})
		if o, ok := opts.get("epoch"); ok {
			st.Epoch = int16(lp.integer(o.key, o.raw, o.col, -1, math.MaxInt16))
		}
		st.Given = opts.given()
		return st
	case "records":
		if c.Kind != KindConsumer {
			lp.failf(t.col, "%s is a producer: records applies to consumers", c.Name)
		}
		tpT := lp.next("expect records needs a partition, e.g. expect " + c.Name + " records orders/0 = v1 v2")
		st := &ExpectRecordsStmt{Client: c.Name, TP: lp.topicPartition(tpT.raw, tpT.col)}
		lp.equals(st.TP)
		if lp.noneAfterEquals() {
			return st
		}
		for lp.more() {
			v := lp.next("")
			val, _ := lp.value(v.raw, v.col)
			st.Values = append(st.Values, val)
		}
		return st
	case "position":
		return lp.expectPosition(c, t)
	case "aborted":
		return lp.expectAborted(c, t)
	}
	lp.failf(t.col, "expected ok, error, pending, state, records, position or aborted after expect %s, got %q%s", c.Name, t.raw,
		didYouMean(t.text, clientWords))
	return nil
}

// equals consumes the "=" of expect records/log.
func (lp *lineParser) equals(tp protocol.TopicPartition) {
	e := lp.next(fmt.Sprintf("expected \"=\" after %s (with nothing or none after it for none)", tp))
	if e.raw != "=" {
		lp.failf(e.col, "expected \"=\" after %s, got %q", tp, e.raw)
	}
}

func (lp *lineParser) expectTxn() Stmt {
	t := lp.next("expect txn needs a transactional id, e.g. expect txn order-txn-1 state=Ongoing")
	st := &ExpectTxnStmt{TransactionalID: lp.nonEmpty("the transactional id", t.raw, t.col)}
	if lp.more() && lp.toks[lp.i].raw == "absent" {
		lp.i++
		st.Absent = true
		lp.done("expect txn ID absent takes nothing more")
		return st
	}
	opts := lp.optionsEmpty("expect txn", []string{"state", "epoch", "pid", "partitions"}, "partitions")
	if o, ok := opts.get("state"); ok {
		s, ok := protocol.TransactionStateByName(o.raw)
		if !ok {
			var names []string
			for i := protocol.TransactionState(0); ; i++ {
				n := i.String()
				if _, ok := protocol.TransactionStateByName(n); !ok {
					break
				}
				names = append(names, n)
			}
			lp.failf(o.col, "unknown transaction state %q%s (states: %s)", o.raw, didYouMean(o.raw, names), strings.Join(names, ", "))
		}
		st.State = s
	}
	if o, ok := opts.get("epoch"); ok {
		st.Epoch = int16(lp.integer(o.key, o.raw, o.col, -1, math.MaxInt16))
	}
	if o, ok := opts.get("pid"); ok {
		st.ProducerID = lp.integer(o.key, o.raw, o.col, -1, math.MaxInt64)
	}
	if o, ok := opts.get("partitions"); ok {
		st.Partitions = lp.tpSet(o)
	}
	st.Given = opts.given()
	return st
}

// tpSet parses "none" or T/P,T/P,... into a sorted set.
func (lp *lineParser) tpSet(o option) []protocol.TopicPartition {
	if o.raw == "none" || o.raw == "" {
		return nil
	}
	var tps []protocol.TopicPartition
	off := 0
	for {
		part := o.raw[off:]
		end := strings.IndexByte(part, ',')
		if end >= 0 {
			part = part[:end]
		}
		col := runeCol(o.raw, o.vcol, off)
		if part == "" {
			lp.failf(col, "expected TOPIC/PARTITION in %s=, got an empty item (for no partitions write %s=none, or %s= with nothing after it)", o.key, o.key, o.key)
		}
		tp := lp.topicPartition(part, col)
		for _, p := range tps {
			if p == tp {
				lp.failf(col, "%s is given twice", tp)
			}
		}
		tps = append(tps, tp)
		if end < 0 {
			break
		}
		off += end + 1
	}
	slices.SortFunc(tps, protocol.TopicPartition.Compare)
	return tps
}

func (lp *lineParser) expectPartition() Stmt {
	t := lp.next("expect partition needs a partition, e.g. expect partition orders/0 hw=3 lso=3")
	st := &ExpectPartitionStmt{TP: lp.topicPartition(t.raw, t.col)}
	opts := lp.options("expect partition", []string{"hw", "lso", "log-end", "leader", "leader-epoch", "isr"})
	if len(opts.list) == 0 {
		lp.failf(lp.endCol(), "expect partition needs at least one of hw=N, lso=N, log-end=N, leader=BROKER, leader-epoch=N, isr=BROKER,...")
	}
	if o, ok := opts.get("hw"); ok {
		st.HW = lp.integer(o.key, o.raw, o.col, 0, math.MaxInt64)
	}
	if o, ok := opts.get("lso"); ok {
		st.LSO = lp.integer(o.key, o.raw, o.col, 0, math.MaxInt64)
	}
	if o, ok := opts.get("log-end"); ok {
		st.LogEnd = lp.integer(o.key, o.raw, o.col, 0, math.MaxInt64)
	}
	if o, ok := opts.get("leader"); ok {
		st.Leader = lp.brokerOrNone(o.key, o.raw, o.vcol)
	}
	if o, ok := opts.get("leader-epoch"); ok {
		st.LeaderEpoch = int32(lp.integer(o.key, o.raw, o.col, 0, math.MaxInt32))
	}
	if o, ok := opts.get("isr"); ok {
		st.ISR = lp.parseBrokerSet(o)
	}
	st.Given = opts.given()
	return st
}

func (lp *lineParser) expectLog() Stmt {
	t := lp.next("expect log needs a partition, e.g. expect log orders/0 = p1:v1 COMMIT(p1)")
	st := &ExpectLogStmt{TP: lp.topicPartition(t.raw, t.col)}
	lp.equals(st.TP)
	if lp.noneAfterEquals() {
		return st
	}
	for lp.more() {
		e := lp.next("")
		if strings.HasPrefix(st.TP.Topic, "__") {
			st.Entries = append(st.Entries, lp.internalLogEntry(st.TP, e))
			continue
		}
		st.Entries = append(st.Entries, lp.logEntry(e))
	}
	return st
}

func (lp *lineParser) logEntry(t token) LogEntry {
	const form = "expected a log entry P:VALUE, COMMIT(P) or ABORT(P), got %q"
	if t.quoted {
		lp.failf(t.col, form, t.raw)
	}
	for _, m := range []struct {
		prefix string
		kind   LogEntryKind
	}{{"COMMIT(", EntryCommit}, {"ABORT(", EntryAbort}} {
		if strings.HasPrefix(t.raw, m.prefix) {
			if !strings.HasSuffix(t.raw, ")") {
				lp.failf(t.col, "missing \")\" in %q", t.raw)
			}
			name := t.raw[len(m.prefix) : len(t.raw)-1]
			lp.producerRef(name, t.col+len(m.prefix))
			return LogEntry{Kind: m.kind, Producer: name}
		}
	}
	colon := indexOutside(t.raw, ":", false)
	if colon < 0 {
		lp.failf(t.col, form, t.raw)
	}
	name := t.raw[:colon]
	lp.producerRef(name, t.col)
	vcol := runeCol(t.raw, t.col, colon+1)
	v, q := lp.value(t.raw[colon+1:], vcol)
	if v == "" && !q {
		lp.failf(vcol, `the value is empty: write %s:"" for an empty value`, name)
	}
	return LogEntry{Kind: EntryRecord, Producer: name, Value: v}
}

// producerRef checks that name is a declared producer.
func (lp *lineParser) producerRef(name string, col int) {
	c := lp.clientName(name, col)
	if c.Kind != KindProducer {
		lp.failf(col, "%s is a consumer: log entries name the producer that wrote them", name)
	}
}

func (lp *lineParser) expectOffsets() Stmt {
	t := lp.next("expect offsets needs a group, e.g. expect offsets g1 orders/0=5")
	st := &ExpectOffsetsStmt{Group: lp.nonEmpty("the group", t.raw, t.col)}
	if !lp.more() {
		lp.failf(lp.endCol(), "expect offsets needs at least one TOPIC/PARTITION=N|none|unstable")
	}
	seen := map[protocol.TopicPartition]bool{}
	for lp.more() {
		e := lp.next("")
		tp, val, vcol := lp.tpEquals(e, "TOPIC/PARTITION=N|none|unstable")
		if seen[tp] {
			lp.failf(e.col, "%s is given twice", tp)
		}
		seen[tp] = true
		o := ExpectedOffset{TP: tp}
		switch val {
		case "none":
			o.Kind = OffsetNone
		case "unstable":
			o.Kind = OffsetUnstable
		default:
			if !allDigits(val) {
				lp.failf(vcol, "expected an offset, none or unstable after %s=, got %q", tp, val)
			}
			o.Kind = OffsetCommitted
			o.Offset = lp.integer("the offset", val, vcol, 0, math.MaxInt64)
		}
		st.Offsets = append(st.Offsets, o)
	}
	return st
}

// tpEquals splits TOPIC/PART=VALUE.
func (lp *lineParser) tpEquals(t token, form string) (protocol.TopicPartition, string, int) {
	eq := strings.IndexByte(t.raw, '=')
	if eq < 0 || t.quoted {
		lp.failf(t.col, "expected %s, got %q", form, t.raw)
	}
	tp := lp.topicPartition(t.raw[:eq], t.col)
	vcol := runeCol(t.raw, t.col, eq+1)
	val := t.raw[eq+1:]
	if val == "" {
		lp.failf(vcol, "expected %s, got nothing after %q", form, t.raw)
	}
	return tp, val, vcol
}

func (lp *lineParser) expectTrace() Stmt {
	t := lp.next("expect trace needs an API, e.g. expect trace WriteTxnMarkers count=1")
	st := &ExpectTraceStmt{Match: lp.match(t), Count: -1}
	allowed := []string{"from", "to", "error", "count"}
	fields := protocol.Fields(st.Match.API, st.Match.Response)
	for _, f := range fields {
		allowed = append(allowed, f.Name)
	}
	opts := lp.options("expect trace "+st.Match.API.String()+dotResponse(st.Match.Response), allowed)
	lp.matchEnds(&st.Match, opts)
	for _, f := range fields {
		if o, ok := opts.get(f.Name); ok {
			st.Fields = append(st.Fields, lp.fieldMatch(f, o))
		}
	}
	if o, ok := opts.get("error"); ok {
		if !st.Match.Response {
			lp.failf(o.col, "error= applies to responses: write %s.response", st.Match.API)
		}
		st.Error = lp.errorNameAny(o.raw, o.col)
	}
	if o, ok := opts.get("count"); ok {
		st.Count = int(lp.integer(o.key, o.raw, o.col, 0, MaxCount))
	}
	st.Given = opts.given()
	st.Given = removeKeys(st.Given, "from", "to")
	st.Given = removeKeys(st.Given, fieldNames(fields)...)
	return st
}

func removeKeys(o OptionSet, keys ...string) OptionSet {
	var out OptionSet
	for _, k := range o {
		drop := false
		for _, r := range keys {
			drop = drop || k == r
		}
		if !drop {
			out = append(out, k)
		}
	}
	return out
}

func (lp *lineParser) expectCoordinator() Stmt {
	t := lp.next("expect coordinator needs a transactional id, e.g. expect coordinator order-txn-1 broker=broker-1")
	st := &ExpectCoordinatorStmt{TransactionalID: lp.nonEmpty("the transactional id", t.raw, t.col)}
	opts := lp.options("expect coordinator", []string{"partition", "broker", "epoch"})
	if o, ok := opts.get("partition"); ok {
		n := int64(lp.d.Cluster.TxnPartitions)
		st.Partition = int32(lp.integerWhy(o.key, o.raw, o.col, 0, n-1, " (txn-partitions is "+strconv.FormatInt(n, 10)+")"))
	}
	if o, ok := opts.get("broker"); ok {
		n := lp.nodeRef(o.raw, o.vcol)
		if n.Kind != NodeBroker {
			lp.failf(o.col, "broker= needs a broker, broker-0 to broker-%d, got %q", lp.d.brokers()-1, o.raw)
		}
		st.Broker = n.Index
	}
	if o, ok := opts.get("epoch"); ok {
		st.Epoch = int32(lp.integer(o.key, o.raw, o.col, 0, math.MaxInt32))
	}
	st.Given = opts.given()
	return st
}

// errorName parses an expected client error: a Kafka error name, not NONE.
func (lp *lineParser) errorName(raw string, col int) protocol.ErrorCode {
	code := lp.errorNameAny(raw, col)
	if code == protocol.NONE {
		lp.failf(col, "NONE is success: write expect NAME ok")
	}
	return code
}

func (lp *lineParser) errorNameAny(raw string, col int) protocol.ErrorCode {
	code, ok := protocol.ErrorByName(raw)
	if !ok {
		names := make([]string, len(protocol.Errors))
		for i, e := range protocol.Errors {
			names[i] = e.Name
		}
		lp.failf(col, "unknown Kafka error %q%s", raw, didYouMean(raw, names))
	}
	return code
}

// ---- Values ----

// option is one KEY=VALUE token.
type option struct {
	key  string
	raw  string // the value as written (not empty); decoded by whoever reads it
	col  int    // column of the token
	vcol int    // column of the value
}

// options is the KEY=VALUE tokens of a statement, in the order written.
type options struct {
	list  []option
	order []string // the statement's canonical option order
}

func (o options) get(key string) (option, bool) {
	for _, x := range o.list {
		if x.key == key {
			return x, true
		}
	}
	return option{}, false
}

func (o options) has(key string) bool { _, ok := o.get(key); return ok }

// given lists the keys written, in canonical order.
func (o options) given() OptionSet {
	var g OptionSet
	for _, k := range o.order {
		if o.has(k) {
			g = append(g, k)
		}
	}
	return g
}

// options consumes the remaining tokens as KEY=VALUE options.
func (lp *lineParser) options(stmt string, allowed []string) options {
	return lp.optionsEmpty(stmt, allowed)
}

// optionsEmpty is options where the keys emptyOK may be written with
// nothing after the "=" (partitions=: none).
func (lp *lineParser) optionsEmpty(stmt string, allowed []string, emptyOK ...string) options {
	opts := options{order: allowed}
	for lp.more() {
		t := lp.next("")
		eq := indexOutside(t.raw, "=", false)
		if eq <= 0 || t.quoted {
			if len(allowed) == 0 {
				lp.failf(t.col, "unexpected %q: %s takes no options", t.raw, stmt)
			}
			lp.failf(t.col, "expected an option KEY=VALUE (%s), got %q", strings.Join(allowed, ", "), t.raw)
		}
		key := t.raw[:eq]
		known := false
		for _, a := range allowed {
			known = known || a == key
		}
		if !known {
			hint := didYouMean(key, allowed)
			if hint == "" {
				hint = "; options: " + strings.Join(allowed, ", ")
			}
			lp.failf(t.col, "unknown option %q for %s%s", key, stmt, hint)
		}
		if opts.has(key) {
			lp.failf(t.col, "option %s is given twice", key)
		}
		raw := t.raw[eq+1:]
		if raw == "" && !slices.Contains(emptyOK, key) {
			lp.failf(t.col, "%s needs a value: write %s=...", key, key)
		}
		opts.list = append(opts.list, option{key: key, raw: raw, col: t.col, vcol: runeCol(t.raw, t.col, eq+1)})
	}
	return opts
}

// value decodes a free-text value: plain text, or one quoted string that
// spans all of it. It reports whether it was quoted.
func (lp *lineParser) value(raw string, col int) (string, bool) {
	if raw == "" || raw[0] != '"' {
		if q := strings.IndexByte(raw, '"'); q >= 0 {
			lp.failf(runeCol(raw, col, q), "a quote must enclose the whole value")
		}
		return raw, false
	}
	end := quotedEnd(raw)
	if end < 0 {
		lp.failf(col, "unterminated quote: add a closing \"")
	}
	if end != len(raw) {
		lp.failf(runeCol(raw, col, end), "unexpected text after the closing quote")
	}
	return unescape(raw[1 : end-1]), true
}

// nonEmpty decodes a free-text identifier that must not be empty.
func (lp *lineParser) nonEmpty(what, raw string, col int) string {
	v, _ := lp.value(raw, col)
	if v == "" {
		lp.failf(col, "%s must not be empty", what)
	}
	return v
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// integer parses a decimal integer in [lo, hi].
func (lp *lineParser) integer(what, raw string, col int, lo, hi int64) int64 {
	return lp.integerWhy(what, raw, col, lo, hi, "")
}

func (lp *lineParser) integerWhy(what, raw string, col int, lo, hi int64, why string) int64 {
	digits := strings.TrimPrefix(raw, "-")
	if !allDigits(digits) || (lo >= 0 && digits != raw) {
		kind := "an integer"
		switch {
		case lo >= 1:
			kind = "a positive integer"
		case lo == 0:
			kind = "a non-negative integer"
		}
		lp.failf(col, "%s must be %s, got %q", what, kind, raw)
	}
	v, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || v < lo || v > hi {
		if hi == math.MaxInt64 {
			lp.failf(col, "%s must be at least %d, got %s", what, lo, raw)
		}
		lp.failf(col, "%s must be between %d and %d%s, got %s", what, lo, hi, why, raw)
	}
	return v
}

// duration parses 250ms, 5s, 2m, 3h, 7d or a bare integer (milliseconds),
// at most max.
func (lp *lineParser) duration(what, raw string, col int, max sim.Time) sim.Time {
	num, unit := raw, sim.Millisecond
	for _, u := range []struct {
		suffix string
		d      sim.Time
	}{{"ms", sim.Millisecond}, {"s", sim.Second}, {"m", sim.Minute}, {"h", sim.Hour}, {"d", sim.Day}} {
		if strings.HasSuffix(raw, u.suffix) {
			num, unit = strings.TrimSuffix(raw, u.suffix), u.d
			break
		}
	}
	if !allDigits(num) {
		lp.failf(col, "%s must be a duration like 250ms, 5s, 2m, 3h or 7d, got %q", what, raw)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > int64(max/unit) || sim.Time(n)*unit > max {
		lp.failf(col, "%s must be at most %s, got %s", what, FormatDuration(max), raw)
	}
	return sim.Time(n) * unit
}

func (lp *lineParser) boolean(o option) bool {
	switch o.raw {
	case "true":
		return true
	case "false":
		return false
	}
	lp.failf(o.col, "%s must be true or false, got %q", o.key, o.raw)
	return false
}

func validTopic(s string) bool {
	if s == "" || len(s) > 249 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validClientName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// brokerIndex parses "broker-N".
func brokerIndex(s string) (int, bool) {
	n, ok := strings.CutPrefix(s, "broker-")
	if !ok || !allDigits(n) || len(n) > 4 {
		return 0, false
	}
	i, _ := strconv.Atoi(n)
	return i, true
}

// topicPartition parses TOPIC/PARTITION and checks it against the
// declared topics.
func (lp *lineParser) topicPartition(raw string, col int) protocol.TopicPartition {
	slash := strings.LastIndexByte(raw, '/')
	if slash <= 0 {
		lp.failf(col, "expected TOPIC/PARTITION like orders/0, got %q", raw)
	}
	topic, part := raw[:slash], raw[slash+1:]
	if !validTopic(topic) {
		lp.failf(col, "topic name %q may only hold letters, digits, '.', '_' and '-'", topic)
	}
	pcol := runeCol(raw, col, slash+1)
	p := lp.integer("the partition", part, pcol, 0, math.MaxInt32)
	decl, ok := lp.d.Topic(topic)
	if !ok {
		var names []string
		for _, t := range lp.d.topics {
			names = append(names, t.Name)
		}
		lp.failf(col, "unknown topic %q: declare it with topic first%s", topic, didYouMean(topic, names))
	}
	if p >= int64(decl.Partitions) {
		lp.failf(pcol, "partition %d does not exist: topic %s has partitions 0 to %d", p, topic, decl.Partitions-1)
	}
	return protocol.TopicPartition{Topic: topic, Partition: int32(p)}
}

// clientArg reads the one argument of a statement that names a client.
func (lp *lineParser) clientArg(verb string) ClientDecl {
	t := lp.next(verb + " needs a client name")
	if t.quoted {
		lp.failf(t.col, "expected a client name, got %q", t.raw)
	}
	c := lp.clientName(t.raw, t.col)
	lp.done(verb + " takes one client")
	return c
}

// clientName looks up a declared client.
func (lp *lineParser) clientName(name string, col int) ClientDecl {
	if !validClientName(name) {
		lp.failf(col, "expected a client name, got %q", name)
	}
	c, ok := lp.d.Client(name)
	if !ok {
		lp.unknownClient(token{raw: name, text: name, col: col})
	}
	return c
}

func (lp *lineParser) unknownClient(t token) {
	var names []string
	for _, c := range lp.d.clients {
		names = append(names, c.Name)
	}
	lp.failf(t.col, "unknown client %q: declare it with producer or consumer first%s", t.raw, didYouMean(t.raw, names))
}

// nodeRef parses broker-N, a client name, coordinator(ID),
// group-coordinator(GROUP) or leader(TOPIC/PART).
func (lp *lineParser) nodeRef(raw string, col int) NodeRef {
	const form = "broker-N, a client, coordinator(ID), group-coordinator(GROUP) or leader(TOPIC/PART)"
	if i, ok := brokerIndex(raw); ok {
		if n := lp.d.brokers(); i >= n {
			lp.failf(col, "%s does not exist: the cluster has broker-0 to broker-%d", raw, n-1)
		}
		return NodeRef{Kind: NodeBroker, Index: i}
	}
	for _, f := range []struct {
		prefix string
		kind   NodeKind
	}{{"coordinator(", NodeCoordinator}, {"group-coordinator(", NodeGroupCoordinator}, {"leader(", NodeLeader}} {
		if !strings.HasPrefix(raw, f.prefix) {
			continue
		}
		inner := raw[len(f.prefix):]
		icol := runeCol(raw, col, len(f.prefix))
		if !strings.HasSuffix(inner, ")") || indexOutside(inner, ")", false) != len(inner)-1 {
			lp.failf(col, "missing \")\" at the end of %q", raw)
		}
		inner = inner[:len(inner)-1]
		if f.kind == NodeLeader {
			return NodeRef{Kind: NodeLeader, TP: lp.topicPartition(inner, icol)}
		}
		what := "the transactional id"
		if f.kind == NodeGroupCoordinator {
			what = "the group"
		}
		return NodeRef{Kind: f.kind, Name: lp.nonEmpty(what, inner, icol)}
	}
	if validClientName(raw) {
		c := lp.clientName(raw, col)
		return NodeRef{Kind: NodeClient, Name: c.Name}
	}
	lp.failf(col, "expected a node (%s), got %q", form, raw)
	return NodeRef{}
}

// ---- Suggestions ----

// DidYouMean returns `; did you mean "x"?` for the candidate closest to
// word within a small edit distance, or "": the suggestion every error of
// the scenario language and of the lessons makes for a misspelt name.
func DidYouMean(word string, cands []string) string { return didYouMean(word, cands) }

func didYouMean(word string, cands []string) string {
	if word == "" || len(word) > 64 {
		return ""
	}
	w := []rune(strings.ToLower(word))
	limit := 1
	if len(w) > 4 {
		limit = 2
	}
	if len(w) > 12 {
		limit = 3
	}
	best, bestD := "", limit+1
	for _, c := range cands {
		if len(c) > 64 {
			continue
		}
		d := editDistance(w, []rune(strings.ToLower(c)))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of neighbours each cost one.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// ---- Message fields, brokers, internal logs ----

func dotResponse(resp bool) string {
	if resp {
		return ".response"
	}
	return ""
}

func fieldNames(fs []protocol.FieldSpec) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return names
}

// fieldMatch parses the value of one message field by its type.
func (lp *lineParser) fieldMatch(f protocol.FieldSpec, o option) FieldMatch {
	fm := FieldMatch{Name: f.Name}
	switch f.Kind {
	case protocol.FieldString:
		fm.Value.Str = lp.nonEmpty(o.key, o.raw, o.vcol)
		fm.Text = quote(fm.Value.Str)
	case protocol.FieldBool:
		if lp.boolean(o) {
			fm.Value.Int = 1
		}
		fm.Text = o.raw
	case protocol.FieldError:
		code := lp.errorNameAny(o.raw, o.vcol)
		fm.Value.Int, fm.Text = int64(code), code.String()
	case protocol.FieldEnum:
		if !slices.Contains(f.Enum, o.raw) {
			lp.failf(o.vcol, "%s must be %s, got %q%s", o.key, strings.Join(f.Enum, " or "), o.raw, didYouMean(o.raw, f.Enum))
		}
		fm.Value.Str, fm.Text = o.raw, o.raw
	case protocol.FieldPartition:
		tp := lp.topicPartition(o.raw, o.vcol)
		fm.Value.Str, fm.Text = tp.String(), tp.String()
	default:
		lo, hi := fieldRange(o.key)
		fm.Value.Int = lp.integer(o.key, o.raw, o.vcol, lo, hi)
		fm.Text = strconv.FormatInt(fm.Value.Int, 10)
	}
	return fm
}

// brokerOrNone parses broker-N or none (-1).
func (lp *lineParser) brokerOrNone(key, raw string, col int) int32 {
	if raw == "none" {
		return -1
	}
	i, ok := brokerIndex(raw)
	if !ok {
		lp.failf(col, "%s must be a broker (broker-0 to broker-%d) or none, got %q", key, lp.d.brokers()-1, raw)
	}
	if i >= lp.d.brokers() {
		lp.failf(col, "%s does not exist: the cluster has broker-0 to broker-%d", raw, lp.d.brokers()-1)
	}
	return int32(i)
}

// parseBrokerSet parses none, nothing, or broker-N,broker-M,... into a
// sorted set.
func (lp *lineParser) parseBrokerSet(o option) []int32 {
	if o.raw == "none" {
		return nil
	}
	var ids []int32
	off := 0
	for {
		part := o.raw[off:]
		end := strings.IndexByte(part, ',')
		if end >= 0 {
			part = part[:end]
		}
		col := runeCol(o.raw, o.vcol, off)
		if part == "" || part == "none" {
			lp.failf(col, "expected a broker in %s=, got an empty item (for no brokers write %s=none)", o.key, o.key)
		}
		id := lp.brokerOrNone(o.key, part, col)
		if slices.Contains(ids, id) {
			lp.failf(col, "%s is given twice", part)
		}
		ids = append(ids, id)
		if end < 0 {
			break
		}
		off += end + 1
	}
	slices.Sort(ids)
	return ids
}

// internalLogEntry parses an entry of an internal topic's log: KEY:STATE
// for a __transaction_state record (the transactional id and the state
// it records; an expired id's tombstone records Dead), KEY:OFFSET for a
// __consumer_offsets record (KEY is GROUP/TOPIC/PARTITION), and
// COMMIT(P)/ABORT(P) for the markers of __consumer_offsets.
func (lp *lineParser) internalLogEntry(tp protocol.TopicPartition, t token) LogEntry {
	if tp.Topic == protocol.ConsumerOffsetsTopic && !t.quoted &&
		(strings.HasPrefix(t.raw, "COMMIT(") || strings.HasPrefix(t.raw, "ABORT(")) {
		return lp.logEntry(t)
	}
	form := "TRANSACTIONAL_ID:STATE, e.g. order-txn-1:Ongoing"
	if tp.Topic == protocol.ConsumerOffsetsTopic {
		form = "GROUP/TOPIC/PARTITION:OFFSET, COMMIT(P) or ABORT(P)"
	}
	colon := indexOutside(t.raw, ":", true)
	if colon <= 0 || t.quoted {
		lp.failf(t.col, "expected a %s entry %s, got %q", tp.Topic, form, t.raw)
	}
	key := lp.nonEmpty("the key", t.raw[:colon], t.col)
	vcol := runeCol(t.raw, t.col, colon+1)
	val := t.raw[colon+1:]
	if tp.Topic == protocol.TransactionStateTopic {
		if _, ok := protocol.TransactionStateByName(val); !ok {
			lp.failf(vcol, "unknown transaction state %q%s (a __transaction_state record holds one)", val, didYouMean(val, txnStateNames()))
		}
	} else {
		val = strconv.FormatInt(lp.integer("the offset", val, vcol, 0, math.MaxInt64), 10)
	}
	return LogEntry{Kind: EntryKeyed, Key: key, Value: val}
}

func txnStateNames() []string {
	var names []string
	for i := protocol.TransactionState(0); ; i++ {
		n := i.String()
		if _, ok := protocol.TransactionStateByName(n); !ok {
			return names
		}
		names = append(names, n)
	}
}
