//go:build !wasm

// Package kafkalistener serves Kafka's wire protocol from a simulated
// cluster, so that a real client (franz-go, librdkafka, KafkaJS, Java)
// runs its transactions against txnlab's brokers and coordinators. Each
// simulated broker listens on its own TCP port; each client is one
// simulated node named by its client.id. One goroutine owns the cluster
// and runs virtual time 1:1 with the wall clock; requests enter the
// simulation only between clock advances, as request statements, and the
// session is recorded as the script of those statements, which `txnlab
// run` replays to the same trace. It is native only: the playground's
// wasm never links it.
package kafkalistener

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"txnlab/core/broker"
	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// Config is where and how a listener serves.
type Config struct {
	// Host is the address the brokers listen on and advertise
	// ("127.0.0.1": loopback).
	Host string
	// BasePort is broker-0's port; broker-i listens on BasePort+i. 0
	// picks free ports (tests).
	BasePort int
	// Log receives what an operator should know: connections refused,
	// bad input, bounds reached. Nil discards it.
	Log io.Writer
	// Record receives the session as a script, line by line. Nil
	// discards it (Recording still returns it).
	Record io.Writer
	// MaxConns bounds the open connections (default 256).
	MaxConns int
	// MaxRequestBytes bounds one request (default 1 MiB).
	MaxRequestBytes int
	// AutoCreatePartitions is the partitions of a topic a client names
	// before it exists (Kafka's num.partitions; default 1).
	AutoCreatePartitions int
}

// Defaults.
const (
	DefaultMaxConns        = 256
	DefaultMaxRequestBytes = 1 << 20
	// maxParkMs bounds how long a Fetch waits outside the simulation.
	maxParkMs = 30_000
	// maxNotes bounds the comment lines bad input may add to the
	// recording; past it only the log hears of it.
	maxNotes = 200
)

// Listener is a running Kafka listener over one scenario session.
type Listener struct {
	cfg  Config
	sess *scenario.Session
	c    *cluster.Cluster
	vers versions
	tv   int16

	in      chan *request
	console chan consoleLine
	recReq  chan chan string
	funcs   chan func()
	wake    chan struct{}
	stopped chan struct{}
	ctx     context.Context
	cancel  context.CancelFunc

	// Owned by the driver goroutine:
	ports    []net.Listener // nil while its broker is down
	addrs    []string       // host:port each broker is reached at
	conns    map[*conn]bool
	nextConn int
	clients  map[string]*clientState // by client.id
	calls    map[int64]*call         // simulated requests awaiting their response, by message id
	parked   []*call                 // fetches waiting for data
	dirty    []*conn                 // connections a response freed, to serve next
	groups   groupBytes
	start    time.Time
	v0       sim.Time
	epochMs  int64
	recorded strings.Builder
	// followers read the recording as it is written (follow.go).
	followers map[chan string]bool
	lines     int
	notes     int
	brk       breakpoint
	lastAt    sim.Time // virtual time the recording has reached
	full      bool     // the recording reached the script's bounds
	broken    error
}

// clientState is one client.id's simulated node.
type clientState struct {
	name     string // node name
	ext      *cluster.External
	nextConn int
	software string
}

// call is a request inside the simulation, or parked before it.
type call struct {
	r        *request
	deadline time.Time // parked fetches
	msg      protocol.Message
	// local holds the partitions the listener answers itself (a
	// corrupt batch, an unknown topic), merged into the response.
	local map[protocol.TopicPartition]int16
}

type consoleLine struct {
	text  string
	reply chan error
}

