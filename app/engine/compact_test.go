package engine

import (
	"encoding/json"
	"reflect"
	"testing"

	"txnlab/core/protocol"
)

// The compact form decodes, with encoding/json, to what json.Marshal's
// form decodes to, from fewer bytes: zero fields left out, nil and empty
// slices kept apart, zero elements kept, embedded fields flattened,
// strings escaped as JSON escapes them.
func TestCompactJSONDecodesToTheSameValue(t *testing.T) {
	for _, m := range []protocol.Message{
		&protocol.FetchResponse{Responses: []protocol.FetchPartitionData{
			{TopicPartition: protocol.TopicPartition{Topic: "t\"\\\n<é>\u2028", Partition: 3}},
			{},
			{AbortedTransactions: []protocol.AbortedTransaction{}, HighWatermark: -1, Records: []protocol.RecordBatch{{ProducerId: -1, Records: []protocol.Record{{Key: "k", TxnLog: &protocol.TransactionLogValue{}}}}}},
		}},
		&protocol.ProduceRequest{},
		&protocol.EndTxnRequest{TransactionalId: "tx", Committed: true, ProducerEpoch: 0},
	} {
		full, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		compact, err := compactJSON(m)
		if err != nil {
			t.Fatalf("%T: %v", m, err)
		}
		if len(compact) >= len(full) {
			t.Errorf("%T: compact %d bytes, json.Marshal %d", m, len(compact), len(full))
		}
		a := reflect.New(reflect.TypeOf(m).Elem()).Interface()
		b := reflect.New(reflect.TypeOf(m).Elem()).Interface()
		if err := json.Unmarshal(full, a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(compact, b); err != nil {
			t.Fatalf("%T: %v in %s", m, err, compact)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%T: compact %s decodes to %#v, json.Marshal's form to %#v", m, compact, b, a)
		}
	}
}
