package sim

import (
	"testing"

	"txnlab/core/protocol"
)

// What a batch holds decides how the diagram draws its append: a marker,
// a transaction-log record, a committed offset or data.
func TestContentsOf(t *testing.T) {
	for _, c := range []struct {
		b    protocol.RecordBatch
		want Contents
	}{
		{protocol.RecordBatch{Records: []protocol.Record{{Key: "k", Value: "v"}}}, DataRecords},
		{protocol.RecordBatch{IsControl: true, ControlType: protocol.ControlCommit}, CommitMarker},
		{protocol.RecordBatch{IsControl: true, ControlType: protocol.ControlAbort}, AbortMarker},
		{protocol.RecordBatch{Records: []protocol.Record{{TxnLog: &protocol.TransactionLogValue{}}}}, TransactionRecord},
		{protocol.RecordBatch{Records: []protocol.Record{{Offset: &protocol.OffsetCommitValue{}}}}, OffsetRecord},
		{protocol.RecordBatch{}, DataRecords},
	} {
		if got := ContentsOf(&c.b); got != c.want {
			t.Errorf("%s: %v, want %v", c.b.Summary(), got, c.want)
		}
	}
}
