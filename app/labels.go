package app

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// maxLabel is the longest arrow label, in characters; the full message is
// one click away in the message panel.
const maxLabel = 58

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

// messageLabel is an arrow's text: the API and the message's key fields,
// shortened. Requests read "InitProducerId(txn=order-txn-1)", responses
// "InitProducerId → pid=0 epoch=1" or "EndTxn → PRODUCER_FENCED".
func messageLabel(e *sim.Event) string {
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
	return truncate(s, maxLabel)
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

// truncate cuts s to n characters, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// field is one line of the message panel: a field's name, its value (empty
// for a struct or list that continues on the next lines) and its depth.
type field struct {
	Depth int
	Name  string
	Value string
}

// messageFields lists every field of a message, nested ones indented, with
// error codes by name: what a learner compares against Kafka's protocol
// documentation.
func messageFields(m protocol.Message) []field {
	if m == nil {
		return nil
	}
	var out, kept []field
	if v := protocol.VersionOf(m); v != 0 && !m.IsResponse() {
		// The request header's version: which fields the message carries.
		kept = append(kept, field{Name: "Version", Value: strconv.Itoa(int(v))})
	}
	walkFields(reflect.ValueOf(m), "", 0, &out)
	for _, f := range out {
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

var stringerType = reflect.TypeFor[fmt.Stringer]()

// maxFields bounds the panel: a Fetch response of a long log can hold
// thousands of records.
const maxFields = 400

func walkFields(v reflect.Value, name string, depth int, out *[]field) {
	if len(*out) >= maxFields {
		if len(*out) == maxFields {
			*out = append(*out, field{Depth: depth, Name: "…", Value: "(more fields not shown)"})
		}
		return
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			*out = append(*out, field{Depth: depth, Name: name, Value: "null"})
			return
		}
		if v.Type().Implements(stringerType) && v.Kind() == reflect.Pointer && v.Elem().Kind() != reflect.Struct {
			break
		}
		v = v.Elem()
	}
	if ec, ok := v.Interface().(protocol.ErrorCode); ok {
		*out = append(*out, field{Depth: depth, Name: name, Value: ec.String() + " (" + strconv.Itoa(int(ec)) + ")"})
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type().Implements(stringerType) && v.NumField() <= 2 {
			// Small value types with their own text (a topic partition).
			*out = append(*out, field{Depth: depth, Name: name, Value: v.Interface().(fmt.Stringer).String()})
			return
		}
		d := depth
		if name != "" {
			*out = append(*out, field{Depth: depth, Name: name})
			d++
		}
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				walkFields(v.Field(i), t.Field(i).Name, d, out)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			*out = append(*out, field{Depth: depth, Name: name, Value: "[]"})
			return
		}
		*out = append(*out, field{Depth: depth, Name: name, Value: fmt.Sprintf("%d item(s)", v.Len())})
		for i := 0; i < v.Len(); i++ {
			walkFields(v.Index(i), "["+strconv.Itoa(i)+"]", depth+1, out)
		}
	case reflect.Map:
		*out = append(*out, field{Depth: depth, Name: name, Value: fmt.Sprintf("%d entries", v.Len())})
	case reflect.String:
		*out = append(*out, field{Depth: depth, Name: name, Value: strconv.Quote(v.String())})
	default:
		*out = append(*out, field{Depth: depth, Name: name, Value: fmt.Sprint(v.Interface())})
	}
}
