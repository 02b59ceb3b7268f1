//go:build !wasm

package kafkalistener

// The operator's APIs of KIP-664, as franz-go's kadm and Kafka's
// kafka-transactions.sh send them: DescribeProducers to partition
// leaders, DescribeTransactions and ListTransactions to coordinators,
// and the WriteTxnMarkers that Admin.abortTransaction sends to a
// partition's leader. Each goes through the simulation (core/broker,
// core/txncoord), so it is drawn and recorded like any request. Times
// the simulation keeps in virtual milliseconds are given to the client
// on the wall clock, as fetched records' timestamps are.

import (
	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// wallMs turns a virtual time in ms into the wall clock's epoch ms; -1
// (none) stays -1.
func (l *Listener) wallMs(v int64) int64 {
	if v < 0 {
		return v
	}
	return v + l.epochMs
}

func (l *Listener) translateDescribeProducers(cl *call, req *kmsg.DescribeProducersRequest) (protocol.Message, kmsg.Response) {
	m := &protocol.DescribeProducersRequest{}
	cl.local = map[protocol.TopicPartition]int16{}
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			tp := protocol.TopicPartition{Topic: t.Topic, Partition: p}
			if !l.c.HasPartition(tp) {
				cl.local[tp] = errUnknownTopicOrPartition
				continue
			}
			m.Partitions = append(m.Partitions, tp)
		}
	}
	if len(m.Partitions) == 0 {
		return nil, l.describeProducersResponse(cl, nil)
	}
	return m, nil
}

