package protocol

import "strings"

// KeyType of FindCoordinator (FindCoordinatorRequest.CoordinatorType).
const (
	KeyTypeGroup       int8 = 0
	KeyTypeTransaction int8 = 1
)

// Isolation levels of Fetch (IsolationLevel.java).
const (
	ReadUncommitted int8 = 0
	ReadCommitted   int8 = 1
)

// ConsumerReplicaId is the ReplicaId of a Fetch sent by a consumer.
const ConsumerReplicaId int32 = -1

// PartitionError is one partition's result in a response.
type PartitionError struct {
	TopicPartition
	ErrorCode ErrorCode
}

func firstPartitionError(rs []PartitionError) ErrorCode {
	for _, r := range rs {
		if r.ErrorCode != NONE {
			return r.ErrorCode
		}
	}
	return NONE
}

func partitionErrors(rs []PartitionError) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.TopicPartition.String() + ":" + r.ErrorCode.String()
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// FindCoordinatorRequest (key 10) asks any broker which broker coordinates a
// group or a transactional id.
type FindCoordinatorRequest struct {
	Key     string
	KeyType int8
}

// FindCoordinatorResponse names the coordinator's node.
type FindCoordinatorResponse struct {
	ErrorCode ErrorCode
	Key       string
	NodeId    int32
}

// InitProducerIdRequest (key 22) obtains a producer id and epoch.
type InitProducerIdRequest struct {
	// Version is the request's API version; 0 stands for the classic
	// client's (InitProducerIdClassicVersion).
	Version int16
	// TransactionalId is "" for an idempotent-only producer (Kafka's null).
	TransactionalId      string
	TransactionTimeoutMs int32
	ProducerId           int64
	ProducerEpoch        int16
}

// InitProducerIdResponse carries the producer id and epoch.
type InitProducerIdResponse struct {
	ErrorCode     ErrorCode
	ProducerId    int64
	ProducerEpoch int16
}

// AddPartitionsToTxnRequest (key 24) registers partitions with the
// ongoing transaction: from a client (versions 0-3), or from a partition
// leader (versions 4+, KIP-890), which either only asks whether the
// partitions are in the transaction (VerifyOnly, Kafka 3.6+) or, for a
// transaction version 2 client, adds them (Kafka 4.0).
type AddPartitionsToTxnRequest struct {
	// Version is the request's API version; 0 stands for the classic
	// client's (AddPartitionsToTxnClassicVersion).
	Version         int16
	TransactionalId string
	ProducerId      int64
	ProducerEpoch   int16
	// VerifyOnly (v4+) asks the coordinator to check, not to add.
	VerifyOnly bool
	Partitions []TopicPartition
}

// AddPartitionsToTxnResponse carries one error per partition.
type AddPartitionsToTxnResponse struct {
	Results []PartitionError
}

// AddOffsetsToTxnRequest (key 25) adds the group's __consumer_offsets
// partition to the transaction.
type AddOffsetsToTxnRequest struct {
	// Version is the request's API version; 0 stands for the classic
	// client's (AddOffsetsToTxnClassicVersion).
	Version         int16
	TransactionalId string
	ProducerId      int64
	ProducerEpoch   int16
	GroupId         string
}

// AddOffsetsToTxnResponse carries one error.
type AddOffsetsToTxnResponse struct {
	ErrorCode ErrorCode
}

// EndTxnRequest (key 26) commits or aborts the transaction. Version 5
// is transaction version 2: the coordinator bumps the epoch and answers
// with the new producer id and epoch.
type EndTxnRequest struct {
	// Version is the request's API version; 0 stands for the classic
	// client's (EndTxnClassicVersion).
	Version         int16
	TransactionalId string
	ProducerId      int64
	ProducerEpoch   int16
	Committed       bool
}

// EndTxnResponse carries one error and, from version 5, the producer id
// and epoch the next transaction uses.
type EndTxnResponse struct {
	// Version is the version of the request it answers (0: classic).
	Version       int16
	ErrorCode     ErrorCode
	ProducerId    int64
	ProducerEpoch int16
}

// WritableTxnMarker is one transaction's marker entry in WriteTxnMarkers.
type WritableTxnMarker struct {
	ProducerId        int64
	ProducerEpoch     int16
	TransactionResult bool // false = ABORT, true = COMMIT
	Partitions        []TopicPartition
	CoordinatorEpoch  int32
}

// WriteTxnMarkersRequest (key 27) is sent by the transaction coordinator
// to a partition leader, one request per destination broker.
type WriteTxnMarkersRequest struct {
	Markers []WritableTxnMarker
}

// WritableTxnMarkerResult is one marker entry's result.
type WritableTxnMarkerResult struct {
	ProducerId int64
	Partitions []PartitionError
}

// WriteTxnMarkersResponse carries per-partition results per marker.
type WriteTxnMarkersResponse struct {
	Markers []WritableTxnMarkerResult
}

// OffsetEntry is one partition's offset in an offset commit.
type OffsetEntry struct {
	TopicPartition
	CommittedOffset int64
}

