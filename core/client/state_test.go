package client

import (
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// kafka35Transitions is TransactionManager.State.isTransitionValid of
// Kafka 3.5.0, written out edge by edge (source → target), apart from
// FATAL_ERROR, which any state may enter. 3.6.0 added UNINITIALIZED ←
// ABORTABLE_ERROR and ABORTABLE_ERROR ← INITIALIZING; 3.5 has neither
// (docs/kafka-fidelity.md §11 D3).
var kafka35Transitions = [][2]TxnState{
	{Ready, Uninitialized},
	{Uninitialized, Initializing},
	{AbortingTransaction, Initializing},
	{Initializing, Ready},
	{CommittingTransaction, Ready},
	{AbortingTransaction, Ready},
	{Ready, InTransaction},
	{InTransaction, CommittingTransaction},
	{InTransaction, AbortingTransaction},
	{AbortableError, AbortingTransaction},
	{InTransaction, AbortableError},
	{CommittingTransaction, AbortableError},
	{AbortableError, AbortableError},
}

// TestValidTransitionIsKafka35: every (from, to) pair of the producer's
// states is allowed exactly when Kafka 3.5's table allows it. The UI draws
// the client's state diagram from this table, and every transition the
// producer makes is checked against it.
func TestValidTransitionIsKafka35(t *testing.T) {
	if len(TxnStates) != 8 {
		t.Fatalf("%d states, want Kafka 3.5's 8: %v", len(TxnStates), TxnStates)
	}
	allowed := map[[2]TxnState]bool{}
	for _, e := range kafka35Transitions {
		allowed[e] = true
	}
	for _, from := range TxnStates {
		for _, to := range TxnStates {
			want := to == FatalError || allowed[[2]TxnState{from, to}]
			if got := ValidTransition(from, to); got != want {
				t.Errorf("ValidTransition(%s, %s) = %v, Kafka 3.5: %v", from, to, got, want)
			}
		}
	}
}

// TestAbortableErrorLeavesInitializingAlone: an abortable error does not
// move an initializing producer to ABORTABLE_ERROR, an edge Kafka 3.5
// does not have (3.6 added it).
func TestAbortableErrorLeavesInitializingAlone(t *testing.T) {
	w := sim.NewWorld(1)
	p := NewProducer(w.Node("p"), ProducerConfig{TransactionalId: "tx"}, nil)
	p.State = Initializing
	p.abortable(w, Broker(protocol.UNKNOWN_TOPIC_OR_PARTITION))
	if p.State != Initializing {
		t.Fatalf("an abortable error while INITIALIZING moved the producer to %s", p.State)
	}
}
