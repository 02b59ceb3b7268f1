package protocol

import (
	"strconv"
)

// ControlType is the type of a control record (ControlRecordType.java).
type ControlType int16

// Control record types used by transactions.
const (
	ControlAbort  ControlType = 0
	ControlCommit ControlType = 1
)

// String returns Kafka's name of the control type.
func (c ControlType) String() string {
	if c == ControlCommit {
		return "COMMIT"
	}
	return "ABORT"
}

// NoProducerId and NoProducerEpoch are Kafka's "absent" values (-1).
const (
	NoProducerId    int64 = -1
	NoProducerEpoch int16 = -1
	NoSequence      int32 = -1
)

// Record is one record of a batch. Data records carry a key and a value;
// records of the internal topics also carry their typed payload so the
// inspector can show them without decoding bytes.
type Record struct {
	Key   string
	Value string
	// TxnLog is set on __transaction_state records; nil Value there is a
	// tombstone (the transactional id expired).
	TxnLog *TransactionLogValue `json:",omitempty"`
	// Offset is set on __consumer_offsets offset-commit records.
	Offset *OffsetCommitValue `json:",omitempty"`
	// Tombstone marks a record with a null value.
	Tombstone bool `json:",omitempty"`
	// NullKey marks a record whose key is null, not empty: what a real
	// client sends for a record without a key (the Kafka listener).
	NullKey bool `json:",omitempty"`
	// Timestamp is the record's CreateTime as its client set it, in the
	// client's epoch ms; 0 when the client gave none (the simulation's
	// own records), and then the batch's append time stands.
	Timestamp int64 `json:",omitempty"`
	// Headers are the record's headers, in order, as a client sent them.
	Headers []RecordHeader `json:",omitempty"`
}

// RecordHeader is one record header (Kafka's Header: a string key and a
// nullable byte value).
type RecordHeader struct {
	Key       string
	Value     string
	NullValue bool `json:",omitempty"`
}

// RecordBatch is a v2 record batch as the log stores it: the producer id,
// epoch and base sequence live in the batch header, as in Kafka.
type RecordBatch struct {
	BaseOffset           int64
	PartitionLeaderEpoch int32
	// Timestamp is the log append time (virtual ms), set by the leader.
	Timestamp       int64
	ProducerId      int64
	ProducerEpoch   int16
	BaseSequence    int32
	IsTransactional bool
	IsControl       bool
	// ControlType and CoordinatorEpoch are the control record's key type
	// and EndTransactionMarker value, set when IsControl.
	ControlType      ControlType `json:",omitempty"`
	CoordinatorEpoch int32       `json:",omitempty"`
	Records          []Record

	// logged memoizes Logged: replicas copy the leader's batch, memo and
	// all, instead of rendering it again.
	logged string
}

// Logged is Summary for a batch stored in a log, rendered once. A log's
// batches never change after the append, so the memo cannot go stale;
// batches still being built (a producer's) use Summary.
func (b *RecordBatch) Logged() string {
	if b.logged == "" {
		b.logged = b.Summary()
	}
	return b.logged
}

// LastOffset is the offset of the batch's last record.
func (b *RecordBatch) LastOffset() int64 { return b.BaseOffset + int64(len(b.Records)) - 1 }

// NextOffset is the offset after the batch.
func (b *RecordBatch) NextOffset() int64 { return b.BaseOffset + int64(len(b.Records)) }

// LastSequence is the sequence of the batch's last record.
func (b *RecordBatch) LastSequence() int32 {
	if b.BaseSequence < 0 {
		return NoSequence
	}
	return b.BaseSequence + int32(len(b.Records)) - 1
}

// Summary is a compact rendering: values, or the marker.
func (b *RecordBatch) Summary() string {
	// One buffer, appended to in place: every append to a log renders its
	// batch, so this runs on the simulation's hot path.
	buf := make([]byte, 0, 64)
	if b.IsControl {
		buf = append(buf, b.ControlType.String()...)
		buf = appendInt(buf, "(pid=", b.ProducerId)
		buf = appendInt(buf, " epoch=", int64(b.ProducerEpoch))
		buf = appendInt(buf, " coordinatorEpoch=", int64(b.CoordinatorEpoch))
		return string(append(buf, ')'))
	}
	buf = append(buf, '[')
	for i, r := range b.Records {
		if i > 0 {
			buf = append(buf, ' ')
		}
		switch {
		case r.TxnLog != nil:
			buf = append(append(buf, r.Key...), ':')
			buf = r.TxnLog.appendSummary(buf)
		case r.Offset != nil:
			buf = appendInt(append(buf, r.Key...), ":", r.Offset.CommittedOffset)
		case r.Tombstone:
			buf = append(append(buf, r.Key...), ":<tombstone>"...)
		case r.NullKey:
			buf = append(buf, "<null>="...)
			buf = append(buf, quoteIfNeeded(r.Value)...)
		default:
			buf = append(buf, quoteIfNeeded(r.Key)...)
			buf = append(buf, '=')
			buf = append(buf, quoteIfNeeded(r.Value)...)
		}
		if len(r.Headers) > 0 {
			// Headers only a real client sends: nothing else's summary
			// (nor digest) changes.
			buf = append(buf, '{')
			for j, h := range r.Headers {
				if j > 0 {
					buf = append(buf, ',')
				}
				v := quoteIfNeeded(h.Value)
				if h.NullValue {
					v = "<null>"
				}
				buf = append(append(append(buf, quoteIfNeeded(h.Key)...), '='), v...)
			}
			buf = append(buf, '}')
		}
	}
	buf = append(buf, ']')
	if b.ProducerId >= 0 {
		buf = appendInt(buf, " pid=", b.ProducerId)
		buf = appendInt(buf, " epoch=", int64(b.ProducerEpoch))
		buf = appendInt(buf, " seq=", int64(b.BaseSequence))
	}
	if b.IsTransactional {
		buf = append(buf, " txn"...)
	}
	return string(buf)
}