// TxnOffsetCommitRequest (key 28) writes offsets inside a transaction, to
// the group coordinator. Under transaction version 2 (v5) the group
// coordinator's broker adds the offsets partition to the transaction
// itself, instead of the client's AddOffsetsToTxn.
type TxnOffsetCommitRequest struct {
	// Version is the request's API version; 0 stands for the classic
	// client's (TxnOffsetCommitClassicVersion).
	Version         int16
	TransactionalId string
	GroupId         string
	ProducerId      int64
	ProducerEpoch   int16
	// GenerationId, MemberId and GroupInstanceId (v3+, KIP-447) are the
	// consumer's group metadata; a simple group's are -1, "" and null
	// (""), which the coordinator does not check against a membership.
	GenerationId    int32
	MemberId        string
	GroupInstanceId string
	Offsets         []OffsetEntry
}

// TxnOffsetCommitResponse carries one error per partition.
type TxnOffsetCommitResponse struct {
	Results []PartitionError
}

// OffsetCommitRequest (key 8) commits offsets outside any transaction.
type OffsetCommitRequest struct {
	GroupId         string
	GenerationId    int32
	MemberId        string
	GroupInstanceId string
	Offsets         []OffsetEntry
}

// OffsetCommitResponse carries one error per partition.
type OffsetCommitResponse struct {
	Results []PartitionError
}

// OffsetFetchRequest (key 9) reads committed offsets.
type OffsetFetchRequest struct {
	GroupId       string
	Partitions    []TopicPartition
	RequireStable bool
}

// OffsetFetchResult is one partition's committed offset (-1: none).
type OffsetFetchResult struct {
	TopicPartition
	CommittedOffset int64
	ErrorCode       ErrorCode
}

// OffsetFetchResponse carries the committed offsets.
type OffsetFetchResponse struct {
	ErrorCode ErrorCode
	Results   []OffsetFetchResult
}

// ProducePartitionData is one partition's batch in a Produce request.
type ProducePartitionData struct {
	TopicPartition
	Records RecordBatch
}

// ProduceRequest (key 0) writes record batches to partition leaders. A
// transactional v12 request (transaction version 2) also has the leader
// add its partitions to the transaction.
type ProduceRequest struct {
	// Version is the request's API version; 0 stands for the classic
	// client's (ProduceClassicVersion).
	Version         int16
	TransactionalId string
	Acks            int16
	TimeoutMs       int32
	Partitions      []ProducePartitionData
}

// ProducePartitionResponse is one partition's result.
type ProducePartitionResponse struct {
	TopicPartition
	ErrorCode  ErrorCode
	BaseOffset int64
}

// ProduceResponse carries per-partition results.
type ProduceResponse struct {
	Responses []ProducePartitionResponse
}

// FetchPartition is one partition a fetcher reads.
type FetchPartition struct {
	TopicPartition
	FetchOffset int64
	// LastFetchedEpoch is the leader epoch of the follower's last batch
	// (Fetch v12+, KIP-595), so the leader can detect a diverged log.
	LastFetchedEpoch int32
}

// FetchRequest (key 1) reads from partition leaders: from consumers
// (ReplicaId -1) and from follower replicas (ReplicaId = their broker id).
type FetchRequest struct {
	ReplicaId int32
	// MaxWaitMs and MinBytes are fetch.max.wait.ms and fetch.min.bytes:
	// a consumer's fetch with fewer than MinBytes to return waits at the
	// leader (DelayedFetch) until that much is there or MaxWaitMs has
	// passed. MaxWaitMs 0 answers at once, as the simulated consumer
	// asks unless told otherwise (broker/1_fetch.go).
	MaxWaitMs      int32
	MinBytes       int32
	IsolationLevel int8
	// SessionEpoch is the incremental fetch session's epoch (KIP-227): 0
	// opens a full session listing every partition; later requests list
	// only the partitions whose fetch offset changed.
	SessionEpoch int32
	Partitions   []FetchPartition
}

// AbortedTransaction is one entry of a read_committed fetch's aborted list.
type AbortedTransaction struct {
	ProducerId  int64
	FirstOffset int64
}

// FetchPartitionData is one partition's data in a Fetch response.
type FetchPartitionData struct {
	TopicPartition
	ErrorCode           ErrorCode
	HighWatermark       int64
	LastStableOffset    int64
	LogStartOffset      int64
	AbortedTransactions []AbortedTransaction
	// Diverging tells a follower its log diverged from the leader's and
	// must be truncated to DivergingEndOffset (Fetch v12+ DivergingEpoch).
	Diverging          bool
	DivergingEpoch     int32
	DivergingEndOffset int64
	Records            []RecordBatch
}

// FetchResponse carries per-partition data.
type FetchResponse struct {
	Responses []FetchPartitionData
}

// APIKey implementations.

