package scenario

// Nodes and messages as a script names them: broker-N, a client,
// coordinator(ID), group-coordinator(GROUP), leader(TOPIC/PART), and
// API[.response] from= to=; parsed here, and resolved here when the line
// runs (a coordinator moves).

import (
	"strconv"
	"strings"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// NodeKind says how a NodeRef names its node.
type NodeKind uint8

// The node reference kinds. NodeAny (zero) is "no reference": any node in
// from=/to= filters.
const (
	NodeAny              NodeKind = iota
	NodeBroker                    // broker-N
	NodeClient                    // a declared producer or consumer
	NodeCoordinator               // coordinator(TXN_ID)
	NodeGroupCoordinator          // group-coordinator(GROUP)
	NodeLeader                    // leader(TOPIC/PART)
	NodeAdmin                     // admin: the operator's client (admin.go)
)

// NodeRef names a node. Coordinator, group-coordinator and leader
// references are resolved by the interpreter when the line runs.
type NodeRef struct {
	Kind  NodeKind
	Index int                     // NodeBroker: the broker number
	Name  string                  // NodeClient: the client; NodeCoordinator: the transactional id; NodeGroupCoordinator: the group
	TP    protocol.TopicPartition // NodeLeader: the partition
}

// IsZero reports whether the reference is absent (NodeAny).
func (n NodeRef) IsZero() bool { return n.Kind == NodeAny }

// String renders the reference as a script writes it.
func (n NodeRef) String() string {
	switch n.Kind {
	case NodeBroker:
		return "broker-" + strconv.Itoa(n.Index)
	case NodeClient:
		return n.Name
	case NodeCoordinator:
		return "coordinator(" + quote(n.Name) + ")"
	case NodeGroupCoordinator:
		return "group-coordinator(" + quote(n.Name) + ")"
	case NodeLeader:
		return "leader(" + n.TP.String() + ")"
	case NodeAdmin:
		return "admin"
	}
	return "any"
}

// MessageMatch selects messages by API, direction and endpoints, as
// written "API[.response] [from=NODE] [to=NODE]".
type MessageMatch struct {
	API      protocol.APIKey
	Response bool    // match responses instead of requests
	From, To NodeRef // zero: any node
}

// String renders the match as a script writes it.
func (m MessageMatch) String() string {
	s := m.API.String()
	if m.Response {
		s += ".response"
	}
	if !m.From.IsZero() {
		s += " from=" + m.From.String()
	}
	if !m.To.IsZero() {
		s += " to=" + m.To.String()
	}
	return s
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
	if raw == "admin" {
		return NodeRef{Kind: NodeAdmin}
	}
	if validClientName(raw) {
		c := lp.clientName(raw, col)
		return NodeRef{Kind: NodeClient, Name: c.Name}
	}
	lp.failf(col, "expected a node (%s), got %q", form, raw)
	return NodeRef{}
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

// resolve turns a node reference into a node, at the moment the line runs.
func (s *Session) resolve(st Stmt, ref NodeRef) (sim.NodeID, *Error) {
	c := s.Cluster
	switch ref.Kind {
	case NodeBroker:
		if ref.Index >= c.Cfg.Brokers {
			return sim.NoNode, s.errorf(st, "there is no broker-%d: the cluster has brokers broker-0 … broker-%d", ref.Index, c.Cfg.Brokers-1)
		}
		return cluster.BrokerNode(int32(ref.Index)), nil
	case NodeClient:
		id, ok := c.Node(ref.Name)
		if _, isProducer := c.Producer(ref.Name); !ok || !isProducer && !c.IsConsumer(ref.Name) && c.Externals[ref.Name] == nil {
			return sim.NoNode, s.errorf(st, "unknown client %q", ref.Name)
		}
		return id, nil
	case NodeCoordinator:
		co := c.Coordinator(ref.Name)
		if co.Broker < 0 {
			return sim.NoNode, s.errorf(st, "no broker leads __transaction_state/%d (the partition of %q) now", co.Partition, ref.Name)
		}
		return cluster.BrokerNode(co.Broker), nil
	case NodeGroupCoordinator:
		l, p := c.GroupCoordinatorOf(ref.Name)
		if l < 0 {
			return sim.NoNode, s.errorf(st, "no broker leads __consumer_offsets/%d (the partition of group %q) now", p, ref.Name)
		}
		return cluster.BrokerNode(l), nil
	case NodeAdmin:
		return c.Admin().Node, nil
	case NodeLeader:
		if err := s.checkTP(st, ref.TP); err != nil {
			return sim.NoNode, err
		}
		l := c.LeaderOf(ref.TP)
		if l < 0 {
			return sim.NoNode, s.errorf(st, "%s has no leader now", ref.TP)
		}
		return cluster.BrokerNode(l), nil
	}
	return sim.NoNode, nil
}

// checkTP reports a partition that does not exist when the line runs.
func (s *Session) checkTP(st Stmt, tp protocol.TopicPartition) *Error {
	if !s.Cluster.HasPartition(tp) {
		return s.errorf(st, "unknown partition %s: declare the topic first (topic NAME partitions=N)", tp)
	}
	return nil
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
		(m.From == sim.NoNode || m.From == env.From) && (m.To == sim.NoNode || m.To == env.To)
}
