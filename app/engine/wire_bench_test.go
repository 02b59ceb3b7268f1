package engine

import (
	"testing"
	"time"

	"txnlab/core/workload"
	"txnlab/scenarios"
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
	msg := wireReplyOf(b, e)
	for b.Loop() {
		decodeWireReply(b, msg, len(e.events))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(e.events)), "ns/event")
}

// BenchmarkWireDecodeLibrary is the page's side for the histories a
// lesson's playgrounds bring: every library script's, read and decoded
// as Remote.Work decodes them.
func BenchmarkWireDecodeLibrary(b *testing.B) {
	var msgs [][]byte
	var counts []int
	events := 0
	for _, s := range scenarios.All() {
		e := newSessionEngine()
		e.Load(s.Script) // a broken example's error is a history too
		msgs, counts, events = append(msgs, wireReplyOf(b, e)), append(counts, len(e.events)), events+len(e.events)
	}
	for b.Loop() {
		for i, msg := range msgs {
			decodeWireReply(b, msg, counts[i])
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
}

// wireReplyOf is e's history as the worker's reply to a run.
func wireReplyOf(b *testing.B, e *sessionEngine) []byte {
	b.Helper()
	h, err := e.onWire()
	if err != nil {
		b.Fatal(err)
	}
	msg, err := encodeReply(reply{Op: "run", Eng: 1, ID: 1, Gen: 1, Hist: h})
	if err != nil {
		b.Fatal(err)
	}
	return msg
}

// decodeWireReply reads msg and decodes its n events, as Remote.Work does.
func decodeWireReply(b *testing.B, msg []byte, n int) {
	var m reply
	if err := decodeReply(msg, &m); err != nil {
		b.Fatal(err)
	}
	names, err := decodeNames(m.Hist.Names)
	if err != nil {
		b.Fatal(err)
	}
	d := newEventDecoder(m.Hist.Events.raw, n, names)
	if done, err := d.more(time.Now().Add(time.Hour)); !done || err != nil {
		b.Fatalf("decoded: %v, %v", done, err)
	}
}
