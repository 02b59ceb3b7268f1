package scenario

// The external requests a real client sends beyond a producer's and a
// consumer's: the read-only Metadata and ListOffsets, LeaveGroup, and
// the operator's APIs of KIP-664 (DescribeProducers, DescribeTransactions,
// ListTransactions, and the WriteTxnMarkers that Admin.abortTransaction
// sends to a partition leader). The Kafka listener records them as
// request lines so that what kadm or a consumer's close did is drawn and
// replayed like every other request. Lists that may hold any text (ids,
// member ids, state names) quote their items as values are quoted.

import (
	"math"
	"strconv"
	"strings"

	"txnlab/core/protocol"
)

func init() {
	for _, a := range []struct {
		api    protocol.APIKey
		fields []string
	}{
		{protocol.Metadata, []string{"Topics", "AllowAutoTopicCreation"}},
		{protocol.ListOffsets, []string{"IsolationLevel", "Partitions"}},
		{protocol.LeaveGroup, []string{"GroupId", "Members"}},
		{protocol.WriteTxnMarkers, []string{"Markers"}},
		{protocol.DescribeProducers, []string{"Partitions"}},
		{protocol.DescribeTransactions, []string{"TransactionalIds"}},
		{protocol.ListTransactions, []string{"StateFilters", "ProducerIdFilters"}},
	} {
		externalFields[a.api] = a.fields
		// Kept in key order: insert before the first larger key (no
		// generic sort, which would add its code to the wasm).
		i := 0
		for i < len(ExternalAPIs) && ExternalAPIs[i] < a.api {
			i++
		}
		ExternalAPIs = append(ExternalAPIs[:i], append([]protocol.APIKey{a.api}, ExternalAPIs[i:]...)...)
	}
}

// quoteItem quotes one list item: as a value is quoted, and also when it
// would read as the empty list's "none" or split the list.
func quoteItem(s string) string {
	q := quote(s)
	if q == "none" || (q[0] != '"' && strings.ContainsAny(q, ",:+")) {
		return strconv.Quote(s)
	}
	return q
}

func quotedList(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	parts := make([]string, len(items))
	for i, s := range items {
		parts[i] = quoteItem(s)
	}
	return strings.Join(parts, ",")
}

// renderExternalMore writes the fields of the requests of this file.
func renderExternalMore(b *wordBuilder, m protocol.Message) {
	switch m := m.(type) {
	case *protocol.MetadataRequest:
		if m.Topics == nil {
			b.opt("Topics", "null")
		} else {
			b.opt("Topics", quotedList(m.Topics))
		}
		b.opt("AllowAutoTopicCreation", strconv.FormatBool(m.AllowAutoTopicCreation))
	case *protocol.ListOffsetsRequest:
		b.opt("IsolationLevel", i64(int64(m.IsolationLevel)))
		parts := make([]string, len(m.Partitions))
		for i, p := range m.Partitions {
			parts[i] = p.TopicPartition.String() + ":" + i64(p.Timestamp) + ":" + i64(int64(p.CurrentLeaderEpoch))
		}
		b.opt("Partitions", listOrNone(strings.Join(parts, ",")))
	case *protocol.LeaveGroupRequest:
		b.opt("GroupId", quote(m.GroupId))
		parts := make([]string, len(m.Members))
		for i, mm := range m.Members {
			parts[i] = quoteItem(mm.MemberId)
			if mm.GroupInstanceId != "" || mm.Reason != "" {
				parts[i] += ":" + quoteItem(mm.GroupInstanceId)
			}
			if mm.Reason != "" {
				parts[i] += ":" + quoteItem(mm.Reason)
			}
		}
		b.opt("Members", listOrNone(strings.Join(parts, ",")))
	case *protocol.WriteTxnMarkersRequest:
		parts := make([]string, len(m.Markers))
		for i, mk := range m.Markers {
			result := "ABORT"
			if mk.TransactionResult {
				result = "COMMIT"
			}
			ps := make([]string, len(mk.Partitions))
			for j, tp := range mk.Partitions {
				ps[j] = tp.String()
			}
			parts[i] = i64(mk.ProducerId) + ":" + i64(int64(mk.ProducerEpoch)) + ":" + result + ":" +
				i64(int64(mk.CoordinatorEpoch)) + ":" + strings.Join(ps, "+")
		}
		b.opt("Markers", listOrNone(strings.Join(parts, ",")))
	case *protocol.DescribeProducersRequest:
		b.opt("Partitions", tps(m.Partitions))
	case *protocol.DescribeTransactionsRequest:
		b.opt("TransactionalIds", quotedList(m.TransactionalIds))
	case *protocol.ListTransactionsRequest:
		b.opt("StateFilters", quotedList(m.StateFilters))
		ids := make([]string, len(m.ProducerIdFilters))
		for i, id := range m.ProducerIdFilters {
			ids[i] = i64(id)
		}
		b.opt("ProducerIdFilters", listOrNone(strings.Join(ids, ",")))
	}
}

