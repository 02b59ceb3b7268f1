package sim

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"txnlab/core/protocol"
)

// legacyEvent is Event as it was when its API and error were strings:
// the JSON exports (txnlab run --format json, the playground's download)
// were encoding/json of this, and must not change shape.
type legacyEvent struct {
	Index    int
	At       Time
	MsgID    int64 `json:",omitempty"`
	ReplyTo  int64 `json:",omitempty"`
	Offset   int64 `json:",omitempty"`
	Node     string
	Peer     string           `json:",omitempty"`
	API      string           `json:",omitempty"`
	Error    string           `json:",omitempty"`
	Subject  string           `json:",omitempty"`
	From     string           `json:",omitempty"`
	To       string           `json:",omitempty"`
	Text     string           `json:",omitempty"`
	Msg      protocol.Message `json:",omitempty"`
	Kind     Kind
	Resp     bool `json:",omitempty"`
	Internal bool `json:",omitempty"`
	Illegal  bool `json:",omitempty"`
}

// TestEventJSONShape: an exported event reads as it always has, its
// nodes by name (codes since), the API and the error by name and omitted
// when there is none, a client exception under "Error" as well.
func TestEventJSONShape(t *testing.T) {
	names := NewNames()
	names.Intern("controller") // so that no code equals its name's place by chance
	broker0, _ := names.Intern("broker-0")
	p1, _ := names.Intern("p1")
	resp := &protocol.EndTxnResponse{ErrorCode: protocol.PRODUCER_FENCED}
	tests := []struct {
		e      Event
		legacy legacyEvent
		want   string // a substring of the JSON, or "" for none
		absent string // a key the JSON must not have
	}{
		{Event{Index: 4, At: 12, Kind: KindSend, Node: broker0, Peer: p1, MsgID: 9, ReplyTo: 8, API: protocol.EndTxn, Resp: true, Error: protocol.PRODUCER_FENCED, Msg: resp},
			legacyEvent{Index: 4, At: 12, Kind: KindSend, Node: "broker-0", Peer: "p1", MsgID: 9, ReplyTo: 8, API: "EndTxn", Resp: true, Error: "PRODUCER_FENCED", Msg: resp},
			`"API":"EndTxn","Error":"PRODUCER_FENCED"`, ""},
		{Event{Kind: KindDeliver, Node: p1, Peer: broker0, MsgID: 3, API: protocol.Produce, Internal: true},
			legacyEvent{Kind: KindDeliver, Node: "p1", Peer: "broker-0", MsgID: 3, API: "Produce", Internal: true},
			`"API":"Produce"`, `"Error"`},
		{Event{Kind: KindCallEnd, Node: p1, Subject: "commitTransaction", Text: "TimeoutException max.block.ms elapsed", API: protocol.NoAPI, Exception: protocol.TimeoutException},
			legacyEvent{Kind: KindCallEnd, Node: "p1", Subject: "commitTransaction", Text: "TimeoutException max.block.ms elapsed", Error: "TimeoutException"},
			`"Error":"TimeoutException"`, `"API"`},
		{Event{Kind: KindCallEnd, Node: p1, Subject: "initTransactions", Text: "PRODUCER_FENCED", API: protocol.NoAPI, Error: protocol.PRODUCER_FENCED},
			legacyEvent{Kind: KindCallEnd, Node: "p1", Subject: "initTransactions", Text: "PRODUCER_FENCED", Error: "PRODUCER_FENCED"},
			`"Error":"PRODUCER_FENCED"`, `"API"`},
		// A state change: no API although its zero key would be Produce.
		{Event{Kind: KindState, Node: broker0, Subject: "txn t", From: names.InternLabel("Ongoing"), To: names.InternLabel("PrepareCommit"), Illegal: true},
			legacyEvent{Kind: KindState, Node: "broker-0", Subject: "txn t", From: "Ongoing", To: "PrepareCommit", Illegal: true},
			`"Kind":"state"`, `"API"`},
	}
	for _, tc := range tests {
		got, err := json.Marshal(Export{names, []Event{tc.e}})
		if err != nil {
			t.Fatal(err)
		}
		got = got[1 : len(got)-1] // the array's one element
		want, _ := json.Marshal(tc.legacy)
		if string(got) != string(want) {
			t.Errorf("JSON of %s:\n got %s\nwant %s", tc.e.Line(names), got, want)
		}
		if !strings.Contains(string(got), tc.want) {
			t.Errorf("JSON of %s lacks %s: %s", tc.e.Line(names), tc.want, got)
		}
		if tc.absent != "" && strings.Contains(string(got), tc.absent+":") {
			t.Errorf("JSON of %s has %s: %s", tc.e.Line(names), tc.absent, got)
		}
		// Inside a map and through a pointer, as the exports hold them.
		doc, _ := json.Marshal(map[string]any{"events": &Export{names, []Event{tc.e, tc.e}}})
		if !strings.Contains(string(doc), `"events":[`+string(want)+`,`+string(want)+`]`) {
			t.Errorf("JSON of an export: %s", doc)
		}
		// An event alone has no names for its codes: encoding/json must
		// fail rather than write a number no reader can name.
		if b, err := json.Marshal(tc.e); err == nil {
			t.Errorf("a bare event marshalled: %s", b)
		}
	}
}

