package diagram

import (
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// MaxLabel is the longest arrow label, in characters; the full message is
// one click away in the message panel.
const MaxLabel = 58

// labelKeys shortens the field names of protocol summaries in arrow
// labels: a learner reads "txn=… pid=0 epoch=1" at a glance, and the
// message panel keeps Kafka's full names.
var labelKeys = strings.NewReplacer(
	"TransactionalId=", "txn=",
	"ProducerId=", "pid=",
	"ProducerEpoch=", "epoch=",
	"CoordinatorEpoch=", "coordEpoch=",
	"TransactionResult=", "",
	"Committed=", "commit=",
	"Partitions=", "",
	"Responses=", "",
	"Results=", "",
	"Markers=", "",
	"GroupId=", "group=",
	"NodeId=", "node=",
	"Key=", "",
	"BaseOffset=", "offset=",
	"HighWatermark=", "hw=",
	"LastStableOffset=", "lso=",
	"IsolationLevel=", "",
	"ErrorCode=NONE ", "",
	"ErrorCode=", "",
)

// dropFields are top-level summary fields too routine to label an arrow
// with.
var dropFields = map[string]bool{
	"KeyType": true, "TransactionTimeoutMs": true, "ReplicaId": true, "Acks": true,
}

// MessageLabel is an arrow's text on the page: MessageText cut to
// MaxLabel characters.
func MessageLabel(e *sim.Event) string { return Truncate(MessageText(e), MaxLabel) }

// MessageText is an arrow's whole text: the API and the message's key
// fields, shortened. Requests read "InitProducerId(txn=order-txn-1)",
// responses "InitProducerId → pid=0 epoch=1" or "EndTxn →
// PRODUCER_FENCED". The exports write it whole.
func MessageText(e *sim.Event) string {
	fields := ""
	if e.Msg != nil {
		fields = shortSummary(e.Msg.Summary())
	}
	var s string
	if e.Resp {
		switch {
		case e.Error != "" && !strings.Contains(fields, e.Error):
			s = e.API + " → " + e.Error
		case fields == "":
			s = e.API + " → ok"
		default:
			s = e.API + " → " + fields
		}
	} else {
		s = e.API + "(" + fields + ")"
	}
	return s
}

// shortSummary drops routine fields and renames the others. A summary is
// "Key=Value ..." with brackets and braces around nested values, which may
// hold spaces.
func shortSummary(summary string) string {
	var keep []string
	for _, f := range topLevelFields(summary) {
		key, val, _ := strings.Cut(f, "=")
		switch {
		case dropFields[key]:
		case key == "ErrorCode" && val == "NONE":
		case key == "ProducerId" && val == "-1", key == "ProducerEpoch" && val == "-1":
		default:
			keep = append(keep, f)
		}
	}
	return strings.TrimSpace(labelKeys.Replace(strings.Join(keep, " ") + " "))
}

// topLevelFields splits a summary on the spaces outside brackets.
func topLevelFields(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
		case ' ':
			if depth == 0 {
				if i > start {
					out = append(out, s[start:i])
				}
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// TextWidth is the drawn width of s in the diagram's 11 px monospace
// font: a wide (CJK) character takes two cells.
func TextWidth(s string) int {
	cells := 0
	for _, r := range s {
		cells++
		if r >= 0x1100 && (r <= 0x115f || r >= 0x2e80) {
			cells++
		}
	}
	return int(float64(cells)*charWidth + 0.5)
}

// fitText cuts s (marking the cut) so that it is at most w wide.
func fitText(s string, w int) string {
	n := len([]rune(s))
	for n > 2 && TextWidth(s) > w {
		n--
		s = Truncate(s, n)
	}
	return s
}

// Truncate cuts s to n characters, marking the cut.
func Truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// MessageFields lists every field of a message, nested ones indented,
// error codes by name: what a learner compares against Kafka's protocol
// documentation. The list is the message's own (protocol.MessageFields):
// a data batch shows no ControlType, a Produce its batch header; a
// request shows its header's version first.
func MessageFields(m protocol.Message) []protocol.Field {
	if m == nil {
		return nil
	}
	var kept []protocol.Field
	if v := protocol.VersionOf(m); v != 0 && !m.IsResponse() {
		// The request header's version: which fields the message carries.
		kept = append(kept, protocol.Field{Name: "Version", Value: strconv.Itoa(int(v))})
	}
	for _, f := range protocol.MessageFields(m) {
		if f.Depth == 0 && !carries(m, f.Name) {
			continue
		}
		kept = append(kept, f)
	}
	return kept
}

// carries reports whether a message of its version has the top-level
// field: the Version field itself is shown once, from the header, and an
// EndTxn response carries ProducerId and ProducerEpoch only from v5.
func carries(m protocol.Message, name string) bool {
	switch name {
	case "Version":
		return false
	case "ProducerId", "ProducerEpoch":
		if r, ok := m.(*protocol.EndTxnResponse); ok {
			return protocol.VersionOf(r) >= protocol.EndTxnTV2Version
		}
	case "VerifyOnly":
		return protocol.VersionOf(m) >= protocol.AddPartitionsToTxnBrokerVersion
	}
	return true
}
