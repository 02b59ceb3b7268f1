package app

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"txnlab/app/session"
	"txnlab/core/protocol"
	"txnlab/core/sim"
	"txnlab/scenarios"
)

// svgTexts are the label texts of an SVG drawing with their x, and the
// drawing's width.
func svgTexts(t *testing.T, svg string) (texts []struct {
	class, text string
	x           int
}, width int) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var cur *struct {
		class, text string
		x           int
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return texts, width
		} else if err != nil {
			t.Fatal(err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
			}
			if el.Name.Local == "svg" && width == 0 {
				width, _ = strconv.Atoi(attr["width"])
			}
			if el.Name.Local == "text" && (strings.Contains(attr["class"], "message-label") || strings.Contains(attr["class"], "note-label")) {
				x, _ := strconv.Atoi(attr["x"])
				texts = append(texts, struct {
					class, text string
					x           int
				}{attr["class"], "", x})
				cur = &texts[len(texts)-1]
			}
		case xml.CharData:
			if cur != nil {
				cur.text += string(el)
			}
		case xml.EndElement:
			if el.Name.Local == "text" {
				cur = nil
			}
		}
	}
}

// TestLabelsFitTheDiagram: on the page and in the SVG export, every
// arrow label and note lies inside the diagram — responses to the first
// lane do not start left of its edge, notes of the last lane do not run
// past its right edge — and the export writes every label whole.
func TestLabelsFitTheDiagram(t *testing.T) {
	for _, sc := range scenarios.All() {
		e := session.New()
		if err := e.Load(sc.Script); err != nil {
			t.Fatal(err)
		}
		e.Seek(e.Len())
		for _, f := range []diagramFilter{{}, {Replication: true}} {
			l := layoutOf(e.History(), e.Events(), len(e.Events()), f)
			var page strings.Builder
			for c := 0; c*chunkRows < len(l.Rows); c++ {
				page.WriteString(rawSVG("rows", drawChunk(l, e.Events(), c, 0)))
			}
			texts, _ := svgTexts(t, `<svg width="`+itoa(l.Width)+`">`+page.String()+`</svg>`)
			for _, tx := range texts {
				if tx.x < 0 || tx.x+textWidth(tx.text) > l.Width {
					t.Errorf("%s (page, %+v): %q at x=%d..%d outside the diagram's 0..%d", sc.Slug, f, tx.text, tx.x, tx.x+textWidth(tx.text), l.Width)
				}
			}
			svg := diagramSVG(e.History(), e.Events(), f)
			texts, width := svgTexts(t, svg)
			for _, tx := range texts {
				if tx.x < 0 || tx.x+textWidth(tx.text) > width {
					t.Errorf("%s (SVG, %+v): %q at x=%d..%d outside the drawing's 0..%d", sc.Slug, f, tx.text, tx.x, tx.x+textWidth(tx.text), width)
				}
				if strings.Contains(tx.text, "…") {
					t.Errorf("%s (SVG): label cut: %q", sc.Slug, tx.text)
				}
			}
		}
	}
}

// TestMermaidCarriesWholeLabels: the Mermaid export writes each arrow's
// whole text, never cut with "…".
func TestMermaidCarriesWholeLabels(t *testing.T) {
	e := session.New()
	sc, _ := scenarioBySlug("consume-transform-produce")
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	e.Seek(e.Len())
	m := mermaid(e.Events(), diagramFilter{})
	if strings.Contains(m, "…") {
		t.Errorf("the Mermaid export cuts labels:\n%s", m)
	}
	long := 0
	for i := range e.Events() {
		ev := &e.Events()[i]
		if ev.Kind != sim.KindSend || ev.Internal || len([]rune(messageText(ev))) <= maxLabel {
			continue
		}
		long++
		if !strings.Contains(m, mermaidText(messageText(ev))) {
			t.Errorf("the Mermaid export lacks %q", messageText(ev))
		}
	}
	if long == 0 {
		t.Fatal("no label longer than the page's limit: the test proves nothing")
	}
}

// TestLabelsAreBuiltFromFields: an arrow's label is the message's own
// fields written in the label style (short names, routine fields and NONE
// errors left out, at every depth), while the trace's summary keeps
// Kafka's names.
func TestLabelsAreBuiltFromFields(t *testing.T) {
	for _, c := range []struct {
		e    sim.Event
		want string
	}{
		{sim.Event{API: "InitProducerId", Msg: &protocol.InitProducerIdRequest{TransactionalId: "t", TransactionTimeoutMs: 60000, ProducerId: -1, ProducerEpoch: -1}},
			"InitProducerId(txn=t)"},
		{sim.Event{API: "WriteTxnMarkers", Msg: &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{{ProducerId: 0, ProducerEpoch: 1, TransactionResult: true,
			Partitions: []protocol.TopicPartition{{Topic: "orders", Partition: 0}}, CoordinatorEpoch: 2}}}},
			"WriteTxnMarkers([{pid=0 epoch=1 COMMIT [orders/0] coordEpoch=2}])"},
		{sim.Event{API: "Fetch", Resp: true, Msg: &protocol.FetchResponse{Responses: []protocol.FetchPartitionData{{TopicPartition: protocol.TopicPartition{Topic: "orders"},
			HighWatermark: 3, LastStableOffset: 2, AbortedTransactions: []protocol.AbortedTransaction{{ProducerId: 4, FirstOffset: 1}}}}}},
			"Fetch → [orders/0:{hw=3 lso=2 AbortedTransactions=[{pid=4 FirstOffset=1}]}]"},
		{sim.Event{API: "EndTxn", Resp: true, Error: "PRODUCER_FENCED", Msg: &protocol.EndTxnResponse{ErrorCode: protocol.PRODUCER_FENCED}},
			"EndTxn → PRODUCER_FENCED"},
	} {
		if got := messageText(&c.e); got != c.want {
			t.Errorf("label %q, want %q", got, c.want)
		}
		if s := c.e.Msg.Summary(); strings.Contains(s, "pid=") || strings.Contains(s, "hw=") {
			t.Errorf("the canonical summary took the label's names: %q", s)
		}
	}
}
