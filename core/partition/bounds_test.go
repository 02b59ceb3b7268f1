package partition

import (
	"strings"
	"testing"

	"txnlab/core/protocol"
)

func TestOffsetsInOrder(t *testing.T) {
	for _, c := range []struct {
		hw, leo, lso int64
		want         string // "" when the order holds
	}{
		{0, 0, 0, ""},
		{5, 9, 3, ""},
		{9, 9, 9, ""},
		{10, 9, 9, "high watermark 10 is outside [0, log end offset 9]"},
		{-1, 9, 0, "high watermark -1"},
		{5, 9, 6, "last stable offset 6 is outside [0, high watermark 5]"},
		{5, 9, -1, "last stable offset -1"},
	} {
		err := offsetsInOrder("t/0", c.hw, c.leo, c.lso)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("hw=%d leo=%d lso=%d: %v, want no error", c.hw, c.leo, c.lso, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("hw=%d leo=%d lso=%d: %v, want %q", c.hw, c.leo, c.lso, err, c.want)
		}
	}
}

// A log whose high watermark was set past its end (by anything but
// SetHighWatermark, which clamps) is reported.
func TestCheckOffsetsOnLog(t *testing.T) {
	l := NewLog(protocol.TopicPartition{Topic: "t", Partition: 0})
	l.AppendAsLeader(protocol.RecordBatch{ProducerId: -1, Records: []protocol.Record{{Key: "k"}}}, 0, 0, AllChecks)
	l.SetHighWatermark(5)
	if err := l.CheckOffsets(); err != nil {
		t.Fatalf("clamped high watermark: %v", err)
	}
	l.HighWatermark = 2
	if err := l.CheckOffsets(); err == nil {
		t.Fatal("high watermark 2 past log end 1 was not reported")
	}
}