// TestRecordedEventsCarryCodes: the world records a message's API and
// error code, and NoAPI on an event without a message, so that no reader
// comparing against Produce (key 0) matches a note or a state change.
func TestRecordedEventsCarryCodes(t *testing.T) {
	w, _ := fixedWorld(5)
	w.Send(nodea, nodeb, &protocol.EndTxnResponse{ErrorCode: protocol.PRODUCER_FENCED}, 0)
	w.Send(nodea, nodeb, &protocol.ProduceRequest{}, 0)
	w.Note(nodea, "scan", NoteStatement, "nothing")
	runAll(t, w)
	produces := 0
	for _, e := range w.Trace.All() {
		if e.API == protocol.Produce {
			produces++
			if !e.Kind.CarriesMessage() {
				t.Errorf("%s recorded with API Produce", e.Line(w.Names()))
			}
		}
		switch {
		case e.Kind.CarriesMessage() && e.Resp:
			if e.API != protocol.EndTxn || e.Error != protocol.PRODUCER_FENCED || e.ErrorName() != "PRODUCER_FENCED" {
				t.Errorf("%s: API %v error %v", e.Line(w.Names()), e.API, e.Error)
			}
		case !e.Kind.CarriesMessage():
			if e.API != protocol.NoAPI || e.Failed() {
				t.Errorf("%s: API %d error %v", e.Line(w.Names()), e.API, e.Error)
			}
		}
	}
	if produces != 2 {
		t.Errorf("%d Produce events, want its send and its delivery", produces)
	}
}

// TestEventFieldsNameEveryField: EventFields, the one table the export
// and the wire follow, lists every field of Event once, so a field added
// to Event without its entry is caught before an export drops it.
func TestEventFieldsNameEveryField(t *testing.T) {
	listed := map[string]int{}
	for _, f := range EventFields {
		listed[f.Name]++
	}
	rt := reflect.TypeOf(Event{})
	for i := 0; i < rt.NumField(); i++ {
		name := rt.Field(i).Name
		if listed[name] != 1 {
			t.Errorf("Event.%s is in EventFields %d times, want once", name, listed[name])
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("EventFields names %s, which Event does not have", name)
	}
}

// TestExportEscapesAsEncodingJSON: the export writes strings as
// encoding/json did when it wrote the events (HTML characters escaped,
// every byte of a non-ASCII text kept).
func TestExportEscapesAsEncodingJSON(t *testing.T) {
	names := NewNames()
	n, _ := names.Intern("p1")
	e := Event{Kind: KindNote, Node: n, Subject: `a "quoted" <b>&`, Text: "事务\n\tend \u2028 \x01", Contents: OffsetRecord, Unmet: true}
	got, err := json.Marshal(Export{names, []Event{e}})
	if err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(got, &back); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if back[0]["Subject"] != e.Subject || back[0]["Text"] != e.Text || back[0]["Contents"] != "offset-record" || back[0]["Unmet"] != true {
		t.Errorf("round trip: %v", back[0])
	}
	if !strings.Contains(string(got), `\u003cb\u003e\u0026`) || !strings.Contains(string(got), `\u2028`) {
		t.Errorf("not escaped as encoding/json escapes: %s", got)
	}
}
