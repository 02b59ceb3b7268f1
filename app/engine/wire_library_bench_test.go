package engine

import (
	"testing"
	"time"

	"txnlab/scenarios"
)

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
		h, err := e.onWire()
		if err != nil {
			b.Fatal(err)
		}
		msg, err := encodeReply(reply{Op: "run", Eng: 1, ID: 1, Gen: 1, Hist: h})
		if err != nil {
			b.Fatal(err)
		}
		msgs, counts, events = append(msgs, msg), append(counts, len(e.events)), events+len(e.events)
	}
	for b.Loop() {
		for i, msg := range msgs {
			var m reply
			if err := decodeReply(msg, &m); err != nil {
				b.Fatal(err)
			}
			names, err := decodeNames(m.Hist.Names)
			if err != nil {
				b.Fatal(err)
			}
			d := newEventDecoder(m.Hist.Events.raw, counts[i], names)
			if done, err := d.more(time.Now().Add(time.Hour)); !done || err != nil {
				b.Fatalf("decoded: %v, %v", done, err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*events), "ns/event")
}
