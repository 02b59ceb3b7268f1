package diagram

import (
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// TestLabelsAreBuiltFromFields: an arrow's label is the message's own
// fields written in the label style (short names, routine fields and NONE
// errors left out, at every depth), while the trace's summary keeps
// Kafka's names.
func TestLabelsAreBuiltFromFields(t *testing.T) {
	for _, c := range []struct {
		e    sim.Event
		want string
	}{
		{sim.Event{API: protocol.InitProducerId, Msg: &protocol.InitProducerIdRequest{TransactionalId: "t", TransactionTimeoutMs: 60000, ProducerId: -1, ProducerEpoch: -1}},
			"InitProducerId(txn=t)"},
		{sim.Event{API: protocol.WriteTxnMarkers, Msg: &protocol.WriteTxnMarkersRequest{Markers: []protocol.WritableTxnMarker{{ProducerId: 0, ProducerEpoch: 1, TransactionResult: true,
			Partitions: []protocol.TopicPartition{{Topic: "orders", Partition: 0}}, CoordinatorEpoch: 2}}}},
			"WriteTxnMarkers([{pid=0 epoch=1 COMMIT [orders/0] coordEpoch=2}])"},
		{sim.Event{API: protocol.Fetch, Resp: true, Msg: &protocol.FetchResponse{Responses: []protocol.FetchPartitionData{{TopicPartition: protocol.TopicPartition{Topic: "orders"},
			HighWatermark: 3, LastStableOffset: 2, AbortedTransactions: []protocol.AbortedTransaction{{ProducerId: 4, FirstOffset: 1}}}}}},
			"Fetch → [orders/0:{hw=3 lso=2 AbortedTransactions=[{pid=4 FirstOffset=1}]}]"},
		{sim.Event{API: protocol.EndTxn, Resp: true, Error: protocol.PRODUCER_FENCED, Msg: &protocol.EndTxnResponse{ErrorCode: protocol.PRODUCER_FENCED}},
			"EndTxn → PRODUCER_FENCED"},
	} {
		if got := MessageText(&c.e); got != c.want {
			t.Errorf("label %q, want %q", got, c.want)
		}
		if s := c.e.Msg.Summary(); strings.Contains(s, "pid=") || strings.Contains(s, "hw=") {
			t.Errorf("the canonical summary took the label's names: %q", s)
		}
	}
}

// fitTextByOne is fitText as it was first written, the definition the
// one-pass version keeps: cut one character at a time until it fits.
func fitTextByOne(s string, w int) string {
	n := len([]rune(s))
	for n > 2 && TextWidth(s) > w {
		n--
		s = Truncate(s, n)
	}
	return s
}

func TestFitTextCutsAsOneCharacterAtATime(t *testing.T) {
	texts := []string{
		"", "a", "ab", "abc", "…", "事务", "事务协调器",
		"WriteTxnMarkers(markers=[pid=0 epoch=1 COMMIT orders-0 orders-1 orders-2 orders-3])",
		"EndTxn → PRODUCER_FENCED",
		"写入事务标记(生产者=0 纪元=1 提交 orders-0 orders-1)",
		"mixed 混合 text with 宽 characters and ascii 🙂 emoji",
		strings.Repeat("orders-12 ", 20),
	}
	for _, s := range texts {
		for w := -1; w <= TextWidth(s)+10; w++ {
			if got, want := fitText(s, w), fitTextByOne(s, w); got != want {
				t.Fatalf("fitText(%q, %d) = %q, want %q", s, w, got, want)
			}
		}
	}
}
