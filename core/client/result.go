package client

import "txnlab/core/protocol"

// Result is how a call or a send ended: success, a broker's error code,
// or an exception the client raised itself (never both).
type Result struct {
	Code      protocol.ErrorCode
	Exception protocol.Exception
}

// OK is a success.
var OK = Result{}

// Broker is a result carrying a broker's error code (NONE: success).
func Broker(code protocol.ErrorCode) Result { return Result{Code: code} }

// Raised is a result the client raised itself.
func Raised(e protocol.Exception) Result { return Result{Exception: e} }

// OK reports success.
func (r Result) OK() bool { return r.Code == protocol.NONE && r.Exception == protocol.NoException }

// String is the exception's name, or the error code's (NONE on success).
func (r Result) String() string {
	if r.Exception != protocol.NoException {
		return r.Exception.String()
	}
	return r.Code.String()
}
