package diagram

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// MaxLabel is the longest arrow label, in characters; the full message is
// one click away in the message panel.
const MaxLabel = 58

// labelStyle writes a message's fields for an arrow label: a learner
// reads "txn=… pid=0 epoch=1" at a glance, and the message panel keeps
// Kafka's full names. Routine fields of the message itself (the key type,
// the timeout, the replica id, acks), unset producer ids and epochs (-1)
// and NONE errors are left out; list fields and enums read as their
// values alone.
var labelStyle = &protocol.SummaryStyle{
	Names: map[string]string{
		"TransactionalId":   "txn",
		"ProducerId":        "pid",
		"ProducerEpoch":     "epoch",
		"CoordinatorEpoch":  "coordEpoch",
		"TransactionResult": "",
		"Committed":         "commit",
		"Partitions":        "",
		"Responses":         "",
		"Results":           "",
		"Markers":           "",
		"GroupId":           "group",
		"NodeId":            "node",
		"Key":               "",
		"BaseOffset":        "offset",
		"HighWatermark":     "hw",
		"LastStableOffset":  "lso",
		"IsolationLevel":    "",
		"ErrorCode":         "",
	},
	Skip: func(depth int, name, value string) bool {
		switch {
		case name == "ErrorCode" && value == "NONE":
			return true
		case depth > 0:
			return false
		case name == "KeyType", name == "TransactionTimeoutMs", name == "ReplicaId", name == "Acks":
			return true
		}
		return (name == "ProducerId" || name == "ProducerEpoch") && value == "-1"
	},
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
		fields = protocol.SummaryIn(e.Msg, labelStyle)
	}
	api := e.API.String()
	var s string
	if e.Resp {
		switch errName := e.ErrorName(); {
		case errName != "" && !strings.Contains(fields, errName):
			s = api + " → " + errName
		case fields == "":
			s = api + " → ok"
		default:
			s = api + " → " + fields
		}
	} else {
		s = api + "(" + fields + ")"
	}
	return s
}

// TextWidth is the drawn width of s in the diagram's 11 px monospace
// font: a wide (CJK) character takes two cells.
func TextWidth(s string) int {
	cells := 0
	for _, r := range s {
		cells += runeCells(r)
	}
	return cellsWidth(cells)
}

// runeCells is how many cells r takes: two for a wide (CJK) character.
func runeCells(r rune) int {
	if r >= 0x1100 && (r <= 0x115f || r >= 0x2e80) {
		return 2
	}
	return 1
}

// cellsWidth is the drawn width of that many cells.
func cellsWidth(cells int) int { return int(float64(cells)*charWidth + 0.5) }

// fitText cuts s (marking the cut) so that it is at most w wide: the
// longest start of s that fits with the mark "…", and at least its first
// character, as Truncate writes it. One pass: cutting a label one
// character at a time and measuring it whole after each cut took 38 µs
// under Node for a 58-character label fitted to 200 px, and the arrows a
// step back drew spent 12 ms of its task there (a CPU profile of the
// page, the wasm built with names; BENCHMARKS.md, 2026-12-07).
func fitText(s string, w int) string {
	if TextWidth(s) <= w {
		return s
	}
	n := utf8.RuneCountInString(s)
	if n <= 2 {
		return s
	}
	cut, cells, kept := 0, 0, 0
	for i, r := range s {
		if kept == n-2 {
			break // the cut keeps at most n-2 characters and the mark
		}
		cells += runeCells(r)
		if kept > 0 && cellsWidth(cells+1) > w {
			break // the mark is one cell
		}
		kept, cut = kept+1, i+utf8.RuneLen(r)
	}
	return s[:cut] + "…"
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
	m = protocol.Decoded(m) // once, for the three readers below
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
