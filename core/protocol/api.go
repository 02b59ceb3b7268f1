// Package protocol holds the Kafka messages the simulation exchanges: API
// keys, request and response structs with Kafka's field names, record
// batches and error codes with Kafka's names and numbers.
//
// Nested request layouts (Topics[]{Name, Partitions[]}) are flattened to
// one entry per topic-partition; field names are otherwise Kafka's.
package protocol

import (
	"cmp"
	"strconv"
	"strings"
)

// APIKey is a Kafka API key, numbered as in ApiKeys.java.
type APIKey int16

// The API keys the simulation uses.
const (
	Produce            APIKey = 0
	Fetch              APIKey = 1
	ListOffsets        APIKey = 2
	Metadata           APIKey = 3
	OffsetCommit       APIKey = 8
	OffsetFetch        APIKey = 9
	FindCoordinator    APIKey = 10
	JoinGroup          APIKey = 11
	Heartbeat          APIKey = 12
	LeaveGroup         APIKey = 13
	SyncGroup          APIKey = 14
	InitProducerId     APIKey = 22
	AddPartitionsToTxn APIKey = 24
	AddOffsetsToTxn    APIKey = 25
	EndTxn             APIKey = 26
	WriteTxnMarkers    APIKey = 27
	TxnOffsetCommit    APIKey = 28
	// The operator's APIs (KIP-664), protocol/admin.go.
	DescribeProducers    APIKey = 61
	DescribeTransactions APIKey = 65
	ListTransactions     APIKey = 66

	// NoAPI is no API at all: what a trace event that carries no message
	// records. Key 0 is Produce, so the zero key cannot mean "none".
	NoAPI APIKey = -1
)

// The request versions a Kafka 3.5 Java client sends (a message whose
// Version is 0 was sent with these), and the ones KIP-890 introduced.
// Only versions that differ from the classic ones appear in a message's
// Summary; VersionOf gives the version of any message.
const (
	ProduceClassicVersion            int16 = 9
	InitProducerIdClassicVersion     int16 = 4
	AddOffsetsToTxnClassicVersion    int16 = 3
	AddPartitionsToTxnClassicVersion int16 = 3
	EndTxnClassicVersion             int16 = 3
	TxnOffsetCommitClassicVersion    int16 = 3
	// ProduceTV2Version is the first Produce version whose transactional
	// requests have the leader add the partition (transaction version 2).
	ProduceTV2Version int16 = 12
	// ProduceAbortableVersion is the first Produce version whose client
	// handles TRANSACTION_ABORTABLE from a failed verification (KIP-890,
	// Kafka 3.8); older ones get INVALID_TXN_STATE instead.
	ProduceAbortableVersion int16 = 11
	// AddPartitionsToTxnBrokerVersion is the first broker-to-broker
	// version (batched, VerifyOnly); AddPartitionsToTxnAbortableVersion
	// the first whose answers may carry TRANSACTION_ABORTABLE.
	AddPartitionsToTxnBrokerVersion    int16 = 4
	AddPartitionsToTxnAbortableVersion int16 = 5
	// EndTxnTV2Version is transaction version 2's EndTxn: the response
	// carries ProducerId and ProducerEpoch.
	EndTxnTV2Version int16 = 5
	// TxnOffsetCommitTV2Version has the broker add the offsets
	// partition to the transaction (no AddOffsetsToTxn);
	// TxnOffsetCommitAbortableVersion is the first whose client handles
	// TRANSACTION_ABORTABLE from a failed verification (Kafka 3.8).
	TxnOffsetCommitTV2Version       int16 = 5
	TxnOffsetCommitAbortableVersion int16 = 4
)

