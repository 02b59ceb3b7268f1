package protocol

import "strconv"

// walkable is a message (or a part of one) that walks its own fields.
type walkable interface{ walk(w *walker) }

// walker receives a message's fields in schema order from its walk and
// serves both readers of fields.go: with display set it lists every field
// as the message panel shows it (MessageFields), bounded by MaxFields;
// with match set it passes the typed value of each field a script may
// name (FieldValues, FieldEquals), under that name, with the index of the
// part it belongs to. A walk decides once, per field, its name, its
// value and its part; the readers only format or filter.
type walker struct {
	display bool
	out     []Field
	depth   int

	match func(string, FieldValue)
	part  int // the repeated part being walked, -1 for the message's own fields
	mute  int // >0 inside records: their keys and payloads are no message field
}

// line adds a panel line; false once MaxFields is reached.
func (w *walker) line(name, value string) bool {
	if !w.display {
		return true
	}
	if len(w.out) >= MaxFields {
		if len(w.out) == MaxFields {
			w.out = append(w.out, Field{Depth: w.depth, Name: "…", Value: "(more fields not shown)"})
		}
		return false
	}
	w.out = append(w.out, Field{Depth: w.depth, Name: name, Value: value})
	return true
}

// full reports that the panel is complete: lists stop walking.
func (w *walker) full() bool { return w.display && len(w.out) > MaxFields }

// matched passes a field to the matcher, in the current part.
func (w *walker) matched(name string, fv FieldValue) {
	if w.match != nil && w.mute == 0 {
		fv.Part = w.part
		w.match(name, fv)
	}
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// int is an integer field.
func (w *walker) int(name string, v int64) { w.intAs(name, name, v) }

// intAs is an integer field that scripts name differently (Kafka's
// AbortedTransactions[].ProducerId is AbortedProducerId).
func (w *walker) intAs(name, as string, v int64) {
	w.line(name, itoa(v))
	w.matched(as, FieldValue{Int: v})
}

// version is a message's Version field: listed as the message holds it
// (0 for the classic client's), matched as the version it was sent with
// (VersionOf), so Version=3 finds a classic client's AddPartitionsToTxn.
func (w *walker) version(m Message, raw int16) {
	if raw == Version0 {
		raw = 0
	}
	w.line("Version", itoa(int64(raw)))
	w.matched("Version", FieldValue{Int: int64(VersionOf(m))})
}

// str is a string field.
func (w *walker) str(name, v string) {
	w.line(name, strconv.Quote(v))
	w.matched(name, FieldValue{Str: v})
}

// nullable is a nullable string field, "" standing for Kafka's null,
// which has no value to match.
func (w *walker) nullable(name, v string) {
	if v == "" {
		w.line(name, "null")
		return
	}
	w.str(name, v)
}

// flag is a boolean field: true/false, matched as 1/0.
func (w *walker) flag(name string, b bool) {
	w.line(name, strconv.FormatBool(b))
	w.matched(name, FieldValue{Int: boolInt(b)})
}

// code is an error code: its name and number, matched by number.
func (w *walker) code(name string, c ErrorCode) {
	w.line(name, c.String()+" ("+itoa(int64(c))+")")
	w.matched(name, FieldValue{Int: int64(c)})
}

// enum is a number Kafka names: the name and the number, matched by name.
func (w *walker) enum(name, label string, n int64) {
	w.line(name, label+" ("+itoa(n)+")")
	w.matched(name, FieldValue{Str: label})
}

// tp is a topic partition; scripts name every partition of a message
// Partitions.
func (w *walker) tp(name string, tp TopicPartition) {
	w.line(name, tp.String())
	w.matched("Partitions", FieldValue{Str: tp.String()})
}

// group is a struct field: its members one level deeper.
func (w *walker) group(name string, members func()) {
	if !w.line(name, "") {
		return
	}
	w.depth++
	members()
	w.depth--
}

// list is a repeated field of n items, each walked one level deeper.
func (w *walker) list(name string, n int, item func(i int)) {
	if n == 0 {
		w.line(name, "[]")
		return
	}
	if !w.line(name, strconv.Itoa(n)+" item(s)") {
		return
	}
	w.depth++
	for i := 0; i < n && !w.full(); i++ {
		item(i)
	}
	w.depth--
}

// index names item i of a list.
func index(i int) string { return "[" + strconv.Itoa(i) + "]" }

// inPart walks the fields of repeated part i.
func (w *walker) inPart(i int, fields func()) {
	saved := w.part
	w.part = i
	fields()
	w.part = saved
}

// tps is a list of topic partitions, item i in part part(i) (-1: the
// current part).
func (w *walker) tps(name string, tps []TopicPartition, parts bool) {
	w.list(name, len(tps), func(i int) {
		if parts {
			w.inPart(i, func() { w.tp(index(i), tps[i]) })
		} else {
			w.tp(index(i), tps[i])
		}
	})
}

func (w *walker) partitionErrors(name string, rs []PartitionError) {
	w.list(name, len(rs), func(i int) {
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", rs[i].TopicPartition)
				w.code("ErrorCode", rs[i].ErrorCode)
			})
		})
	})
}

