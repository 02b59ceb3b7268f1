package scenario

// External clients: `client NAME` declares a node through which a
// program outside the simulation speaks (a real Kafka client on the
// listener, cmd/txnlab kafka), and `request API from=NAME to=broker-N
// conn=N …` sends one request on its behalf with every field written,
// as the listener records it. A live session is saved as a script of
// these lines, and replaying the script gives the same trace: the
// listener applies the very statements it records.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// KindExternal is an external client's kind (declared with client).
const KindExternal ClientKind = 3

// ClientStmt declares an external client: a node with no behaviour of
// its own, which sends only what request statements send from it.
type ClientStmt struct {
	Base
	Name string
	// Software is the client library and its version, as the client
	// named them (ApiVersions v3's ClientSoftwareName and Version);
	// the trace notes it on the client's lifeline.
	Software string
}

// String renders the statement.
func (s *ClientStmt) String() string {
	b := words("client", s.Name)
	if s.Software != "" {
		b.opt("software", quote(s.Software))
	}
	return b.String()
}

func parseClientDecl(lp *lineParser, kw token) Stmt {
	t := lp.declName("client")
	st := &ClientStmt{Name: t.raw}
	opts := lp.options("client", []string{"software"})
	if o, ok := opts.get("software"); ok {
		st.Software, _ = lp.value(o.raw, o.vcol)
	}
	lp.pending = func() {
		lp.d.clients = append(lp.d.clients, ClientDecl{Name: st.Name, Kind: KindExternal, Line: lp.line})
	}
	return st
}

func (st *ClientStmt) apply(s *Session) *Error {
	e, err := s.Cluster.AddExternal(st.Name)
	if err != nil {
		return s.errorf(st, "%v", err)
	}
	if st.Software != "" {
		s.Cluster.Note(e.Node, "", sim.NoteStatement, st.String())
	}
	return nil
}

// ExternalAPIs are the APIs an external client's request may carry, in
// key order: those of a consumer and of a transactional producer.
var ExternalAPIs = []protocol.APIKey{protocol.Produce, protocol.Fetch, protocol.OffsetCommit,
	protocol.OffsetFetch, protocol.FindCoordinator, protocol.JoinGroup, protocol.Heartbeat,
	protocol.SyncGroup, protocol.InitProducerId, protocol.AddPartitionsToTxn,
	protocol.AddOffsetsToTxn, protocol.EndTxn, protocol.TxnOffsetCommit}

// externalFields lists each API's fields as an external request writes
// them, in schema order (Kafka's names). Produce's partitions and
// records follow its fields.
var externalFields = map[protocol.APIKey][]string{
	protocol.Produce:            {"TransactionalId", "Acks", "TimeoutMs", "ProducerId", "ProducerEpoch", "IsTransactional"},
	protocol.Fetch:              {"IsolationLevel", "SessionEpoch", "Partitions"},
	protocol.OffsetCommit:       {"GroupId", "GenerationId", "MemberId", "GroupInstanceId", "Offsets"},
	protocol.OffsetFetch:        {"GroupId", "Partitions", "RequireStable"},
	protocol.FindCoordinator:    {"Key", "KeyType"},
	protocol.JoinGroup:          {"GroupId", "SessionTimeoutMs", "RebalanceTimeoutMs", "MemberId", "GroupInstanceId", "ProtocolType", "Protocols"},
	protocol.Heartbeat:          {"GroupId", "GenerationId", "MemberId", "GroupInstanceId"},
	protocol.SyncGroup:          {"GroupId", "GenerationId", "MemberId", "GroupInstanceId", "ProtocolType", "ProtocolName", "Assignments"},
	protocol.InitProducerId:     {"TransactionalId", "TransactionTimeoutMs", "ProducerId", "ProducerEpoch"},
	protocol.AddPartitionsToTxn: {"TransactionalId", "ProducerId", "ProducerEpoch", "Partitions"},
	protocol.AddOffsetsToTxn:    {"TransactionalId", "ProducerId", "ProducerEpoch", "GroupId"},
	protocol.EndTxn:             {"TransactionalId", "ProducerId", "ProducerEpoch", "Committed"},
	protocol.TxnOffsetCommit:    {"TransactionalId", "GroupId", "ProducerId", "ProducerEpoch", "GenerationId", "MemberId", "GroupInstanceId", "Offsets"},
}

