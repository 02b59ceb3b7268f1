//go:build !wasm

package kafkalistener

// The driver's side of a request: a new connection, the per-connection
// queue (one request in the simulation at a time, as a Kafka broker
// mutes a connection until it answers), ApiVersions, which the listener
// answers itself, and the injection of every other request as a request
// statement.

import (
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// maxQueued bounds the requests one connection may have waiting.
const maxQueued = 64

func (l *Listener) handle(r *request) {
	c := r.c
	if r.key == -1 && r.req == nil && r.closeWhy == "" { // accepted
		if len(l.conns) >= l.cfg.MaxConns {
			c.close()
			l.note("refused a connection to broker-%d: %d connections are open, the bound", c.broker, l.cfg.MaxConns)
			return
		}
		l.nextConn++
		c.id = l.nextConn
		l.conns[c] = true
		go c.writeLoop()
		go c.readLoop(l.cfg.MaxRequestBytes, l.vers, l.in)
		return
	}
	if !l.conns[c] {
		return
	}
	if r.closeWhy != "" {
		why := r.closeWhy
		if why == "closed by the client" {
			why = ""
		}
		if r.refused != "" {
			l.refuse(r, r.refused)
		}
		l.drop(c, why)
		return
	}
	if len(c.queue) >= maxQueued {
		l.drop(c, "more than "+strconv.Itoa(maxQueued)+" requests waiting on one connection")
		return
	}
	c.queue = append(c.queue, r)
	l.pump(c)
}

// pump serves a connection's next requests while none is in the
// simulation.
func (l *Listener) pump(c *conn) {
	for !c.busy && len(c.queue) > 0 && l.conns[c] {
		r := c.queue[0]
		c.queue = c.queue[1:]
		l.serve(r)
	}
}

func (l *Listener) respond(r *request, resp kmsg.Response) {
	resp.SetVersion(r.version)
	r.c.send(frame(r.corr, resp))
}

func (l *Listener) serve(r *request) {
	switch req := r.req.(type) {
	case *kmsg.ApiVersionsRequest:
		if req.ClientSoftwareName != "" {
			r.c.software = strings.Map(printable, req.ClientSoftwareName+" "+req.ClientSoftwareVersion)
			if len(r.c.software) > 64 {
				r.c.software = r.c.software[:64]
			}
		}
		resp := l.vers.apiVersions(req, l.tv)
		v := resp.Version
		resp.SetVersion(v)
		r.c.send(frame(r.corr, resp))
		return
	}
	if l.hold(r) {
		return
	}
	cl := &call{r: r}
	msg, local := l.translate(cl)
	if local != nil {
		l.respond(r, local)
		return
	}
	if msg == nil {
		return // answered or closed already
	}
	cl.msg = msg
	if f, ok := r.req.(*kmsg.FetchRequest); ok && !l.fetchReady(f, r.c.broker) {
		wait := min(int(f.MaxWaitMillis), maxParkMs)
		cl.deadline = time.Now().Add(time.Duration(max(wait, 0)) * time.Millisecond)
		l.parked = append(l.parked, cl)
		r.c.busy = true
		return
	}
	l.inject(cl)
}

// fetchReady: a Fetch enters the simulation once a partition it reads
// has something to return (or an error), or its MaxWait is over; until
// then it waits here, reading the cluster's state without changing it,
// as Kafka's DelayedFetch waits in the broker (docs/kafka-fidelity.md).
func (l *Listener) fetchReady(f *kmsg.FetchRequest, broker int) bool {
	if f.MinBytes <= 0 {
		return true
	}
	for _, t := range f.Topics {
		for _, p := range t.Partitions {
			facts, ok := l.c.PartitionFacts(protocol.TopicPartition{Topic: t.Topic, Partition: p.Partition})
			if !ok || int(facts.Leader) != broker {
				return true
			}
			limit := facts.HW
			if f.IsolationLevel == 1 {
				limit = facts.LSO
			}
			if p.FetchOffset < limit || p.FetchOffset > facts.LogEnd {
				return true
			}
		}
	}
	return false
}

func (l *Listener) serveParked() {
	now := time.Now()
	kept := l.parked[:0]
	var ready []*call
	for _, p := range l.parked {
		if !l.conns[p.r.c] {
			continue
		}
		if now.After(p.deadline) || l.fetchReady(p.r.req.(*kmsg.FetchRequest), p.r.c.broker) {
			ready = append(ready, p)
			continue
		}
		kept = append(kept, p)
	}
	l.parked = kept
	for _, p := range ready {
		p.r.c.busy = false
		l.inject(p)
		l.dirty = append(l.dirty, p.r.c)
	}
}

// inject sends a request into the simulation as a request statement,
// recorded, from the connection's client node.
func (l *Listener) inject(cl *call) {
	r := cl.r
	cs := l.client(r)
	if cs == nil {
		return
	}
	if r.c.simConn == 0 {
		if cs.nextConn >= cluster.MaxExternalConns {
			l.drop(r.c, "the client opened "+strconv.Itoa(cluster.MaxExternalConns)+" connections, the bound")
			return
		}
		cs.nextConn++
		r.c.simConn, r.c.client = cs.nextConn, cs.name
	}
	st := &scenario.ExternalRequestStmt{From: cs.name, To: r.c.broker, Conn: r.c.simConn, Version: r.version,
		Msg: cl.msg, Background: true}
	if err := l.apply(st.String()); err != nil {
		if p, ok := r.req.(*kmsg.ProduceRequest); ok {
			l.note("answered a Produce from %s with MESSAGE_TOO_LARGE: %v", cs.name, err)
			l.respond(r, produceError(p, errMessageTooLarge))
			return
		}
		l.drop(r.c, "its "+apiName(r.key)+" could not be sent: "+err.Error())
		return
	}
	if p, ok := r.req.(*kmsg.ProduceRequest); ok && p.Acks == 0 {
		return // no response: the connection is free at once
	}
	l.calls[cs.ext.LastSent] = cl
	r.c.busy = true
}

// client is the simulated node of a request's client.id, declared (and
// recorded) at its first request that enters the simulation.
func (l *Listener) client(r *request) *clientState {
	if cs := l.clients[r.clientID]; cs != nil {
		return cs
	}
	if base := clientBase(r.clientID); l.c.Externals[base] != nil && !l.claimed(base) {
		// The setup script declared this client (client NAME) so that
		// its rules (delay Produce from=NAME, isolate NAME) are in place
		// before it connects: its node is the client's.
		cs := &clientState{name: base, ext: l.c.Externals[base], software: r.c.software}
		l.hook(cs.ext)
		l.clients[r.clientID] = cs
		return cs
	}
	name := l.nodeName(r.clientID)
	if name == "" {
		l.drop(r.c, "no node name is left for client.id "+strconv.Quote(r.clientID))
		return nil
	}
	st := &scenario.ClientStmt{Name: name, Software: r.c.software}
	line := st.String()
	if err := l.apply(line); err != nil {
		l.drop(r.c, "client "+name+": "+err.Error())
		return nil
	}
	cs := &clientState{name: name, ext: l.c.Externals[name], software: r.c.software}
	l.hook(cs.ext)
	l.clients[r.clientID] = cs
	return cs
}

// nodeName turns a client.id into a node name the language accepts:
// lowercase letters, digits, '_' and '-', starting with a letter, not a
// keyword or a name already taken.
func (l *Listener) nodeName(id string) string {
	base := clientBase(id)
	for i := 0; i < 100; i++ {
		cand := base
		switch {
		case i == 1:
			cand = "ext-" + base
		case i > 1:
			cand = base + "-" + strconv.Itoa(i)
		}
		if _, err := scenario.ParseLine("client "+cand, 1, l.sess.Script.Decls.Clone()); err == nil {
			return cand
		}
	}
	return ""
}

// claimed reports whether a client.id already has the node name.
func (l *Listener) claimed(name string) bool {
	for _, cs := range l.clients {
		if cs.name == name {
			return true
		}
	}
	return false
}

// clientBase is a client.id as a node name: lowercase letters, digits,
// '_' and '-', starting with a letter, at most about 32 characters.
func clientBase(id string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(id) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		if b.Len() >= 32 {
			break
		}
	}
	base := b.String()
	if base == "" || base[0] < 'a' || base[0] > 'z' {
		base = "client-" + base
	}
	return base
}

