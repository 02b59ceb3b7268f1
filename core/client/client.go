// Package client holds the simulated Kafka clients: a producer that
// behaves like the Java client's TransactionManager and Sender
// (idempotent sequencing, the transactional state machine, which errors
// are fatal, abortable or retried) and a consumer (assign, poll, seek,
// commit; read_committed filtering done on the client side, as in
// CompletedFetch).
package client

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Metadata is the clients' view of the cluster: who leads a partition and
// which broker to ask first. Metadata propagation is instant in the
// simulation.
type Metadata interface {
	LeaderOf(tp protocol.TopicPartition) (sim.NodeID, bool)
	// Bootstrap returns the attempt-th live broker to ask for coordinators
	// (rotating on failures, like the least-loaded node).
	Bootstrap(attempt int) sim.NodeID
	// BrokerNode is the node of the broker a response names by id (a
	// FindCoordinator answer's NodeId).
	BrokerNode(id int32) sim.NodeID
	// PartitionCount is how many partitions a topic has (0: unknown), for
	// the group leader's assignor.
	PartitionCount(topic string) int32
	// TransactionVersion is the cluster's finalized transaction.version
	// feature (0 and 1 classic, 2 = KIP-890 part 2).
	TransactionVersion() int16
}

// CallKind names a client call.
type CallKind string

// Client calls, named after the scenario statements.
const (
	CallInit        CallKind = "init"
	CallBegin       CallKind = "begin"
	CallSend        CallKind = "send"
	CallSendOffsets CallKind = "send-offsets"
	CallCommit      CallKind = "commit"
	CallAbort       CallKind = "abort"
	CallClose       CallKind = "close"
	CallPoll        CallKind = "poll"
	CallAssign      CallKind = "assign"
	CallSeek        CallKind = "seek"
	CallCommitSync  CallKind = "commit-offsets"
	CallSubscribe   CallKind = "subscribe"
	CallUnsubscribe CallKind = "unsubscribe"
)

// Call is one client call: it starts, and later returns with a Result:
// success, a broker's error code, or a client exception.
type Call struct {
	ID     int
	Kind   CallKind
	Start  sim.Time
	End    sim.Time
	Done   bool
	Result Result
	// Detail is extra text for the trace ("3 records").
	Detail string
}

// calls is the bookkeeping shared by producers and consumers.
type calls struct {
	node  sim.NodeID
	list  []*Call
	count int
}

func (c *calls) start(w *sim.World, kind CallKind, text string) *Call {
	c.count++
	call := &Call{ID: c.count, Kind: kind, Start: w.Now()}
	c.list = append(c.list, call)
	w.Record(sim.Event{Kind: sim.KindCallStart, Node: c.node, Subject: string(kind), Text: text})
	return call
}

func (c *calls) finish(w *sim.World, call *Call, err Result, detail string) {
	c.finishWith(w, call, err, detail, nil)
}

// finishSaying returns a call with a detail in words: the note of code
// d and its arguments, which a page writes in its language.
func (c *calls) finishSaying(w *sim.World, call *Call, err Result, d sim.NoteCode, args ...string) {
	n := &sim.Note{Code: d, Args: args}
	c.finishWith(w, call, err, n.English(), n)
}

func (c *calls) finishWith(w *sim.World, call *Call, err Result, detail string, n *sim.Note) {
	if call == nil || call.Done {
		return
	}
	call.Done, call.Result, call.End, call.Detail = true, err, w.Now(), detail
	text := err.String()
	if detail != "" {
		text += " " + detail
	}
	w.Record(sim.Event{Kind: sim.KindCallEnd, Node: c.node, Subject: string(call.Kind), Text: text, Note: n, Error: err.Code, Exception: err.Exception})
}

// Last returns the most recent call, or nil.
func (c *calls) Last() *Call {
	if len(c.list) == 0 {
		return nil
	}
	return c.list[len(c.list)-1]
}

// LastCompleted returns the most recent call that has returned.
func (c *calls) LastCompleted() *Call {
	for i := len(c.list) - 1; i >= 0; i-- {
		if c.list[i].Done {
			return c.list[i]
		}
	}
	return nil
}

// Calls lists every call made so far.
func (c *calls) Calls() []*Call { return c.list }
