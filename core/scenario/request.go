package scenario

// The request statement: one protocol request written by hand, sent from
// a declared producer's connection, so a lesson can show how a broker or
// the coordinator answers what the Java client never sends (EndTxn ABORT
// while a commit's markers are out, a non-transactional write by a
// producer id with a transaction open, a sequence older than the five
// batches a partition remembers). Its type, parsing, canonical text and
// application live here.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// requestFields lists, per API a script may send, the request fields it
// may set, in schema order: Kafka's names (protocol.Fields).
var requestFields = map[protocol.APIKey][]string{
	protocol.InitProducerId:     {"Version", "TransactionalId", "TransactionTimeoutMs", "ProducerId", "ProducerEpoch"},
	protocol.AddPartitionsToTxn: {"Version", "TransactionalId", "ProducerId", "ProducerEpoch", "Partitions"},
	protocol.AddOffsetsToTxn:    {"Version", "TransactionalId", "ProducerId", "ProducerEpoch", "GroupId"},
	protocol.EndTxn:             {"Version", "TransactionalId", "ProducerId", "ProducerEpoch", "Committed"},
	protocol.Produce:            {"TransactionalId", "Acks", "ProducerId", "ProducerEpoch", "BaseSequence", "IsTransactional"},
	// The read-only APIs a real client sends (issue 27): Topics is a
	// comma-separated list (not written: every topic).
	protocol.Metadata:    {"Topics"},
	protocol.ListOffsets: {"IsolationLevel", "Partitions", "CurrentLeaderEpoch", "Timestamp"},
}

// requestAPIs is requestFields' keys in key order, for messages.
var requestAPIs = []protocol.APIKey{protocol.Produce, protocol.ListOffsets, protocol.Metadata, protocol.InitProducerId,
	protocol.AddPartitionsToTxn, protocol.AddOffsetsToTxn, protocol.EndTxn}

// requiredFields must be written: what the client's state cannot supply.
var requiredFields = map[protocol.APIKey][]string{
	protocol.AddPartitionsToTxn: {"Partitions"},
	protocol.AddOffsetsToTxn:    {"GroupId"},
	protocol.EndTxn:             {"Committed"},
	protocol.Produce:            {"BaseSequence"},
	protocol.ListOffsets:        {"Partitions"},
}

// FieldSetting is one FIELD=VALUE of a request statement.
type FieldSetting struct {
	Name string
	Int  int64                     // integer and boolean (1/0) fields
	Str  string                    // text fields
	TPs  []protocol.TopicPartition // Partitions
}

// RequestStmt sends one request from a declared producer's node and, unless
// Background, waits for its response (at most the producer's
// request.timeout.ms). Fields not written take the producer's values when
// the line runs: its transactional.id, producer id and epoch,
// transaction.timeout.ms and acks.
type RequestStmt struct {
	Base
	API        protocol.APIKey
	From       string  // the producer whose connection sends it
	To         NodeRef // zero: the coordinator of the transactional id, or the partition's leader
	Fields     []FieldSetting
	TP         protocol.TopicPartition // Produce
	Records    []KV                    // Produce: at least one
	Background bool
}

// Field returns a written field.
func (s *RequestStmt) Field(name string) (FieldSetting, bool) {
	for _, f := range s.Fields {
		if f.Name == name {
			return f, true
		}
	}
	return FieldSetting{}, false
}

// String renders the statement canonically: from=, to=, the fields in
// schema order, then the partition and records.
func (s *RequestStmt) String() string {
	b := words("request", s.API.String())
	b.opt("from", s.From)
	if !s.To.IsZero() {
		b.opt("to", s.To.String())
	}
	for _, name := range requestFields[s.API] {
		f, ok := s.Field(name)
		if !ok {
			continue
		}
		spec, _ := protocol.FieldByName(s.API, false, name)
		b.opt(name, fieldSettingText(spec, f))
	}
	if s.API == protocol.Produce {
		b.add(s.TP.String())
		for _, r := range s.Records {
			b.add(quote(r.Key) + "=" + quote(r.Value))
		}
	}
	if s.Background {
		b.add("&")
	}
	return b.String()
}

