package scenario

// Consumer-group membership in the language (KIP-447's fencing needs it):
// the consumer options session.timeout.ms, heartbeat.interval.ms,
// max.poll.interval.ms and group.instance.id; the action `C subscribe
// TOPIC ...`; `P send-offsets consumer=C TP=OFF ...`, which sends C's
// groupMetadata(); and `expect group G [state=S] [generation=N]
// [members=C1,C2|none] [leader=C] [protocol=NAME|none]`. Their parsing, canonical text and
// evaluation live here; setup.go, actions.go and expect.go only call in.

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/cluster"
	"txnlab/core/sim"
)

// GroupOptions are a consumer's membership settings (ConsumerStmt).
type GroupOptions struct {
	SessionTimeout    sim.Time // session.timeout.ms, default 45s
	HeartbeatInterval sim.Time // heartbeat.interval.ms, default 3s
	MaxPollInterval   sim.Time // max.poll.interval.ms, default 5m
	GroupInstanceID   string   // group.instance.id, "" for a dynamic member
	// Assignors is partition.assignment.strategy, preferred first (nil:
	// range alone).
	Assignors []string
}

// checkGroupOptions refuses heartbeat.interval.ms at or above
// session.timeout.ms (either written, the other its default), as
// AbstractCoordinator's constructor does in Kafka.
func (lp *lineParser) checkGroupOptions(st *ConsumerStmt, opts options) {
	hbOpt, hbGiven := opts.get("heartbeat.interval.ms")
	sessOpt, sessGiven := opts.get("session.timeout.ms")
	if !hbGiven && !sessGiven {
		return
	}
	cfg := cluster.DefaultConsumerConfig()
	hb, session := cfg.HeartbeatIntervalMs, cfg.SessionTimeoutMs
	if hbGiven {
		hb = st.Group.HeartbeatInterval
	}
	if sessGiven {
		session = st.Group.SessionTimeout
	}
	if hb >= session {
		col := hbOpt.col
		if !hbGiven {
			col = sessOpt.col
		}
		lp.failf(col, "heartbeat.interval.ms must be lower than session.timeout.ms, as in Kafka")
	}
}

// applyGroupOptions applies a consumer statement's membership options.
func (st *ConsumerStmt) applyGroupOptions(cfg *cluster.ConsumerConfig) {
	if st.Given.Has("session.timeout.ms") {
		cfg.SessionTimeoutMs = st.Group.SessionTimeout
	}
	if st.Given.Has("heartbeat.interval.ms") {
		cfg.HeartbeatIntervalMs = st.Group.HeartbeatInterval
	}
	if st.Given.Has("max.poll.interval.ms") {
		cfg.MaxPollIntervalMs = st.Group.MaxPollInterval
	}
	cfg.GroupInstanceId = st.Group.GroupInstanceID
	cfg.Assignors = slices.Clone(st.Group.Assignors)
}

// subscribe parses `C subscribe TOPIC ...`.
func (lp *lineParser) subscribe(c ClientDecl, st *ConsumerActionStmt, opT token) {
	if c.GroupID == "" {
		lp.failf(opT.col, "%s has no group.id: subscribe needs one; declare the consumer with group.id=GROUP", c.Name)
	}
	if !lp.more() {
		lp.failf(lp.endCol(), "subscribe needs at least one topic, e.g. %s subscribe orders", c.Name)
	}
	for lp.more() {
		t := lp.next("")
		if _, ok := lp.d.Topic(t.raw); !ok || t.quoted {
			names := make([]string, 0, len(lp.d.topics))
			for _, d := range lp.d.topics {
				names = append(names, d.Name)
			}
			lp.failf(t.col, "unknown topic %q: declare it with topic first%s", t.raw, didYouMean(t.raw, names))
		}
		if strings.HasPrefix(t.raw, "__") {
			lp.failf(t.col, "cannot subscribe to the internal topic %s", t.raw)
		}
		if slices.Contains(st.Topics, t.raw) {
			lp.failf(t.col, "%s is given twice", t.raw)
		}
		st.Topics = append(st.Topics, t.raw)
	}
}

// sendOffsetsConsumer parses the group of send-offsets written
// consumer=C: C must be a consumer with a group.id. It reports whether
// the token had that form.
func (lp *lineParser) sendOffsetsConsumer(st *ProducerActionStmt, t token) bool {
	name, ok := strings.CutPrefix(t.raw, "consumer=")
	if !ok || t.quoted {
		return false
	}
	c := lp.clientName(name, t.col+len("consumer="))
	if c.Kind != KindConsumer {
		lp.failf(t.col, "%s is a producer: consumer= names the consumer whose groupMetadata() is sent", name)
	}
	if c.GroupID == "" {
		lp.failf(t.col, "%s has no group.id: it has no group metadata to send", name)
	}
	st.Consumer, st.Group = name, c.GroupID
	return true
}

