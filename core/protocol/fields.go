package protocol

// Typed access to a message's fields, by Kafka's field name, so that a
// script can match messages on what they carry (expect trace …
// ProducerEpoch=1) without reading their summaries back. Each message
// type lists its fields once (fieldSpecs) and yields their values
// (visitFields); nested parts (one per partition, one per marker) are
// numbered so that several fields can be required of the same part.

// FieldKind is the type of a field's value.
type FieldKind uint8

// The field kinds.
const (
	FieldInt       FieldKind = iota + 1 // an integer (int8 … int64): Int
	FieldString                         // free text: Str
	FieldBool                           // true/false: Int 1/0
	FieldError                          // an error code: Int, written by name
	FieldEnum                           // one of FieldSpec.Enum: Str
	FieldPartition                      // a topic partition: Str, "topic/0"
)

// FieldSpec names one field a message offers.
type FieldSpec struct {
	Name string
	Kind FieldKind
	Enum []string // FieldEnum: the names it may take
}

// FieldValue is one occurrence of a field in a message. Part is the
// index of the repeated part it belongs to (a partition of a Produce, a
// marker of a WriteTxnMarkers), or -1 for a field of the message itself.
type FieldValue struct {
	Int  int64
	Str  string
	Part int
}

// Enumerations of fields that Kafka encodes as numbers or booleans but
// names in its tools.
var (
	transactionResults = []string{"ABORT", "COMMIT"}
	keyTypes           = []string{"GROUP", "TRANSACTION"}
	isolationLevels    = []string{"READ_UNCOMMITTED", "READ_COMMITTED"}
)

type msgType struct {
	api      APIKey
	response bool
}

var (
	fTxnID    = FieldSpec{Name: "TransactionalId", Kind: FieldString}
	fPid      = FieldSpec{Name: "ProducerId", Kind: FieldInt}
	fEpoch    = FieldSpec{Name: "ProducerEpoch", Kind: FieldInt}
	fErr      = FieldSpec{Name: "ErrorCode", Kind: FieldError}
	fParts    = FieldSpec{Name: "Partitions", Kind: FieldPartition}
	fGroup    = FieldSpec{Name: "GroupId", Kind: FieldString}
	fOffset   = FieldSpec{Name: "CommittedOffset", Kind: FieldInt}
	fTimeout  = FieldSpec{Name: "TransactionTimeoutMs", Kind: FieldInt}
	fCoordEp  = FieldSpec{Name: "CoordinatorEpoch", Kind: FieldInt}
	fResult   = FieldSpec{Name: "TransactionResult", Kind: FieldEnum, Enum: transactionResults}
	fBaseOff  = FieldSpec{Name: "BaseOffset", Kind: FieldInt}
	fBaseSeq  = FieldSpec{Name: "BaseSequence", Kind: FieldInt}
	fIsTxn    = FieldSpec{Name: "IsTransactional", Kind: FieldBool}
	fRecords  = FieldSpec{Name: "RecordCount", Kind: FieldInt}
	fHW       = FieldSpec{Name: "HighWatermark", Kind: FieldInt}
	fLSO      = FieldSpec{Name: "LastStableOffset", Kind: FieldInt}
	fFetchOff = FieldSpec{Name: "FetchOffset", Kind: FieldInt}
	fAborted  = FieldSpec{Name: "AbortedProducerId", Kind: FieldInt}
)

