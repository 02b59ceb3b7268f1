package protocol

// Exception is a failure the Java client raises by itself, with no error
// code from a broker: a timeout on the client's own clock, a call the
// client refuses in its current state, a batch it drops. Kept apart from
// ErrorCode so that a broker code in a trace always means a broker said
// it. It lives here, beside the error codes, rather than in core/client
// because the trace records it (a call's return event), and core/sim may
// import this package but not the client; Kafka keeps both kinds in
// org.apache.kafka.common.errors too. One byte, so that an event holds it
// in what was padding.
type Exception uint8

// The client-side exceptions the simulation raises, named as the Java
// client's classes (org.apache.kafka.common.errors and java.lang).
const (
	NoException Exception = iota
	// TimeoutException: max.block.ms elapsed in a blocking call, or a
	// batch expired after delivery.timeout.ms (Sender, "Expiring N
	// record(s)").
	TimeoutException
	// IllegalStateException: a call the producer refuses in its state
	// (TransactionManager.transitionTo, failIfNotReadyForSend,
	// ensureTransactional), or any call after close().
	IllegalStateException
	// TransactionAbortedException: a batch not yet sent when the
	// transaction was aborted (Sender: abortUndrainedBatches).
	TransactionAbortedException
	// InvalidGroupIdException: commitSync on a consumer without a
	// group.id (KafkaConsumer.maybeThrowInvalidGroupIdException).
	InvalidGroupIdException
)

var exceptionNames = [...]string{
	NoException:                 "",
	TimeoutException:            "TimeoutException",
	IllegalStateException:       "IllegalStateException",
	TransactionAbortedException: "TransactionAbortedException",
	InvalidGroupIdException:     "InvalidGroupIdException",
}

// Exceptions lists every client exception, for the scenario language's
// error messages.
var Exceptions = []Exception{TimeoutException, IllegalStateException, TransactionAbortedException, InvalidGroupIdException}

// String is the Java class's simple name ("" for NoException).
func (e Exception) String() string {
	if int(e) < len(exceptionNames) {
		return exceptionNames[e]
	}
	return "Exception"
}

// ExceptionByName finds a client exception by its Java name.
func ExceptionByName(name string) (Exception, bool) {
	for _, e := range Exceptions {
		if e.String() == name {
			return e, true
		}
	}
	return NoException, false
}
