package protocol

import (
	"strconv"
	"strings"
)

// A message's summary is built from its fields, once per message type
// (summarize): Summary writes them with Kafka's names for the trace's
// canonical lines, and SummaryIn writes the same fields in another style,
// the playground's arrow labels, which shorten the names and leave out
// routine fields. Neither is read back: what a label shows is decided by
// field, never by rewriting the canonical text.

// SummaryStyle is a way of writing a summary's fields other than Kafka's.
type SummaryStyle struct {
	// Names renames fields (absent: Kafka's name); a field renamed ""
	// is written as its value alone.
	Names map[string]string
	// Skip leaves a field out. depth is 0 for the message's own fields,
	// 1 for those of a part (a marker, a partition of a Fetch answer), and
	// so on; value is as it would be written.
	Skip func(depth int, name, value string) bool
}

// SummaryIn writes m's summary in a style; a nil style is Summary.
func SummaryIn(m Message, st *SummaryStyle) string {
	s, ok := m.(interface{ summarize(*fields) })
	if !ok {
		if e, encoded := m.(Encoded); encoded {
			return SummaryIn(e.Decode(), st)
		}
		return m.Summary()
	}
	f := fields{style: st}
	s.summarize(&f)
	return f.String()
}

// summary is the canonical Summary of a message type.
func summary(s interface{ summarize(*fields) }) string {
	var f fields
	s.summarize(&f)
	return f.String()
}

// fields writes name=value pairs in the given order, in a style.
type fields struct {
	b     strings.Builder
	style *SummaryStyle
	depth int
}

// part starts the fields of a part of the message, one level deeper.
func (f *fields) part() fields { return fields{style: f.style, depth: f.depth + 1} }

func (f *fields) add(k, v string) {
	name := k
	if st := f.style; st != nil {
		if st.Skip != nil && st.Skip(f.depth, k, v) {
			return
		}
		if n, ok := st.Names[k]; ok {
			name = n
		}
	}
	if f.b.Len() > 0 {
		f.b.WriteByte(' ')
	}
	if name != "" {
		f.b.WriteString(name)
		f.b.WriteByte('=')
	}
	f.b.WriteString(v)
}
func (f *fields) i(k string, v int64)  { f.add(k, strconv.FormatInt(v, 10)) }
func (f *fields) s(k string, v string) { f.add(k, quoteIfNeeded(v)) }
func (f *fields) b2(k string, v bool)  { f.add(k, strconv.FormatBool(v)) }
func (f *fields) e(k string, v ErrorCode) {
	f.add(k, v.String())
}
func (f *fields) String() string { return f.b.String() }

// version renders a request's API version, only when it is not the
// classic client's: the canonical lines (and digests) of a Kafka 3.5 run
// stay as they were before versions were recorded.
func (f *fields) version(v, classic int16) {
	if v != 0 && v != classic {
		f.i("Version", int64(orClassic(v, classic)))
	}
}

// Summaries: Kafka's field names, key fields only, in schema order.

func keyTypeName(t int8) string {
	if t == KeyTypeTransaction {
		return "TRANSACTION"
	}
	return "GROUP"
}

// Summary of FindCoordinator.
func (m *FindCoordinatorRequest) Summary() string { return summary(m) }

func (m *FindCoordinatorRequest) summarize(f *fields) {
	f.s("Key", m.Key)
	f.add("KeyType", keyTypeName(m.KeyType))
}

// Summary of FindCoordinator.
func (m *FindCoordinatorResponse) Summary() string { return summary(m) }

func (m *FindCoordinatorResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	f.s("Key", m.Key)
	f.i("NodeId", int64(m.NodeId))
}

// Summary of InitProducerId.
func (m *InitProducerIdRequest) Summary() string { return summary(m) }

func (m *InitProducerIdRequest) summarize(f *fields) {
	f.version(m.Version, InitProducerIdClassicVersion)
	if m.TransactionalId == "" {
		f.add("TransactionalId", "null")
	} else {
		f.s("TransactionalId", m.TransactionalId)
	}
	f.i("TransactionTimeoutMs", int64(m.TransactionTimeoutMs))
	f.i("ProducerId", m.ProducerId)
	f.i("ProducerEpoch", int64(m.ProducerEpoch))
}

// Summary of InitProducerId.
func (m *InitProducerIdResponse) Summary() string { return summary(m) }

func (m *InitProducerIdResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	f.i("ProducerId", m.ProducerId)
	f.i("ProducerEpoch", int64(m.ProducerEpoch))
}

// Summary of AddPartitionsToTxn.
func (m *AddPartitionsToTxnRequest) Summary() string { return summary(m) }

