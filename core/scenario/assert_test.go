package scenario

import (
	"strings"
	"testing"

	"txnlab/core/protocol"
)

// A replica whose high watermark passes its log end (what a bug in the
// brokers' replication would leave) stops the run at the next statement
// with an error naming the replica, instead of letting later lines run
// on offsets Kafka could never show.
func TestAssertionStopsRunOnHighWatermarkPastLogEnd(t *testing.T) {
	script, err := Parse("t.scenario", `cluster brokers=1
topic orders partitions=1
producer p
p send orders/0 a=1
run
run for=1s
`)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("t.scenario", script)
	for !s.Done() && s.Line() < 6 {
		s.Step()
	}
	if s.Err != nil {
		t.Fatalf("a normal run failed its assertions: %v", s.Err)
	}
	tp := protocol.TopicPartition{Topic: "orders", Partition: 0}
	s.Cluster.Disks[0].Logs[tp].HighWatermark = 7
	s.Run()
	if s.Err == nil || !strings.Contains(s.Err.Error(), "high watermark 7 is outside [0, log end offset 1]") ||
		!strings.Contains(s.Err.Error(), "broker-0's replica orders/0") || s.Err.Pos.Line != 6 {
		t.Fatalf("err = %v, want the breach reported at line 6", s.Err)
	}
}