// appendInt appends label and then n in decimal.
func appendInt(buf []byte, label string, n int64) []byte {
	return strconv.AppendInt(append(buf, label...), n, 10)
}

// TransactionState is the coordinator's state of a transactional id, with
// the ids of TransactionState.java.
type TransactionState int8

// The transaction states.
const (
	Empty             TransactionState = 0
	Ongoing           TransactionState = 1
	PrepareCommit     TransactionState = 2
	PrepareAbort      TransactionState = 3
	CompleteCommit    TransactionState = 4
	CompleteAbort     TransactionState = 5
	Dead              TransactionState = 6
	PrepareEpochFence TransactionState = 7
)

var txnStateNames = [...]string{"Empty", "Ongoing", "PrepareCommit", "PrepareAbort",
	"CompleteCommit", "CompleteAbort", "Dead", "PrepareEpochFence"}

// String returns Kafka's name of the state.
func (s TransactionState) String() string {
	if s >= 0 && int(s) < len(txnStateNames) {
		return txnStateNames[s]
	}
	return "TransactionState(" + strconv.Itoa(int(s)) + ")"
}

// TransactionStateByName parses a state name.
func TransactionStateByName(name string) (TransactionState, bool) {
	for i, n := range txnStateNames {
		if n == name {
			return TransactionState(i), true
		}
	}
	return 0, false
}

// ValidPreviousStates is Kafka 3.5's TransactionState.validPreviousStates:
// the states a transactional id may move to each state from. The UI draws
// the coordinator's state diagram from this table and the coordinator
// asserts every transition against it.
var ValidPreviousStates = map[TransactionState][]TransactionState{
	Empty:             {Empty, CompleteCommit, CompleteAbort},
	Ongoing:           {Ongoing, Empty, CompleteCommit, CompleteAbort},
	PrepareCommit:     {Ongoing},
	PrepareAbort:      {Ongoing, PrepareEpochFence},
	CompleteCommit:    {PrepareCommit},
	CompleteAbort:     {PrepareAbort},
	Dead:              {Empty, CompleteAbort, CompleteCommit},
	PrepareEpochFence: {Ongoing},
}

// ValidTransition reports whether Kafka allows a transactional id to move
// from one state to another.
func ValidTransition(from, to TransactionState) bool {
	for _, s := range ValidPreviousStates[to] {
		if s == from {
			return true
		}
	}
	return false
}

// TransactionLogValue is the value of a __transaction_state record
// (TransactionLogValue.json, v0): the full target state of a transition.
type TransactionLogValue struct {
	ProducerId                       int64
	ProducerEpoch                    int16
	TransactionTimeoutMs             int32
	TransactionStatus                TransactionState
	TransactionPartitions            []TopicPartition
	TransactionLastUpdateTimestampMs int64
	TransactionStartTimestampMs      int64
}

// Summary renders the value compactly.
func (v *TransactionLogValue) Summary() string { return string(v.appendSummary(nil)) }

func (v *TransactionLogValue) appendSummary(buf []byte) []byte {
	buf = append(buf, "{state="...)
	buf = append(buf, quoteIfNeeded(v.TransactionStatus.String())...)
	buf = appendInt(buf, " pid=", v.ProducerId)
	buf = appendInt(buf, " epoch=", int64(v.ProducerEpoch))
	if len(v.TransactionPartitions) > 0 {
		buf = append(buf, " partitions=["...)
		for i, tp := range v.TransactionPartitions {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendInt(append(buf, tp.Topic...), "/", int64(tp.Partition))
		}
		buf = append(buf, ']')
	}
	return append(buf, '}')
}

// OffsetCommitValue is the value of a __consumer_offsets offset record.
type OffsetCommitValue struct {
	Group           string
	Partition       TopicPartition
	CommittedOffset int64
}

// recordBatchOverhead is DefaultRecordBatch.RECORD_BATCH_OVERHEAD: the
// bytes of a v2 batch's header.
const recordBatchOverhead = 61

// SizeInBytes is the batch's size as Kafka would store it (record batch
// v2: DefaultRecordBatch.sizeInBytes, DefaultRecord.sizeInBytes), with
// no compression and no headers: what fetch.min.bytes counts. A control
// record's key is 4 bytes and its value 6 (EndTransactionMarker); an
// internal record counts its key and a value of its rendered text.
func (b *RecordBatch) SizeInBytes() int {
	n := recordBatchOverhead
	for i := range b.Records {
		r := &b.Records[i]
		key, value := len(r.Key), len(r.Value)
		switch {
		case b.IsControl:
			key, value = 4, 6
		case r.Tombstone:
			value = -1
		}
		// attributes, timestamp delta (0), offset delta, key, value, no headers
		body := 1 + 1 + varintSize(int64(i)) + varintSize(int64(key)) + max(key, 0) + varintSize(int64(value)) + max(value, 0) + 1
		n += varintSize(int64(body)) + body
	}
	return n
}

// varintSize is ByteUtils.sizeOfVarint: the zig-zag varint's length.
func varintSize(v int64) int {
	u := uint64((v << 1) ^ (v >> 63))
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}