// VersionOf is the API version a message was sent with: its Version
// field when set, else the classic client's version of that API (0 for
// the APIs whose version the simulation does not vary).
func VersionOf(m Message) int16 {
	switch m := m.(type) {
	case *ProduceRequest:
		return orClassic(m.Version, ProduceClassicVersion)
	case *AddPartitionsToTxnRequest:
		return orClassic(m.Version, AddPartitionsToTxnClassicVersion)
	case *InitProducerIdRequest:
		return orClassic(m.Version, InitProducerIdClassicVersion)
	case *AddOffsetsToTxnRequest:
		return orClassic(m.Version, AddOffsetsToTxnClassicVersion)
	case *EndTxnRequest:
		return orClassic(m.Version, EndTxnClassicVersion)
	case *EndTxnResponse:
		return orClassic(m.Version, EndTxnClassicVersion)
	case *TxnOffsetCommitRequest:
		return orClassic(m.Version, TxnOffsetCommitClassicVersion)
	case Encoded:
		return VersionOf(m.Decode())
	}
	return 0
}

func orClassic(v, classic int16) int16 {
	switch v {
	case 0:
		return classic
	case Version0:
		return 0
	}
	return v
}

// Version0 is what a message's Version field holds for version 0 of its
// API, since the zero value stands for the classic client's version.
const Version0 int16 = -1

// VersionField is the Version field value of a request sent with API
// version v: what a wire listener stores for the version a client used
// (librdkafka sends AddPartitionsToTxn v0), so VersionOf returns v.
func VersionField(v int16) int16 {
	if v == 0 {
		return Version0
	}
	return v
}

// APIs lists every API the simulation speaks, in key order.
var APIs = []APIKey{Produce, Fetch, ListOffsets, Metadata, OffsetCommit, OffsetFetch, FindCoordinator,
	JoinGroup, Heartbeat, LeaveGroup, SyncGroup, InitProducerId, AddPartitionsToTxn, AddOffsetsToTxn, EndTxn, WriteTxnMarkers, TxnOffsetCommit,
	DescribeProducers, DescribeTransactions, ListTransactions}

var apiNames = map[APIKey]string{
	Produce: "Produce", Fetch: "Fetch", ListOffsets: "ListOffsets", Metadata: "Metadata", OffsetCommit: "OffsetCommit", OffsetFetch: "OffsetFetch",
	FindCoordinator: "FindCoordinator", JoinGroup: "JoinGroup", Heartbeat: "Heartbeat", LeaveGroup: "LeaveGroup", SyncGroup: "SyncGroup",
	InitProducerId:     "InitProducerId",
	AddPartitionsToTxn: "AddPartitionsToTxn", AddOffsetsToTxn: "AddOffsetsToTxn",
	EndTxn: "EndTxn", WriteTxnMarkers: "WriteTxnMarkers", TxnOffsetCommit: "TxnOffsetCommit",
	DescribeProducers: "DescribeProducers", DescribeTransactions: "DescribeTransactions", ListTransactions: "ListTransactions",
}

// apiNameTable is apiNames indexed by key: every message sent and
// delivered is named in the trace, so the lookup is on the hot path.
var apiNameTable = func() (t [128]string) {
	for k, n := range apiNames {
		t[k] = n
	}
	return t
}()

// String returns Kafka's name of the API.
func (k APIKey) String() string {
	if k >= 0 && int(k) < len(apiNameTable) && apiNameTable[k] != "" {
		return apiNameTable[k]
	}
	return "API" + strconv.Itoa(int(k))
}

// APIByName finds an API by Kafka's name (case-sensitive, as Kafka spells it).
func APIByName(name string) (APIKey, bool) {
	for _, k := range APIs {
		if apiNames[k] == name {
			return k, true
		}
	}
	return 0, false
}

// TopicPartition names one partition of a topic. It is written
// "TOPIC/PARTITION" in scripts and traces.
type TopicPartition struct {
	Topic     string
	Partition int32
}

// String renders the partition as "topic/0".
func (tp TopicPartition) String() string {
	return tp.Topic + "/" + strconv.Itoa(int(tp.Partition))
}