func (m *AddPartitionsToTxnRequest) summarize(f *fields) {
	f.version(m.Version, AddPartitionsToTxnClassicVersion)
	f.s("TransactionalId", m.TransactionalId)
	f.i("ProducerId", m.ProducerId)
	f.i("ProducerEpoch", int64(m.ProducerEpoch))
	if m.Version >= 4 {
		f.b2("VerifyOnly", m.VerifyOnly)
	}
	f.add("Partitions", tpList(m.Partitions))
}

// Summary of AddPartitionsToTxn.
func (m *AddPartitionsToTxnResponse) Summary() string { return summary(m) }

func (m *AddPartitionsToTxnResponse) summarize(f *fields) {
	f.add("Results", partitionErrors(m.Results))
}

// Summary of AddOffsetsToTxn.
func (m *AddOffsetsToTxnRequest) Summary() string { return summary(m) }

func (m *AddOffsetsToTxnRequest) summarize(f *fields) {
	f.version(m.Version, AddOffsetsToTxnClassicVersion)
	f.s("TransactionalId", m.TransactionalId)
	f.i("ProducerId", m.ProducerId)
	f.i("ProducerEpoch", int64(m.ProducerEpoch))
	f.s("GroupId", m.GroupId)
}

// Summary of AddOffsetsToTxn.
func (m *AddOffsetsToTxnResponse) Summary() string { return summary(m) }

func (m *AddOffsetsToTxnResponse) summarize(f *fields) { f.e("ErrorCode", m.ErrorCode) }

// Summary of EndTxn.
func (m *EndTxnRequest) Summary() string { return summary(m) }

func (m *EndTxnRequest) summarize(f *fields) {
	f.version(m.Version, EndTxnClassicVersion)
	f.s("TransactionalId", m.TransactionalId)
	f.i("ProducerId", m.ProducerId)
	f.i("ProducerEpoch", int64(m.ProducerEpoch))
	f.b2("Committed", m.Committed)
}

// Summary of EndTxn: the producer id and epoch only from version 5,
// which carries them.
func (m *EndTxnResponse) Summary() string { return summary(m) }

func (m *EndTxnResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	if m.Version >= 5 {
		f.i("ProducerId", m.ProducerId)
		f.i("ProducerEpoch", int64(m.ProducerEpoch))
	}
}

// Summary of WriteTxnMarkers.
func (m *WriteTxnMarkersRequest) Summary() string { return summary(m) }

func (m *WriteTxnMarkersRequest) summarize(f *fields) {
	parts := make([]string, len(m.Markers))
	for i, mk := range m.Markers {
		p := f.part()
		p.i("ProducerId", mk.ProducerId)
		p.i("ProducerEpoch", int64(mk.ProducerEpoch))
		if mk.TransactionResult {
			p.add("TransactionResult", "COMMIT")
		} else {
			p.add("TransactionResult", "ABORT")
		}
		p.add("Partitions", tpList(mk.Partitions))
		p.i("CoordinatorEpoch", int64(mk.CoordinatorEpoch))
		parts[i] = "{" + p.String() + "}"
	}
	f.add("Markers", "["+strings.Join(parts, ",")+"]")
}

// Summary of WriteTxnMarkers.
func (m *WriteTxnMarkersResponse) Summary() string { return summary(m) }

func (m *WriteTxnMarkersResponse) summarize(f *fields) {
	parts := make([]string, len(m.Markers))
	for i, mk := range m.Markers {
		p := f.part()
		p.i("ProducerId", mk.ProducerId)
		p.add("Partitions", partitionErrors(mk.Partitions))
		parts[i] = "{" + p.String() + "}"
	}
	f.add("Markers", "["+strings.Join(parts, ",")+"]")
}

