package protocol

import "testing"

// sampleMessages has one message of every type, with two parts where the
// type has repeated parts.
func sampleMessages() []Message {
	tp0, tp1 := TopicPartition{"orders", 0}, TopicPartition{"orders", 1}
	return []Message{
		&FindCoordinatorRequest{Key: "t", KeyType: KeyTypeTransaction},
		&FindCoordinatorResponse{Key: "t", NodeId: 1},
		&InitProducerIdRequest{TransactionalId: "t", TransactionTimeoutMs: 60000, ProducerId: -1, ProducerEpoch: -1},
		&InitProducerIdResponse{ProducerId: 7, ProducerEpoch: 3},
		&AddPartitionsToTxnRequest{TransactionalId: "t", ProducerId: 7, ProducerEpoch: 3, Partitions: []TopicPartition{tp0, tp1}},
		&AddPartitionsToTxnResponse{Results: []PartitionError{{tp0, NONE}, {tp1, CONCURRENT_TRANSACTIONS}}},
		&AddOffsetsToTxnRequest{TransactionalId: "t", ProducerId: 7, ProducerEpoch: 3, GroupId: "g"},
		&AddOffsetsToTxnResponse{},
		&EndTxnRequest{TransactionalId: "t", ProducerId: 7, ProducerEpoch: 3, Committed: true},
		&EndTxnResponse{Version: EndTxnTV2Version, ErrorCode: INVALID_TXN_STATE, ProducerId: 7, ProducerEpoch: 4},
		&WriteTxnMarkersRequest{Markers: []WritableTxnMarker{{ProducerId: 7, ProducerEpoch: 3, TransactionResult: true, Partitions: []TopicPartition{tp0}, CoordinatorEpoch: 2},
			{ProducerId: 8, ProducerEpoch: 0, Partitions: []TopicPartition{tp1}}}},
		&WriteTxnMarkersResponse{Markers: []WritableTxnMarkerResult{{ProducerId: 7, Partitions: []PartitionError{{tp0, NONE}, {tp1, NOT_ENOUGH_REPLICAS}}}}},
		&TxnOffsetCommitRequest{TransactionalId: "t", GroupId: "g", ProducerId: 7, Offsets: []OffsetEntry{{tp0, 5}}},
		&TxnOffsetCommitResponse{Results: []PartitionError{{tp0, NONE}}},
		&OffsetCommitRequest{GroupId: "g", Offsets: []OffsetEntry{{tp0, 5}}},
		&OffsetCommitResponse{Results: []PartitionError{{tp0, NONE}}},
		&OffsetFetchRequest{GroupId: "g", Partitions: []TopicPartition{tp0}, RequireStable: true},
		&OffsetFetchResponse{Results: []OffsetFetchResult{{tp0, 5, NONE}}},
		&ProduceRequest{TransactionalId: "t", Acks: -1, Partitions: []ProducePartitionData{{tp0, RecordBatch{ProducerId: 7, ProducerEpoch: 3, BaseSequence: 4, IsTransactional: true, Records: []Record{{Key: "k", Value: "v"}}}}}},
		&ProduceResponse{Responses: []ProducePartitionResponse{{tp0, NONE, 12}, {tp1, OUT_OF_ORDER_SEQUENCE_NUMBER, -1}}},
		&FetchRequest{ReplicaId: -1, IsolationLevel: ReadCommitted, Partitions: []FetchPartition{{TopicPartition: tp0, FetchOffset: 3}}},
		&FetchResponse{Responses: []FetchPartitionData{{TopicPartition: tp0, HighWatermark: 4, LastStableOffset: 4, AbortedTransactions: []AbortedTransaction{{7, 0}}}}},
	}
}

// TestFieldTables checks that every message yields exactly the fields its
// table lists: the scenario parser offers the table, the matcher reads
// the values, so a field missing from either would never match.
func TestFieldTables(t *testing.T) {
	for _, m := range sampleMessages() {
		specs := Fields(m.APIKey(), m.IsResponse())
		if len(specs) == 0 {
			t.Errorf("%T has no field table", m)
			continue
		}
		for _, f := range specs {
			if len(FieldValues(m, f.Name)) == 0 {
				t.Errorf("%T: field %s in the table yields no value", m, f.Name)
			}
		}
		matchFields(m, func(n string, _ FieldValue) {
			if _, ok := FieldByName(m.APIKey(), m.IsResponse(), n); !ok {
				t.Errorf("%T yields %s, which its table does not list", m, n)
			}
		})
	}
}

