package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"txnlab/core/protocol"
	"txnlab/core/sim"
	"txnlab/core/workload"
	"txnlab/scenarios"
)

// TestHistoriesAreReadByHand: every event of the library's scripts and
// of the 10,000-event workload, as the worker writes it, is read by
// the hand scanner, not handed to json.Unmarshal (which
// would still decode it, at twice the page's time), and reads back as
// json.Unmarshal reads it; so is every Fetch request's body, and every
// Fetch answer's that carries no records.
func TestHistoriesAreReadByHand(t *testing.T) {
	scripts := map[string]string{"workload": workload.Script(workload.ForEvents(10000))}
	for _, lang := range []string{"", scenarios.Chinese} {
		for _, s := range scenarios.AllIn(lang) {
			scripts[lang+"/"+s.Slug] = s.Script
		}
	}
	events, fetches, byHand := 0, 0, 0
	for name, src := range scripts {
		e := newSessionEngine()
		e.Load(src) // a broken example's error is a history too
		h, err := e.onWire()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, w := range h.Events.list {
			b, err := json.Marshal(w)
			if err != nil {
				t.Fatal(err)
			}
			var fast, slow wireEvent
			if !scanWireEvent(b, &fast) {
				t.Fatalf("%s: event %d left to json.Unmarshal: %s", name, i, b)
			}
			if err := json.Unmarshal(b, &slow); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("%s: event %d read by hand as %+v, by json as %+v", name, i, fast, slow)
			}
			events++
			if w.Msg == nil || w.Msg.API != protocol.Fetch {
				continue
			}
			fetches++
			key := msgKey(w.Msg.API, w.Msg.Resp)
			m := scanBody(key, w.Msg.Body, nil)
			if m == nil {
				if !w.Msg.Resp || !bytes.Contains(w.Msg.Body, []byte(`"Records"`)) {
					t.Fatalf("%s: event %d: body left to json.Unmarshal: %s", name, i, w.Msg.Body)
				}
				continue
			}
			byHand++
			v := reflect.New(messageTypes[key]).Interface()
			if err := json.Unmarshal(w.Msg.Body, v); err != nil || !reflect.DeepEqual(m, v) {
				t.Fatalf("%s: event %d: body read by hand as %+v, by json as %+v (%v)", name, i, m, v, err)
			}
		}
	}
	if events < 10000 {
		t.Fatalf("only %d events read", events)
	}
	t.Logf("%d events, %d of %d Fetch bodies read by hand", events, byHand, fetches)
}

