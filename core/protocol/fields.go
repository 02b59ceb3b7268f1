package protocol

// Typed access to a message's fields, by Kafka's field name. Each message
// type walks its fields once, in schema order (walk, in walk.go), and two
// readers share that walk: the playground's message panel lists every
// field (MessageFields), and a script matches messages on what they carry
// (expect trace … ProducerEpoch=1, FieldValues and FieldEquals) without
// reading their summaries back. The fields a script may name are listed
// per message type (fieldSpecs); nested parts (one per partition, one per
// marker) are numbered so that several fields can be required of the same
// part.

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
	// fVersion is the request's API version (VersionOf), on the messages
	// whose version the simulation varies: it tells a broker's
	// verification (AddPartitionsToTxn v4+) from a client's add (v3), a
	// transaction version 2 EndTxn (v5) from a classic one.
	fVersion = FieldSpec{Name: "Version", Kind: FieldInt}
	fGenID   = FieldSpec{Name: "GenerationId", Kind: FieldInt}
)

// fieldSpecs lists each message type's fields in schema order.
var fieldSpecs = map[msgType][]FieldSpec{
	{FindCoordinator, false}:    {{Name: "Key", Kind: FieldString}, {Name: "KeyType", Kind: FieldEnum, Enum: keyTypes}},
	{FindCoordinator, true}:     {fErr, {Name: "Key", Kind: FieldString}, {Name: "NodeId", Kind: FieldInt}},
	{InitProducerId, false}:     {fVersion, fTxnID, fTimeout, fPid, fEpoch},
	{InitProducerId, true}:      {fErr, fPid, fEpoch},
	{AddPartitionsToTxn, false}: {fVersion, fTxnID, fPid, fEpoch, {Name: "VerifyOnly", Kind: FieldBool}, fParts},
	{AddPartitionsToTxn, true}:  {fParts, fErr},
	{AddOffsetsToTxn, false}:    {fVersion, fTxnID, fPid, fEpoch, fGroup},
	{AddOffsetsToTxn, true}:     {fErr},
	{EndTxn, false}:             {fVersion, fTxnID, fPid, fEpoch, {Name: "Committed", Kind: FieldBool}},
	// ProducerId and ProducerEpoch are in the response from v5 (the
	// epoch transaction version 2 bumped); an older one has neither.
	{EndTxn, true}:                {fVersion, fErr, fPid, fEpoch},
	{WriteTxnMarkers, false}:      {fPid, fEpoch, fResult, fParts, fCoordEp},
	{WriteTxnMarkers, true}:       {fPid, fParts, fErr},
	{TxnOffsetCommit, false}:      {fVersion, fTxnID, fGroup, fPid, fEpoch, fGenID, {Name: "MemberId", Kind: FieldString}, fParts, fOffset},
	{TxnOffsetCommit, true}:       {fParts, fErr},
	{OffsetCommit, false}:         {fGroup, fGenID, {Name: "MemberId", Kind: FieldString}, fParts, fOffset},
	{OffsetCommit, true}:          {fParts, fErr},
	{OffsetFetch, false}:          {fGroup, fParts, {Name: "RequireStable", Kind: FieldBool}},
	{OffsetFetch, true}:           {fErr, fParts, fOffset},
	{Produce, false}:              {fVersion, fTxnID, {Name: "Acks", Kind: FieldInt}, {Name: "TimeoutMs", Kind: FieldInt}, fParts, fPid, fEpoch, fBaseSeq, fIsTxn, fRecords},
	{Produce, true}:               {fParts, fErr, fBaseOff},
	{Fetch, false}:                {{Name: "ReplicaId", Kind: FieldInt}, {Name: "MaxWaitMs", Kind: FieldInt}, {Name: "MinBytes", Kind: FieldInt}, {Name: "IsolationLevel", Kind: FieldEnum, Enum: isolationLevels}, fParts, fFetchOff},
	{Fetch, true}:                 {fParts, fErr, fHW, fLSO, fAborted, fRecords},
	{DescribeProducers, false}:    {fParts},
	{DescribeProducers, true}:     {fParts, fErr, fPid, fEpoch, fCoordEp, {Name: "CurrentTxnStartOffset", Kind: FieldInt}},
	{DescribeTransactions, false}: {fTxnID},
	{DescribeTransactions, true}:  {fErr, fTxnID, {Name: "TransactionState", Kind: FieldString}, fPid, fEpoch, fParts},
	{ListTransactions, false}:     {},
	{ListTransactions, true}:      {fErr, fTxnID, fPid, {Name: "TransactionState", Kind: FieldString}},
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
	var out []FieldValue
	matchFields(m, func(n string, fv FieldValue) {
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
	if !matchFields(m, func(n string, fv FieldValue) {
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
	}) {
		return false
	}
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

// matchFields walks m's fields for matching: only those its type's table
// lists (fieldSpecs), by the names scripts use. It reports false for a
// message that has no walk.
func matchFields(m Message, emit func(string, FieldValue)) bool {
	wm, ok := m.(walkable)
	if !ok {
		if e, encoded := m.(Encoded); encoded {
			return matchFields(e.Decode(), emit)
		}
		return false
	}
	specs := fieldSpecs[msgType{m.APIKey(), m.IsResponse()}]
	w := &walker{match: func(n string, fv FieldValue) {
		for _, s := range specs {
			if s.Name == n {
				emit(n, fv)
				return
			}
		}
	}, part: -1}
	wm.walk(w)
	return true
}

// Field is one line of a message as the playground's message panel lists
// it: Kafka's name of the field, its value ("" for a struct or list whose
// members follow one level deeper) and its depth.
type Field struct {
	Depth int
	Name  string
	Value string
}

// MaxFields bounds MessageFields: a Fetch answer of a long log holds thousands
// of records. The last line then says that more were left out.
const MaxFields = 400

// MessageFields lists every field m carries, in schema order, and no
// field it does not: a data batch has no ControlType, a record that is
// not a tombstone has no tombstone flag, a Fetch answer's DivergingEpoch
// is there only when the log diverged (a tagged field in Kafka). Enums
// read as Kafka names them with their number ("NONE (0)",
// "READ_COMMITTED (1)"); a nullable TransactionalId left empty reads
// "null"; a partition reads "orders/0".
func MessageFields(m Message) []Field {
	wm, ok := m.(walkable)
	if !ok {
		if e, encoded := m.(Encoded); encoded {
			return MessageFields(e.Decode())
		}
		return nil
	}
	w := &walker{display: true, part: -1}
	wm.walk(w)
	return w.out
}