// fieldSpecs lists each message type's fields in schema order.
var fieldSpecs = map[msgType][]FieldSpec{
	{FindCoordinator, false}:    {{Name: "Key", Kind: FieldString}, {Name: "KeyType", Kind: FieldEnum, Enum: keyTypes}},
	{FindCoordinator, true}:     {fErr, {Name: "Key", Kind: FieldString}, {Name: "NodeId", Kind: FieldInt}},
	{InitProducerId, false}:     {fTxnID, fTimeout, fPid, fEpoch},
	{InitProducerId, true}:      {fErr, fPid, fEpoch},
	{AddPartitionsToTxn, false}: {fTxnID, fPid, fEpoch, fParts},
	{AddPartitionsToTxn, true}:  {fParts, fErr},
	{AddOffsetsToTxn, false}:    {fTxnID, fPid, fEpoch, fGroup},
	{AddOffsetsToTxn, true}:     {fErr},
	{EndTxn, false}:             {fTxnID, fPid, fEpoch, {Name: "Committed", Kind: FieldBool}},
	{EndTxn, true}:              {fErr},
	{WriteTxnMarkers, false}:    {fPid, fEpoch, fResult, fParts, fCoordEp},
	{WriteTxnMarkers, true}:     {fPid, fParts, fErr},
	{TxnOffsetCommit, false}:    {fTxnID, fGroup, fPid, fEpoch, {Name: "GenerationId", Kind: FieldInt}, {Name: "MemberId", Kind: FieldString}, fParts, fOffset},
	{TxnOffsetCommit, true}:     {fParts, fErr},
	{OffsetCommit, false}:       {fGroup, {Name: "GenerationId", Kind: FieldInt}, {Name: "MemberId", Kind: FieldString}, fParts, fOffset},
	{OffsetCommit, true}:        {fParts, fErr},
	{OffsetFetch, false}:        {fGroup, fParts, {Name: "RequireStable", Kind: FieldBool}},
	{OffsetFetch, true}:         {fErr, fParts, fOffset},
	{Produce, false}:            {fTxnID, {Name: "Acks", Kind: FieldInt}, {Name: "TimeoutMs", Kind: FieldInt}, fParts, fPid, fEpoch, fBaseSeq, fIsTxn, fRecords},
	{Produce, true}:             {fParts, fErr, fBaseOff},
	{Fetch, false}:              {{Name: "ReplicaId", Kind: FieldInt}, {Name: "IsolationLevel", Kind: FieldEnum, Enum: isolationLevels}, fParts, fFetchOff},
	{Fetch, true}:               {fParts, fErr, fHW, fLSO, fAborted, fRecords},
}

// Fields lists the fields of an API's requests (response false) or
// responses, in schema order; nil for an API the simulation does not
// speak.
func Fields(api APIKey, response bool) []FieldSpec { return fieldSpecs[msgType{api, response}] }

// FieldByName finds one field of an API's requests or responses.
func FieldByName(api APIKey, response bool, name string) (FieldSpec, bool) {
	for _, f := range Fields(api, response) {
		if f.Name == name {
			return f, true
		}
	}
	return FieldSpec{}, false
}

// FieldValues returns every occurrence of the named field in m, in
// message order: one for a field of the message, one per part for a field
// of a repeated part. A null value (TransactionalId of an idempotent
// producer's Produce) has no occurrence.
func FieldValues(m Message, name string) []FieldValue {
	v, ok := m.(interface {
		visitFields(func(string, FieldValue))
	})
	if !ok {
		return nil
	}
	var out []FieldValue
	v.visitFields(func(n string, fv FieldValue) {
		if n == name {
			out = append(out, fv)
		}
	})
	return out
}

// FieldEquals reports whether a message has fields with every wanted
// value, all of them in the message itself or in one and the same part:
// Partitions=orders/1 ErrorCode=NONE matches a Produce response whose
// orders/1 succeeded, not one where orders/0 did and orders/1 failed.
func FieldEquals(m Message, want map[string]FieldValue) bool {
	if len(want) == 0 {
		return true
	}
	// found[name] holds the parts where name has its wanted value; -1
	// stands for the message itself, which every part shares.
	found := map[string]map[int]bool{}
	parts := map[int]bool{}
	v, ok := m.(interface {
		visitFields(func(string, FieldValue))
	})
	if !ok {
		return false
	}
	v.visitFields(func(n string, fv FieldValue) {
		w, asked := want[n]
		if fv.Part >= 0 {
			parts[fv.Part] = true
		}
		if !asked || w.Int != fv.Int || w.Str != fv.Str {
			return
		}
		if found[n] == nil {
			found[n] = map[int]bool{}
		}
		found[n][fv.Part] = true
	})
	inPart := func(p int) bool {
		for n := range want {
			if !found[n][-1] && !found[n][p] {
				return false
			}
		}
		return true
	}
	if inPart(-1) {
		return true
	}
	for p := range parts {
		if inPart(p) {
			return true
		}
	}
	return false
}

// ---- each message's fields ----

func top(emit func(string, FieldValue), name string, v int64) {
	emit(name, FieldValue{Int: v, Part: -1})
}

func topStr(emit func(string, FieldValue), name, v string) {
	emit(name, FieldValue{Str: v, Part: -1})
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (m *FindCoordinatorRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "Key", m.Key)
	topStr(emit, "KeyType", keyTypeName(m.KeyType))
}

func (m *FindCoordinatorResponse) visitFields(emit func(string, FieldValue)) {
	top(emit, "ErrorCode", int64(m.ErrorCode))
	topStr(emit, "Key", m.Key)
	top(emit, "NodeId", int64(m.NodeId))
}

