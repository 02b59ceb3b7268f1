package client

// TxnState is the Java TransactionManager's State.
type TxnState string

// The producer's transactional states.
const (
	Uninitialized         TxnState = "UNINITIALIZED"
	Initializing          TxnState = "INITIALIZING"
	Ready                 TxnState = "READY"
	InTransaction         TxnState = "IN_TRANSACTION"
	CommittingTransaction TxnState = "COMMITTING_TRANSACTION"
	AbortingTransaction   TxnState = "ABORTING_TRANSACTION"
	AbortableError        TxnState = "ABORTABLE_ERROR"
	FatalError            TxnState = "FATAL_ERROR"
)

// ValidPreviousStates is State.isTransitionValid of Kafka 3.5's
// TransactionManager: the states each state may be entered from
// (FATAL_ERROR from anywhere). The UI draws the client's state diagram
// from it and the producer checks every transition against it.
var ValidPreviousStates = map[TxnState][]TxnState{
	Uninitialized:         {Ready},
	Initializing:          {Uninitialized, AbortingTransaction},
	Ready:                 {Initializing, CommittingTransaction, AbortingTransaction},
	InTransaction:         {Ready},
	CommittingTransaction: {InTransaction},
	AbortingTransaction:   {InTransaction, AbortableError},
	AbortableError:        {InTransaction, CommittingTransaction, AbortableError},
}

// ValidTransition reports whether the client may move from one state to
// another.
func ValidTransition(from, to TxnState) bool {
	if to == FatalError {
		return true
	}
	for _, s := range ValidPreviousStates[to] {
		if s == from {
			return true
		}
	}
	return false
}

// TxnStates lists the states in the order the UI shows them.
var TxnStates = []TxnState{Uninitialized, Initializing, Ready, InTransaction, CommittingTransaction,
	AbortingTransaction, AbortableError, FatalError}
