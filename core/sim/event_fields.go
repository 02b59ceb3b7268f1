package sim

import (
	"encoding/json"
	"fmt"
	"strconv"

	"txnlab/core/protocol"
)

// EventField is one field of a trace event as the event's written forms
// name it: the exports' JSON (Export: txnlab run --format json, the
// playground's download) and the worker's wire (app/engine, whose
// wireEvent a test holds to this table's Wire keys). An event's shape is
// this table: a field added to Event is added here, and the forms follow.
type EventField struct {
	// Name is the field's name in Event, and its key in the export's
	// JSON unless the export leaves it out (Exported).
	Name string
	// Wire is its key on the worker's wire, where events cross as codes
	// with short keys ("" for a field the wire does not carry).
	Wire string
	// export appends the field's JSON value as the export writes it,
	// nodes and states by name; false when the export omits it here.
	// nil for a field the export does not carry as such (a note is its
	// Text; an exception is written under Error).
	export func(n *Names, e *Event, b []byte) ([]byte, bool)
}

// Exported reports whether the export's JSON has the field.
func (f *EventField) Exported() bool { return f.export != nil }

// EventFields is every field of an event, in the export's order (the
// order the JSON exports have always had).
var EventFields = []EventField{
	{"Index", "i", func(_ *Names, e *Event, b []byte) ([]byte, bool) {
		return strconv.AppendInt(b, int64(e.Index), 10), true
	}},
	{"At", "t", func(_ *Names, e *Event, b []byte) ([]byte, bool) { return strconv.AppendInt(b, int64(e.At), 10), true }},
	{"MsgID", "m", exportInt(func(e *Event) int64 { return e.MsgID })},
	{"ReplyTo", "rt", exportInt(func(e *Event) int64 { return e.ReplyTo })},
	{"Offset", "o", exportInt(func(e *Event) int64 { return e.Offset })},
	{"Node", "n", func(n *Names, e *Event, b []byte) ([]byte, bool) { return appendJSONString(b, n.Name(e.Node)), true }},
	{"Peer", "p", exportString(func(n *Names, e *Event) string { return n.Name(e.Peer) })},
	{"API", "a", exportString(func(_ *Names, e *Event) string {
		if e.Kind.CarriesMessage() && e.API != protocol.NoAPI {
			return e.API.String()
		}
		return ""
	})},
	// Error is the code's name, or the client exception's: the export
	// has one key for both (ErrorName), the wire a key each.
	{"Error", "e", exportString(func(_ *Names, e *Event) string { return e.ErrorName() })},
	{"Subject", "s", exportString(func(_ *Names, e *Event) string { return e.Subject })},
	{"From", "f", exportString(func(n *Names, e *Event) string { return n.Label(e.From) })},
	{"To", "to", exportString(func(n *Names, e *Event) string { return n.Label(e.To) })},
	{"Text", "x", exportString(func(_ *Names, e *Event) string { return e.Text })},
	{"Msg", "M", func(_ *Names, e *Event, b []byte) ([]byte, bool) {
		if e.Msg == nil {
			return b, false
		}
		j, err := json.Marshal(e.Msg)
		if err != nil {
			// appendExport fails on JSON that does not parse.
			return append(b, '!'), true
		}
		return append(b, j...), true
	}},
	{"Kind", "k", func(_ *Names, e *Event, b []byte) ([]byte, bool) { return appendJSONString(b, e.Kind.String()), true }},
	{"Resp", "r", exportFlag(func(e *Event) bool { return e.Resp })},
	{"Internal", "in", exportFlag(func(e *Event) bool { return e.Internal })},
	{"Illegal", "il", exportFlag(func(e *Event) bool { return e.Illegal })},
	{"Unmet", "u", exportFlag(func(e *Event) bool { return e.Unmet })},
	// Contents is an appended batch's kind, when not data.
	{"Contents", "c", exportString(func(_ *Names, e *Event) string { return e.Contents.String() })},
	{"Exception", "ex", nil},
	{"Note", "no", nil},
}

// exportInt writes an integer field, omitted at zero.
func exportInt(get func(*Event) int64) func(*Names, *Event, []byte) ([]byte, bool) {
	return func(_ *Names, e *Event, b []byte) ([]byte, bool) {
		v := get(e)
		return strconv.AppendInt(b, v, 10), v != 0
	}
}

// exportString writes a string field, omitted when empty.
func exportString(get func(*Names, *Event) string) func(*Names, *Event, []byte) ([]byte, bool) {
	return func(n *Names, e *Event, b []byte) ([]byte, bool) {
		v := get(n, e)
		return appendJSONString(b, v), v != ""
	}
}

// exportFlag writes a flag, omitted when false.
func exportFlag(get func(*Event) bool) func(*Names, *Event, []byte) ([]byte, bool) {
	return func(_ *Names, e *Event, b []byte) ([]byte, bool) {
		return append(b, "true"...), get(e)
	}
}

// appendJSONString appends s as encoding/json writes a string (HTML
// characters escaped, as the exports always had them).
func appendJSONString(b []byte, s string) []byte {
	j, _ := json.Marshal(s)
	return append(b, j...)
}

// appendExport appends e as the export's JSON object, field by field
// from EventFields. A message encoding/json cannot write fails it.
func (n *Names) appendExport(b []byte, e *Event) ([]byte, error) {
	start := len(b)
	b = append(b, '{')
	first := true
	for i := range EventFields {
		f := &EventFields[i]
		if f.export == nil {
			continue
		}
		mark := len(b)
		if !first {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, f.Name...)
		b = append(b, '"', ':')
		var ok bool
		if b, ok = f.export(n, e, b); !ok {
			b = b[:mark]
			continue
		}
		first = false
	}
	b = append(b, '}')
	if e.Msg != nil && !json.Valid(b[start:]) {
		_, err := json.Marshal(e.Msg)
		return nil, fmt.Errorf("event %d: %w", e.Index, err)
	}
	return b, nil
}
