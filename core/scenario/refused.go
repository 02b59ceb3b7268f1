package scenario

// The refused statement: a request the Kafka listener refused at the
// wire, before it could enter the simulation (a batch whose CRC does not
// match, a decompression bomb, a version the listener does not serve),
// written into the trace on the client's lifeline so that what the
// client was told is drawn where its requests are. The listener records
// it; the replay writes the same event.
//
//	refused API from=CLIENT to=broker-N error=ERROR_NAME

import (
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// RefusedStmt notes a request an external client's broker refused at
// the wire, with the error the client was answered.
type RefusedStmt struct {
	Base
	API  protocol.APIKey
	From string
	To   int
	// Error is the Kafka error's name the client was answered.
	Error string
}

// wireErrors are Kafka's errors a listener answers at the wire, which the
// simulation itself never gives (Errors.java's names and codes).
var wireErrors = map[string]int16{"CORRUPT_MESSAGE": 2, "MESSAGE_TOO_LARGE": 10, "INVALID_TOPIC_EXCEPTION": 17,
	"RECORD_LIST_TOO_LARGE": 18, "UNSUPPORTED_VERSION": 35, "UNSUPPORTED_COMPRESSION_TYPE": 76, "INVALID_RECORD": 87}

// String renders the statement canonically.
func (s *RefusedStmt) String() string {
	b := words("refused", s.API.String())
	b.opt("from", s.From)
	b.opt("to", "broker-"+i64(int64(s.To)))
	b.opt("error", s.Error)
	return b.String()
}

func parseRefused(lp *lineParser, kw token) Stmt {
	t := lp.next("refused needs an API, e.g. refused Produce from=kgo to=broker-0 error=CORRUPT_MESSAGE")
	m := lp.match(t)
	if m.Response {
		lp.failf(t.col, "refused names a request: write %s without .response", m.API)
	}
	st := &RefusedStmt{API: m.API}
	opts := lp.options("refused "+m.API.String(), []string{"from", "to", "error"})
	o, ok := opts.get("from")
	if !ok {
		lp.failf(lp.endCol(), "refused needs from=CLIENT: the external client that sent it")
	}
	c := lp.clientName(o.raw, o.vcol)
	if c.Kind != KindExternal {
		lp.failf(o.vcol, "%s is not an external client: only a real client's request is refused at the wire", c.Name)
	}
	st.From = c.Name
	if o, ok = opts.get("to"); !ok {
		lp.failf(lp.endCol(), "refused needs to=broker-N: the broker whose port took it")
	}
	ref := lp.nodeRef(o.raw, o.vcol)
	if ref.Kind != NodeBroker {
		lp.failf(o.vcol, "a request is refused by a broker: write to=broker-N")
	}
	st.To = ref.Index
	if o, ok = opts.get("error"); !ok {
		lp.failf(lp.endCol(), "refused needs error=NAME: what the client was answered, e.g. CORRUPT_MESSAGE")
	}
	name := strings.ToUpper(o.raw)
	code, known := protocol.ErrorByName(name)
	if _, wire := wireErrors[name]; !wire && (!known || code == protocol.NONE) {
		lp.failf(o.vcol, "unknown error %q: write Kafka's name, e.g. CORRUPT_MESSAGE", o.raw)
	}
	st.Error = name
	return st
}

func (st *RefusedStmt) apply(s *Session) *Error {
	e := s.Cluster.Externals[st.From]
	if e == nil {
		return s.errorf(st, "unknown external client %s", st.From)
	}
	if st.To >= len(s.Cluster.Brokers) {
		return s.errorf(st, "broker-%d does not exist", st.To)
	}
	s.Cluster.Note(e.Node, "", sim.NoteStatement, st.String())
	return nil
}