// quotedItems splits a list field at the commas outside quotes and
// decodes each item, which may be quoted; "none" is the empty list.
func (f externalOpts) quotedItems(name string) [][]string {
	o, ok := f.opts.get(name)
	if !ok || o.raw == "none" {
		return nil
	}
	var out [][]string
	raw, off := o.raw, 0
	for {
		end := indexOutside(raw[off:], ",", false)
		item := raw[off:]
		if end >= 0 {
			item = raw[off : off+end]
		}
		if len(out) >= maxListItems {
			f.lp.failf(runeCol(raw, o.vcol, off), "%s holds more than %d items", name, maxListItems)
		}
		var fields []string
		for ioff := 0; ; {
			e := indexOutside(item[ioff:], ":", false)
			piece := item[ioff:]
			if e >= 0 {
				piece = item[ioff : ioff+e]
			}
			v, _ := f.lp.value(piece, runeCol(raw, o.vcol, off+ioff))
			fields = append(fields, v)
			if e < 0 {
				break
			}
			ioff += e + 1
		}
		out = append(out, fields)
		if end < 0 {
			return out
		}
		off += end + 1
	}
}

// strList is a list of single (possibly quoted) items.
func (f externalOpts) strList(name string) []string {
	var out []string
	o, _ := f.opts.get(name)
	for _, it := range f.quotedItems(name) {
		if len(it) != 1 {
			f.lp.failf(o.vcol, "%s is a list of names: quote a name that holds ':'", name)
		}
		out = append(out, it[0])
	}
	return out
}

// parseExternalMore reads the fields of the requests of this file.
func (f externalOpts) parseExternalMore(api protocol.APIKey) protocol.Message {
	lp := f.lp
	switch api {
	case protocol.Metadata:
		m := &protocol.MetadataRequest{AllowAutoTopicCreation: f.boolean("AllowAutoTopicCreation")}
		if o, ok := f.opts.get("Topics"); !ok || o.raw != "null" {
			m.Topics = []string{}
			for _, t := range f.strList("Topics") {
				m.Topics = append(m.Topics, t)
			}
		}
		return m
	case protocol.ListOffsets:
		m := &protocol.ListOffsetsRequest{ReplicaId: protocol.ConsumerReplicaId, IsolationLevel: int8(f.num("IsolationLevel", 0, 1))}
		f.items("Partitions", func(part string, col int) {
			rest, epoch, ok := cutLast(part)
			raw, ts, ok2 := cutLast(rest)
			if !ok || !ok2 {
				lp.failf(col, "expected TOPIC/PARTITION:TIMESTAMP:CURRENT_LEADER_EPOCH, got %q", part)
			}
			m.Partitions = append(m.Partitions, protocol.ListOffsetsPartition{TopicPartition: lp.topicPartition(raw, col),
				Timestamp:          lp.integer("Timestamp", ts, col, protocol.MaxTimestamp, math.MaxInt64),
				CurrentLeaderEpoch: int32(lp.integer("CurrentLeaderEpoch", epoch, col, -1, math.MaxInt32))})
		})
		return m
	case protocol.LeaveGroup:
		m := &protocol.LeaveGroupRequest{GroupId: f.str("GroupId")}
		o, _ := f.opts.get("Members")
		for _, it := range f.quotedItems("Members") {
			if len(it) > 3 {
				lp.failf(o.vcol, "expected MEMBER_ID[:GROUP_INSTANCE_ID[:REASON]] in Members")
			}
			mm := protocol.LeaveGroupMember{MemberId: it[0]}
			if len(it) >= 2 {
				mm.GroupInstanceId = it[1]
			}
			if len(it) == 3 {
				mm.Reason = it[2]
			}
			m.Members = append(m.Members, mm)
		}
		return m
	case protocol.WriteTxnMarkers:
		m := &protocol.WriteTxnMarkersRequest{}
		f.items("Markers", func(part string, col int) {
			fs := strings.SplitN(part, ":", 5)
			if len(fs) != 5 || (fs[2] != "COMMIT" && fs[2] != "ABORT") {
				lp.failf(col, "expected PRODUCER_ID:EPOCH:COMMIT|ABORT:COORDINATOR_EPOCH:TOPIC/PART+TOPIC/PART, got %q", part)
			}
			mk := protocol.WritableTxnMarker{ProducerId: lp.integer("ProducerId", fs[0], col, -1, math.MaxInt64),
				ProducerEpoch:     int16(lp.integer("ProducerEpoch", fs[1], col, -1, math.MaxInt16)),
				TransactionResult: fs[2] == "COMMIT",
				CoordinatorEpoch:  int32(lp.integer("CoordinatorEpoch", fs[3], col, -1, math.MaxInt32))}
			if fs[4] != "" {
				for _, t := range strings.Split(fs[4], "+") {
					mk.Partitions = append(mk.Partitions, lp.topicPartition(t, col))
				}
			}
			m.Markers = append(m.Markers, mk)
		})
		return m
	case protocol.DescribeProducers:
		return &protocol.DescribeProducersRequest{Partitions: f.tps("Partitions")}
	case protocol.DescribeTransactions:
		return &protocol.DescribeTransactionsRequest{TransactionalIds: f.strList("TransactionalIds")}
	case protocol.ListTransactions:
		m := &protocol.ListTransactionsRequest{StateFilters: f.strList("StateFilters")}
		f.items("ProducerIdFilters", func(part string, col int) {
			m.ProducerIdFilters = append(m.ProducerIdFilters, lp.integer("ProducerIdFilters", part, col, -1, math.MaxInt64))
		})
		return m
	}
	return nil
}