func fieldSettingText(spec protocol.FieldSpec, f FieldSetting) string {
	switch spec.Kind {
	case protocol.FieldString:
		return quote(f.Str)
	case protocol.FieldBool:
		return strconv.FormatBool(f.Int == 1)
	case protocol.FieldPartition:
		return tpList(f.TPs)
	case protocol.FieldEnum:
		return spec.Enum[f.Int]
	}
	return strconv.FormatInt(f.Int, 10)
}

func parseRequest(lp *lineParser, kw token) Stmt {
	bg := lp.background()
	var names []string
	for _, k := range requestAPIs {
		names = append(names, k.String())
	}
	t := lp.next("request needs an API (" + strings.Join(names, ", ") + "), e.g. request EndTxn from=p1 Committed=false")
	m := lp.match(t)
	if m.Response {
		lp.failf(t.col, "request sends requests: write %s without .response", m.API)
	}
	if lp.fromExternal() {
		return parseExternalRequest(lp, m.API, bg)
	}
	fields, ok := requestFields[m.API]
	if !ok {
		lp.failf(t.col, "request cannot send %s: it sends %s", m.API, strings.Join(names, ", "))
	}
	st := &RequestStmt{API: m.API, Background: bg}
	// Options come first; for Produce the first token that is not
	// KEY=VALUE is the partition, and records follow it.
	start := lp.i
	for lp.more() {
		tok := lp.toks[lp.i]
		if tok.quoted || indexOutside(tok.raw, "=", false) < 0 {
			break
		}
		lp.i++
	}
	sub := &lineParser{d: lp.d, line: lp.line, toks: lp.toks[start:lp.i]}
	allowed := append([]string{"from", "to"}, fields...)
	opts := sub.options("request "+m.API.String(), allowed)
	o, ok := opts.get("from")
	if !ok {
		lp.failf(t.col, "request needs from=PRODUCER: the producer whose connection sends it")
	}
	c := lp.clientName(o.raw, o.vcol)
	if c.Kind != KindProducer {
		lp.failf(o.vcol, "%s is a consumer: request is sent from a producer", c.Name)
	}
	st.From = c.Name
	if o, ok := opts.get("to"); ok {
		st.To = lp.nodeRef(o.raw, o.vcol)
	}
	for _, name := range fields {
		o, ok := opts.get(name)
		if !ok {
			continue
		}
		st.Fields = append(st.Fields, lp.fieldSetting(m.API, o))
	}
	for _, name := range requiredFields[m.API] {
		if _, ok := st.Field(name); !ok {
			why := requiredWhy[name]
			if m.API == protocol.ListOffsets {
				why = "the partitions to ask about, e.g. Partitions=orders/0,orders/1"
			}
			lp.failf(lp.endCol(), "request %s needs %s=…: %s", m.API, name, why)
		}
	}
	if m.API != protocol.Produce {
		lp.done(fmt.Sprintf("request %s takes only FIELD=VALUE options (%s)", m.API, strings.Join(allowed, ", ")))
		return st
	}
	tpT := lp.next("request Produce needs a partition and records after its fields, e.g. request Produce from=p1 BaseSequence=0 orders/0 k=v")
	st.TP = lp.topicPartition(tpT.raw, tpT.col)
	if strings.HasPrefix(st.TP.Topic, "__") {
		lp.failf(tpT.col, "cannot send to the internal topic %s", st.TP.Topic)
	}
	if !lp.more() {
		lp.failf(lp.endCol(), "request Produce needs at least one record KEY=VALUE after %s", st.TP)
	}
	for lp.more() {
		st.Records = append(st.Records, lp.record(lp.next("")))
	}
	return st
}

var requiredWhy = map[string]string{
	"Partitions":   "the partitions to add, e.g. Partitions=orders/0,orders/1",
	"GroupId":      "the group whose offsets the transaction will hold",
	"Committed":    "true to commit, false to abort",
	"BaseSequence": "the batch's first sequence number (-1 for none)",
}

