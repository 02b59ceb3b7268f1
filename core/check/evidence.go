package check

import (
	"slices"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The evidence of a violation is the trace events a learner follows to
// see it happen: the Produce that wrote a record, the Fetch answer that
// handed it to a consumer, the WriteTxnMarkers that closed it, the
// InitProducerId answer that granted a newer epoch. Each is a message the
// playground can open. The index is built on the first violation that
// needs it, in one pass over the trace, so a clean run pays nothing.

// maxEvidence bounds a violation's links: the first few events make the
// point, and a retried send can repeat hundreds of times.
const maxEvidence = 8

type produceKey struct {
	tp    protocol.TopicPartition
	pid   int64
	epoch int16
}

// produceSend is one Produce request's batch for one partition.
type produceSend struct {
	event   int
	msgID   int64
	from    sim.NodeID
	at      sim.Time
	baseSeq int32
	n       int32
}

type fetchKey struct {
	consumer sim.NodeID
	tp       protocol.TopicPartition
}

// fetchSend is one Fetch answer's data for one partition, to a client.
type fetchSend struct {
	event       int
	first, last int64
}

type markerKey struct {
	pid        int64
	tp         protocol.TopicPartition
	commit     bool
	coordEpoch int32
}

type appendKey struct {
	tp     string
	offset int64
}

type offsetKey struct {
	group  string
	tp     protocol.TopicPartition
	offset int64
	pid    int64
}

type grantKey struct {
	pid   int64
	epoch int16
}

// evidenceIndex is the trace's messages and appends by what they carry.
type evidenceIndex struct {
	produces map[produceKey][]produceSend
	fetches  map[fetchKey][]fetchSend
	markers  map[markerKey][]int
	appends  map[appendKey]int // the last append at the key
	replies  map[int64]int     // request message id → its response's send
	grants   map[grantKey]int
	endTxns  map[sim.NodeID][]int
	offsets  map[offsetKey][]int
	trace    *sim.Trace
	// full is false for an index of produces, markers and appends only
	// (markerEvidence): the others stay empty.
	full bool
}

// evidence returns the index, building it on first use.
func (c *checker) evidence() *evidenceIndex { return c.index(true) }

// markerEvidence returns an index whose produces, markers and appends
// are filled, all that lateMarker reads: it asks on every record a
// read_committed consumer received, so a clean run builds an index
// after all, and the fetches and replies it does not read were most of
// the work of building the whole one.
func (c *checker) markerEvidence() *evidenceIndex { return c.index(false) }

// index returns the index, built whole if full, else at least
// markerEvidence's part; a partial one is built again whole when a
// violation needs the rest.
func (c *checker) index(full bool) *evidenceIndex {
	if c.ev != nil && (c.ev.full || !full) {
		return c.ev
	}
	x := &evidenceIndex{
		produces: map[produceKey][]produceSend{}, fetches: map[fetchKey][]fetchSend{},
		markers: map[markerKey][]int{}, appends: map[appendKey]int{}, replies: map[int64]int{},
		grants: map[grantKey]int{}, endTxns: map[sim.NodeID][]int{}, offsets: map[offsetKey][]int{},
		trace: c.in.Trace, full: full,
	}
	c.ev = x
	if c.in.Trace == nil {
		return x
	}
	// Replication is internal; only sends and appends are indexed, and
	// sendOrAppend yields nothing else.
	for i, e := range c.in.Trace.Select(sendOrAppend) {
		if e.Kind == sim.KindAppend {
			x.appends[appendKey{e.Subject, e.Offset}] = i
			continue
		}
		if !full {
			switch m := e.Msg.(type) {
			case *protocol.ProduceRequest:
				x.addProduce(i, e, m)
			case *protocol.WriteTxnMarkersRequest:
				x.addMarkers(i, m)
			}
			continue
		}
		if e.ReplyTo != 0 {
			if _, ok := x.replies[e.ReplyTo]; !ok {
				x.replies[e.ReplyTo] = i
			}
		}
		switch m := e.Msg.(type) {
		case *protocol.ProduceRequest:
			x.addProduce(i, e, m)
		case *protocol.FetchResponse:
			for _, pd := range m.Responses {
				if len(pd.Records) == 0 {
					continue
				}
				k := fetchKey{e.Peer, pd.TopicPartition}
				x.fetches[k] = append(x.fetches[k], fetchSend{i, pd.Records[0].BaseOffset, pd.Records[len(pd.Records)-1].LastOffset()})
			}
		case *protocol.WriteTxnMarkersRequest:
			x.addMarkers(i, m)
		case *protocol.InitProducerIdResponse:
			if m.ErrorCode == protocol.NONE {
				k := grantKey{m.ProducerId, m.ProducerEpoch}
				if _, ok := x.grants[k]; !ok {
					x.grants[k] = i
				}
			}
		case *protocol.EndTxnRequest:
			x.endTxns[e.Node] = append(x.endTxns[e.Node], i)
		case *protocol.TxnOffsetCommitRequest:
			for _, o := range m.Offsets {
				k := offsetKey{m.GroupId, o.TopicPartition, o.CommittedOffset, m.ProducerId}
				x.offsets[k] = append(x.offsets[k], i)
			}
		}
	}
	return x
}

// addProduce indexes event i, the send of m.
func (x *evidenceIndex) addProduce(i int, e *sim.Event, m *protocol.ProduceRequest) {
	for _, p := range m.Partitions {
		b := &p.Records
		k := produceKey{p.TopicPartition, b.ProducerId, b.ProducerEpoch}
		x.produces[k] = append(x.produces[k], produceSend{i, e.MsgID, e.Node, e.At, b.BaseSequence, int32(len(b.Records))})
	}
}

// addMarkers indexes event i, the send of m.
func (x *evidenceIndex) addMarkers(i int, m *protocol.WriteTxnMarkersRequest) {
	for _, mk := range m.Markers {
		for _, tp := range mk.Partitions {
			k := markerKey{mk.ProducerId, tp, mk.TransactionResult, mk.CoordinatorEpoch}
			x.markers[k] = append(x.markers[k], i)
		}
	}
}

// sendOrAppend keeps the events the index reads: a client's sends and
// a leader's appends.
func sendOrAppend(k sim.Kind, internal bool) bool {
	return !internal && (k == sim.KindSend || k == sim.KindAppend)
}

// produced is the first Produce request that carried the record with
// sequence seq of producer pid/epoch to tp (-1: none), and its message id.
func (x *evidenceIndex) produced(tp protocol.TopicPartition, pid int64, epoch int16, seq int32) (produceSend, bool) {
	for _, s := range x.produces[produceKey{tp, pid, epoch}] {
		if seq < 0 || s.baseSeq < 0 || (s.baseSeq <= seq && seq < s.baseSeq+s.n) {
			return s, true
		}
	}
	return produceSend{}, false
}

// producedAll is every Produce request (retries included) that carried
// the record.
func (x *evidenceIndex) producedAll(tp protocol.TopicPartition, pid int64, epoch int16, seq int32) []int {
	var out []int
	for _, s := range x.produces[produceKey{tp, pid, epoch}] {
		if s.baseSeq >= 0 && s.baseSeq <= seq && seq < s.baseSeq+s.n {
			out = append(out, s.event)
		}
	}
	return out
}

// fetched is the first Fetch answer that handed offset of tp to consumer.
func (x *evidenceIndex) fetched(consumer string, tp protocol.TopicPartition, offset int64) int {
	node, _ := x.trace.Names().Lookup(consumer)
	for _, f := range x.fetches[fetchKey{node, tp}] {
		if f.first <= offset && offset <= f.last {
			return f.event
		}
	}
	return -1
}

// marker is the evidence of the control batch l ended with: its append
// on the leader and the WriteTxnMarkers request that asked for it, the
// last one with its coordinator epoch before the append (one producer id
// and epoch span many transactions, so the first such request may be an
// older one's; a stale coordinator's request carries its older epoch).
func (x *evidenceIndex) marker(l logged) []int {
	appended := x.appended(l.tp, l.markerOffset)
	if appended < 0 {
		return nil
	}
	req := -1
	for _, i := range x.markers[markerKey{l.batch.ProducerId, l.tp, l.marker == "COMMIT", l.markerEpoch}] {
		if i < appended {
			req = i
		}
	}
	return []int{req, appended}
}

// appended is the leader's append of the batch at offset of tp.
func (x *evidenceIndex) appended(tp protocol.TopicPartition, offset int64) int {
	if i, ok := x.appends[appendKey{tp.String(), offset}]; ok {
		return i
	}
	return -1
}

// endTxnAfter is producer's first EndTxn request sent at or after at.
func (x *evidenceIndex) endTxnAfter(producer string, at sim.Time) int {
	node, _ := x.trace.Names().Lookup(producer)
	for _, i := range x.endTxns[node] {
		if x.trace.At(i).At >= at {
			return i
		}
	}
	return -1
}

// reply is the response to the request with message id id.
func (x *evidenceIndex) reply(id int64) int {
	if i, ok := x.replies[id]; ok {
		return i
	}
	return -1
}

// written is the Produce that wrote a record and the EndTxn its producer
// sent next (-1 each when not found).
func (c *checker) written(producer string, tp protocol.TopicPartition, pid int64, epoch int16, seq int32) (produce, endTxn int) {
	x := c.evidence()
	s, ok := x.produced(tp, pid, epoch, seq)
	if !ok {
		return -1, -1
	}
	return s.event, x.endTxnAfter(producer, s.at)
}

// events tidies a violation's evidence: found ones only, in trace order,
// once each, at most maxEvidence.
func events(idx ...int) []int {
	out := make([]int, 0, len(idx))
	for _, i := range idx {
		if i >= 0 {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > maxEvidence {
		out = out[:maxEvidence]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
