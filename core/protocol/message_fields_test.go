package protocol

import (
	"reflect"
	"strings"
	"testing"
)

func fieldMap(fs []Field) map[string]string {
	m := map[string]string{}
	for _, f := range fs {
		if _, ok := m[f.Name]; !ok {
			m[f.Name] = f.Value
		}
	}
	return m
}

// TestProduceShowsTheBatchHeader: the Produce panel shows what the
// scenario is about — the batch's producer id, epoch and base sequence
// and whether it is transactional — and no control-batch field on a data
// batch (its zero ControlType read "ABORT").
func TestProduceShowsTheBatchHeader(t *testing.T) {
	m := &ProduceRequest{TransactionalId: "tx-a", Acks: -1, TimeoutMs: 30000, Partitions: []ProducePartitionData{{
		TopicPartition: TopicPartition{"orders", 0},
		Records:        RecordBatch{ProducerId: 7, ProducerEpoch: 2, BaseSequence: 5, IsTransactional: true, Records: []Record{{Key: "k", Value: "v"}}},
	}}}
	fs := fieldMap(MessageFields(m))
	for name, want := range map[string]string{"TransactionalId": `"tx-a"`, "Acks": "-1", "TopicPartition": "orders/0",
		"ProducerId": "7", "ProducerEpoch": "2", "BaseSequence": "5", "IsTransactional": "true", "IsControl": "false",
		"Key": `"k"`, "Value": `"v"`} {
		if got, ok := fs[name]; !ok || got != want {
			t.Errorf("%s = %q (present %v), want %q", name, got, ok, want)
		}
	}
	for _, absent := range []string{"ControlType", "CoordinatorEpoch", "Tombstone", "TxnLog", "Offset", "Records "} {
		if _, ok := fs[absent]; ok {
			t.Errorf("a data batch shows %s", absent)
		}
	}
	idem := fieldMap(MessageFields(&ProduceRequest{Acks: 1}))
	if idem["TransactionalId"] != "null" {
		t.Errorf("a non-transactional Produce has TransactionalId %q, want null", idem["TransactionalId"])
	}
}

// TestControlBatchAndEnums: a control batch has its ControlType and
// coordinator epoch; enums read by name and number.
func TestControlBatchAndEnums(t *testing.T) {
	m := &FetchResponse{Responses: []FetchPartitionData{{TopicPartition: TopicPartition{"orders", 0}, ErrorCode: NOT_LEADER_OR_FOLLOWER,
		Records: []RecordBatch{{IsControl: true, IsTransactional: true, ControlType: ControlCommit, CoordinatorEpoch: 3, Records: []Record{{}}}}}}}
	fs := fieldMap(MessageFields(m))
	if fs["ControlType"] != "COMMIT (1)" || fs["CoordinatorEpoch"] != "3" {
		t.Errorf("control batch: ControlType %q CoordinatorEpoch %q", fs["ControlType"], fs["CoordinatorEpoch"])
	}
	if !strings.HasPrefix(fs["ErrorCode"], "NOT_LEADER_OR_FOLLOWER (") {
		t.Errorf("ErrorCode %q", fs["ErrorCode"])
	}
	for _, absent := range []string{"Diverging", "DivergingEpoch", "DivergingEndOffset"} {
		if _, ok := fs[absent]; ok {
			t.Errorf("a Fetch answer of a log that did not diverge shows %s", absent)
		}
	}
	if got := fieldMap(MessageFields(&FetchRequest{IsolationLevel: ReadCommitted}))["IsolationLevel"]; got != "READ_COMMITTED (1)" {
		t.Errorf("IsolationLevel %q", got)
	}
	if got := fieldMap(MessageFields(&FindCoordinatorRequest{KeyType: KeyTypeTransaction}))["KeyType"]; got != "TRANSACTION (1)" {
		t.Errorf("KeyType %q", got)
	}
}

// TestEveryMessageListsEveryTopField: no top-level field of any message
// goes missing from the panel.
func TestEveryMessageListsEveryTopField(t *testing.T) {
	all := []Message{&FindCoordinatorRequest{}, &FindCoordinatorResponse{}, &InitProducerIdRequest{}, &InitProducerIdResponse{},
		&AddPartitionsToTxnRequest{}, &AddPartitionsToTxnResponse{}, &AddOffsetsToTxnRequest{}, &AddOffsetsToTxnResponse{},
		&EndTxnRequest{}, &EndTxnResponse{}, &WriteTxnMarkersRequest{}, &WriteTxnMarkersResponse{}, &TxnOffsetCommitRequest{},
		&TxnOffsetCommitResponse{}, &OffsetCommitRequest{}, &OffsetCommitResponse{}, &OffsetFetchRequest{}, &OffsetFetchResponse{},
		&ProduceRequest{}, &ProduceResponse{}, &FetchRequest{}, &FetchResponse{},
		&JoinGroupRequest{}, &JoinGroupResponse{}, &SyncGroupRequest{}, &SyncGroupResponse{}, &HeartbeatRequest{}, &HeartbeatResponse{},
		&LeaveGroupRequest{}, &LeaveGroupResponse{}, &MetadataRequest{}, &MetadataResponse{}, &ListOffsetsRequest{}, &ListOffsetsResponse{},
		&DescribeProducersRequest{}, &DescribeProducersResponse{}, &DescribeTransactionsRequest{}, &DescribeTransactionsResponse{},
		&ListTransactionsRequest{}, &ListTransactionsResponse{}}
	if len(all) != 2*len(APIs) {
		t.Fatalf("%d messages listed for %d APIs", len(all), len(APIs))
	}
	for _, m := range all {
		top := map[string]bool{}
		for _, f := range MessageFields(m) {
			if f.Depth == 0 {
				top[f.Name] = true
			}
		}
		rt := reflect.TypeOf(m).Elem()
		for i := 0; i < rt.NumField(); i++ {
			if f := rt.Field(i); f.IsExported() && !top[f.Name] {
				t.Errorf("%s: field %s is not listed", rt.Name(), f.Name)
			}
		}
	}
}

// TestFieldsAreBounded: a huge Fetch answer stops at MaxFields and says so.
func TestFieldsAreBounded(t *testing.T) {
	recs := make([]Record, 2000)
	fs := MessageFields(&FetchResponse{Responses: []FetchPartitionData{{Records: []RecordBatch{{Records: recs}}}}})
	if len(fs) != MaxFields+1 || fs[MaxFields].Name != "…" {
		t.Errorf("%d fields, last %+v", len(fs), fs[len(fs)-1])
	}
}
