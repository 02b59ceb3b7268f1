package scenario

// The parser's symbol table: what a script declared before a line.

import "txnlab/core/protocol"

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
