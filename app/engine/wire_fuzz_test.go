package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// FuzzNextElement: the event decoder's splitter finds, in any JSON
// array, the elements json.Unmarshal finds, and on any input it stops
// with an answer, never a panic or a loop.
func FuzzNextElement(f *testing.F) {
	for _, s := range []string{`[]`, ` [ {"a":1} , {"b":"}\""} ] `, `[1,"x",[2,{"c":[]}],null,true]`, `[{"a":"\\"}]`, `[`, `[{]`, `]`, `[1,]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		start := bytes.IndexByte(b, '[')
		var got [][]byte
		for at, n := start+1, 0; start >= 0 && n <= len(b); n++ {
			s, e, err := nextElement(b, at)
			if err != nil || s < 0 {
				break
			}
			if e <= at {
				t.Fatalf("no progress at %d in %q", at, b)
			}
			got, at = append(got, b[s:e]), e
		}
		var want []json.RawMessage
		if start < 0 || !json.Valid(b) || json.Unmarshal(b, &want) != nil || len(bytes.TrimSpace(b[:start])) > 0 {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d elements, json has %d", b, len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(bytes.TrimSpace(got[i]), bytes.TrimSpace(want[i])) {
				t.Fatalf("%q: element %d is %q, json's %q", b, i, got[i], want[i])
			}
		}
	})
}

// TestReplySplitsAtItsOnlyNewline: a reply with a history crosses as its
// JSON, one newline and the events, however many lines its script has,
// and decodes back to the same script and events.
func TestReplySplitsAtItsOnlyNewline(t *testing.T) {
	src := "cluster brokers=1\nproducer p1 txn=t1\n\"quoted\\nnot a line\"\n"
	evs := []wireEvent{{At: 1, Subject: "a\nb"}, {At: 2, Text: "x"}}
	b, err := encodeReply(reply{Op: "run", Eng: 3, Hist: &wireHistory{Src: src, Events: wireEvents{list: evs}}})
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte{'\n'}); n != 1 {
		t.Fatalf("%d newlines in %q, want 1", n, b)
	}
	var m reply
	if err := decodeReply(b, &m); err != nil {
		t.Fatal(err)
	}
	var got []wireEvent
	if err := json.Unmarshal(m.Hist.Events.raw, &got); err != nil {
		t.Fatal(err)
	}
	if m.Op != "run" || m.Eng != 3 || m.Hist.Src != src || len(got) != 2 || got[0].Subject != "a\nb" || got[1].Text != "x" {
		t.Fatalf("decoded %+v, events %+v", m, got)
	}
	if err := decodeReply([]byte(`{"op":"state"}`+"\n[]"), &reply{}); err == nil {
		t.Fatal("events without a history were accepted")
	}
}

// FuzzDecodeReply: any message gives a reply or an error, never a panic.
func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{`{"op":"run","hist":{"src":"a"}}` + "\n[{}]", `{"op":"ready"}`, "\n", `{"op":"run"}` + "\n[]", `{`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var m reply
		if decodeReply(b, &m) == nil && bytes.IndexByte(b, '\n') >= 0 && m.Hist == nil {
			t.Fatalf("%q: events accepted without a history", b)
		}
	})
}

// TestWireStepsRoundTrip: a history's steps cross as lists and come back
// as they were; lists that disagree in length are an error.
func TestWireStepsRoundTrip(t *testing.T) {
	for _, steps := range [][]step{
		nil,
		{{digest: "0123456789abcdef"}},
		{{line: 3, digest: "aa"}, {events: 4, line: 5, now: 7, results: 1, digest: "bb"}, {events: 9, now: 12, results: 2, digest: "cc"}},
	} {
		got, err := stepsOnWire(steps).steps()
		if err != nil || !slices.Equal(got, steps) {
			t.Errorf("%v: back as %v, %v", steps, got, err)
		}
	}
	two := stepsOnWire([]step{{digest: "aa"}, {events: 1, digest: "bb"}})
	for _, bad := range []func(w *wireSteps){
		func(w *wireSteps) { w.Lines = "0" },
		func(w *wireSteps) { w.Now = "0 0 0" },
		func(w *wireSteps) { w.Results = "0 x" },
		func(w *wireSteps) { w.Events = "0  1" },
		func(w *wireSteps) { w.Digests = "aa" },
	} {
		w := two
		bad(&w)
		if got, err := w.steps(); err == nil {
			t.Errorf("%+v: read as %v, want an error", w, got)
		}
	}
}
