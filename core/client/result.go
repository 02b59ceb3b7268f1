package client

import "txnlab/core/protocol"

// Exception is a failure the Java client raises by itself, with no error
// code from a broker: a timeout on the client's own clock, a call the
// client refuses in its current state, a batch it drops. Kept apart from
// protocol.ErrorCode so that a broker code in a trace always means a
// broker said it.
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

// String is the Java class's simple name.
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

// Result is how a call or a send ended: success, a broker's error code,
// or an exception the client raised itself (never both).
type Result struct {
	Code      protocol.ErrorCode
	Exception Exception
}

// OK is a success.
var OK = Result{}

// Broker is a result carrying a broker's error code (NONE: success).
func Broker(code protocol.ErrorCode) Result { return Result{Code: code} }

// Raised is a result the client raised itself.
func Raised(e Exception) Result { return Result{Exception: e} }

// OK reports success.
func (r Result) OK() bool { return r.Code == protocol.NONE && r.Exception == NoException }

// String is the exception's name, or the error code's (NONE on success).
func (r Result) String() string {
	if r.Exception != NoException {
		return r.Exception.String()
	}
	return r.Code.String()
}

// errName is the trace's error name: empty on success.
func (r Result) errName() string {
	if r.OK() {
		return ""
	}
	return r.String()
}