func offsetList(os []OffsetEntry) string {
	parts := make([]string, len(os))
	for i, o := range os {
		parts[i] = o.TopicPartition.String() + "=" + strconv.FormatInt(o.CommittedOffset, 10)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Summary of TxnOffsetCommit.
func (m *TxnOffsetCommitRequest) Summary() string { return summary(m) }

func (m *TxnOffsetCommitRequest) summarize(f *fields) {
	f.version(m.Version, TxnOffsetCommitClassicVersion)
	f.s("TransactionalId", m.TransactionalId)
	f.s("GroupId", m.GroupId)
	f.i("ProducerId", m.ProducerId)
	f.i("ProducerEpoch", int64(m.ProducerEpoch))
	groupSummary(f, m.GenerationId, m.MemberId, m.GroupInstanceId)
	f.add("Offsets", offsetList(m.Offsets))
}

// Summary of TxnOffsetCommit.
func (m *TxnOffsetCommitResponse) Summary() string { return summary(m) }

func (m *TxnOffsetCommitResponse) summarize(f *fields) { f.add("Results", partitionErrors(m.Results)) }

// Summary of OffsetCommit.
func (m *OffsetCommitRequest) Summary() string { return summary(m) }

func (m *OffsetCommitRequest) summarize(f *fields) {
	f.s("GroupId", m.GroupId)
	groupSummary(f, m.GenerationId, m.MemberId, m.GroupInstanceId)
	f.add("Offsets", offsetList(m.Offsets))
}

// Summary of OffsetCommit.
func (m *OffsetCommitResponse) Summary() string { return summary(m) }

func (m *OffsetCommitResponse) summarize(f *fields) { f.add("Results", partitionErrors(m.Results)) }

// Summary of OffsetFetch.
func (m *OffsetFetchRequest) Summary() string { return summary(m) }

func (m *OffsetFetchRequest) summarize(f *fields) {
	f.s("GroupId", m.GroupId)
	f.add("Partitions", tpList(m.Partitions))
	f.b2("RequireStable", m.RequireStable)
}

// Summary of OffsetFetch.
func (m *OffsetFetchResponse) Summary() string { return summary(m) }

func (m *OffsetFetchResponse) summarize(f *fields) {
	parts := make([]string, len(m.Results))
	for i, r := range m.Results {
		parts[i] = r.TopicPartition.String() + "=" + strconv.FormatInt(r.CommittedOffset, 10)
		if r.ErrorCode != NONE {
			parts[i] += ":" + r.ErrorCode.String()
		}
	}
	f.e("ErrorCode", m.ErrorCode)
	f.add("Results", "["+strings.Join(parts, ",")+"]")
}

// Summary of Produce.
func (m *ProduceRequest) Summary() string { return summary(m) }

func (m *ProduceRequest) summarize(f *fields) {
	f.version(m.Version, ProduceClassicVersion)
	if m.TransactionalId == "" {
		f.add("TransactionalId", "null")
	} else {
		f.s("TransactionalId", m.TransactionalId)
	}
	f.i("Acks", int64(m.Acks))
	parts := make([]string, len(m.Partitions))
	for i, p := range m.Partitions {
		parts[i] = p.TopicPartition.String() + ":" + p.Records.Summary()
	}
	f.add("Partitions", "["+strings.Join(parts, ",")+"]")
}

// Summary of Produce: each partition's error, then its BaseOffset.
func (m *ProduceResponse) Summary() string { return summary(m) }

func (m *ProduceResponse) summarize(f *fields) {
	parts := make([]string, len(m.Responses))
	for i, r := range m.Responses {
		p := f.part()
		p.i("BaseOffset", r.BaseOffset)
		parts[i] = r.TopicPartition.String() + ":" + r.ErrorCode.String() + " " + p.String()
	}
	f.add("Responses", "["+strings.Join(parts, ",")+"]")
}

// Summary of Fetch.
func (m *FetchRequest) Summary() string { return summary(m) }

func (m *FetchRequest) summarize(f *fields) {
	f.i("ReplicaId", int64(m.ReplicaId))
	// Shown only for a fetch that may wait, so the lines of the fetches
	// that never did (every script before DelayedFetch) read as before.
	if m.MaxWaitMs > 0 {
		f.i("MaxWaitMs", int64(m.MaxWaitMs))
		f.i("MinBytes", int64(m.MinBytes))
	}
	if m.IsolationLevel == ReadCommitted {
		f.add("IsolationLevel", "READ_COMMITTED")
	} else {
		f.add("IsolationLevel", "READ_UNCOMMITTED")
	}
	parts := make([]string, len(m.Partitions))
	for i, p := range m.Partitions {
		parts[i] = p.TopicPartition.String() + "@" + strconv.FormatInt(p.FetchOffset, 10)
	}
	f.add("Partitions", "["+strings.Join(parts, ",")+"]")
}

// Summary of Fetch.
func (m *FetchResponse) Summary() string { return summary(m) }

func (m *FetchResponse) summarize(f *fields) {
	parts := make([]string, len(m.Responses))
	for i, r := range m.Responses {
		p := f.part()
		p.e("ErrorCode", r.ErrorCode)
		p.i("HighWatermark", r.HighWatermark)
		p.i("LastStableOffset", r.LastStableOffset)
		if len(r.AbortedTransactions) > 0 {
			ab := make([]string, len(r.AbortedTransactions))
			for j, a := range r.AbortedTransactions {
				t := p.part()
				t.i("ProducerId", a.ProducerId)
				t.i("FirstOffset", a.FirstOffset)
				ab[j] = "{" + t.String() + "}"
			}
			p.add("AbortedTransactions", "["+strings.Join(ab, ",")+"]")
		}
		n := 0
		for _, b := range r.Records {
			n += len(b.Records)
		}
		if len(r.Records) > 0 {
			p.add("Records", strconv.Itoa(n)+"@"+strconv.FormatInt(r.Records[0].BaseOffset, 10))
		}
		parts[i] = r.TopicPartition.String() + ":{" + p.String() + "}"
	}
	f.add("Responses", "["+strings.Join(parts, ",")+"]")
}