// fieldSetting parses one FIELD=VALUE by the field's type.
func (lp *lineParser) fieldSetting(api protocol.APIKey, o option) FieldSetting {
	spec, _ := protocol.FieldByName(api, false, o.key)
	f := FieldSetting{Name: o.key}
	switch spec.Kind {
	case protocol.FieldString:
		f.Str = lp.nonEmpty(o.key, o.raw, o.vcol)
	case protocol.FieldBool:
		if lp.boolean(o) {
			f.Int = 1
		}
	case protocol.FieldPartition:
		f.TPs = lp.tpSet(o)
		if len(f.TPs) == 0 {
			lp.failf(o.col, "%s needs at least one TOPIC/PARTITION", o.key)
		}
	case protocol.FieldEnum:
		i := slices.Index(spec.Enum, o.raw)
		if i < 0 {
			lp.failf(o.vcol, "%s must be %s, got %q%s", o.key, strings.Join(spec.Enum, " or "), o.raw, didYouMean(o.raw, spec.Enum))
		}
		f.Int = int64(i)
	default:
		lo, hi := fieldRange(o.key)
		f.Int = lp.integer(o.key, o.raw, o.vcol, lo, hi)
		if o.key == "Acks" && f.Int != -1 && f.Int != 0 && f.Int != 1 {
			lp.failf(o.vcol, "Acks must be -1, 0 or 1, got %s", o.raw)
		}
	}
	return f
}

// fieldRange is the values a script may write for an integer field: the
// field's Kafka type, with -1 where Kafka's "none" is -1.
func fieldRange(name string) (int64, int64) {
	switch name {
	case "ProducerId", "AbortedProducerId":
		return -1, math.MaxInt64
	case "ProducerEpoch":
		return -1, math.MaxInt16
	case "BaseSequence", "NodeId", "ReplicaId":
		return -1, math.MaxInt32
	case "Acks":
		return -1, 1
	case "Timestamp":
		return protocol.MaxTimestamp, math.MaxInt64
	case "CurrentLeaderEpoch", "LeaderId", "LeaderEpoch", "ControllerId":
		return -1, math.MaxInt32
	case "Offset":
		return -1, math.MaxInt64
	case "TransactionTimeoutMs", "TimeoutMs", "CoordinatorEpoch":
		return 0, math.MaxInt32
	case "GenerationId":
		// -1 is Kafka's "no generation": what a consumer outside a group
		// (assign) commits with.
		return -1, math.MaxInt32
	case "Version":
		return 0, math.MaxInt16
	case "BaseOffset", "HighWatermark", "LastStableOffset", "CommittedOffset":
		return -1, math.MaxInt64
	}
	return 0, math.MaxInt64
}

// ---- running it ----

