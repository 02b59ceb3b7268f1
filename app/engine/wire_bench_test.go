package engine

import (
	"testing"
	"time"

	"txnlab/core/workload"
)

// wireHistoryOf is the 10,000-event workload's history as the worker
// puts it on the wire (the longest the benchmarks of the page use).
func wireHistoryOf(b *testing.B) *sessionEngine {
	b.Helper()
	e := newSessionEngine()
	if err := e.Load(workload.Script(workload.ForEvents(10000))); err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkWireEncodeHistory is the worker's side of a history's
// crossing: the events made wire events, and the reply written.
func BenchmarkWireEncodeHistory(b *testing.B) {
	e := wireHistoryOf(b)
	var n int
	for b.Loop() {
		h, err := e.onWire()
		if err != nil {
			b.Fatal(err)
		}
		out, err := encodeReply(reply{Op: "run", Eng: 1, ID: 1, Gen: 1, Hist: h})
		if err != nil {
			b.Fatal(err)
		}
		n = len(out)
	}
	b.ReportMetric(float64(n)/float64(len(e.events)), "B/event")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(e.events)), "ns/event")
}

// BenchmarkWireDecodeHistory is the page's side: the reply read and its
// events decoded, as Remote.Work decodes them.
func BenchmarkWireDecodeHistory(b *testing.B) {
	e := wireHistoryOf(b)
	h, err := e.onWire()
	if err != nil {
		b.Fatal(err)
	}
	msg, err := encodeReply(reply{Op: "run", Eng: 1, ID: 1, Gen: 1, Hist: h})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var m reply
		if err := decodeReply(msg, &m); err != nil {
			b.Fatal(err)
		}
		names, err := decodeNames(m.Hist.Names)
		if err != nil {
			b.Fatal(err)
		}
		d := newEventDecoder(m.Hist.Events.raw, len(e.events), names)
		if done, err := d.more(time.Now().Add(time.Hour)); !done || err != nil {
			b.Fatalf("decoded: %v, %v", done, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(e.events)), "ns/event")
}