func (w *walker) offsets(name string, os []OffsetEntry) {
	w.list(name, len(os), func(i int) {
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", os[i].TopicPartition)
				w.int("CommittedOffset", os[i].CommittedOffset)
			})
		})
	})
}

// ---- each message's walk, in its struct's (schema) order ----

func (m *FindCoordinatorRequest) walk(w *walker) {
	w.str("Key", m.Key)
	w.enum("KeyType", keyTypeName(m.KeyType), int64(m.KeyType))
}

func (m *FindCoordinatorResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.str("Key", m.Key)
	w.int("NodeId", int64(m.NodeId))
}

func (m *InitProducerIdRequest) walk(w *walker) {
	w.version(m, m.Version)
	w.nullable("TransactionalId", m.TransactionalId)
	w.int("TransactionTimeoutMs", int64(m.TransactionTimeoutMs))
	w.int("ProducerId", m.ProducerId)
	w.int("ProducerEpoch", int64(m.ProducerEpoch))
}

func (m *InitProducerIdResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.int("ProducerId", m.ProducerId)
	w.int("ProducerEpoch", int64(m.ProducerEpoch))
}

func (m *AddPartitionsToTxnRequest) walk(w *walker) {
	w.version(m, m.Version)
	w.str("TransactionalId", m.TransactionalId)
	w.int("ProducerId", m.ProducerId)
	w.int("ProducerEpoch", int64(m.ProducerEpoch))
	w.flag("VerifyOnly", m.VerifyOnly)
	w.tps("Partitions", m.Partitions, true)
}

func (m *AddPartitionsToTxnResponse) walk(w *walker) { w.partitionErrors("Results", m.Results) }

func (m *AddOffsetsToTxnRequest) walk(w *walker) {
	w.version(m, m.Version)
	w.str("TransactionalId", m.TransactionalId)
	w.int("ProducerId", m.ProducerId)
	w.int("ProducerEpoch", int64(m.ProducerEpoch))
	w.str("GroupId", m.GroupId)
}

func (m *AddOffsetsToTxnResponse) walk(w *walker) { w.code("ErrorCode", m.ErrorCode) }

func (m *EndTxnRequest) walk(w *walker) {
	w.version(m, m.Version)
	w.str("TransactionalId", m.TransactionalId)
	w.int("ProducerId", m.ProducerId)
	w.int("ProducerEpoch", int64(m.ProducerEpoch))
	w.flag("Committed", m.Committed)
}

// walk matches ProducerId and ProducerEpoch only from v5, where Kafka's
// response has them; the panel lists them always (diagram hides them).
func (m *EndTxnResponse) walk(w *walker) {
	w.version(m, m.Version)
	w.code("ErrorCode", m.ErrorCode)
	if VersionOf(m) >= EndTxnTV2Version {
		w.int("ProducerId", m.ProducerId)
		w.int("ProducerEpoch", int64(m.ProducerEpoch))
		return
	}
	w.line("ProducerId", itoa(m.ProducerId))
	w.line("ProducerEpoch", itoa(int64(m.ProducerEpoch)))
}

// walk: each marker is a part; its result is matched by name
// (COMMIT/ABORT), and read as the boolean Kafka's schema has.
func (m *WriteTxnMarkersRequest) walk(w *walker) {
	w.list("Markers", len(m.Markers), func(i int) {
		mk := &m.Markers[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.int("ProducerId", mk.ProducerId)
				w.int("ProducerEpoch", int64(mk.ProducerEpoch))
				w.line("TransactionResult", strconv.FormatBool(mk.TransactionResult))
				w.matched("TransactionResult", FieldValue{Str: transactionResults[boolInt(mk.TransactionResult)]})
				w.tps("Partitions", mk.Partitions, false)
				w.int("CoordinatorEpoch", int64(mk.CoordinatorEpoch))
			})
		})
	})
}