func (m *InitProducerIdRequest) visitFields(emit func(string, FieldValue)) {
	if m.TransactionalId != "" {
		topStr(emit, "TransactionalId", m.TransactionalId)
	}
	top(emit, "TransactionTimeoutMs", int64(m.TransactionTimeoutMs))
	top(emit, "ProducerId", m.ProducerId)
	top(emit, "ProducerEpoch", int64(m.ProducerEpoch))
}

func (m *InitProducerIdResponse) visitFields(emit func(string, FieldValue)) {
	top(emit, "ErrorCode", int64(m.ErrorCode))
	top(emit, "ProducerId", m.ProducerId)
	top(emit, "ProducerEpoch", int64(m.ProducerEpoch))
}

func (m *AddPartitionsToTxnRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "TransactionalId", m.TransactionalId)
	top(emit, "ProducerId", m.ProducerId)
	top(emit, "ProducerEpoch", int64(m.ProducerEpoch))
	for i, tp := range m.Partitions {
		emit("Partitions", FieldValue{Str: tp.String(), Part: i})
	}
}

func visitPartitionErrors(emit func(string, FieldValue), rs []PartitionError, part func(i int) int) {
	for i, r := range rs {
		emit("Partitions", FieldValue{Str: r.TopicPartition.String(), Part: part(i)})
		emit("ErrorCode", FieldValue{Int: int64(r.ErrorCode), Part: part(i)})
	}
}

func same(i int) int { return i }

func (m *AddPartitionsToTxnResponse) visitFields(emit func(string, FieldValue)) {
	visitPartitionErrors(emit, m.Results, same)
}

func (m *AddOffsetsToTxnRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "TransactionalId", m.TransactionalId)
	top(emit, "ProducerId", m.ProducerId)
	top(emit, "ProducerEpoch", int64(m.ProducerEpoch))
	topStr(emit, "GroupId", m.GroupId)
}

func (m *AddOffsetsToTxnResponse) visitFields(emit func(string, FieldValue)) {
	top(emit, "ErrorCode", int64(m.ErrorCode))
}

func (m *EndTxnRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "TransactionalId", m.TransactionalId)
	top(emit, "ProducerId", m.ProducerId)
	top(emit, "ProducerEpoch", int64(m.ProducerEpoch))
	top(emit, "Committed", boolInt(m.Committed))
}

func (m *EndTxnResponse) visitFields(emit func(string, FieldValue)) {
	top(emit, "ErrorCode", int64(m.ErrorCode))
}

func (m *WriteTxnMarkersRequest) visitFields(emit func(string, FieldValue)) {
	for i, mk := range m.Markers {
		emit("ProducerId", FieldValue{Int: mk.ProducerId, Part: i})
		emit("ProducerEpoch", FieldValue{Int: int64(mk.ProducerEpoch), Part: i})
		emit("TransactionResult", FieldValue{Str: transactionResults[boolInt(mk.TransactionResult)], Part: i})
		for _, tp := range mk.Partitions {
			emit("Partitions", FieldValue{Str: tp.String(), Part: i})
		}
		emit("CoordinatorEpoch", FieldValue{Int: int64(mk.CoordinatorEpoch), Part: i})
	}
}

// visitFields numbers the parts of a WriteTxnMarkers response by
// partition across markers, so ErrorCode pairs with its partition.
func (m *WriteTxnMarkersResponse) visitFields(emit func(string, FieldValue)) {
	n := 0
	for _, mk := range m.Markers {
		for _, r := range mk.Partitions {
			emit("ProducerId", FieldValue{Int: mk.ProducerId, Part: n})
			emit("Partitions", FieldValue{Str: r.TopicPartition.String(), Part: n})
			emit("ErrorCode", FieldValue{Int: int64(r.ErrorCode), Part: n})
			n++
		}
	}
}

func visitOffsets(emit func(string, FieldValue), os []OffsetEntry) {
	for i, o := range os {
		emit("Partitions", FieldValue{Str: o.TopicPartition.String(), Part: i})
		emit("CommittedOffset", FieldValue{Int: o.CommittedOffset, Part: i})
	}
}

func (m *TxnOffsetCommitRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "TransactionalId", m.TransactionalId)
	topStr(emit, "GroupId", m.GroupId)
	top(emit, "ProducerId", m.ProducerId)
	top(emit, "ProducerEpoch", int64(m.ProducerEpoch))
	top(emit, "GenerationId", int64(m.GenerationId))
	topStr(emit, "MemberId", m.MemberId)
	visitOffsets(emit, m.Offsets)
}