func (*FindCoordinatorRequest) APIKey() APIKey     { return FindCoordinator }
func (*FindCoordinatorResponse) APIKey() APIKey    { return FindCoordinator }
func (*InitProducerIdRequest) APIKey() APIKey      { return InitProducerId }
func (*InitProducerIdResponse) APIKey() APIKey     { return InitProducerId }
func (*AddPartitionsToTxnRequest) APIKey() APIKey  { return AddPartitionsToTxn }
func (*AddPartitionsToTxnResponse) APIKey() APIKey { return AddPartitionsToTxn }
func (*AddOffsetsToTxnRequest) APIKey() APIKey     { return AddOffsetsToTxn }
func (*AddOffsetsToTxnResponse) APIKey() APIKey    { return AddOffsetsToTxn }
func (*EndTxnRequest) APIKey() APIKey              { return EndTxn }
func (*EndTxnResponse) APIKey() APIKey             { return EndTxn }
func (*WriteTxnMarkersRequest) APIKey() APIKey     { return WriteTxnMarkers }
func (*WriteTxnMarkersResponse) APIKey() APIKey    { return WriteTxnMarkers }
func (*TxnOffsetCommitRequest) APIKey() APIKey     { return TxnOffsetCommit }
func (*TxnOffsetCommitResponse) APIKey() APIKey    { return TxnOffsetCommit }
func (*OffsetCommitRequest) APIKey() APIKey        { return OffsetCommit }
func (*OffsetCommitResponse) APIKey() APIKey       { return OffsetCommit }
func (*OffsetFetchRequest) APIKey() APIKey         { return OffsetFetch }
func (*OffsetFetchResponse) APIKey() APIKey        { return OffsetFetch }
func (*ProduceRequest) APIKey() APIKey             { return Produce }
func (*ProduceResponse) APIKey() APIKey            { return Produce }
func (*FetchRequest) APIKey() APIKey               { return Fetch }
func (*FetchResponse) APIKey() APIKey              { return Fetch }

// IsResponse implementations.

func (*FindCoordinatorRequest) IsResponse() bool     { return false }
func (*FindCoordinatorResponse) IsResponse() bool    { return true }
func (*InitProducerIdRequest) IsResponse() bool      { return false }
func (*InitProducerIdResponse) IsResponse() bool     { return true }
func (*AddPartitionsToTxnRequest) IsResponse() bool  { return false }
func (*AddPartitionsToTxnResponse) IsResponse() bool { return true }
func (*AddOffsetsToTxnRequest) IsResponse() bool     { return false }
func (*AddOffsetsToTxnResponse) IsResponse() bool    { return true }
func (*EndTxnRequest) IsResponse() bool              { return false }
func (*EndTxnResponse) IsResponse() bool             { return true }
func (*WriteTxnMarkersRequest) IsResponse() bool     { return false }
func (*WriteTxnMarkersResponse) IsResponse() bool    { return true }
func (*TxnOffsetCommitRequest) IsResponse() bool     { return false }
func (*TxnOffsetCommitResponse) IsResponse() bool    { return true }
func (*OffsetCommitRequest) IsResponse() bool        { return false }
func (*OffsetCommitResponse) IsResponse() bool       { return true }
func (*OffsetFetchRequest) IsResponse() bool         { return false }
func (*OffsetFetchResponse) IsResponse() bool        { return true }
func (*ProduceRequest) IsResponse() bool             { return false }
func (*ProduceResponse) IsResponse() bool            { return true }
func (*FetchRequest) IsResponse() bool               { return false }
func (*FetchResponse) IsResponse() bool              { return true }

// TopError implementations: the first error a response carries.

func (m *FindCoordinatorResponse) TopError() ErrorCode    { return m.ErrorCode }
func (m *InitProducerIdResponse) TopError() ErrorCode     { return m.ErrorCode }
func (m *AddPartitionsToTxnResponse) TopError() ErrorCode { return firstPartitionError(m.Results) }
func (m *AddOffsetsToTxnResponse) TopError() ErrorCode    { return m.ErrorCode }
func (m *EndTxnResponse) TopError() ErrorCode             { return m.ErrorCode }
func (m *TxnOffsetCommitResponse) TopError() ErrorCode    { return firstPartitionError(m.Results) }
func (m *OffsetCommitResponse) TopError() ErrorCode       { return firstPartitionError(m.Results) }

// TopError of a WriteTxnMarkers response.
func (m *WriteTxnMarkersResponse) TopError() ErrorCode {
	for _, mk := range m.Markers {
		if e := firstPartitionError(mk.Partitions); e != NONE {
			return e
		}
	}
	return NONE
}

// TopError of an OffsetFetch response.
func (m *OffsetFetchResponse) TopError() ErrorCode {
	if m.ErrorCode != NONE {
		return m.ErrorCode
	}
	for _, r := range m.Results {
		if r.ErrorCode != NONE {
			return r.ErrorCode
		}
	}
	return NONE
}

// TopError of a Produce response.
func (m *ProduceResponse) TopError() ErrorCode {
	for _, r := range m.Responses {
		if r.ErrorCode != NONE {
			return r.ErrorCode
		}
	}
	return NONE
}

// TopError of a Fetch response.
func (m *FetchResponse) TopError() ErrorCode {
	for _, r := range m.Responses {
		if r.ErrorCode != NONE {
			return r.ErrorCode
		}
	}
	return NONE
}
