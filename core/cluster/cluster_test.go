package cluster

import (
	"testing"

	"txnlab/core/client"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func waitCall(t *testing.T, c *Cluster, call *client.Call) {
	t.Helper()
	r := c.RunUntil(func() bool { return call.Done }, c.World.Now()+10*sim.Minute)
	if !call.Done {
		t.Fatalf("call %s did not return: %s", call.Kind, r.Reason)
	}
}

func TestHappyPathSmoke(t *testing.T) {
	c, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	c.RunIdle(sim.Minute)
	if err := c.CreateTopic("orders", 2, 3); err != nil {
		t.Fatal(err)
	}
	cfg := client.DefaultProducerConfig()
	cfg.TransactionalId = "order-txn-1"
	c.AddProducer("p1", cfg)
	cc := client.DefaultConsumerConfig()
	cc.IsolationLevel = protocol.ReadCommitted
	c.AddConsumer("c1", cc)
	p := c.Producers["p1"]
	waitCall(t, c, p.Init(c.World))
	waitCall(t, c, p.Begin(c.World))
	tp := protocol.TopicPartition{Topic: "orders", Partition: 0}
	waitCall(t, c, p.Send(c.World, tp, []protocol.Record{{Key: "k1", Value: "v1"}}))
	call := p.Commit(c.World)
	waitCall(t, c, call)
	if !call.Result.OK() {
		t.Fatalf("commit: %v", call.Result)
	}
	c.RunIdle(sim.Minute)
	cons := c.Consumers["c1"]
	waitCall(t, c, cons.Assign(c.World, []protocol.TopicPartition{tp}))
	waitCall(t, c, cons.Poll(c.World))
	for _, e := range c.World.Trace.All() {
		if !e.Internal {
			t.Log(e.Line(c.World.Names()))
		}
	}
	if got := cons.Received[tp]; len(got) != 1 || got[0].Value != "v1" {
		t.Fatalf("received %+v", got)
	}
	t.Logf("events: %d digest %s", c.World.Trace.Len(), c.World.Trace.Digest())
}

// BenchmarkNew is a bare `cluster brokers=3`: the cost every explorer run
// pays before its first statement (100 internal partitions, led and
// followed, on three brokers).
func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := New(DefaultConfig()); err != nil {
			b.Fatal(err)
		}
	}
}