// walk numbers the parts of a WriteTxnMarkers response by partition
// across markers, so ErrorCode pairs with its partition, and each part
// carries its marker's producer id.
func (m *WriteTxnMarkersResponse) walk(w *walker) {
	n := 0
	w.list("Markers", len(m.Markers), func(i int) {
		mk := &m.Markers[i]
		w.group(index(i), func() {
			w.line("ProducerId", itoa(mk.ProducerId))
			w.list("Partitions", len(mk.Partitions), func(j int) {
				r := mk.Partitions[j]
				w.inPart(n, func() {
					w.matched("ProducerId", FieldValue{Int: mk.ProducerId})
					w.group(index(j), func() {
						w.tp("TopicPartition", r.TopicPartition)
						w.code("ErrorCode", r.ErrorCode)
					})
				})
				n++
			})
		})
	})
}

func (m *TxnOffsetCommitRequest) walk(w *walker) {
	w.version(m, m.Version)
	w.str("TransactionalId", m.TransactionalId)
	w.str("GroupId", m.GroupId)
	w.int("ProducerId", m.ProducerId)
	w.int("ProducerEpoch", int64(m.ProducerEpoch))
	w.int("GenerationId", int64(m.GenerationId))
	w.str("MemberId", m.MemberId)
	w.str("GroupInstanceId", m.GroupInstanceId)
	w.offsets("Offsets", m.Offsets)
}

func (m *TxnOffsetCommitResponse) walk(w *walker) { w.partitionErrors("Results", m.Results) }

func (m *OffsetCommitRequest) walk(w *walker) {
	w.str("GroupId", m.GroupId)
	w.int("GenerationId", int64(m.GenerationId))
	w.str("MemberId", m.MemberId)
	w.str("GroupInstanceId", m.GroupInstanceId)
	w.offsets("Offsets", m.Offsets)
}

func (m *OffsetCommitResponse) walk(w *walker) { w.partitionErrors("Results", m.Results) }

func (m *OffsetFetchRequest) walk(w *walker) {
	w.str("GroupId", m.GroupId)
	w.tps("Partitions", m.Partitions, true)
	w.flag("RequireStable", m.RequireStable)
}

// walk gives the group-level error as a field of the message and each
// partition's error as a field of its part.
func (m *OffsetFetchResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.list("Results", len(m.Results), func(i int) {
		r := &m.Results[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", r.TopicPartition)
				w.int("CommittedOffset", r.CommittedOffset)
				w.code("ErrorCode", r.ErrorCode)
			})
		})
	})
}

// walk gives the batch header's fields (ProducerId, …, IsTransactional)
// and its record count as fields of the batch's partition.
func (m *ProduceRequest) walk(w *walker) {
	w.version(m, m.Version)
	w.nullable("TransactionalId", m.TransactionalId)
	w.int("Acks", int64(m.Acks))
	w.int("TimeoutMs", int64(m.TimeoutMs))
	w.list("Partitions", len(m.Partitions), func(i int) {
		p := &m.Partitions[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", p.TopicPartition)
				w.group("Records", func() { p.Records.walk(w) })
			})
			w.matched("RecordCount", FieldValue{Int: int64(len(p.Records.Records))})
		})
	})
}

func (m *ProduceResponse) walk(w *walker) {
	w.list("Responses", len(m.Responses), func(i int) {
		r := &m.Responses[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", r.TopicPartition)
				w.code("ErrorCode", r.ErrorCode)
				w.int("BaseOffset", r.BaseOffset)
			})
		})
	})
}

func (m *FetchRequest) walk(w *walker) {
	w.int("ReplicaId", int64(m.ReplicaId))
	w.int("MaxWaitMs", int64(m.MaxWaitMs))
	w.int("MinBytes", int64(m.MinBytes))
	w.enum("IsolationLevel", isolationLevels[m.IsolationLevel&1], int64(m.IsolationLevel))
	w.int("SessionEpoch", int64(m.SessionEpoch))
	w.list("Partitions", len(m.Partitions), func(i int) {
		p := &m.Partitions[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", p.TopicPartition)
				w.int("FetchOffset", p.FetchOffset)
				w.int("LastFetchedEpoch", int64(p.LastFetchedEpoch))
			})
		})
	})
}