func (l *Listener) hook(e *cluster.External) {
	e.Deliver = l.deliver
	e.Disconnected = l.disconnected
}

// deliver answers the connection whose request a simulated response
// answers. It runs inside an event: it only writes bytes out and marks
// the connection free; its next request enters after the advance.
func (l *Listener) deliver(env *sim.Envelope) {
	cl := l.calls[env.ReplyTo]
	if cl == nil {
		return
	}
	delete(l.calls, env.ReplyTo)
	c := cl.r.c
	c.busy = false
	if !l.conns[c] {
		return
	}
	if resp := l.translateResponse(cl, env.Msg); resp != nil {
		l.respond(cl.r, resp)
	}
	l.dirty = append(l.dirty, c)
}

// disconnected closes the connection whose request found its broker
// down: the client sees the connection refused, as from a dead broker.
func (l *Listener) disconnected(env *sim.Envelope) {
	cl := l.calls[env.ID]
	if cl == nil {
		return
	}
	delete(l.calls, env.ID)
	l.drop(cl.r.c, "")
}

func strPtr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// validTopic is Kafka's legal topic name, without the internal prefix.
func validTopic(s string) bool {
	if s == "" || len(s) > 249 || s == "." || s == ".." || strings.HasPrefix(s, "__") {
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

func (l *Listener) hostPort(id int32) (string, int32) {
	if id < 0 || int(id) >= len(l.addrs) {
		return "", -1
	}
	host, port, _ := net.SplitHostPort(l.addrs[id])
	n, _ := strconv.Atoi(port)
	return host, int32(n)
}

// refuse notes a request refused at the wire on its client's lifeline,
// as a recorded refused statement, so the diagram shows what the client
// was told where its requests are. A request without a client id, or of
// an API the language does not name, has only the operator's note.
func (l *Listener) refuse(r *request, errName string) {
	if _, ok := protocol.APIByName(apiName(r.key)); !ok || r.clientID == "" || !l.conns[r.c] {
		return
	}
	cs := l.client(r)
	if cs == nil {
		return
	}
	st := &scenario.RefusedStmt{API: protocol.APIKey(r.key), From: cs.name, To: r.c.broker, Error: errName}
	if err := l.apply(st.String()); err != nil {
		l.note("could not note the refused %s from %s: %v", apiName(r.key), cs.name, err)
	}
}