// Less orders partitions by topic, then partition number.
func (tp TopicPartition) Less(o TopicPartition) bool {
	if tp.Topic != o.Topic {
		return tp.Topic < o.Topic
	}
	return tp.Partition < o.Partition
}

// Compare orders partitions as Less does, for slices.SortFunc.
func (tp TopicPartition) Compare(o TopicPartition) int {
	if c := strings.Compare(tp.Topic, o.Topic); c != 0 {
		return c
	}
	return cmp.Compare(tp.Partition, o.Partition)
}

// Internal topic names, as in Kafka.
const (
	TransactionStateTopic = "__transaction_state"
	ConsumerOffsetsTopic  = "__consumer_offsets"
)

// Message is a request or a response on the simulated network.
type Message interface {
	// APIKey is the API this message belongs to.
	APIKey() APIKey
	// IsResponse tells a response from a request.
	IsResponse() bool
	// Summary is the canonical one-line rendering of the message's fields,
	// stable across runs: it feeds the trace digest and the diagram labels.
	Summary() string
}

// Encoded is a message kept in its encoded form until it is read. The
// playground's page keeps a long history's messages so: decoded, they
// are a graph of pointers that its garbage collector marks in one task
// (BENCHMARKS.md). Decode gives the message itself, which its readers
// share and never change. The functions of this package that read a message's fields decode it
// first (after the types they know, so that the simulation's own
// messages pay nothing); code that switches on a message's type calls
// Decoded.
type Encoded interface {
	Message
	Decode() Message
}

// Decoded is m, or the message m stands for when it is Encoded.
func Decoded(m Message) Message {
	if e, ok := m.(Encoded); ok {
		return e.Decode()
	}
	return m
}

// Error extracts the first non-NONE error code a response carries, so the
// trace and the diagram can colour a response by it. Requests return NONE.
func Error(m Message) ErrorCode {
	switch m := m.(type) {
	case interface{ TopError() ErrorCode }:
		return m.TopError()
	case Encoded:
		return Error(m.Decode())
	}
	return NONE
}

func quoteIfNeeded(s string) string {
	if s == "" {
		return `""`
	}
	if strings.ContainsAny(s, " \"#=,[]") {
		return strconv.Quote(s)
	}
	return s
}

func tpList(tps []TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// The first request versions whose clients understand PRODUCER_FENCED
// (KIP-588, Kafka 2.7); older ones are answered INVALID_PRODUCER_EPOCH
// instead, which they handle the same way. Kafka 3.5's KafkaApis maps
// the error in handleInitProducerIdRequest (version < 4),
// handleEndTxnRequest, handleAddPartitionToTxnRequest and
// handleAddOffsetsToTxnRequest (version < 2). TxnOffsetCommit has no
// mapping: its fenced answer is the log's INVALID_PRODUCER_EPOCH.
const (
	InitProducerIdFencedVersion     int16 = 4
	EndTxnFencedVersion             int16 = 2
	AddPartitionsToTxnFencedVersion int16 = 2
	AddOffsetsToTxnFencedVersion    int16 = 2
)

// ErrorForVersion is the error a response to req carries for err:
// PRODUCER_FENCED becomes INVALID_PRODUCER_EPOCH for a request version
// older than the API's FencedVersion, as KafkaApis answers old clients.
// Every other error, and every other API, passes unchanged.
func ErrorForVersion(req Message, err ErrorCode) ErrorCode {
	if err != PRODUCER_FENCED {
		return err
	}
	var first int16
	switch req.(type) {
	case *InitProducerIdRequest:
		first = InitProducerIdFencedVersion
	case *EndTxnRequest:
		first = EndTxnFencedVersion
	case *AddPartitionsToTxnRequest:
		first = AddPartitionsToTxnFencedVersion
	case *AddOffsetsToTxnRequest:
		first = AddOffsetsToTxnFencedVersion
	default:
		return err
	}
	if VersionOf(req) < first {
		return INVALID_PRODUCER_EPOCH
	}
	return err
}