// cutLast splits s at its last ':'.
func cutLast(s string) (string, string, bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// cloneMore copies the requests of this file (see cloneRequest).
func cloneMore(m protocol.Message) protocol.Message {
	switch m := m.(type) {
	case *protocol.MetadataRequest:
		c := *m
		if m.Topics != nil {
			c.Topics = append([]string{}, m.Topics...)
		}
		return &c
	case *protocol.ListOffsetsRequest:
		c := *m
		c.Partitions = append([]protocol.ListOffsetsPartition(nil), m.Partitions...)
		return &c
	case *protocol.LeaveGroupRequest:
		c := *m
		c.Members = append([]protocol.LeaveGroupMember(nil), m.Members...)
		return &c
	case *protocol.WriteTxnMarkersRequest:
		c := *m
		c.Markers = make([]protocol.WritableTxnMarker, len(m.Markers))
		for i, mk := range m.Markers {
			mk.Partitions = append([]protocol.TopicPartition(nil), mk.Partitions...)
			c.Markers[i] = mk
		}
		return &c
	case *protocol.DescribeProducersRequest:
		c := *m
		c.Partitions = append([]protocol.TopicPartition(nil), m.Partitions...)
		return &c
	case *protocol.DescribeTransactionsRequest:
		c := *m
		c.TransactionalIds = append([]string(nil), m.TransactionalIds...)
		return &c
	case *protocol.ListTransactionsRequest:
		c := *m
		c.StateFilters = append([]string(nil), m.StateFilters...)
		c.ProducerIdFilters = append([]int64(nil), m.ProducerIdFilters...)
		return &c
	}
	return m
}

// maxRecordHeaders bounds one record's headers in a request line.
const maxRecordHeaders = 64

// renderRecordAttrs writes what a real client's record holds beyond a
// key and a value, each a token after the record: ^nullkey, ^nullvalue,
// ^ts=MS (its CreateTime, written when it differs from the previous
// record's, prevTs: a record without ^ts has the one before it's, so a
// client's batch stamped at one moment writes it once), ^h=NAME:VALUE
// (a header; ^h=NAME for a null value). It returns the record's
// timestamp.
func renderRecordAttrs(b *wordBuilder, r *protocol.Record, prevTs int64) int64 {
	if r.NullKey {
		b.add("^nullkey")
	}
	if r.Tombstone {
		b.add("^nullvalue")
	}
	if r.Timestamp != prevTs {
		b.add("^ts=" + i64(r.Timestamp))
	}
	for _, h := range r.Headers {
		tok := "^h=" + quoteItem(h.Key)
		if !h.NullValue {
			tok += ":" + quoteItem(h.Value)
		}
		b.add(tok)
	}
	return r.Timestamp
}

// recordAttr reads one ^ token into the request's last record.
func (lp *lineParser) recordAttr(m *protocol.ProduceRequest, t token) {
	var last *protocol.Record
	if n := len(m.Partitions); n > 0 {
		if recs := m.Partitions[n-1].Records.Records; len(recs) > 0 {
			last = &recs[len(recs)-1]
		}
	}
	if last == nil {
		lp.failf(t.col, "%s describes a record: write it after KEY=VALUE", t.raw)
	}
	name, val, hasVal := strings.Cut(t.raw[1:], "=")
	switch {
	case name == "nullkey" && !hasVal:
		if last.Key != "" {
			lp.failf(t.col, "^nullkey follows a record whose key is not empty: write \"\"=VALUE ^nullkey")
		}
		last.NullKey = true
	case name == "nullvalue" && !hasVal:
		if last.Value != "" {
			lp.failf(t.col, "^nullvalue follows a record whose value is not empty: write KEY=\"\" ^nullvalue")
		}
		last.Tombstone = true
	case name == "ts" && hasVal:
		last.Timestamp = lp.integer("the record's timestamp", val, runeCol(t.raw, t.col, 4), math.MinInt64, math.MaxInt64)
	case name == "h" && hasVal:
		if len(last.Headers) >= maxRecordHeaders {
			lp.failf(t.col, "a record holds at most %d headers", maxRecordHeaders)
		}
		col := runeCol(t.raw, t.col, 3)
		h := protocol.RecordHeader{}
		if i := indexOutside(val, ":", false); i >= 0 {
			h.Key, _ = lp.value(val[:i], col)
			h.Value, _ = lp.value(val[i+1:], runeCol(t.raw, t.col, 3+i+1))
		} else {
			h.Key, _ = lp.value(val, col)
			h.NullValue = true
		}
		last.Headers = append(last.Headers, h)
	default:
		lp.failf(t.col, "unknown record attribute %q: a record takes ^nullkey, ^nullvalue, ^ts=MS and ^h=NAME:VALUE", t.raw)
	}
}
