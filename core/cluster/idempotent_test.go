package cluster

import (
	"testing"

	"txnlab/core/client"
	"txnlab/core/partition"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// TestIdempotentProducerBumpsEpochOnOutOfOrderSequence pins Kafka 3.5's
// SenderTest.testBumpEpochWhenOutOfOrderSequenceReceived: an idempotent
// (non-transactional) producer whose next batch gets
// OUT_OF_ORDER_SEQUENCE_NUMBER bumps its epoch locally and sends the
// batch again at sequence 0 (TransactionManager.canRetry,
// requestEpochBumpForPartition, bumpIdempotentProducerEpoch), instead of
// failing that send and every later one.
func TestIdempotentProducerBumpsEpochOnOutOfOrderSequence(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Brokers, cfg.RF = 1, 1
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.RunIdle(sim.Minute)
	if err := c.CreateTopic("orders", 1, 1); err != nil {
		t.Fatal(err)
	}
	c.RunIdle(sim.Minute)
	if err := c.AddProducer("p", client.DefaultProducerConfig()); err != nil {
		t.Fatal(err)
	}
	p := c.Producers["p"]
	tp := protocol.TopicPartition{Topic: "orders", Partition: 0}
	first := p.Send(c.World, tp, []protocol.Record{{Key: "k", Value: "a"}})
	waitCall(t, c, first)
	if !first.Result.OK() {
		t.Fatalf("first send: %v", first.Result)
	}
	// The leader holds sequences this producer never sent (as after a
	// write the client lost track of): its next sequence, 1, is a gap.
	log := c.Disks[0].Log(tp)
	gap := protocol.RecordBatch{ProducerId: p.ProducerId, ProducerEpoch: p.ProducerEpoch, BaseSequence: 5,
		Records: []protocol.Record{{Key: "k", Value: "ghost"}}}
	if res := log.AppendAsLeader(gap, 0, int64(c.World.Now()), partition.Checks{EpochFencing: true}); res.Err != protocol.NONE {
		t.Fatalf("injecting the gap: %v", res.Err)
	}
	second := p.Send(c.World, tp, []protocol.Record{{Key: "k", Value: "b"}})
	waitCall(t, c, second)
	if !second.Result.OK() {
		t.Fatalf("the send after OUT_OF_ORDER_SEQUENCE_NUMBER returned %v, want NONE after an epoch bump", second.Result)
	}
	oosn := 0
	for _, e := range c.World.Trace.All() {
		if r, ok := e.Msg.(*protocol.ProduceResponse); ok && e.Kind == sim.KindSend && r.Responses[0].ErrorCode == protocol.OUT_OF_ORDER_SEQUENCE_NUMBER {
			oosn++
		}
	}
	if oosn != 1 {
		t.Errorf("%d OUT_OF_ORDER_SEQUENCE_NUMBER answers, want exactly 1 (then the bumped retry)", oosn)
	}
	if p.ProducerEpoch != 1 {
		t.Errorf("producer epoch %d, want 1", p.ProducerEpoch)
	}
	last := p.Sends[len(p.Sends)-1]
	if last.Value != "b" || last.ProducerEpoch != 1 || last.Sequence != 0 {
		t.Errorf("b was written as %+v, want epoch 1 sequence 0", last)
	}
}
