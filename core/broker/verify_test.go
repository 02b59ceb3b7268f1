package broker

import (
	"testing"

	"txnlab/core/protocol"
)

// What the leader answers the producer when the coordinator's answer to
// its verification is not NONE (AddPartitionsToTxnManager's mapping and
// handleProduceAppend's postVerificationCallback): a fenced producer gets
// INVALID_PRODUCER_EPOCH (a Produce response never carries
// PRODUCER_FENCED), TRANSACTION_ABORTABLE only reaches clients from
// Produce v11, and the coordinator's retriable errors become
// NOT_ENOUGH_REPLICAS, which every producer retries. A TxnOffsetCommit's
// client retries the coordinator errors itself; TRANSACTION_ABORTABLE
// reaches it from v4, and a lost verification is
// COORDINATOR_LOAD_IN_PROGRESS (maybeConvertOffsetCommitError).
func TestVerificationErrorMapping(t *testing.T) {
	produce := func(v int16) *verification {
		return &verification{produce: &protocol.ProduceRequest{Version: v}, version: v}
	}
	offsets := &verification{version: protocol.TxnOffsetCommitTV2Version}
	classicOffsets := &verification{version: protocol.TxnOffsetCommitClassicVersion}
	tests := []struct {
		v    *verification
		in   protocol.ErrorCode
		want protocol.ErrorCode
	}{
		{produce(9), protocol.NONE, protocol.NONE},
		{produce(9), protocol.PRODUCER_FENCED, protocol.INVALID_PRODUCER_EPOCH},
		{produce(12), protocol.PRODUCER_FENCED, protocol.INVALID_PRODUCER_EPOCH},
		{produce(9), protocol.INVALID_TXN_STATE, protocol.INVALID_TXN_STATE},
		{produce(9), protocol.TRANSACTION_ABORTABLE, protocol.INVALID_TXN_STATE},
		{produce(10), protocol.TRANSACTION_ABORTABLE, protocol.INVALID_TXN_STATE},
		{produce(11), protocol.TRANSACTION_ABORTABLE, protocol.TRANSACTION_ABORTABLE},
		{produce(12), protocol.TRANSACTION_ABORTABLE, protocol.TRANSACTION_ABORTABLE},
		{produce(9), protocol.CONCURRENT_TRANSACTIONS, protocol.NOT_ENOUGH_REPLICAS},
		{produce(12), protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.NOT_ENOUGH_REPLICAS},
		{produce(12), protocol.COORDINATOR_NOT_AVAILABLE, protocol.NOT_ENOUGH_REPLICAS},
		{produce(12), protocol.NOT_COORDINATOR, protocol.NOT_ENOUGH_REPLICAS},
		{produce(12), protocol.REQUEST_TIMED_OUT, protocol.NOT_ENOUGH_REPLICAS}, // no answer: NETWORK_EXCEPTION in Kafka
		{produce(12), protocol.INVALID_PRODUCER_ID_MAPPING, protocol.INVALID_PRODUCER_ID_MAPPING},
		{offsets, protocol.CONCURRENT_TRANSACTIONS, protocol.CONCURRENT_TRANSACTIONS},
		{offsets, protocol.PRODUCER_FENCED, protocol.INVALID_PRODUCER_EPOCH},
		{offsets, protocol.TRANSACTION_ABORTABLE, protocol.TRANSACTION_ABORTABLE},
		{classicOffsets, protocol.TRANSACTION_ABORTABLE, protocol.INVALID_TXN_STATE},
		{offsets, protocol.REQUEST_TIMED_OUT, protocol.COORDINATOR_LOAD_IN_PROGRESS},
	}
	b := &Broker{}
	for _, tc := range tests {
		if got := b.mapVerificationError(tc.in, tc.v); got != tc.want {
			t.Errorf("v%d %v: %v, want %v", tc.v.version, tc.in, got, tc.want)
		}
	}
}