// walk gives, per partition, one AbortedProducerId per entry of its
// aborted list (AbortedTransactions[].ProducerId in Kafka's schema) and
// the number of records it returns; the divergence fields only when the
// log diverged.
func (m *FetchResponse) walk(w *walker) {
	w.list("Responses", len(m.Responses), func(i int) {
		r := &m.Responses[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", r.TopicPartition)
				w.code("ErrorCode", r.ErrorCode)
				w.int("HighWatermark", r.HighWatermark)
				w.int("LastStableOffset", r.LastStableOffset)
				w.int("LogStartOffset", r.LogStartOffset)
				w.list("AbortedTransactions", len(r.AbortedTransactions), func(j int) {
					a := r.AbortedTransactions[j]
					w.group(index(j), func() {
						w.intAs("ProducerId", "AbortedProducerId", a.ProducerId)
						w.int("FirstOffset", a.FirstOffset)
					})
				})
				if r.Diverging {
					w.flag("Diverging", r.Diverging)
					w.int("DivergingEpoch", int64(r.DivergingEpoch))
					w.int("DivergingEndOffset", r.DivergingEndOffset)
				}
				w.list("Records", len(r.Records), func(j int) {
					w.group(index(j), func() { r.Records[j].walk(w) })
				})
			})
			n := 0
			for _, b := range r.Records {
				n += len(b.Records)
			}
			w.matched("RecordCount", FieldValue{Int: int64(n)})
		})
	})
}

// walk lists a batch's header (the control fields only in a control
// batch) and its records, whose keys and payloads no script matches.
func (b *RecordBatch) walk(w *walker) {
	w.int("BaseOffset", b.BaseOffset)
	w.int("PartitionLeaderEpoch", int64(b.PartitionLeaderEpoch))
	w.int("Timestamp", b.Timestamp)
	w.int("ProducerId", b.ProducerId)
	w.int("ProducerEpoch", int64(b.ProducerEpoch))
	w.int("BaseSequence", int64(b.BaseSequence))
	w.flag("IsTransactional", b.IsTransactional)
	w.flag("IsControl", b.IsControl)
	if b.IsControl {
		w.line("ControlType", b.ControlType.String()+" ("+itoa(int64(b.ControlType))+")")
		w.int("CoordinatorEpoch", int64(b.CoordinatorEpoch))
	}
	w.mute++
	w.list("Records", len(b.Records), func(i int) {
		w.group(index(i), func() { b.Records[i].walk(w) })
	})
	w.mute--
}

// walk lists a record's key and value: the typed payload of an internal
// topic's record, null for a tombstone, else the string. The payload and
// tombstone fields themselves are not Kafka's.
func (r *Record) walk(w *walker) {
	if r.NullKey {
		w.line("Key", "null")
	} else {
		w.str("Key", r.Key)
	}
	if r.Timestamp != 0 {
		w.int("Timestamp", r.Timestamp)
	}
	if len(r.Headers) > 0 {
		w.list("Headers", len(r.Headers), func(i int) {
			h := &r.Headers[i]
			w.group(index(i), func() {
				w.str("Key", h.Key)
				if h.NullValue {
					w.line("Value", "null")
				} else {
					w.str("Value", h.Value)
				}
			})
		})
	}
	switch {
	case r.Tombstone:
		w.line("Value", "null")
	case r.TxnLog != nil:
		w.group("Value", func() { r.TxnLog.walk(w) })
	case r.Offset != nil:
		w.group("Value", func() { r.Offset.walk(w) })
	default:
		w.str("Value", r.Value)
	}
}

func (v *TransactionLogValue) walk(w *walker) {
	w.int("ProducerId", v.ProducerId)
	w.int("ProducerEpoch", int64(v.ProducerEpoch))
	w.int("TransactionTimeoutMs", int64(v.TransactionTimeoutMs))
	w.line("TransactionStatus", v.TransactionStatus.String()+" ("+itoa(int64(v.TransactionStatus))+")")
	w.tps("TransactionPartitions", v.TransactionPartitions, false)
	w.int("TransactionLastUpdateTimestampMs", v.TransactionLastUpdateTimestampMs)
	w.int("TransactionStartTimestampMs", v.TransactionStartTimestampMs)
}

func (v *OffsetCommitValue) walk(w *walker) {
	w.str("Group", v.Group)
	w.tp("Partition", v.Partition)
	w.int("CommittedOffset", v.CommittedOffset)
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
