package engine

import (
	"fmt"
	"testing"

	"txnlab/core/protocol"
)

// TestRecentMessagesStayDecoded: a message read again soon is the one
// decoded before (a step draws its chunk of arrows again), and one read
// after recentSize others is decoded anew, so that the page holds only a
// few decoded messages.
func TestRecentMessagesStayDecoded(t *testing.T) {
	memo := newDecodeMemo()
	key := msgKey(protocol.FindCoordinator, false)
	msgs := make([]protocol.Message, recentSize+1)
	for i := range msgs {
		msgs[i] = memo.message(key, fmt.Appendf(nil, `{"Key":"t%d"}`, i))
	}
	first := msgs[0].(protocol.Encoded).Decode()
	if again := msgs[0].(protocol.Encoded).Decode(); again != first {
		t.Fatal("a message read twice in a row was decoded twice")
	}
	if fc, ok := first.(*protocol.FindCoordinatorRequest); !ok || fc.Key != "t0" {
		t.Fatalf("decoded as %#v", first)
	}
	for _, m := range msgs[1:] {
		m.(protocol.Encoded).Decode()
	}
	if later := msgs[0].(protocol.Encoded).Decode(); later == first {
		t.Fatalf("a message read after %d others was still kept decoded", recentSize)
	}
}