// TestFieldEqualsSamePart: fields of one part must match together.
func TestFieldEqualsSamePart(t *testing.T) {
	resp := &ProduceResponse{Responses: []ProducePartitionResponse{
		{TopicPartition{"orders", 0}, NONE, 12}, {TopicPartition{"orders", 1}, OUT_OF_ORDER_SEQUENCE_NUMBER, -1}}}
	part := func(tp string, code ErrorCode) map[string]FieldValue {
		return map[string]FieldValue{"Partitions": {Str: tp}, "ErrorCode": {Int: int64(code)}}
	}
	if !FieldEquals(resp, part("orders/0", NONE)) || !FieldEquals(resp, part("orders/1", OUT_OF_ORDER_SEQUENCE_NUMBER)) {
		t.Error("a part's own fields do not match")
	}
	if FieldEquals(resp, part("orders/1", NONE)) {
		t.Error("orders/1 matched NONE, which belongs to orders/0")
	}
	end := &EndTxnRequest{TransactionalId: "t", ProducerId: 7, ProducerEpoch: 3, Committed: true}
	if !FieldEquals(end, map[string]FieldValue{"ProducerEpoch": {Int: 3}, "Committed": {Int: 1}}) ||
		FieldEquals(end, map[string]FieldValue{"Committed": {Int: 0}}) {
		t.Error("EndTxn's fields")
	}
}

// TestMatchingSeesOnlyTheMessagesOwnFields: the walk the message panel
// lists is the one scripts match on, but a script sees only the fields
// its table names, where the message itself carries them: a batch
// header's BaseOffset is no field of a Produce request, and the
// partitions named inside a __transaction_state record a Fetch returns
// are not the fetched partitions.
func TestMatchingSeesOnlyTheMessagesOwnFields(t *testing.T) {
	tp := TopicPartition{"__transaction_state", 3}
	fetch := &FetchResponse{Responses: []FetchPartitionData{{TopicPartition: tp, Records: []RecordBatch{{Records: []Record{
		{Key: "t", TxnLog: &TransactionLogValue{TransactionPartitions: []TopicPartition{{"orders", 0}}}}}}}}}}
	if got := FieldValues(fetch, "Partitions"); len(got) != 1 || got[0].Str != tp.String() || got[0].Part != 0 {
		t.Errorf("Partitions of the Fetch answer: %+v", got)
	}
	if got := FieldValues(fetch, "RecordCount"); len(got) != 1 || got[0].Int != 1 {
		t.Errorf("RecordCount %+v", got)
	}
	if !hasField(MessageFields(fetch), "[0]", "orders/0") {
		t.Error("the panel does not show the record's partitions")
	}
	produce := &ProduceRequest{Partitions: []ProducePartitionData{{Records: RecordBatch{BaseOffset: 5}}}}
	if got := FieldValues(produce, "BaseOffset"); len(got) != 0 {
		t.Errorf("a Produce request matched BaseOffset %+v", got)
	}
}

func hasField(fs []Field, name, value string) bool {
	for _, f := range fs {
		if f.Name == name && f.Value == value {
			return true
		}
	}
	return false
}

// The fields a script matches to tell messages apart: the version a
// message was sent with (a classic client's holds 0 and was sent as v3),
// VerifyOnly, and the producer fields an EndTxn response carries only
// from v5.
func TestVersionAndEndTxnResponseFields(t *testing.T) {
	add := &AddPartitionsToTxnRequest{TransactionalId: "t"}
	verify := &AddPartitionsToTxnRequest{Version: AddPartitionsToTxnBrokerVersion, VerifyOnly: true}
	classic := &EndTxnResponse{ProducerId: NoProducerId, ProducerEpoch: NoProducerEpoch}
	tv2 := &EndTxnResponse{Version: EndTxnTV2Version, ProducerId: 7, ProducerEpoch: 1}
	for _, c := range []struct {
		m    Message
		want map[string]FieldValue
		ok   bool
	}{
		{add, map[string]FieldValue{"Version": {Int: 3}, "VerifyOnly": {Int: 0}}, true},
		{add, map[string]FieldValue{"Version": {Int: 0}}, false},
		{verify, map[string]FieldValue{"Version": {Int: 4}, "VerifyOnly": {Int: 1}}, true},
		{verify, map[string]FieldValue{"Version": {Int: 3}}, false},
		{classic, map[string]FieldValue{"Version": {Int: 3}}, true},
		{classic, map[string]FieldValue{"ProducerEpoch": {Int: -1}}, false},
		{tv2, map[string]FieldValue{"ProducerId": {Int: 7}, "ProducerEpoch": {Int: 1}}, true},
		{&ProduceRequest{}, map[string]FieldValue{"Version": {Int: int64(ProduceClassicVersion)}}, true},
		{&TxnOffsetCommitRequest{GenerationId: NoGenerationId}, map[string]FieldValue{"Version": {Int: 3}, "GenerationId": {Int: -1}}, true},
	} {
		if got := FieldEquals(c.m, c.want); got != c.ok {
			t.Errorf("%T%+v matches %v: %v, want %v", c.m, c.m, c.want, got, c.ok)
		}
	}
}
