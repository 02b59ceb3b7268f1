package client

import (
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// A producer against one scripted broker, which is every coordinator and
// every leader: it answers each request with NONE, or with the error the
// test sets for that API. This reaches answers no simulated coordinator
// gives (an error the Java client does not expect), to check how the
// client classifies them.

type scriptedBroker struct {
	errs map[protocol.APIKey]protocol.ErrorCode
}

func (b *scriptedBroker) Receive(w *sim.World, env *sim.Envelope) {
	var resp protocol.Message
	switch m := env.Msg.(type) {
	case *protocol.FindCoordinatorRequest:
		resp = &protocol.FindCoordinatorResponse{Key: m.Key, NodeId: 0}
	case *protocol.InitProducerIdRequest:
		resp = &protocol.InitProducerIdResponse{ErrorCode: b.errs[m.APIKey()], ProducerId: 1000, ProducerEpoch: 0}
	case *protocol.AddOffsetsToTxnRequest:
		resp = &protocol.AddOffsetsToTxnResponse{ErrorCode: b.errs[m.APIKey()]}
	case *protocol.TxnOffsetCommitRequest:
		r := &protocol.TxnOffsetCommitResponse{}
		for _, o := range m.Offsets {
			r.Results = append(r.Results, protocol.PartitionError{TopicPartition: o.TopicPartition, ErrorCode: b.errs[m.APIKey()]})
		}
		resp = r
	case *protocol.EndTxnRequest:
		resp = &protocol.EndTxnResponse{ErrorCode: b.errs[m.APIKey()]}
	default:
		return
	}
	w.Send(env.To, env.From, resp, env.ID)
}

func (b *scriptedBroker) Timer(*sim.World, *sim.Timer) {}

type scriptedMeta struct{ broker sim.NodeID }

func (m scriptedMeta) LeaderOf(protocol.TopicPartition) (sim.NodeID, bool) { return m.broker, true }
func (m scriptedMeta) Bootstrap(int) sim.NodeID                            { return m.broker }
func (m scriptedMeta) BrokerNode(int32) sim.NodeID                         { return m.broker }
func (m scriptedMeta) PartitionCount(string) int32                         { return 1 }
func (m scriptedMeta) TransactionVersion() int16                           { return 0 }

type scripted struct {
	t      *testing.T
	w      *sim.World
	broker *scriptedBroker
	p      *Producer
}

func newScripted(t *testing.T) *scripted {
	w := sim.NewWorld(1)
	w.Net.MinLatency, w.Net.MaxLatency = 1, 1
	bn, pn := w.Node("broker-0"), w.Node("p")
	b := &scriptedBroker{errs: map[protocol.APIKey]protocol.ErrorCode{}}
	cfg := DefaultProducerConfig()
	cfg.TransactionalId = "tx"
	p := NewProducer(pn, cfg, scriptedMeta{bn})
	w.AddNode(bn, b)
	w.AddNode(pn, p)
	return &scripted{t: t, w: w, broker: b, p: p}
}

// call runs until the call returns (bounded in virtual time).
func (s *scripted) call(c *Call) *Call {
	s.t.Helper()
	limit := s.w.Now() + 10*sim.Second
	for !c.Done {
		if p, ok := s.w.Peek(); !ok || p.At > limit {
			s.t.Fatalf("%s did not return; producer in %s", c.Kind, s.p.State)
		}
		s.w.Step()
	}
	return c
}

var offsetsG = []protocol.OffsetEntry{{TopicPartition: protocol.TopicPartition{Topic: "in", Partition: 0}, CommittedOffset: 1}}

// TestUnexpectedCoordinatorErrorsAreFatal: Kafka 3.5's EndTxnHandler,
// AddOffsetsToTxnHandler and TxnOffsetCommitHandler make an error they do
// not list fatal ("Unhandled error in EndTxnResponse", "Unexpected error
// in …"), where AddPartitionsToTxnHandler makes it abortable. And
// TxnOffsetCommit's INVALID_PRODUCER_EPOCH is fatal as itself
// (isFatalException), not turned into PRODUCER_FENCED as the other
// handlers do. docs/kafka-fidelity.md §11 D6.
func TestUnexpectedCoordinatorErrorsAreFatal(t *testing.T) {
	tests := []struct {
		name string
		api  protocol.APIKey
		err  protocol.ErrorCode
		want protocol.ErrorCode // the error the producer keeps, and fails with
	}{
		{"EndTxn, unexpected", protocol.EndTxn, protocol.UNKNOWN_SERVER_ERROR, protocol.UNKNOWN_SERVER_ERROR},
		{"AddOffsetsToTxn, unexpected", protocol.AddOffsetsToTxn, protocol.UNKNOWN_SERVER_ERROR, protocol.UNKNOWN_SERVER_ERROR},
		{"TxnOffsetCommit, unexpected", protocol.TxnOffsetCommit, protocol.UNKNOWN_SERVER_ERROR, protocol.UNKNOWN_SERVER_ERROR},
		// Retriable, but not one the handler lists (it retries only an
		// unknown partition and a loading or moved coordinator).
		{"TxnOffsetCommit, unexpected retriable", protocol.TxnOffsetCommit, protocol.CONCURRENT_TRANSACTIONS, protocol.CONCURRENT_TRANSACTIONS},
		{"TxnOffsetCommit, INVALID_PRODUCER_EPOCH", protocol.TxnOffsetCommit, protocol.INVALID_PRODUCER_EPOCH, protocol.INVALID_PRODUCER_EPOCH},
		{"EndTxn, INVALID_PRODUCER_EPOCH", protocol.EndTxn, protocol.INVALID_PRODUCER_EPOCH, protocol.PRODUCER_FENCED},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newScripted(t)
			if c := s.call(s.p.Init(s.w)); !c.Result.OK() {
				t.Fatalf("init: %s", c.Result)
			}
			s.call(s.p.Begin(s.w))
			s.broker.errs[tc.api] = tc.err
			c := s.call(s.p.SendOffsets(s.w, "g", offsetsG))
			if tc.api == protocol.EndTxn {
				if !c.Result.OK() {
					t.Fatalf("send-offsets: %s", c.Result)
				}
				c = s.call(s.p.Commit(s.w))
			}
			if c.Result != Broker(tc.want) {
				t.Errorf("%s returned %s, want %s", c.Kind, c.Result, Broker(tc.want))
			}
			if s.p.State != FatalError || s.p.LastError() != Broker(tc.want) {
				t.Errorf("producer in %s with last error %s, want FATAL_ERROR with %s", s.p.State, s.p.LastError(), Broker(tc.want))
			}
		})
	}
}