func (l *Listener) describeProducersResponse(cl *call, sim *protocol.DescribeProducersResponse) *kmsg.DescribeProducersResponse {
	req := cl.r.req.(*kmsg.DescribeProducersRequest)
	resp := req.ResponseKind().(*kmsg.DescribeProducersResponse)
	got := map[protocol.TopicPartition]*protocol.DescribeProducersPartition{}
	if sim != nil {
		for i := range sim.Partitions {
			got[sim.Partitions[i].TopicPartition] = &sim.Partitions[i]
		}
	}
	for _, t := range req.Topics {
		rt := kmsg.DescribeProducersResponseTopic{Topic: t.Topic}
		for _, p := range t.Partitions {
			tp := protocol.TopicPartition{Topic: t.Topic, Partition: p}
			rp := kmsg.DescribeProducersResponseTopicPartition{Partition: p, ActiveProducers: []kmsg.DescribeProducersResponseTopicPartitionActiveProducer{}}
			if code, ok := cl.local[tp]; ok {
				rp.ErrorCode = code
			} else if g := got[tp]; g != nil {
				rp.ErrorCode = int16(g.ErrorCode)
				for _, a := range g.ActiveProducers {
					rp.ActiveProducers = append(rp.ActiveProducers, kmsg.DescribeProducersResponseTopicPartitionActiveProducer{
						ProducerID: a.ProducerId, ProducerEpoch: a.ProducerEpoch, LastSequence: a.LastSequence,
						LastTimestamp: l.wallMs(a.LastTimestamp), CoordinatorEpoch: a.CoordinatorEpoch,
						CurrentTxnStartOffset: a.CurrentTxnStartOffset})
				}
			} else {
				rp.ErrorCode = errNotLeader
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (l *Listener) describeTransactionsResponse(cl *call, m *protocol.DescribeTransactionsResponse) *kmsg.DescribeTransactionsResponse {
	resp := cl.r.req.(*kmsg.DescribeTransactionsRequest).ResponseKind().(*kmsg.DescribeTransactionsResponse)
	for _, s := range m.TransactionStates {
		rs := kmsg.DescribeTransactionsResponseTransactionState{ErrorCode: int16(s.ErrorCode), TransactionalID: s.TransactionalId,
			State: s.TransactionState, TimeoutMillis: s.TransactionTimeoutMs, StartTimestamp: l.wallMs(s.TransactionStartTimeMs),
			ProducerID: s.ProducerId, ProducerEpoch: s.ProducerEpoch, Topics: []kmsg.DescribeTransactionsResponseTransactionStateTopic{}}
		for _, tp := range s.Partitions {
			if n := len(rs.Topics); n > 0 && rs.Topics[n-1].Topic == tp.Topic {
				rs.Topics[n-1].Partitions = append(rs.Topics[n-1].Partitions, tp.Partition)
				continue
			}
			rs.Topics = append(rs.Topics, kmsg.DescribeTransactionsResponseTransactionStateTopic{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
		}
		resp.TransactionStates = append(resp.TransactionStates, rs)
	}
	return resp
}

func (l *Listener) listTransactionsResponse(cl *call, m *protocol.ListTransactionsResponse) *kmsg.ListTransactionsResponse {
	resp := cl.r.req.(*kmsg.ListTransactionsRequest).ResponseKind().(*kmsg.ListTransactionsResponse)
	resp.ErrorCode = int16(m.ErrorCode)
	resp.UnknownStateFilters = append([]string{}, m.UnknownStateFilters...)
	resp.TransactionStates = []kmsg.ListTransactionsResponseTransactionState{}
	for _, s := range m.TransactionStates {
		resp.TransactionStates = append(resp.TransactionStates, kmsg.ListTransactionsResponseTransactionState{
			TransactionalID: s.TransactionalId, ProducerID: s.ProducerId, TransactionState: s.TransactionState})
	}
	return resp
}

func (l *Listener) translateWriteTxnMarkers(cl *call, req *kmsg.WriteTxnMarkersRequest) (protocol.Message, kmsg.Response) {
	m := &protocol.WriteTxnMarkersRequest{}
	cl.local = map[protocol.TopicPartition]int16{}
	some := false
	for _, mk := range req.Markers {
		wm := protocol.WritableTxnMarker{ProducerId: mk.ProducerID, ProducerEpoch: mk.ProducerEpoch,
			TransactionResult: mk.Committed, CoordinatorEpoch: mk.CoordinatorEpoch}
		for _, t := range mk.Topics {
			for _, p := range t.Partitions {
				tp := protocol.TopicPartition{Topic: t.Topic, Partition: p}
				if !l.c.HasPartition(tp) {
					cl.local[tp] = errUnknownTopicOrPartition
					continue
				}
				wm.Partitions = append(wm.Partitions, tp)
				some = true
			}
		}
		m.Markers = append(m.Markers, wm)
	}
	if !some {
		return nil, l.writeTxnMarkersResponse(cl, nil)
	}
	return m, nil
}

// writeTxnMarkersResponse answers each marker's partitions in the
// request's order; the simulated leader answers its markers in order.
func (l *Listener) writeTxnMarkersResponse(cl *call, sim *protocol.WriteTxnMarkersResponse) *kmsg.WriteTxnMarkersResponse {
	req := cl.r.req.(*kmsg.WriteTxnMarkersRequest)
	resp := req.ResponseKind().(*kmsg.WriteTxnMarkersResponse)
	for i, mk := range req.Markers {
		got := map[protocol.TopicPartition]protocol.ErrorCode{}
		if sim != nil && i < len(sim.Markers) {
			for _, p := range sim.Markers[i].Partitions {
				got[p.TopicPartition] = p.ErrorCode
			}
		}
		rm := kmsg.WriteTxnMarkersResponseMarker{ProducerID: mk.ProducerID}
		for _, t := range mk.Topics {
			rt := kmsg.WriteTxnMarkersResponseMarkerTopic{Topic: t.Topic}
			for _, p := range t.Partitions {
				tp := protocol.TopicPartition{Topic: t.Topic, Partition: p}
				rp := kmsg.WriteTxnMarkersResponseMarkerTopicPartition{Partition: p}
				if code, ok := cl.local[tp]; ok {
					rp.ErrorCode = code
				} else if code, ok := got[tp]; ok {
					rp.ErrorCode = int16(code)
				} else {
					rp.ErrorCode = int16(protocol.REQUEST_TIMED_OUT)
				}
				rt.Partitions = append(rt.Partitions, rp)
			}
			rm.Topics = append(rm.Topics, rt)
		}
		resp.Markers = append(resp.Markers, rm)
	}
	return resp
}