func (st *RequestStmt) apply(s *Session) *Error {
	c := s.Cluster
	p, ok := c.Producer(st.From)
	if !ok {
		return s.errorf(st, "%s is not a producer", st.From)
	}
	from, _ := c.Node(st.From)
	switch c.StatusOf(from) {
	case sim.Crashed:
		return s.errorf(st, "%s has crashed: its connection is gone; declare a new producer", st.From)
	case sim.Paused:
		return s.errorf(st, "%s is paused: resume it first", st.From)
	}
	intField := func(name string, def int64) int64 {
		if f, ok := st.Field(name); ok {
			return f.Int
		}
		return def
	}
	txnID := p.Cfg.TransactionalId
	if f, ok := st.Field("TransactionalId"); ok {
		txnID = f.Str
	}
	// Version=N sends that API version (the classic client's when not
	// written): an old client's answers differ (protocol.ErrorForVersion).
	version := int16(0)
	if f, ok := st.Field("Version"); ok {
		version = protocol.VersionField(int16(f.Int))
	}
	pid := intField("ProducerId", p.ProducerId)
	epoch := int16(intField("ProducerEpoch", int64(p.ProducerEpoch)))
	var msg protocol.Message
	switch st.API {
	case protocol.InitProducerId:
		msg = &protocol.InitProducerIdRequest{Version: version, TransactionalId: txnID,
			TransactionTimeoutMs: int32(intField("TransactionTimeoutMs", int64(p.Cfg.TransactionTimeoutMs))),
			ProducerId:           pid, ProducerEpoch: epoch}
	case protocol.AddPartitionsToTxn:
		f, _ := st.Field("Partitions")
		msg = &protocol.AddPartitionsToTxnRequest{Version: version, TransactionalId: txnID, ProducerId: pid, ProducerEpoch: epoch,
			Partitions: append([]protocol.TopicPartition(nil), f.TPs...)}
	case protocol.AddOffsetsToTxn:
		f, _ := st.Field("GroupId")
		msg = &protocol.AddOffsetsToTxnRequest{Version: version, TransactionalId: txnID, ProducerId: pid, ProducerEpoch: epoch, GroupId: f.Str}
	case protocol.EndTxn:
		msg = &protocol.EndTxnRequest{Version: version, TransactionalId: txnID, ProducerId: pid, ProducerEpoch: epoch,
			Committed: intField("Committed", 0) == 1}
	case protocol.Metadata:
		req := &protocol.MetadataRequest{}
		if f, ok := st.Field("Topics"); ok {
			req.Topics = strings.Split(f.Str, ",")
		}
		msg = req
	case protocol.ListOffsets:
		f, _ := st.Field("Partitions")
		req := &protocol.ListOffsetsRequest{ReplicaId: protocol.ConsumerReplicaId, IsolationLevel: int8(intField("IsolationLevel", 0))}
		for _, tp := range f.TPs {
			if err := s.checkTP(st, tp); err != nil {
				return err
			}
			req.Partitions = append(req.Partitions, protocol.ListOffsetsPartition{TopicPartition: tp,
				CurrentLeaderEpoch: int32(intField("CurrentLeaderEpoch", -1)), Timestamp: intField("Timestamp", protocol.LatestTimestamp)})
		}
		msg = req
	case protocol.Produce:
		if err := s.checkTP(st, st.TP); err != nil {
			return err
		}
		recs := make([]protocol.Record, len(st.Records))
		for i, kv := range st.Records {
			recs[i] = protocol.Record{Key: kv.Key, Value: kv.Value}
		}
		isTxn := p.Transactional
		if f, ok := st.Field("IsTransactional"); ok {
			isTxn = f.Int == 1
		}
		batch := protocol.RecordBatch{ProducerId: pid, ProducerEpoch: epoch,
			BaseSequence: int32(intField("BaseSequence", -1)), IsTransactional: isTxn, Records: recs}
		msg = &protocol.ProduceRequest{TransactionalId: txnID, Acks: int16(intField("Acks", int64(p.Cfg.Acks))),
			TimeoutMs:  int32(p.Cfg.RequestTimeoutMs),
			Partitions: []protocol.ProducePartitionData{{TopicPartition: st.TP, Records: batch}}}
	}
	to, err := s.requestDestination(st, txnID)
	if err != nil {
		return err
	}
	id, serr := c.SendRaw(from, to, msg)
	if serr != nil {
		return s.errorf(st, "%v", serr)
	}
	if st.Background {
		return nil
	}
	answered := c.AnswerWatch(id)
	s.waitFor(st, answered, p.Cfg.RequestTimeoutMs,
		sim.NewNote(sim.NoteRequestNoResponse, st.API.String(), p.Cfg.RequestTimeoutMs.Human()))
	return nil
}

// requestDestination is where a request goes: to= when written, else the
// transactional id's coordinator (for the transactional APIs), the
// partition's leader (Produce), or the first live broker (InitProducerId
// without a transactional id, which any broker answers).
func (s *Session) requestDestination(st *RequestStmt, txnID string) (sim.NodeID, *Error) {
	if !st.To.IsZero() {
		return s.resolve(st, st.To)
	}
	switch {
	case st.API == protocol.Produce:
		return s.resolve(st, NodeRef{Kind: NodeLeader, TP: st.TP})
	case st.API == protocol.ListOffsets:
		f, _ := st.Field("Partitions")
		return s.resolve(st, NodeRef{Kind: NodeLeader, TP: f.TPs[0]})
	case st.API == protocol.Metadata:
		if b, ok := s.Cluster.FirstLiveBroker(); ok {
			return b, nil
		}
		return sim.NoNode, s.errorf(st, "no broker is alive to answer Metadata")
	case txnID != "":
		return s.resolve(st, NodeRef{Kind: NodeCoordinator, Name: txnID})
	case st.API == protocol.InitProducerId:
		if b, ok := s.Cluster.FirstLiveBroker(); ok {
			return b, nil
		}
		return sim.NoNode, s.errorf(st, "no broker is alive to answer InitProducerId")
	}
	return sim.NoNode, s.errorf(st, "%s has no transactional.id: write TransactionalId=ID or to=NODE", st.From)
}
