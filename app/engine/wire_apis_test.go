package engine

import (
	"testing"

	"txnlab/core/protocol"
)

// TestEveryAPIIsOnTheWire: every API the simulation models crosses to the
// page in both directions. Metadata, ListOffsets and LeaveGroup were
// missing, so a script with one of them (every real client's session on
// the Kafka listener) never loaded through the worker and the playground
// stayed at "Running your edits…".
func TestEveryAPIIsOnTheWire(t *testing.T) {
	for _, api := range protocol.APIs {
		for _, resp := range []bool{false, true} {
			if _, ok := messageTypes[msgKey(api, resp)]; !ok {
				t.Errorf("%s (response %v) is not on the wire's list", api, resp)
			}
		}
	}
}

// TestARecordedSessionCrossesTheWire: a Kafka listener's recording, with
// a real client's Metadata, ListOffsets, LeaveGroup and operator's
// requests, loads through the worker to the history the page's own
// engine makes.
func TestARecordedSessionCrossesTheWire(t *testing.T) {
	const script = `cluster brokers=3
topic orders partitions=2
client kgo software="kgo unknown"
request Metadata from=kgo to=broker-0 conn=1 Version=9 Topics=orders AllowAutoTopicCreation=false &
advance 5ms
request ListOffsets from=kgo to=broker-0 conn=1 Version=7 IsolationLevel=1 Partitions=orders/0:-1:-1 &
advance 5ms
request LeaveGroup from=kgo to=broker-0 conn=1 GroupId=g Members=m1 &
request ListTransactions from=kgo to=broker-1 conn=2 StateFilters=none ProducerIdFilters=none &
request Produce from=kgo to=broker-0 conn=3 Version=9 Acks=1 TimeoutMs=30000 ProducerId=-1 ProducerEpoch=-1 IsTransactional=false orders/0 ""=v ^nullkey ^ts=1764870000123 ^h=trace:x &
refused Produce from=kgo to=broker-1 error=CORRUPT_MESSAGE
advance 50ms
`
	local := newSessionEngine()
	if err := local.Load(script); err != nil {
		t.Fatal(err)
	}
	p := newLoopback()
	r := p.link.Engine()
	if err := r.Load(script); err != nil {
		t.Fatalf("through the worker: %v", err)
	}
	if !sameEvents(t, local.Names(), r.Names(), local.History(), r.History()) || r.Len() != local.Len() {
		t.Fatalf("the history that crossed differs from the engine's (%d steps, %d)", r.Len(), local.Len())
	}
}