func (m *TxnOffsetCommitResponse) visitFields(emit func(string, FieldValue)) {
	visitPartitionErrors(emit, m.Results, same)
}

func (m *OffsetCommitRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "GroupId", m.GroupId)
	top(emit, "GenerationId", int64(m.GenerationId))
	topStr(emit, "MemberId", m.MemberId)
	visitOffsets(emit, m.Offsets)
}

func (m *OffsetCommitResponse) visitFields(emit func(string, FieldValue)) {
	visitPartitionErrors(emit, m.Results, same)
}

func (m *OffsetFetchRequest) visitFields(emit func(string, FieldValue)) {
	topStr(emit, "GroupId", m.GroupId)
	for i, tp := range m.Partitions {
		emit("Partitions", FieldValue{Str: tp.String(), Part: i})
	}
	top(emit, "RequireStable", boolInt(m.RequireStable))
}

// visitFields gives the group-level error as a field of the message and
// each partition's error as a field of its part.
func (m *OffsetFetchResponse) visitFields(emit func(string, FieldValue)) {
	top(emit, "ErrorCode", int64(m.ErrorCode))
	for i, r := range m.Results {
		emit("Partitions", FieldValue{Str: r.TopicPartition.String(), Part: i})
		emit("CommittedOffset", FieldValue{Int: r.CommittedOffset, Part: i})
		emit("ErrorCode", FieldValue{Int: int64(r.ErrorCode), Part: i})
	}
}

// visitFields yields the batch header's fields (ProducerId, …,
// IsTransactional) as fields of the batch's partition.
func (m *ProduceRequest) visitFields(emit func(string, FieldValue)) {
	if m.TransactionalId != "" {
		topStr(emit, "TransactionalId", m.TransactionalId)
	}
	top(emit, "Acks", int64(m.Acks))
	top(emit, "TimeoutMs", int64(m.TimeoutMs))
	for i, p := range m.Partitions {
		emit("Partitions", FieldValue{Str: p.TopicPartition.String(), Part: i})
		emit("ProducerId", FieldValue{Int: p.Records.ProducerId, Part: i})
		emit("ProducerEpoch", FieldValue{Int: int64(p.Records.ProducerEpoch), Part: i})
		emit("BaseSequence", FieldValue{Int: int64(p.Records.BaseSequence), Part: i})
		emit("IsTransactional", FieldValue{Int: boolInt(p.Records.IsTransactional), Part: i})
		emit("RecordCount", FieldValue{Int: int64(len(p.Records.Records)), Part: i})
	}
}

func (m *ProduceResponse) visitFields(emit func(string, FieldValue)) {
	for i, r := range m.Responses {
		emit("Partitions", FieldValue{Str: r.TopicPartition.String(), Part: i})
		emit("ErrorCode", FieldValue{Int: int64(r.ErrorCode), Part: i})
		emit("BaseOffset", FieldValue{Int: r.BaseOffset, Part: i})
	}
}

func (m *FetchRequest) visitFields(emit func(string, FieldValue)) {
	top(emit, "ReplicaId", int64(m.ReplicaId))
	topStr(emit, "IsolationLevel", isolationLevels[m.IsolationLevel&1])
	for i, p := range m.Partitions {
		emit("Partitions", FieldValue{Str: p.TopicPartition.String(), Part: i})
		emit("FetchOffset", FieldValue{Int: p.FetchOffset, Part: i})
	}
}

// visitFields yields, per partition, one AbortedProducerId per entry of
// its aborted list (AbortedTransactions[].ProducerId in Kafka's schema).
func (m *FetchResponse) visitFields(emit func(string, FieldValue)) {
	for i, r := range m.Responses {
		emit("Partitions", FieldValue{Str: r.TopicPartition.String(), Part: i})
		emit("ErrorCode", FieldValue{Int: int64(r.ErrorCode), Part: i})
		emit("HighWatermark", FieldValue{Int: r.HighWatermark, Part: i})
		emit("LastStableOffset", FieldValue{Int: r.LastStableOffset, Part: i})
		for _, a := range r.AbortedTransactions {
			emit("AbortedProducerId", FieldValue{Int: a.ProducerId, Part: i})
		}
		n := 0
		for _, b := range r.Records {
			n += len(b.Records)
		}
		emit("RecordCount", FieldValue{Int: int64(n), Part: i})
	}
}
