package cluster

// External clients: a node with no behaviour of its own, through which a
// program outside the simulation (a real Kafka client on the listener,
// or a recorded session replayed by a script) sends requests. Both send
// through SendExternal, so a live session and its replay write the same
// trace.

import (
	"fmt"

	"txnlab/core/broker"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// MaxExternalConns bounds the connections one external client may number.
const MaxExternalConns = 1024

// External is an external client's node. Its requests come from outside;
// what the simulation delivers to it is handed to Deliver, and a request
// that found its broker down to Disconnected. Both are nil when nobody
// listens (a replay), and then the node drops what it receives.
type External struct {
	Node sim.NodeID
	// Deliver receives each response delivered to the node.
	Deliver func(env *sim.Envelope)
	// Disconnected receives each request whose broker was down: the
	// connection it went on was refused.
	Disconnected func(env *sim.Envelope)
	// LastSent is the id of the last request SendExternal sent from it.
	LastSent int64
	conns    map[int]*sim.Conn
}

// Receive hands a delivered message to Deliver.
func (e *External) Receive(w *sim.World, env *sim.Envelope) {
	if e.Deliver != nil {
		e.Deliver(env)
	}
}

// Timer hands a refused request to Disconnected.
func (e *External) Timer(w *sim.World, t *sim.Timer) {
	if t.Kind != sim.TimerDisconnected || e.Disconnected == nil {
		return
	}
	if env, ok := t.Data.(*sim.Envelope); ok {
		e.Disconnected(env)
	}
}

// AddExternal declares an external client's node.
func (c *Cluster) AddExternal(name string) (*External, error) {
	if err := c.checkClientName(name); err != nil {
		return nil, err
	}
	if c.Externals == nil {
		c.Externals = map[string]*External{}
	}
	id := c.World.Node(name)
	e := &External{Node: id, conns: map[int]*sim.Conn{}}
	c.Externals[name] = e
	c.World.AddNode(id, e)
	return e, nil
}

// SendExternal sends msg from an external client to a broker on the
// client's connection conn: what one connection carries arrives in
// order, as over TCP. It returns the message's id.
func (c *Cluster) SendExternal(from string, to sim.NodeID, conn int, msg protocol.Message) (int64, error) {
	e := c.Externals[from]
	if e == nil {
		return 0, fmt.Errorf("unknown external client %s", from)
	}
	if _, ok := broker.IDOf(to); !ok {
		return 0, fmt.Errorf("%s is not a broker: requests go to brokers", c.World.Name(to))
	}
	if conn < 1 || conn > MaxExternalConns {
		return 0, fmt.Errorf("conn must be between 1 and %d", MaxExternalConns)
	}
	if msg.IsResponse() {
		return 0, fmt.Errorf("an external client sends requests, not responses")
	}
	sc := e.conns[conn]
	if sc == nil {
		sc = &sim.Conn{}
		e.conns[conn] = sc
	}
	if c.World.StatusOf(e.Node) != sim.Up {
		return 0, fmt.Errorf("%s is %s", from, c.World.StatusOf(e.Node))
	}
	e.LastSent = c.World.SendOn(sc, e.Node, to, msg, 0)
	return e.LastSent, nil
}