// New prepares a listener over a session that has run its setup script
// (src is that script's text, the start of the recording).
func New(cfg Config, sess *scenario.Session, src string) (*Listener, error) {
	if sess.Cluster == nil {
		return nil, errors.New("the script made no cluster")
	}
	if sess.Err != nil {
		return nil, sess.Err
	}
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.MaxRequestBytes <= 0 {
		cfg.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if cfg.AutoCreatePartitions <= 0 {
		cfg.AutoCreatePartitions = 1
	}
	c := sess.Cluster
	tv := c.BrokerCfg.TransactionVersion
	l := &Listener{cfg: cfg, sess: sess, c: c, vers: servedVersions(tv >= 2), tv: tv,
		in: make(chan *request, 256), console: make(chan consoleLine), recReq: make(chan chan string), funcs: make(chan func()), wake: make(chan struct{}, 1),
		stopped: make(chan struct{}), conns: map[*conn]bool{}, clients: map[string]*clientState{},
		calls: map[int64]*call{}, groups: groupBytes{}, brk: breakpoint{key: -1}}
	l.ports = make([]net.Listener, len(c.Brokers))
	l.addrs = make([]string, len(c.Brokers))
	for i := range c.Brokers {
		port := 0
		if cfg.BasePort > 0 {
			port = cfg.BasePort + i
		}
		ln, err := net.Listen("tcp", net.JoinHostPort(cfg.Host, strconv.Itoa(port)))
		if err != nil {
			l.closePorts()
			return nil, fmt.Errorf("broker-%d cannot listen: %v", i, err)
		}
		l.ports[i] = ln
		l.addrs[i] = ln.Addr().String()
	}
	if !strings.HasSuffix(src, "\n") && src != "" {
		src += "\n"
	}
	l.write(src)
	l.lines = strings.Count(src, "\n")
	l.v0 = c.World.Now()
	l.lastAt = l.v0
	return l, nil
}

// Addrs is where each broker listens, broker-0 first: a client's
// bootstrap servers.
func (l *Listener) Addrs() []string { return append([]string(nil), l.addrs...) }

// Run serves until ctx ends, then records the final clock and closes
// every connection. It returns why it stopped early, if it did.
func (l *Listener) Run(ctx context.Context) error {
	l.ctx, l.cancel = context.WithCancel(ctx)
	defer close(l.stopped)
	l.start = time.Now()
	l.epochMs = l.start.UnixMilli() - int64(l.v0)
	for i, ln := range l.ports {
		if ln != nil {
			go l.accept(i, ln)
		}
	}
	for _, e := range l.c.Externals {
		l.hook(e)
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		l.advance()
		l.syncPorts()
		l.serveParked()
		for len(l.dirty) > 0 {
			c := l.dirty[0]
			l.dirty = l.dirty[1:]
			l.pump(c)
		}
		if l.broken != nil {
			l.shutdown()
			return l.broken
		}
		timer.Reset(l.sleep())
		select {
		case <-l.ctx.Done():
			l.advance()
			l.shutdown()
			return nil
		case r := <-l.in:
			l.advance()
			l.handle(r)
			// Take what else arrived at once, at this same moment.
			for n := 0; n < 64; n++ {
				select {
				case r := <-l.in:
					l.handle(r)
					continue
				default:
				}
				break
			}
		case cl := <-l.console:
			l.advance()
			cl.reply <- l.applyConsole(cl.text)
		case f := <-l.funcs:
			f()
		case reply := <-l.recReq:
			reply <- l.recorded.String()
		case <-l.wake:
		case <-timer.C:
		}
	}
}

// Statement applies one statement typed at a console (crash broker-0,
// isolate broker-1, …) at the current moment, and records it.
func (l *Listener) Statement(text string) error {
	reply := make(chan error, 1)
	select {
	case l.console <- consoleLine{text, reply}:
		return <-reply
	case <-l.stopped:
		return errors.New("the listener has stopped")
	}
}

// Digest is the live trace's digest, once Run has returned: what the
// recording's replay gives.
func (l *Listener) Digest() string {
	<-l.stopped
	return l.c.World.Trace.Digest()
}

// run runs f on the driver, which owns the cluster (tests read it so).
func (l *Listener) run(f func()) {
	select {
	case l.funcs <- f:
	case <-l.stopped:
		f()
	}
}

// Recording is the session so far as a script: the setup script, then
// what happened since, to the current moment once Run has returned.
func (l *Listener) Recording() string {
	reply := make(chan string, 1)
	select {
	case l.recReq <- reply:
		return <-reply
	case <-l.stopped:
		return l.recorded.String()
	}
}

// now is the virtual time the wall clock has reached.
func (l *Listener) now() sim.Time {
	return l.v0 + sim.Time(time.Since(l.start).Milliseconds())
}

// advance runs the simulation up to the wall clock's moment.
func (l *Listener) advance() {
	w := l.c.World
	if t := l.now(); t > w.Now() {
		if _, ok := w.AdvanceTo(t, cluster.MaxStepsPerStatement); !ok {
			l.broken = fmt.Errorf("the simulation ran %d events without reaching %s: stopping", cluster.MaxStepsPerStatement, t.Human())
		}
	}
	if w.Trace.Len() > scenario.DefaultMaxEvents && l.broken == nil {
		l.broken = fmt.Errorf("the trace passed %d events (its bound): stopping; the recording holds the session", scenario.DefaultMaxEvents)
	}
}

// sleep is how long the driver may wait before something is due: the
// next simulated event or a parked fetch's deadline.
func (l *Listener) sleep() time.Duration {
	d := time.Second
	if next, ok := l.c.World.Peek(); ok {
		at := time.Duration(next.At-l.now()) * time.Millisecond
		d = min(d, max(at, 0))
	}
	for _, p := range l.parked {
		d = min(d, max(time.Until(p.deadline), 0))
	}
	return max(d, 200*time.Microsecond)
}

// accept takes a broker's connections until its port closes.
func (l *Listener) accept(broker int, ln net.Listener) {
	for {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		c := &conn{broker: broker, nc: nc, out: make(chan []byte, 64), closed: make(chan struct{})}
		select {
		case l.in <- &request{c: c, key: -1}:
		case <-l.stopped:
			nc.Close()
			return
		}
	}
}

// note tells the operator, and the recording as a comment while it has
// room.
func (l *Listener) note(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if l.cfg.Log != nil {
		fmt.Fprintf(l.cfg.Log, "kafka listener %s: %s\n", l.c.World.Now().Human(), msg)
	}
	if l.notes < maxNotes && !l.full {
		l.notes++
		l.recordLine("# listener: " + strings.Map(printable, msg))
	}
}

func printable(r rune) rune {
	if r < 0x20 || r == 0x7f || r == utf8.RuneError {
		return '?'
	}
	return r
}

func (l *Listener) write(s string) {
	l.recorded.WriteString(s)
	if l.cfg.Record != nil {
		io.WriteString(l.cfg.Record, s)
	}
	l.tellFollowers(s)
}

// recordLine appends one line to the recording, cut to the line bound.
func (l *Listener) recordLine(s string) {
	if utf8.RuneCountInString(s) > scenario.MaxLineLength {
		s = string([]rune(s)[:scenario.MaxLineLength])
	}
	l.write(s + "\n")
	l.lines++
	if l.lines >= scenario.MaxLines-10 {
		l.full = true
	}
}

// flushAdvance records the virtual time passed since the last recorded
// line: the replay's `advance` fires the same events up to the same
// moment (the driver ran them with AdvanceTo, as advance does).
func (l *Listener) flushAdvance() {
	if d := l.c.World.Now() - l.lastAt; d > 0 {
		l.recordLine("advance " + strconv.FormatInt(int64(d), 10) + "ms")
	}
	l.lastAt = l.c.World.Now()
}

// apply parses one statement at the current moment, runs it to its end
// and records it; a statement that fails is not recorded and, as the
// language promises of a statement that cannot apply, changed nothing.
func (l *Listener) apply(text string) error {
	if l.full {
		return fmt.Errorf("the recording reached %d lines, the bound on a script: start a new session", scenario.MaxLines)
	}
	if utf8.RuneCountInString(text) > scenario.MaxLineLength {
		return fmt.Errorf("the statement is longer than %d characters, the bound on a script's line", scenario.MaxLineLength)
	}
	st, err := scenario.ParseLine(text, l.lines+2, l.sess.Script.Decls)
	if err != nil {
		return err
	}
	if st == nil {
		return nil
	}
	l.flushAdvance()
	l.sess.Script.Statements = append(l.sess.Script.Statements, st)
	for !l.sess.Done() {
		l.sess.Step()
	}
	if e := l.sess.Err; e != nil {
		l.sess.Err = nil
		return e
	}
	l.recordLine(text)
	l.lastAt = l.c.World.Now()
	return nil
}

func (l *Listener) applyConsole(text string) error {
	text = strings.TrimSpace(text)
	if strings.HasPrefix(text, "client ") || strings.HasPrefix(text, "request ") {
		return errors.New("client and request statements come from the clients themselves")
	}
	err := l.apply(text)
	l.syncPorts()
	return err
}

// syncPorts closes the port of a crashed broker (its clients get
// connection refused, as from a dead process) and opens it again once
// the broker restarts. A paused broker keeps its port: the simulation
// holds what is sent to it.
func (l *Listener) syncPorts() {
	for i := range l.ports {
		up := l.c.World.StatusOf(broker.NodeID(int32(i))) != sim.Crashed
		switch {
		case !up && l.ports[i] != nil:
			l.ports[i].Close()
			l.ports[i] = nil
			for c := range l.conns {
				if c.broker == i {
					l.drop(c, "")
				}
			}
		case up && l.ports[i] == nil:
			ln, err := net.Listen("tcp", l.addrs[i])
			if err != nil {
				continue // tried again at the next turn
			}
			l.ports[i] = ln
			go l.accept(i, ln)
		}
	}
}

// drop closes a connection and forgets it.
func (l *Listener) drop(c *conn, why string) {
	if !l.conns[c] {
		c.close()
		return
	}
	delete(l.conns, c)
	c.close()
	l.dropHeld(c)
	if why != "" {
		l.note("closed connection %d to broker-%d (%s): %s", c.id, c.broker, orUnknown(c.client), why)
	}
	kept := l.parked[:0]
	for _, p := range l.parked {
		if p.r.c != c {
			kept = append(kept, p)
		}
	}
	l.parked = kept
}

func orUnknown(s string) string {
	if s == "" {
		return "no client yet"
	}
	return s
}

// shutdown records the final moment and closes everything.
func (l *Listener) shutdown() {
	l.flushAdvance()
	l.closePorts()
	for c := range l.conns {
		c.close()
	}
	// Connections accepted but not yet taken: closed too.
	for {
		select {
		case r := <-l.in:
			r.c.close()
			continue
		default:
		}
		break
	}
	if l.cancel != nil {
		l.cancel()
	}
	l.endFollowers()
}

func (l *Listener) closePorts() {
	for i, ln := range l.ports {
		if ln != nil {
			ln.Close()
			l.ports[i] = nil
		}
	}
}
