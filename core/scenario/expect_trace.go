package scenario

// expect trace: that the history holds messages matching an API, its
// endpoints, its own fields (Kafka's names, protocol.Fields) and its
// error, at least once or exactly count= times. Its type, parsing,
// canonical text and evaluation live here; the count query reuses them.
// Its options are the match's from= and to=, error=, count= and the
// message's own fields, which depend on the API: that schema
// (protocol.Fields) is their table.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// ExpectTraceStmt checks that the history holds matching messages: at
// least one, or exactly Count.
type ExpectTraceStmt struct {
	Base
	Match MessageMatch
	// Fields are FIELD=VALUE checks on the message's own fields
	// (protocol.Fields), in schema order: a message matches when it has
	// every one, in itself or in one of its parts.
	Fields []FieldMatch
	Error  protocol.ErrorCode // error=NAME (responses only), when given
	Count  int                // count=N: exactly N (0: none); -1 when not given: at least one
	Given  OptionSet          // which of error, count were written
}

// String renders the statement canonically.
func (s *ExpectTraceStmt) String() string {
	b := words("expect", "trace", s.Match.String())
	for _, f := range s.Fields {
		b.opt(f.Name, f.Text)
	}
	if s.Given.Has("error") {
		b.opt("error", s.Error.String())
	}
	if s.Count >= 0 {
		b.opt("count", strconv.Itoa(s.Count))
	}
	return b.String()
}

// FieldMatch is one FIELD=VALUE of expect trace: a message field and the
// value it must have.
type FieldMatch struct {
	Name  string
	Value protocol.FieldValue // Part unused
	Text  string              // the value as the canonical form writes it
}

func parseExpectTrace(lp *lineParser) Stmt {
	t := lp.next("expect trace needs an API, e.g. expect trace WriteTxnMarkers count=1")
	st := &ExpectTraceStmt{Match: lp.match(t), Count: -1}
	allowed := []string{"from", "to", "error", "count"}
	fields := protocol.Fields(st.Match.API, st.Match.Response)
	for _, f := range fields {
		allowed = append(allowed, f.Name)
	}
	opts := lp.options("expect trace "+st.Match.API.String()+dotResponse(st.Match.Response), allowed)
	lp.matchEnds(&st.Match, opts)
	for _, f := range fields {
		if o, ok := opts.get(f.Name); ok {
			st.Fields = append(st.Fields, lp.fieldMatch(f, o))
		}
	}
	if o, ok := opts.get("error"); ok {
		if !st.Match.Response {
			lp.failf(o.col, "error= applies to responses: write %s.response", st.Match.API)
		}
		st.Error = lp.errorNameAny(o.raw, o.col)
	}
	if o, ok := opts.get("count"); ok {
		st.Count = int(lp.integer(o.key, o.raw, o.col, 0, MaxCount))
	}
	st.Given = opts.given()
	st.Given = removeKeys(st.Given, "from", "to")
	st.Given = removeKeys(st.Given, fieldNames(fields)...)
	return st
}

func removeKeys(o OptionSet, keys ...string) OptionSet {
	var out OptionSet
	for _, k := range o {
		drop := false
		for _, r := range keys {
			drop = drop || k == r
		}
		if !drop {
			out = append(out, k)
		}
	}
	return out
}

func fieldNames(fs []protocol.FieldSpec) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	return names
}

// fieldMatch parses the value of one message field by its type.
func (lp *lineParser) fieldMatch(f protocol.FieldSpec, o option) FieldMatch {
	fm := FieldMatch{Name: f.Name}
	switch f.Kind {
	case protocol.FieldString:
		fm.Value.Str = lp.nonEmpty(o.key, o.raw, o.vcol)
		fm.Text = quote(fm.Value.Str)
	case protocol.FieldBool:
		if lp.boolean(o) {
			fm.Value.Int = 1
		}
		fm.Text = o.raw
	case protocol.FieldError:
		code := lp.errorNameAny(o.raw, o.vcol)
		fm.Value.Int, fm.Text = int64(code), code.String()
	case protocol.FieldEnum:
		if !slices.Contains(f.Enum, o.raw) {
			lp.failf(o.vcol, "%s must be %s, got %q%s", o.key, strings.Join(f.Enum, " or "), o.raw, didYouMean(o.raw, f.Enum))
		}
		fm.Value.Str, fm.Text = o.raw, o.raw
	case protocol.FieldPartition:
		tp := lp.topicPartition(o.raw, o.vcol)
		fm.Value.Str, fm.Text = tp.String(), tp.String()
	default:
		lo, hi := fieldRange(o.key)
		fm.Value.Int = lp.integer(o.key, o.raw, o.vcol, lo, hi)
		fm.Text = strconv.FormatInt(fm.Value.Int, 10)
	}
	return fm
}

func (st *ExpectTraceStmt) apply(s *Session) *Error { return s.expect(st) }

func (st *ExpectTraceStmt) evaluate(s *Session) (string, string, bool, *Error) {
	m, err := s.match(st, st.Match)
	if err != nil {
		return "", "", false, err
	}
	var want map[string]protocol.FieldValue
	if len(st.Fields) > 0 {
		want = map[string]protocol.FieldValue{}
		for _, f := range st.Fields {
			want[f.Name] = f.Value
		}
	}
	n := 0
	for _, e := range s.Cluster.Trace().All() {
		if e.Kind != sim.KindSend || e.Internal || e.Msg == nil || e.Msg.APIKey() != m.API || e.Resp != m.Response {
			continue
		}
		if (m.From != sim.NoNode && e.Node != m.From) || (m.To != sim.NoNode && e.Peer != m.To) {
			continue
		}
		if st.Given.Has("error") && protocol.Error(e.Msg) != st.Error {
			continue
		}
		if len(want) > 0 && !protocol.FieldEquals(e.Msg, want) {
			continue
		}
		n++
	}
	desc := st.Match.String()
	for _, f := range st.Fields {
		desc += " " + f.Name + "=" + f.Text
	}
	if st.Given.Has("error") {
		desc += " error=" + st.Error.String()
	}
	if st.Count >= 0 {
		return fmt.Sprintf("%d × %s", st.Count, desc), fmt.Sprintf("%d", n), n == st.Count, nil
	}
	return "at least one " + desc, fmt.Sprintf("%d", n), n > 0, nil
}