// ExternalRequestStmt sends one request from an external client to a
// broker on one of the client's connections. Msg holds every field; a
// fresh copy is sent each time the statement runs. Without Background it
// waits for the answer (at most 30 s).
type ExternalRequestStmt struct {
	Base
	From       string
	To         int // the broker's number
	Conn       int
	Version    int16 // -1: not written
	Msg        protocol.Message
	Background bool
}

// externalWait is how long a request statement without & waits.
const externalWait = 30 * sim.Second

// String renders the statement canonically.
func (s *ExternalRequestStmt) String() string {
	b := words("request", s.Msg.APIKey().String())
	b.opt("from", s.From)
	b.opt("to", "broker-"+strconv.Itoa(s.To))
	b.opt("conn", strconv.Itoa(s.Conn))
	if s.Version >= 0 {
		b.opt("Version", strconv.Itoa(int(s.Version)))
	}
	renderExternal(b, s.Msg)
	if s.Background {
		b.add("&")
	}
	return b.String()
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func optStr(b *wordBuilder, k, v string) {
	if v != "" {
		b.opt(k, quote(v))
	}
}

func tps(list []protocol.TopicPartition) string {
	if len(list) == 0 {
		return "none"
	}
	parts := make([]string, len(list))
	for i, tp := range list {
		parts[i] = tp.String()
	}
	return strings.Join(parts, ",")
}

func offsetList(list []protocol.OffsetEntry) string {
	if len(list) == 0 {
		return "none"
	}
	parts := make([]string, len(list))
	for i, o := range list {
		parts[i] = o.TopicPartition.String() + ":" + i64(o.CommittedOffset)
	}
	return strings.Join(parts, ",")
}

func renderExternal(b *wordBuilder, m protocol.Message) {
	switch m := m.(type) {
	case *protocol.FindCoordinatorRequest:
		b.opt("Key", quote(m.Key))
		b.opt("KeyType", i64(int64(m.KeyType)))
	case *protocol.InitProducerIdRequest:
		optStr(b, "TransactionalId", m.TransactionalId)
		b.opt("TransactionTimeoutMs", i64(int64(m.TransactionTimeoutMs)))
		b.opt("ProducerId", i64(m.ProducerId))
		b.opt("ProducerEpoch", i64(int64(m.ProducerEpoch)))
	case *protocol.AddPartitionsToTxnRequest:
		b.opt("TransactionalId", quote(m.TransactionalId))
		b.opt("ProducerId", i64(m.ProducerId))
		b.opt("ProducerEpoch", i64(int64(m.ProducerEpoch)))
		b.opt("Partitions", tps(m.Partitions))
	case *protocol.AddOffsetsToTxnRequest:
		b.opt("TransactionalId", quote(m.TransactionalId))
		b.opt("ProducerId", i64(m.ProducerId))
		b.opt("ProducerEpoch", i64(int64(m.ProducerEpoch)))
		b.opt("GroupId", quote(m.GroupId))
	case *protocol.EndTxnRequest:
		b.opt("TransactionalId", quote(m.TransactionalId))
		b.opt("ProducerId", i64(m.ProducerId))
		b.opt("ProducerEpoch", i64(int64(m.ProducerEpoch)))
		b.opt("Committed", strconv.FormatBool(m.Committed))
	case *protocol.TxnOffsetCommitRequest:
		b.opt("TransactionalId", quote(m.TransactionalId))
		b.opt("GroupId", quote(m.GroupId))
		b.opt("ProducerId", i64(m.ProducerId))
		b.opt("ProducerEpoch", i64(int64(m.ProducerEpoch)))
		b.opt("GenerationId", i64(int64(m.GenerationId)))
		b.opt("MemberId", quote(m.MemberId))
		optStr(b, "GroupInstanceId", m.GroupInstanceId)
		b.opt("Offsets", offsetList(m.Offsets))
	case *protocol.OffsetCommitRequest:
		b.opt("GroupId", quote(m.GroupId))
		b.opt("GenerationId", i64(int64(m.GenerationId)))
		b.opt("MemberId", quote(m.MemberId))
		optStr(b, "GroupInstanceId", m.GroupInstanceId)
		b.opt("Offsets", offsetList(m.Offsets))
	case *protocol.OffsetFetchRequest:
		b.opt("GroupId", quote(m.GroupId))
		b.opt("Partitions", tps(m.Partitions))
		b.opt("RequireStable", strconv.FormatBool(m.RequireStable))
	case *protocol.JoinGroupRequest:
		b.opt("GroupId", quote(m.GroupId))
		b.opt("SessionTimeoutMs", i64(int64(m.SessionTimeoutMs)))
		b.opt("RebalanceTimeoutMs", i64(int64(m.RebalanceTimeoutMs)))
		b.opt("MemberId", quote(m.MemberId))
		optStr(b, "GroupInstanceId", m.GroupInstanceId)
		b.opt("ProtocolType", quote(m.ProtocolType))
		parts := make([]string, len(m.Protocols))
		for i, p := range m.Protocols {
			parts[i] = p.Name + ":" + strings.Join(p.Topics, "+")
		}
		b.opt("Protocols", listOrNone(strings.Join(parts, ",")))
	case *protocol.HeartbeatRequest:
		b.opt("GroupId", quote(m.GroupId))
		b.opt("GenerationId", i64(int64(m.GenerationId)))
		b.opt("MemberId", quote(m.MemberId))
		optStr(b, "GroupInstanceId", m.GroupInstanceId)
	case *protocol.SyncGroupRequest:
		b.opt("GroupId", quote(m.GroupId))
		b.opt("GenerationId", i64(int64(m.GenerationId)))
		b.opt("MemberId", quote(m.MemberId))
		optStr(b, "GroupInstanceId", m.GroupInstanceId)
		b.opt("ProtocolType", quote(m.ProtocolType))
		b.opt("ProtocolName", quote(m.ProtocolName))
		parts := make([]string, len(m.Assignments))
		for i, a := range m.Assignments {
			ps := make([]string, len(a.Assignment))
			for j, tp := range a.Assignment {
				ps[j] = tp.String()
			}
			parts[i] = a.MemberId + ":" + strings.Join(ps, "+")
		}
		b.opt("Assignments", listOrNone(strings.Join(parts, ",")))
	case *protocol.FetchRequest:
		b.opt("IsolationLevel", i64(int64(m.IsolationLevel)))
		b.opt("SessionEpoch", i64(int64(m.SessionEpoch)))
		parts := make([]string, len(m.Partitions))
		for i, p := range m.Partitions {
			parts[i] = p.TopicPartition.String() + ":" + i64(p.FetchOffset)
		}
		b.opt("Partitions", listOrNone(strings.Join(parts, ",")))
	default:
		renderExternalMore(b, m)
	case *protocol.ProduceRequest:
		optStr(b, "TransactionalId", m.TransactionalId)
		b.opt("Acks", i64(int64(m.Acks)))
		b.opt("TimeoutMs", i64(int64(m.TimeoutMs)))
		if len(m.Partitions) > 0 {
			first := &m.Partitions[0].Records
			b.opt("ProducerId", i64(first.ProducerId))
			b.opt("ProducerEpoch", i64(int64(first.ProducerEpoch)))
			b.opt("IsTransactional", strconv.FormatBool(first.IsTransactional))
		}
		for _, p := range m.Partitions {
			tok := p.TopicPartition.String()
			if p.Records.BaseSequence >= 0 {
				tok += "@" + i64(int64(p.Records.BaseSequence))
			}
			b.add(tok)
			ts := int64(0)
			for _, r := range p.Records.Records {
				b.add(quote(r.Key) + "=" + quote(r.Value))
				ts = renderRecordAttrs(b, &r, ts)
			}
		}
	}
}

func listOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// parseExternalRequest parses a request from an external client, after
// "request API"; the from= option named it.
func parseExternalRequest(lp *lineParser, api protocol.APIKey, bg bool) Stmt {
	fields, ok := externalFields[api]
	if !ok {
		var names []string
		for _, k := range ExternalAPIs {
			names = append(names, k.String())
		}
		lp.failf(lp.toks[1].col, "an external client cannot send %s: it sends %s", api, strings.Join(names, ", "))
	}
	start := lp.i
	for lp.more() {
		tok := lp.toks[lp.i]
		if tok.quoted || indexOutside(tok.raw, "=", false) < 0 {
			break
		}
		lp.i++
	}
	sub := &lineParser{d: lp.d, line: lp.line, toks: lp.toks[start:lp.i]}
	allowed := append([]string{"from", "to", "conn", "Version"}, fields...)
	opts := sub.options("request "+api.String(), allowed)
	st := &ExternalRequestStmt{Version: -1, Background: bg}
	o, ok := opts.get("from")
	if !ok {
		// from= lies past a word that is not NAME=VALUE (the fuzzer's
		// "request Heartbeat 0 from=kgo"): the options stop there.
		if lp.more() {
			tok := lp.toks[lp.i]
			lp.failf(tok.col, "expected NAME=VALUE options, from=CLIENT among them, after request %s; got %q", api, tok.raw)
		}
		lp.failf(lp.endCol(), "a request from an external client needs from=CLIENT")
	}
	st.From = lp.clientName(o.raw, o.vcol).Name
	o, ok = opts.get("to")
	if !ok {
		lp.failf(lp.endCol(), "a request from the external client %s needs to=broker-N", st.From)
	}
	ref := lp.nodeRef(o.raw, o.vcol)
	if ref.Kind != NodeBroker {
		lp.failf(o.vcol, "an external client's request goes to a broker: write to=broker-N")
	}
	st.To = ref.Index
	o, ok = opts.get("conn")
	if !ok {
		lp.failf(lp.endCol(), "a request from the external client %s needs conn=N: the connection it goes on", st.From)
	}
	st.Conn = int(lp.integer("conn", o.raw, o.vcol, 1, 1024))
	if o, ok := opts.get("Version"); ok {
		st.Version = int16(lp.integer("Version", o.raw, o.vcol, 0, math.MaxInt16))
	}
	f := externalOpts{lp: lp, opts: opts}
	switch api {
	case protocol.FindCoordinator:
		st.Msg = &protocol.FindCoordinatorRequest{Key: f.str("Key"), KeyType: int8(f.num("KeyType", 0, 1))}
	case protocol.InitProducerId:
		st.Msg = &protocol.InitProducerIdRequest{TransactionalId: f.str("TransactionalId"),
			TransactionTimeoutMs: int32(f.num("TransactionTimeoutMs", 0, math.MaxInt32)),
			ProducerId:           f.num("ProducerId", -1, math.MaxInt64), ProducerEpoch: int16(f.num("ProducerEpoch", -1, math.MaxInt16))}
	case protocol.AddPartitionsToTxn:
		st.Msg = &protocol.AddPartitionsToTxnRequest{TransactionalId: f.str("TransactionalId"),
			ProducerId: f.num("ProducerId", -1, math.MaxInt64), ProducerEpoch: int16(f.num("ProducerEpoch", -1, math.MaxInt16)),
			Partitions: f.tps("Partitions")}
	case protocol.AddOffsetsToTxn:
		st.Msg = &protocol.AddOffsetsToTxnRequest{TransactionalId: f.str("TransactionalId"),
			ProducerId: f.num("ProducerId", -1, math.MaxInt64), ProducerEpoch: int16(f.num("ProducerEpoch", -1, math.MaxInt16)),
			GroupId: f.str("GroupId")}
	case protocol.EndTxn:
		st.Msg = &protocol.EndTxnRequest{TransactionalId: f.str("TransactionalId"),
			ProducerId: f.num("ProducerId", -1, math.MaxInt64), ProducerEpoch: int16(f.num("ProducerEpoch", -1, math.MaxInt16)),
			Committed: f.boolean("Committed")}
	case protocol.TxnOffsetCommit:
		st.Msg = &protocol.TxnOffsetCommitRequest{TransactionalId: f.str("TransactionalId"), GroupId: f.str("GroupId"),
			ProducerId: f.num("ProducerId", -1, math.MaxInt64), ProducerEpoch: int16(f.num("ProducerEpoch", -1, math.MaxInt16)),
			GenerationId: int32(f.num("GenerationId", -1, math.MaxInt32)), MemberId: f.str("MemberId"),
			GroupInstanceId: f.str("GroupInstanceId"), Offsets: f.offsets("Offsets")}
	case protocol.OffsetCommit:
		st.Msg = &protocol.OffsetCommitRequest{GroupId: f.str("GroupId"),
			GenerationId: int32(f.num("GenerationId", -1, math.MaxInt32)), MemberId: f.str("MemberId"),
			GroupInstanceId: f.str("GroupInstanceId"), Offsets: f.offsets("Offsets")}
	case protocol.OffsetFetch:
		st.Msg = &protocol.OffsetFetchRequest{GroupId: f.str("GroupId"), Partitions: f.tps("Partitions"),
			RequireStable: f.boolean("RequireStable")}
	case protocol.JoinGroup:
		st.Msg = &protocol.JoinGroupRequest{GroupId: f.str("GroupId"),
			SessionTimeoutMs:   int32(f.num("SessionTimeoutMs", 0, math.MaxInt32)),
			RebalanceTimeoutMs: int32(f.num("RebalanceTimeoutMs", -1, math.MaxInt32)),
			MemberId:           f.str("MemberId"), GroupInstanceId: f.str("GroupInstanceId"),
			ProtocolType: f.str("ProtocolType"), Protocols: f.protocols("Protocols")}
	case protocol.Heartbeat:
		st.Msg = &protocol.HeartbeatRequest{GroupId: f.str("GroupId"),
			GenerationId: int32(f.num("GenerationId", -1, math.MaxInt32)), MemberId: f.str("MemberId"),
			GroupInstanceId: f.str("GroupInstanceId")}
	case protocol.SyncGroup:
		st.Msg = &protocol.SyncGroupRequest{GroupId: f.str("GroupId"),
			GenerationId: int32(f.num("GenerationId", -1, math.MaxInt32)), MemberId: f.str("MemberId"),
			GroupInstanceId: f.str("GroupInstanceId"), ProtocolType: f.str("ProtocolType"),
			ProtocolName: f.str("ProtocolName"), Assignments: f.assignments("Assignments")}
	case protocol.Fetch:
		st.Msg = &protocol.FetchRequest{ReplicaId: protocol.ConsumerReplicaId,
			IsolationLevel: int8(f.num("IsolationLevel", 0, 1)),
			SessionEpoch:   int32(f.num("SessionEpoch", -1, math.MaxInt32)), Partitions: f.fetchParts("Partitions")}
	case protocol.Produce:
		st.Msg = lp.externalProduce(f, st.Version)
	default:
		st.Msg = f.parseExternalMore(api)
	}
	setVersion(st.Msg, st.Version)
	if api != protocol.Produce {
		lp.done(fmt.Sprintf("request %s takes only FIELD=VALUE options (%s)", api, strings.Join(allowed, ", ")))
	}
	return st
}

// setVersion passes the request's version into the messages whose
// meaning the simulation varies by version.
func setVersion(m protocol.Message, v int16) {
	if v < 0 {
		return
	}
	switch m := m.(type) {
	case *protocol.ProduceRequest:
		m.Version = v
	case *protocol.AddPartitionsToTxnRequest:
		m.Version = v
	case *protocol.EndTxnRequest:
		m.Version = v
	case *protocol.TxnOffsetCommitRequest:
		m.Version = v
	}
}

// externalOpts reads an external request's fields: absent ones are
// Kafka's zero or "none" values.
type externalOpts struct {
	lp   *lineParser
	opts options
}

func (f externalOpts) str(name string) string {
	o, ok := f.opts.get(name)
	if !ok {
		return ""
	}
	v, _ := f.lp.value(o.raw, o.vcol)
	return v
}

func (f externalOpts) num(name string, lo, hi int64) int64 {
	o, ok := f.opts.get(name)
	if !ok {
		return max(lo, min(hi, 0))
	}
	return f.lp.integer(name, o.raw, o.vcol, lo, hi)
}

func (f externalOpts) boolean(name string) bool {
	o, ok := f.opts.get(name)
	return ok && f.lp.boolean(o)
}

// items calls each with every comma-separated item of a list field, none
// for the empty list.
func (f externalOpts) items(name string, each func(part string, col int)) {
	o, ok := f.opts.get(name)
	if !ok || o.raw == "none" {
		return
	}
	n := 0
	f.lp.eachItem(o, func(part string, col int) {
		if n++; n > maxListItems {
			f.lp.failf(col, "%s holds more than %d items", name, maxListItems)
		}
		each(part, col)
	})
}

// maxListItems bounds one list field of a request.
const maxListItems = 256

func (f externalOpts) tps(name string) []protocol.TopicPartition {
	var out []protocol.TopicPartition
	f.items(name, func(part string, col int) { out = append(out, f.lp.topicPartition(part, col)) })
	return out
}

// tpNumber parses TOPIC/PART:N.
func (f externalOpts) tpNumber(part string, col int, what string) (protocol.TopicPartition, int64) {
	i := strings.LastIndexByte(part, ':')
	if i < 0 {
		f.lp.failf(col, "expected TOPIC/PARTITION:%s, got %q", what, part)
	}
	tp := f.lp.topicPartition(part[:i], col)
	return tp, f.lp.integer(what, part[i+1:], runeCol(part, col, i+1), -1, math.MaxInt64)
}

func (f externalOpts) offsets(name string) []protocol.OffsetEntry {
	var out []protocol.OffsetEntry
	f.items(name, func(part string, col int) {
		tp, n := f.tpNumber(part, col, "OFFSET")
		out = append(out, protocol.OffsetEntry{TopicPartition: tp, CommittedOffset: n})
	})
	return out
}

func (f externalOpts) fetchParts(name string) []protocol.FetchPartition {
	var out []protocol.FetchPartition
	f.items(name, func(part string, col int) {
		tp, n := f.tpNumber(part, col, "FETCH_OFFSET")
		out = append(out, protocol.FetchPartition{TopicPartition: tp, FetchOffset: n, LastFetchedEpoch: -1})
	})
	return out
}

// plainName reports whether s is a protocol name or a member id the list
// syntax can hold unquoted.
func plainName(s string) bool { return s != "" && plain(s) }

func (f externalOpts) protocols(name string) []protocol.JoinGroupProtocol {
	var out []protocol.JoinGroupProtocol
	f.items(name, func(part string, col int) {
		n, topics, ok := strings.Cut(part, ":")
		if !ok || !plainName(n) {
			f.lp.failf(col, "expected NAME:TOPIC+TOPIC, got %q", part)
		}
		p := protocol.JoinGroupProtocol{Name: n}
		if topics != "" {
			for _, t := range strings.Split(topics, "+") {
				if !validTopic(t) {
					f.lp.failf(col, "topic name %q may only hold letters, digits, '.', '_' and '-'", t)
				}
				p.Topics = append(p.Topics, t)
			}
		}
		out = append(out, p)
	})
	return out
}

func (f externalOpts) assignments(name string) []protocol.SyncGroupAssignment {
	var out []protocol.SyncGroupAssignment
	f.items(name, func(part string, col int) {
		member, list, ok := strings.Cut(part, ":")
		if !ok || !plainName(member) {
			f.lp.failf(col, "expected MEMBER:TOPIC/PART+TOPIC/PART, got %q", part)
		}
		a := protocol.SyncGroupAssignment{MemberId: member}
		if list != "" {
			for _, t := range strings.Split(list, "+") {
				a.Assignment = append(a.Assignment, f.lp.topicPartition(t, col))
			}
		}
		out = append(out, a)
	})
	return out
}

// maxProduceRecords bounds the records of one external Produce.
const maxProduceRecords = 1000

// externalProduce parses the partitions and records after a Produce's
// fields: TOPIC/PART[@BASE_SEQUENCE] then its KEY=VALUE records, for
// each partition.
func (lp *lineParser) externalProduce(f externalOpts, version int16) *protocol.ProduceRequest {
	m := &protocol.ProduceRequest{TransactionalId: f.str("TransactionalId"),
		Acks: int16(f.num("Acks", -1, 1)), TimeoutMs: int32(f.num("TimeoutMs", 0, math.MaxInt32))}
	if m.Acks != -1 && m.Acks != 0 && m.Acks != 1 {
		lp.failf(lp.toks[0].col, "Acks must be -1, 0 or 1")
	}
	pid := f.num("ProducerId", -1, math.MaxInt64)
	epoch := int16(f.num("ProducerEpoch", -1, math.MaxInt16))
	txn := f.boolean("IsTransactional")
	n := 0
	for lp.more() {
		t := lp.next("")
		if !t.quoted && strings.HasPrefix(t.raw, "^") {
			lp.recordAttr(m, t)
			continue
		}
		if t.quoted || indexOutside(t.raw, "=", false) >= 0 {
			if len(m.Partitions) == 0 {
				lp.failf(t.col, "a record needs a partition before it: TOPIC/PART then KEY=VALUE")
			}
			if n++; n > maxProduceRecords {
				lp.failf(t.col, "at most %d records in one request", maxProduceRecords)
			}
			kv := lp.record(t)
			last := &m.Partitions[len(m.Partitions)-1].Records
			r := protocol.Record{Key: kv.Key, Value: kv.Value}
			if n := len(last.Records); n > 0 {
				r.Timestamp = last.Records[n-1].Timestamp // ^ts holds until the next one
			}
			last.Records = append(last.Records, r)
			continue
		}
		raw, seq := t.raw, int64(protocol.NoSequence)
		if i := strings.IndexByte(raw, '@'); i >= 0 {
			seq = lp.integer("the base sequence", raw[i+1:], runeCol(raw, t.col, i+1), 0, math.MaxInt32)
			raw = raw[:i]
		}
		tp := lp.topicPartition(raw, t.col)
		if strings.HasPrefix(tp.Topic, "__") {
			lp.failf(t.col, "cannot send to the internal topic %s", tp.Topic)
		}
		if len(m.Partitions) >= maxListItems {
			lp.failf(t.col, "at most %d partitions in one request", maxListItems)
		}
		m.Partitions = append(m.Partitions, protocol.ProducePartitionData{TopicPartition: tp,
			Records: protocol.RecordBatch{ProducerId: pid, ProducerEpoch: epoch, BaseSequence: int32(seq), IsTransactional: txn}})
	}
	for _, p := range m.Partitions {
		if len(p.Records.Records) == 0 {
			lp.failf(lp.endCol(), "partition %s has no records: write KEY=VALUE after it", p.TopicPartition)
		}
	}
	return m
}

func (st *ExternalRequestStmt) apply(s *Session) *Error {
	c := s.Cluster
	from, _ := c.Node(st.From)
	if c.StatusOf(from) != sim.Up {
		return s.errorf(st, "%s is %s", st.From, c.StatusOf(from))
	}
	if st.To >= len(c.Brokers) {
		return s.errorf(st, "broker-%d does not exist", st.To)
	}
	to, _ := c.Node("broker-" + strconv.Itoa(st.To))
	id, err := c.SendExternal(st.From, to, st.Conn, cloneRequest(st.Msg))
	if err != nil {
		return s.errorf(st, "%v", err)
	}
	if st.Background {
		return nil
	}
	s.waitFor(st, c.AnswerWatch(id), externalWait,
		sim.NewNote(sim.NoteRequestNoResponse, st.Msg.APIKey().String(), externalWait.Human()))
	return nil
}

// cloneRequest copies a request deeply enough that the simulation may
// keep or change what it receives: a statement runs again when a session
// replays its script.
func cloneRequest(m protocol.Message) protocol.Message {
	switch m := m.(type) {
	case *protocol.FindCoordinatorRequest:
		c := *m
		return &c
	case *protocol.InitProducerIdRequest:
		c := *m
		return &c
	case *protocol.AddPartitionsToTxnRequest:
		c := *m
		c.Partitions = append([]protocol.TopicPartition(nil), m.Partitions...)
		return &c
	case *protocol.AddOffsetsToTxnRequest:
		c := *m
		return &c
	case *protocol.EndTxnRequest:
		c := *m
		return &c
	case *protocol.TxnOffsetCommitRequest:
		c := *m
		c.Offsets = append([]protocol.OffsetEntry(nil), m.Offsets...)
		return &c
	case *protocol.OffsetCommitRequest:
		c := *m
		c.Offsets = append([]protocol.OffsetEntry(nil), m.Offsets...)
		return &c
	case *protocol.OffsetFetchRequest:
		c := *m
		c.Partitions = append([]protocol.TopicPartition(nil), m.Partitions...)
		return &c
	case *protocol.JoinGroupRequest:
		c := *m
		c.Protocols = make([]protocol.JoinGroupProtocol, len(m.Protocols))
		for i, p := range m.Protocols {
			c.Protocols[i] = protocol.JoinGroupProtocol{Name: p.Name, Topics: append([]string(nil), p.Topics...)}
		}
		return &c
	case *protocol.HeartbeatRequest:
		c := *m
		return &c
	case *protocol.SyncGroupRequest:
		c := *m
		c.Assignments = make([]protocol.SyncGroupAssignment, len(m.Assignments))
		for i, a := range m.Assignments {
			c.Assignments[i] = protocol.SyncGroupAssignment{MemberId: a.MemberId, Assignment: append([]protocol.TopicPartition(nil), a.Assignment...)}
		}
		return &c
	case *protocol.FetchRequest:
		c := *m
		c.Partitions = append([]protocol.FetchPartition(nil), m.Partitions...)
		return &c
	case *protocol.ProduceRequest:
		c := *m
		c.Partitions = make([]protocol.ProducePartitionData, len(m.Partitions))
		for i, p := range m.Partitions {
			p.Records.Records = append([]protocol.Record(nil), p.Records.Records...)
			c.Partitions[i] = p
		}
		return &c
	}
	return cloneMore(m)
}

// fromExternal reports whether the rest of a request line names an
// external client in from=.
func (lp *lineParser) fromExternal() bool {
	for _, t := range lp.toks[lp.i:] {
		if v, ok := strings.CutPrefix(t.raw, "from="); ok {
			c, known := lp.d.Client(v)
			return known && c.Kind == KindExternal
		}
	}
	return false
}