// groupArg renders send-offsets' group: the group id, or consumer=C.
func (s *ProducerActionStmt) groupArg() string {
	if s.Consumer != "" {
		return "consumer=" + s.Consumer
	}
	return quote(s.Group)
}

// ExpectGroupStmt checks a consumer group's membership on its
// coordinator: its state, generation, members (by client name, sorted)
// and leader.
type ExpectGroupStmt struct {
	Base
	Group      string
	State      string   // Empty, PreparingRebalance, CompletingRebalance, Stable
	Generation int32    // generation=
	Members    []string // members=: consumer names, sorted; nil is none
	Leader     string   // leader=: a consumer name
	Protocol   string   // protocol=: the assignment protocol chosen, or none
	Given      OptionSet
}

var expectGroupOptions = []string{"state", "generation", "members", "leader", "protocol"}

// String renders the statement canonically.
func (s *ExpectGroupStmt) String() string {
	b := words("expect", "group", quote(s.Group))
	if s.Given.Has("state") {
		b.opt("state", s.State)
	}
	if s.Given.Has("generation") {
		b.opt("generation", strconv.Itoa(int(s.Generation)))
	}
	if s.Given.Has("members") {
		b.opt("members", membersText(s.Members))
	}
	if s.Given.Has("leader") {
		b.opt("leader", s.Leader)
	}
	if s.Given.Has("protocol") {
		b.opt("protocol", s.Protocol)
	}
	return b.String()
}

func membersText(ms []string) string {
	if len(ms) == 0 {
		return "none"
	}
	return strings.Join(ms, ",")
}

func parseExpectGroup(lp *lineParser) Stmt {
	t := lp.next("expect group needs a group, e.g. expect group g1 generation=1 members=c1")
	st := &ExpectGroupStmt{Group: lp.nonEmpty("the group", t.raw, t.col)}
	opts := lp.options("expect group", expectGroupOptions)
	if len(opts.list) == 0 {
		lp.failf(lp.endCol(), "expect group needs at least one of %s", strings.Join(expectGroupOptions, ", "))
	}
	if o, ok := opts.get("state"); ok {
		if states := cluster.GroupStates(); !slices.Contains(states, o.raw) {
			lp.failf(o.vcol, "unknown group state %q%s (states: %s)", o.raw, didYouMean(o.raw, states), strings.Join(states, ", "))
		}
		st.State = o.raw
	}
	if o, ok := opts.get("generation"); ok {
		st.Generation = int32(lp.integer(o.key, o.raw, o.col, 0, math.MaxInt32))
	}
	consumer := func(name string, col int) string {
		c := lp.clientName(name, col)
		if c.Kind != KindConsumer {
			lp.failf(col, "%s is a producer: a group's members are consumers", name)
		}
		return name
	}
	if o, ok := opts.get("members"); ok && o.raw != "none" {
		col := o.vcol
		for _, n := range strings.Split(o.raw, ",") {
			if n == "" {
				lp.failf(col, "members= lists consumers separated by commas, or none")
			}
			name := consumer(n, col)
			if slices.Contains(st.Members, name) {
				lp.failf(col, "%s is given twice", name)
			}
			st.Members = append(st.Members, name)
			col += len(n) + 1
		}
		slices.Sort(st.Members)
	}
	if o, ok := opts.get("leader"); ok {
		st.Leader = consumer(o.raw, o.vcol)
	}
	if o, ok := opts.get("protocol"); ok {
		st.Protocol = lp.nonEmpty(o.key, o.raw, o.vcol)
	}
	st.Given = opts.given()
	return st
}

func (st *ExpectGroupStmt) apply(s *Session) *Error { return s.expect(st) }

// evaluate reads the group on its coordinator (no coordinator: the group
// reads as unknown).
func (st *ExpectGroupStmt) evaluate(s *Session) (string, string, bool, *Error) {
	v, ok := s.Cluster.Group(st.Group)
	if !ok {
		v = cluster.GroupView{State: "?", Generation: -1}
	}
	exp, act, good := groupFacts.check(&v, st.Given, func(key string) string {
		switch key {
		case "state":
			return st.State
		case "generation":
			return num(st.Generation)
		case "members":
			return membersText(st.Members)
		case "leader":
			return st.Leader
		}
		return st.Protocol
	})
	return exp, act, good, nil
}