// FuzzScanBody: a Fetch request or answer the scanner reads is what
// json.Unmarshal reads from the same body.
func FuzzScanBody(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"ReplicaId":1,"MaxWaitMs":500,"MinBytes":1,"IsolationLevel":1,"SessionEpoch":-1,"Partitions":[{"Topic":"__consumer_offsets","LastFetchedEpoch":-1},{"Topic":"t","Partition":3,"FetchOffset":7}]}`,
		`{"Partitions":[]}`, `{"Partitions":[{}]}`, `{"IsolationLevel":128}`,
		`{"Responses":[{"Topic":"t","Partition":1,"ErrorCode":-1,"HighWatermark":5,"LastStableOffset":4,"LogStartOffset":1,"AbortedTransactions":[{"ProducerId":2,"FirstOffset":3}],"Diverging":true,"DivergingEpoch":2,"DivergingEndOffset":9}]}`,
		`{"Responses":[{"Records":[]}]}`, `{"Responses":null}`,
	} {
		f.Add([]byte(s), true)
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, resp bool) {
		key := msgKey(protocol.Fetch, resp)
		m := scanBody(key, body, map[string]string{})
		if m == nil {
			return
		}
		v := reflect.New(messageTypes[key]).Interface()
		if err := json.Unmarshal(body, v); err != nil || !reflect.DeepEqual(m, v) {
			t.Fatalf("%q: read by hand as %+v, by json as %+v (%v)", body, m, v, err)
		}
	})
}

// TestEscapedStrings: a string with an escape reads as json reads it.
func TestEscapedStrings(t *testing.T) {
	for in, want := range map[string]wireEvent{
		`{"s":"a\"b","k":1}`:                   {Subject: `a"b`, Kind: 1},
		`{"x":"\u003ctombstone\u003e \u00e9"}`: {Text: "<tombstone> é"},
		`{"no":{"a":["\\","\ud83d\ude00"]}}`:   {Note: &wireNote{Args: []string{`\`, "😀"}}},
	} {
		var w wireEvent
		if !scanWireEvent([]byte(in), &w) || !reflect.DeepEqual(w, want) {
			t.Errorf("%s: read as %+v, want %+v", in, w, want)
		}
	}
}

// decodeOne runs the page's event decoder over an array holding the one
// event in.
func decodeOne(in string) (sim.Event, error) {
	d := newEventDecoder([]byte("["+in+"]"), 1, sim.NewNames())
	if _, err := d.more(time.Now().Add(time.Hour)); err != nil || len(d.out) != 1 {
		return sim.Event{}, fmt.Errorf("%d events, %v", len(d.out), err)
	}
	return d.out[0], nil
}

// TestInvalidBodyFailsTheEvent: the scanner only delimits a message's
// body; decoding the event then refuses one that is not JSON, as
// json.Unmarshal would have refused the event.
func TestInvalidBodyFailsTheEvent(t *testing.T) {
	in := `{"k":1,"a":1,"M":{"a":1,"b":{"x":}}}`
	var w wireEvent
	if !scanWireEvent([]byte(in), &w) {
		t.Fatal("the scanner did not delimit the body")
	}
	if e, err := decodeOne(in); err == nil {
		t.Fatalf("an invalid body was decoded: %+v", e.Msg)
	}
}

// TestOddEventsAreLeftToJSON: what the scanner does not read (a repeated
// or unknown key, white space, a null, fractions, a value out of its
// field's range) the decoder hands to json.Unmarshal, which decodes it
// or refuses it.
func TestOddEventsAreLeftToJSON(t *testing.T) {
	for _, c := range []struct {
		in   string
		want sim.Event
		err  bool
	}{
		{in: `{"t":1,"t":2}`, want: sim.Event{At: 2}},
		{in: `{"T":3}`, want: sim.Event{At: 3}},
		{in: `{ "k" : 4 }`, want: sim.Event{Kind: 4}},
		{in: `{"t":null,"k":5}`, want: sim.Event{Kind: 5}},
		{in: `{"no":{"c":1},"no":{"a":["x"]}}`, want: sim.Event{Note: &sim.Note{Code: 1, Args: []string{"x"}}}},
		{in: `{"t":1.5}`, err: true},
		{in: `{"n":65536}`, err: true},
		{in: `{"n":-1}`, err: true},
		{in: `{"n":-0}`, err: true},
		{in: `{"t":01}`, err: true},
		{in: `{"s":"a`, err: true},
	} {
		var fast wireEvent
		if scanWireEvent([]byte(c.in), &fast) {
			t.Errorf("%s: read by hand as %+v", c.in, fast)
		}
		e, err := decodeOne(c.in)
		if (err != nil) != c.err || err == nil && !reflect.DeepEqual(e, c.want) {
			t.Errorf("%s: decoded %+v, %v; want %+v (error %v)", c.in, e, err, c.want, c.err)
		}
	}
}

// FuzzDecodeWireEvent: whatever the scanner reads, json.Unmarshal reads
// the same (a message's body aside, which it only delimits: decodeEvent
// decodes it, and so refuses one json would have refused).
func FuzzDecodeWireEvent(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"t":12,"m":3,"rt":2,"o":-1,"s":"p1","f":"Empty","to":"Ongoing","x":"→ 中文","xn":true,"n":1,"p":2,"a":0,"e":47,"k":3,"ex":1,"r":true,"in":false,"il":true,"u":true,"c":7,"i":4}`,
		`{"no":{"c":3,"a":["t1","0"]},"M":{"a":22,"r":true,"b":{"Results":[{"Topic":"a\"}"}]}}}`,
		`{"no":{"a":[]}}`, `{"i":-9223372036854775808}`, `{"t":9223372036854775808}`, `{"M":{"b":{]}}`,
		`{"s":"\xff"}`, `{"a":1e3}`, `{"r":truex}`, `{"M":{"a":-32769,"b":{}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var fast, slow wireEvent
		if !scanWireEvent(b, &fast) {
			return
		}
		if err := json.Unmarshal(b, &slow); err != nil {
			if fast.Msg != nil && !json.Valid(fast.Msg.Body) {
				return
			}
			t.Fatalf("%q: read by hand as %+v; json.Unmarshal: %v", b, fast, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%q: read by hand as %+v, by json as %+v", b, fast, slow)
		}
	})
}

// TestRepeatedBodiesShareAMessage: the page keeps a history's messages
// encoded, those whose bodies repeat byte for byte as one message, and
// every event's message decodes to what json.Unmarshal reads from its
// own body.
func TestRepeatedBodiesShareAMessage(t *testing.T) {
	s, _ := scenarios.Get("happy-path")
	e := newSessionEngine()
	if err := e.Load(s.Script); err != nil {
		t.Fatal(err)
	}
	h, err := e.onWire()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(h.Events.list)
	if err != nil {
		t.Fatal(err)
	}
	d := newEventDecoder(raw, len(h.Events.list), sim.NewNames())
	if done, err := d.more(time.Now().Add(time.Hour)); !done || err != nil {
		t.Fatalf("decoded: %v, %v", done, err)
	}
	shared := map[protocol.Message]bool{}
	withMsg := 0
	for i, ev := range d.out {
		w := h.Events.list[i]
		if w.Msg == nil {
			continue
		}
		withMsg++
		shared[ev.Msg] = true
		if _, ok := ev.Msg.(*encodedMessage); !ok {
			t.Fatalf("event %d: message %T kept decoded", i, ev.Msg)
		}
		want := reflect.New(messageTypes[msgKey(w.Msg.API, w.Msg.Resp)]).Interface()
		if err := json.Unmarshal(w.Msg.Body, want); err != nil {
			t.Fatal(err)
		}
		if got := protocol.Decoded(ev.Msg); !reflect.DeepEqual(got, want) {
			t.Fatalf("event %d: message %+v, its body by json %+v", i, got, want)
		}
	}
	if len(shared) >= withMsg || withMsg == 0 {
		t.Fatalf("%d messages kept for %d events with one", len(shared), withMsg)
	}
}

// FuzzEventDecoder: a history's events as the decoder reads them (by
// hand where it can) are the events json.Unmarshal and decodeEvent give,
// messages decoded, whenever those accept the array.
func FuzzEventDecoder(f *testing.F) {
	for _, s := range []string{
		`[]`, `[{}]`, `[{"t":1,"k":2},{"s":"a\"b"},{"M":{"a":1,"b":{"Partitions":[{"Topic":"t"}]}}}]`,
		` [ {"t":1} , {"t" : 2} ] `, `[{"t":1}x]`, `[{"t":1},]`, `[{"k":1},{"k":1},{"no":{"c":2,"a":[]}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var ws []wireEvent
		if json.Unmarshal(b, &ws) != nil {
			return
		}
		want := make([]sim.Event, len(ws))
		names := sim.NewNames()
		for i := range ws {
			e, err := decodeEvent(i, &ws[i], names, nil)
			if err != nil {
				return
			}
			want[i] = e
		}
		d := newEventDecoder(b, 0, sim.NewNames())
		done, err := d.more(time.Now().Add(time.Hour))
		if !done || err != nil {
			t.Fatalf("%q: decoded %v, %v", b, done, err)
		}
		if len(want) == 0 && len(d.out) == 0 {
			return
		}
		if !reflect.DeepEqual(decodedMessages(d.out), decodedMessages(want)) {
			t.Fatalf("%q: decoded %+v, json %+v", b, d.out, want)
		}
	})
}

// decodedMessages is evs with each message decoded, as its readers see
// it (the history's own, not the messages' memo of recent ones).
func decodedMessages(evs []sim.Event) []sim.Event {
	out := make([]sim.Event, len(evs))
	for i, e := range evs {
		if e.Msg != nil {
			e.Msg = protocol.Decoded(e.Msg)
		}
		out[i] = e
	}
	return out
}
