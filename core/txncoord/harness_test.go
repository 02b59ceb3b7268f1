package txncoord

import (
	"fmt"
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The coordinator is driven through a fake Host in a real sim.World:
// "broker-0" carries the coordinator, "broker-1" leads every data
// partition and answers WriteTxnMarkers, "client" sends requests and
// keeps the answers. __transaction_state appends complete at once
// (a single in-sync replica), unless the test makes them fail.

// The harness world names broker-0, broker-1 and client first, in order.
const (
	coordNode  sim.NodeID = 1 // broker-0
	leaderNode sim.NodeID = 2 // broker-1
	clientNode sim.NodeID = 3 // client
	testPid    int64      = 1000
	coordEpoch int32      = 3
	txnPart    int32      = 0 // every id maps here
	groupPart  int32      = 7 // every group maps here
)

var (
	ordersP0 = protocol.TopicPartition{Topic: "orders", Partition: 0}
	ordersP1 = protocol.TopicPartition{Topic: "orders", Partition: 1}
	offsetsP = protocol.TopicPartition{Topic: protocol.ConsumerOffsetsTopic, Partition: groupPart}
	unknownP = protocol.TopicPartition{Topic: "unknown", Partition: 0}
)

type fakeHost struct {
	nextPid   int64
	appendErr protocol.ErrorCode
	// writes are the __transaction_state values appended (nil: a tombstone).
	writes []*protocol.TransactionLogValue
	log    *partition.Log
}

func (h *fakeHost) BrokerNode() sim.NodeID { return coordNode }
func (h *fakeHost) LeaderOf(tp protocol.TopicPartition) (sim.NodeID, int32, bool) {
	if tp.Topic == protocol.TransactionStateTopic {
		return coordNode, coordEpoch, true
	}
	return leaderNode, 0, true
}
func (h *fakeHost) TxnPartitionFor(string) int32   { return txnPart }
func (h *fakeHost) GroupPartitionFor(string) int32 { return groupPart }
func (h *fakeHost) AllocateProducerId() int64 {
	h.nextPid++
	return h.nextPid
}
func (h *fakeHost) PartitionExists(tp protocol.TopicPartition) bool { return tp.Topic != "unknown" }
func (h *fakeHost) ReplicaLog(protocol.TopicPartition) *partition.Log {
	return h.log
}
func (h *fakeHost) AppendInternal(w *sim.World, tp protocol.TopicPartition, b protocol.RecordBatch, _ sim.Time, done func(w *sim.World, base int64, err protocol.ErrorCode)) {
	if h.appendErr != protocol.NONE {
		done(w, -1, h.appendErr)
		return
	}
	for _, r := range b.Records {
		h.writes = append(h.writes, r.TxnLog)
	}
	res := h.log.AppendAsLeader(b, 0, int64(w.Now()), partition.AllChecks)
	h.log.SetHighWatermark(h.log.LogEndOffset())
	done(w, res.BaseOffset, protocol.NONE)
}

// coordNodeHandler is broker-0: it hands requests to the coordinator.
type coordNodeHandler struct{ c *Coordinator }

func (n *coordNodeHandler) Receive(w *sim.World, env *sim.Envelope) {
	if m, ok := env.Msg.(*protocol.WriteTxnMarkersResponse); ok {
		n.c.HandleMarkersResponse(w, env, m)
		return
	}
	n.c.Handle(w, env)
}

// Busy keeps a run going while markers are outstanding, as the broker does.
func (n *coordNodeHandler) Busy() bool { return n.c.Busy() }

func (n *coordNodeHandler) Timer(w *sim.World, t *sim.Timer) {
	if t.Kind == sim.TimerDisconnected {
		n.c.Disconnected(w, t.Data.(*sim.Envelope).ID)
		return
	}
	n.c.Timer(w, t)
}

// leaderHandler is broker-1: it answers every marker with markerErr
// (NONE by default) and remembers the markers it got.
type leaderHandler struct {
	markers   []protocol.WritableTxnMarker
	markerErr protocol.ErrorCode
	silent    bool
}

func (n *leaderHandler) Receive(w *sim.World, env *sim.Envelope) {
	m, ok := env.Msg.(*protocol.WriteTxnMarkersRequest)
	if !ok || n.silent {
		return
	}
	resp := &protocol.WriteTxnMarkersResponse{}
	for _, mk := range m.Markers {
		n.markers = append(n.markers, mk)
		r := protocol.WritableTxnMarkerResult{ProducerId: mk.ProducerId}
		for _, tp := range mk.Partitions {
			r.Partitions = append(r.Partitions, protocol.PartitionError{TopicPartition: tp, ErrorCode: n.markerErr})
		}
		resp.Markers = append(resp.Markers, r)
	}
	w.Send(env.To, env.From, resp, env.ID)
}

func (n *leaderHandler) Timer(*sim.World, *sim.Timer) {}

// clientHandler keeps every response by the request it answers.
type clientHandler struct{ answers map[int64]protocol.Message }

func (n *clientHandler) Receive(w *sim.World, env *sim.Envelope) { n.answers[env.ReplyTo] = env.Msg }
func (n *clientHandler) Timer(*sim.World, *sim.Timer)            {}

type harness struct {
	t      *testing.T
	w      *sim.World
	host   *fakeHost
	c      *Coordinator
	leader *leaderHandler
	client *clientHandler
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	w := sim.NewWorld(1)
	w.Net.MinLatency, w.Net.MaxLatency = 1, 1
	host := &fakeHost{nextPid: 4999, log: partition.NewLog(txnTP(txnPart))}
	cfg := DefaultConfig()
	c := New(host, &cfg)
	h := &harness{t: t, w: w, host: host, c: c, leader: &leaderHandler{}, client: &clientHandler{answers: map[int64]protocol.Message{}}}
	for i, name := range []string{"broker-0", "broker-1", "client"} {
		if w.Node(name) != sim.NodeID(i+1) {
			panic("harness: " + name + " got another code")
		}
	}
	w.AddNode(coordNode, &coordNodeHandler{c})
	w.AddNode(leaderNode, h.leader)
	w.AddNode(clientNode, h.client)
	c.cache[txnPart] = &cacheEntry{coordinatorEpoch: coordEpoch, txns: map[string]*TransactionMetadata{}}
	w.AdvanceTo(1000, 10) // a clock that is not zero, to see timestamps move
	return h
}

// meta is metadata for "t" in state at epoch, as it would have been
// loaded: lastProducerEpoch -1, started at 500 if partitions are given.
func meta(state protocol.TransactionState, epoch int16, parts ...protocol.TopicPartition) *TransactionMetadata {
	md := &TransactionMetadata{TransactionalId: "t", ProducerId: testPid, PrevProducerId: protocol.NoProducerId,
		ProducerEpoch: epoch, LastProducerEpoch: protocol.NoProducerEpoch, TxnTimeoutMs: 60000, State: state,
		Partitions: parts, TxnStartTimestamp: -1, TxnLastUpdateTimestamp: 500}
	if len(parts) > 0 {
		md.TxnStartTimestamp = 500
	}
	return md
}

func (h *harness) put(md *TransactionMetadata) *TransactionMetadata {
	h.c.cache[txnPart].txns[md.TransactionalId] = md
	// Installing metadata by hand skips the transitions that arm the
	// timeout scan; arm it as a load would.
	h.c.maybeScheduleTimeoutScan(h.w)
	return md
}

func (h *harness) get(id string) *TransactionMetadata {
	if e := h.c.cache[txnPart]; e != nil {
		return e.txns[id]
	}
	return nil
}

// do sends a request from the client and runs until its answer arrives.
func (h *harness) do(req protocol.Message) protocol.Message {
	h.t.Helper()
	id := h.w.Send(clientNode, coordNode, req, 0)
	for i := 0; i < 100000; i++ {
		if a, ok := h.client.answers[id]; ok {
			return a
		}
		if !h.w.Step() {
			break
		}
	}
	h.t.Fatalf("no answer to %s", req.Summary())
	return nil
}

// settle runs until nothing is outstanding (markers written, Complete*
// persisted), bounded in virtual time.
func (h *harness) settle() {
	h.t.Helper()
	limit := h.w.Now() + 10*sim.Minute
	for !h.w.Idle() {
		p, ok := h.w.Peek()
		if !ok || p.At > limit {
			h.t.Fatalf("the coordinator did not settle: busy=%v", h.c.Busy())
		}
		h.w.Step()
	}
}

// states renders the states written to __transaction_state since the
// given count.
func (h *harness) writtenSince(n int) []string {
	var out []string
	for _, v := range h.host.writes[n:] {
		if v == nil {
			out = append(out, "tombstone")
			continue
		}
		out = append(out, fmt.Sprintf("%v/e%d", v.TransactionStatus, v.ProducerEpoch))
	}
	return out
}

func endTxn(epoch int16, commit bool) *protocol.EndTxnRequest {
	return &protocol.EndTxnRequest{TransactionalId: "t", ProducerId: testPid, ProducerEpoch: epoch, Committed: commit}
}

func addParts(epoch int16, tps ...protocol.TopicPartition) *protocol.AddPartitionsToTxnRequest {
	return &protocol.AddPartitionsToTxnRequest{TransactionalId: "t", ProducerId: testPid, ProducerEpoch: epoch, Partitions: tps}
}

func initPid(pid int64, epoch int16) *protocol.InitProducerIdRequest {
	return &protocol.InitProducerIdRequest{TransactionalId: "t", TransactionTimeoutMs: 60000, ProducerId: pid, ProducerEpoch: epoch}
}

func errOf(m protocol.Message) protocol.ErrorCode {
	switch m := m.(type) {
	case *protocol.AddPartitionsToTxnResponse:
		// every partition carries the same code unless the topic check failed
		if len(m.Results) > 0 {
			return m.Results[0].ErrorCode
		}
	}
	return protocol.Error(m)
}

func eq[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
