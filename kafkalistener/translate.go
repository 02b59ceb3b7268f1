//go:build !wasm

package kafkalistener

// Kafka's requests (kmsg, nested by topic) to the simulation's messages
// (flattened by partition), and the simulation's responses back, at the
// version the client sent.

import (
	"fmt"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// translate turns a request into the simulation's message, or into a
// response the listener gives itself (every partition unknown or bad).
func (l *Listener) translate(cl *call) (protocol.Message, kmsg.Response) {
	r := cl.r
	tp := func(topic string, p int32) protocol.TopicPartition {
		return protocol.TopicPartition{Topic: topic, Partition: p}
	}
	switch req := r.req.(type) {
	case *kmsg.FindCoordinatorRequest:
		return &protocol.FindCoordinatorRequest{Key: req.CoordinatorKey, KeyType: req.CoordinatorType}, nil
	case *kmsg.InitProducerIDRequest:
		m := &protocol.InitProducerIdRequest{TransactionalId: deref(req.TransactionalID),
			TransactionTimeoutMs: req.TransactionTimeoutMillis, ProducerId: req.ProducerID, ProducerEpoch: req.ProducerEpoch}
		if req.Version < 3 {
			m.ProducerId, m.ProducerEpoch = -1, -1
		}
		return m, nil
	case *kmsg.AddPartitionsToTxnRequest:
		m := &protocol.AddPartitionsToTxnRequest{TransactionalId: req.TransactionalID, ProducerId: req.ProducerID, ProducerEpoch: req.ProducerEpoch}
		unknown := false
		for _, t := range req.Topics {
			for _, p := range t.Partitions {
				m.Partitions = append(m.Partitions, tp(t.Topic, p))
				unknown = unknown || !l.c.HasPartition(tp(t.Topic, p))
			}
		}
		if unknown {
			// Kafka: the unknown partitions fail, the others are not
			// attempted.
			resp := req.ResponseKind().(*kmsg.AddPartitionsToTxnResponse)
			for _, t := range req.Topics {
				rt := kmsg.AddPartitionsToTxnResponseTopic{Topic: t.Topic}
				for _, p := range t.Partitions {
					code := int16(protocol.OPERATION_NOT_ATTEMPTED)
					if !l.c.HasPartition(tp(t.Topic, p)) {
						code = errUnknownTopicOrPartition
					}
					rt.Partitions = append(rt.Partitions, kmsg.AddPartitionsToTxnResponseTopicPartition{Partition: p, ErrorCode: code})
				}
				resp.Topics = append(resp.Topics, rt)
			}
			return nil, resp
		}
		return m, nil
	case *kmsg.AddOffsetsToTxnRequest:
		return &protocol.AddOffsetsToTxnRequest{TransactionalId: req.TransactionalID, ProducerId: req.ProducerID,
			ProducerEpoch: req.ProducerEpoch, GroupId: req.Group}, nil
	case *kmsg.EndTxnRequest:
		return &protocol.EndTxnRequest{TransactionalId: req.TransactionalID, ProducerId: req.ProducerID,
			ProducerEpoch: req.ProducerEpoch, Committed: req.Commit}, nil
	case *kmsg.TxnOffsetCommitRequest:
		m := &protocol.TxnOffsetCommitRequest{TransactionalId: req.TransactionalID, GroupId: req.Group,
			ProducerId: req.ProducerID, ProducerEpoch: req.ProducerEpoch, GenerationId: protocol.NoGenerationId}
		if req.Version >= 3 {
			m.GenerationId, m.MemberId, m.GroupInstanceId = req.Generation, req.MemberID, deref(req.InstanceID)
		}
		for _, t := range req.Topics {
			for _, p := range t.Partitions {
				m.Offsets = append(m.Offsets, protocol.OffsetEntry{TopicPartition: tp(t.Topic, p.Partition), CommittedOffset: p.Offset})
			}
		}
		if l.unknownOffsets(m.Offsets) {
			resp := req.ResponseKind().(*kmsg.TxnOffsetCommitResponse)
			for _, t := range req.Topics {
				rt := kmsg.TxnOffsetCommitResponseTopic{Topic: t.Topic}
				for _, p := range t.Partitions {
					rt.Partitions = append(rt.Partitions, kmsg.TxnOffsetCommitResponseTopicPartition{Partition: p.Partition, ErrorCode: errUnknownTopicOrPartition})
				}
				resp.Topics = append(resp.Topics, rt)
			}
			return nil, resp
		}
		return m, nil
	case *kmsg.OffsetCommitRequest:
		m := &protocol.OffsetCommitRequest{GroupId: req.Group, GenerationId: req.Generation, MemberId: req.MemberID,
			GroupInstanceId: deref(req.InstanceID)}
		for _, t := range req.Topics {
			for _, p := range t.Partitions {
				m.Offsets = append(m.Offsets, protocol.OffsetEntry{TopicPartition: tp(t.Topic, p.Partition), CommittedOffset: p.Offset})
			}
		}
		if l.unknownOffsets(m.Offsets) {
			resp := req.ResponseKind().(*kmsg.OffsetCommitResponse)
			for _, t := range req.Topics {
				rt := kmsg.OffsetCommitResponseTopic{Topic: t.Topic}
				for _, p := range t.Partitions {
					rt.Partitions = append(rt.Partitions, kmsg.OffsetCommitResponseTopicPartition{Partition: p.Partition, ErrorCode: errUnknownTopicOrPartition})
				}
				resp.Topics = append(resp.Topics, rt)
			}
			return nil, resp
		}
		return m, nil
	case *kmsg.OffsetFetchRequest:
		m := &protocol.OffsetFetchRequest{GroupId: req.Group, RequireStable: req.RequireStable}
		for _, t := range req.Topics {
			for _, p := range t.Partitions {
				if l.c.HasPartition(tp(t.Topic, p)) {
					m.Partitions = append(m.Partitions, tp(t.Topic, p))
				}
			}
		}
		return m, nil
	case *kmsg.JoinGroupRequest:
		m := &protocol.JoinGroupRequest{GroupId: req.Group, SessionTimeoutMs: req.SessionTimeoutMillis,
			RebalanceTimeoutMs: req.RebalanceTimeoutMillis, MemberId: req.MemberID, GroupInstanceId: deref(req.InstanceID),
			ProtocolType: req.ProtocolType}
		for _, p := range req.Protocols {
			if !plainName(p.Name) {
				continue
			}
			jp := protocol.JoinGroupProtocol{Name: p.Name}
			var meta kmsg.ConsumerMemberMetadata
			if req.ProtocolType == "consumer" && meta.ReadFrom(p.Metadata) == nil {
				for _, t := range meta.Topics {
					if validTopic(t) {
						jp.Topics = append(jp.Topics, t)
					}
				}
			}
			m.Protocols = append(m.Protocols, jp)
		}
		return m, nil
	case *kmsg.HeartbeatRequest:
		return &protocol.HeartbeatRequest{GroupId: req.Group, GenerationId: req.Generation, MemberId: req.MemberID,
			GroupInstanceId: deref(req.InstanceID)}, nil
	case *kmsg.SyncGroupRequest:
		m := &protocol.SyncGroupRequest{GroupId: req.Group, GenerationId: req.Generation, MemberId: req.MemberID,
			GroupInstanceId: deref(req.InstanceID), ProtocolType: deref(req.ProtocolType), ProtocolName: deref(req.Protocol)}
		for _, a := range req.GroupAssignment {
			if !plainName(a.MemberID) {
				continue
			}
			sa := protocol.SyncGroupAssignment{MemberId: a.MemberID}
			var as kmsg.ConsumerMemberAssignment
			if as.ReadFrom(a.MemberAssignment) == nil {
				for _, t := range as.Topics {
					for _, p := range t.Partitions {
						if l.c.HasPartition(tp(t.Topic, p)) {
							sa.Assignment = append(sa.Assignment, tp(t.Topic, p))
						}
					}
				}
			}
			l.groups.assign(req.Group, a.MemberID, a.MemberAssignment)
			m.Assignments = append(m.Assignments, sa)
		}
		return m, nil
	case *kmsg.FetchRequest:
		m := &protocol.FetchRequest{ReplicaId: protocol.ConsumerReplicaId, IsolationLevel: req.IsolationLevel}
		cl.local = map[protocol.TopicPartition]int16{}
		for _, t := range req.Topics {
			for _, p := range t.Partitions {
				if !l.c.HasPartition(tp(t.Topic, p.Partition)) {
					cl.local[tp(t.Topic, p.Partition)] = errUnknownTopicOrPartition
					continue
				}
				m.Partitions = append(m.Partitions, protocol.FetchPartition{TopicPartition: tp(t.Topic, p.Partition),
					FetchOffset: p.FetchOffset, LastFetchedEpoch: -1})
			}
		}
		if len(m.Partitions) == 0 {
			return nil, l.fetchResponse(cl, nil)
		}
		return m, nil
	case *kmsg.ProduceRequest:
		return l.translateProduce(cl, req)
	case *kmsg.MetadataRequest:
		return l.translateMetadata(cl, req), nil
	case *kmsg.ListOffsetsRequest:
		return l.translateListOffsets(cl, req)
	case *kmsg.LeaveGroupRequest:
		return translateLeaveGroup(req), nil
	case *kmsg.DescribeProducersRequest:
		return l.translateDescribeProducers(cl, req)
	case *kmsg.DescribeTransactionsRequest:
		return &protocol.DescribeTransactionsRequest{TransactionalIds: append([]string{}, req.TransactionalIDs...)}, nil
	case *kmsg.ListTransactionsRequest:
		return &protocol.ListTransactionsRequest{StateFilters: append([]string{}, req.StateFilters...),
			ProducerIdFilters: append([]int64{}, req.ProducerIDFilters...)}, nil
	case *kmsg.WriteTxnMarkersRequest:
		return l.translateWriteTxnMarkers(cl, req)
	}
	l.drop(r.c, fmt.Sprintf("%s is not served", apiName(r.key)))
	return nil, nil
}

func (l *Listener) unknownOffsets(offs []protocol.OffsetEntry) bool {
	for _, o := range offs {
		if !l.c.HasPartition(o.TopicPartition) {
			return true
		}
	}
	return false
}

// plainName: a protocol name or member id the recorded script writes
// unquoted (letters, digits, '.', '_', '-').
func plainName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func (l *Listener) translateProduce(cl *call, req *kmsg.ProduceRequest) (protocol.Message, kmsg.Response) {
	m := &protocol.ProduceRequest{Version: req.Version, TransactionalId: deref(req.TransactionID), Acks: req.Acks, TimeoutMs: req.TimeoutMillis}
	cl.local = map[protocol.TopicPartition]int16{}
	var first *protocol.RecordBatch
	refused := false
	for _, d := range cl.r.batches.parts {
		switch {
		case d.code != 0:
			cl.local[d.tp] = d.code
			l.note("answered %s from %s with error %d: %s", d.tp, cl.r.clientID, d.code, d.why)
			if !refused {
				refused = true
				l.refuse(cl.r, errName(d.code))
			}
			continue
		case !l.c.HasPartition(d.tp) || len(d.tp.Topic) > 1 && d.tp.Topic[:2] == "__":
			cl.local[d.tp] = errUnknownTopicOrPartition
			continue
		}
		b := d.batch
		if first == nil {
			first = &b
		} else if b.ProducerId != first.ProducerId || b.ProducerEpoch != first.ProducerEpoch || b.IsTransactional != first.IsTransactional {
			// One request, one producer: the recorded line carries the
			// producer's fields once.
			cl.local[d.tp] = errInvalidRecord
			continue
		}
		m.Partitions = append(m.Partitions, protocol.ProducePartitionData{TopicPartition: d.tp, Records: b})
	}
	if len(m.Partitions) == 0 {
		if req.Acks == 0 {
			return nil, nil
		}
		return nil, l.produceResponse(cl, nil)
	}
	return m, nil
}

// produceError answers every partition of a Produce with one error.
func produceError(req *kmsg.ProduceRequest, code int16) *kmsg.ProduceResponse {
	resp := req.ResponseKind().(*kmsg.ProduceResponse)
	for _, t := range req.Topics {
		rt := kmsg.ProduceResponseTopic{Topic: t.Topic}
		for _, p := range t.Partitions {
			rt.Partitions = append(rt.Partitions, kmsg.ProduceResponseTopicPartition{Partition: p.Partition, ErrorCode: code,
				BaseOffset: -1, LogAppendTime: -1, LogStartOffset: -1})
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (l *Listener) produceResponse(cl *call, sim *protocol.ProduceResponse) *kmsg.ProduceResponse {
	req := cl.r.req.(*kmsg.ProduceRequest)
	resp := req.ResponseKind().(*kmsg.ProduceResponse)
	got := map[protocol.TopicPartition]protocol.ProducePartitionResponse{}
	if sim != nil {
		for _, p := range sim.Responses {
			got[p.TopicPartition] = p
		}
	}
	for _, t := range req.Topics {
		rt := kmsg.ProduceResponseTopic{Topic: t.Topic}
		for _, p := range t.Partitions {
			k := protocol.TopicPartition{Topic: t.Topic, Partition: p.Partition}
			rp := kmsg.ProduceResponseTopicPartition{Partition: p.Partition, BaseOffset: -1, LogAppendTime: -1, LogStartOffset: 0}
			if code, ok := cl.local[k]; ok {
				rp.ErrorCode = code
			} else if g, ok := got[k]; ok {
				rp.ErrorCode, rp.BaseOffset = int16(g.ErrorCode), g.BaseOffset
			} else {
				rp.ErrorCode = int16(protocol.REQUEST_TIMED_OUT)
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

func (l *Listener) fetchResponse(cl *call, sim *protocol.FetchResponse) *kmsg.FetchResponse {
	req := cl.r.req.(*kmsg.FetchRequest)
	resp := req.ResponseKind().(*kmsg.FetchResponse)
	got := map[protocol.TopicPartition]*protocol.FetchPartitionData{}
	if sim != nil {
		for i := range sim.Responses {
			got[sim.Responses[i].TopicPartition] = &sim.Responses[i]
		}
	}
	for _, t := range req.Topics {
		rt := kmsg.FetchResponseTopic{Topic: t.Topic}
		for _, p := range t.Partitions {
			k := protocol.TopicPartition{Topic: t.Topic, Partition: p.Partition}
			rp := kmsg.FetchResponseTopicPartition{Partition: p.Partition, HighWatermark: -1, LastStableOffset: -1,
				LogStartOffset: -1, PreferredReadReplica: -1, RecordBatches: []byte{}}
			if code, ok := cl.local[k]; ok {
				rp.ErrorCode = code
			} else if g := got[k]; g != nil {
				rp.ErrorCode = int16(g.ErrorCode)
				rp.HighWatermark, rp.LastStableOffset, rp.LogStartOffset = g.HighWatermark, g.LastStableOffset, g.LogStartOffset
				for _, a := range g.AbortedTransactions {
					rp.AbortedTransactions = append(rp.AbortedTransactions, kmsg.FetchResponseTopicPartitionAbortedTransaction{ProducerID: a.ProducerId, FirstOffset: a.FirstOffset})
				}
				if req.IsolationLevel == 1 && rp.AbortedTransactions == nil {
					rp.AbortedTransactions = []kmsg.FetchResponseTopicPartitionAbortedTransaction{}
				}
				for i := range g.Records {
					rp.RecordBatches = append(rp.RecordBatches, EncodeBatch(&g.Records[i], l.epochMs)...)
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

func partitionsByTopic(results []protocol.PartitionError) map[string][]protocol.PartitionError {
	out := map[string][]protocol.PartitionError{}
	for _, r := range results {
		out[r.Topic] = append(out[r.Topic], r)
	}
	return out
}

// translateResponse encodes the simulation's answer at the request's
// version.
func (l *Listener) translateResponse(cl *call, msg protocol.Message) kmsg.Response {
	switch m := msg.(type) {
	case *protocol.FindCoordinatorResponse:
		resp := cl.r.req.(*kmsg.FindCoordinatorRequest).ResponseKind().(*kmsg.FindCoordinatorResponse)
		resp.ErrorCode, resp.NodeID = int16(m.ErrorCode), m.NodeId
		resp.Host, resp.Port = l.hostPort(m.NodeId)
		if m.ErrorCode != protocol.NONE {
			resp.NodeID, resp.Host, resp.Port = -1, "", -1
		}
		return resp
	case *protocol.InitProducerIdResponse:
		resp := cl.r.req.(*kmsg.InitProducerIDRequest).ResponseKind().(*kmsg.InitProducerIDResponse)
		resp.ErrorCode, resp.ProducerID, resp.ProducerEpoch = int16(m.ErrorCode), m.ProducerId, m.ProducerEpoch
		return resp
	case *protocol.AddPartitionsToTxnResponse:
		resp := cl.r.req.(*kmsg.AddPartitionsToTxnRequest).ResponseKind().(*kmsg.AddPartitionsToTxnResponse)
		for topic, rs := range groupOrdered(m.Results) {
			rt := kmsg.AddPartitionsToTxnResponseTopic{Topic: topic}
			for _, r := range rs {
				rt.Partitions = append(rt.Partitions, kmsg.AddPartitionsToTxnResponseTopicPartition{Partition: r.Partition, ErrorCode: int16(r.ErrorCode)})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	case *protocol.AddOffsetsToTxnResponse:
		resp := cl.r.req.(*kmsg.AddOffsetsToTxnRequest).ResponseKind().(*kmsg.AddOffsetsToTxnResponse)
		resp.ErrorCode = int16(m.ErrorCode)
		return resp
	case *protocol.EndTxnResponse:
		resp := cl.r.req.(*kmsg.EndTxnRequest).ResponseKind().(*kmsg.EndTxnResponse)
		resp.ErrorCode, resp.ProducerID, resp.ProducerEpoch = int16(m.ErrorCode), m.ProducerId, m.ProducerEpoch
		return resp
	case *protocol.TxnOffsetCommitResponse:
		resp := cl.r.req.(*kmsg.TxnOffsetCommitRequest).ResponseKind().(*kmsg.TxnOffsetCommitResponse)
		for topic, rs := range groupOrdered(m.Results) {
			rt := kmsg.TxnOffsetCommitResponseTopic{Topic: topic}
			for _, r := range rs {
				rt.Partitions = append(rt.Partitions, kmsg.TxnOffsetCommitResponseTopicPartition{Partition: r.Partition, ErrorCode: int16(r.ErrorCode)})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	case *protocol.OffsetCommitResponse:
		resp := cl.r.req.(*kmsg.OffsetCommitRequest).ResponseKind().(*kmsg.OffsetCommitResponse)
		for topic, rs := range groupOrdered(m.Results) {
			rt := kmsg.OffsetCommitResponseTopic{Topic: topic}
			for _, r := range rs {
				rt.Partitions = append(rt.Partitions, kmsg.OffsetCommitResponseTopicPartition{Partition: r.Partition, ErrorCode: int16(r.ErrorCode)})
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	case *protocol.OffsetFetchResponse:
		req := cl.r.req.(*kmsg.OffsetFetchRequest)
		resp := req.ResponseKind().(*kmsg.OffsetFetchResponse)
		resp.ErrorCode = int16(m.ErrorCode)
		got := map[protocol.TopicPartition]protocol.OffsetFetchResult{}
		for _, r := range m.Results {
			got[r.TopicPartition] = r
		}
		for _, t := range req.Topics {
			rt := kmsg.OffsetFetchResponseTopic{Topic: t.Topic}
			for _, p := range t.Partitions {
				rp := kmsg.OffsetFetchResponseTopicPartition{Partition: p, Offset: -1, LeaderEpoch: -1, Metadata: strPtr("")}
				if g, ok := got[protocol.TopicPartition{Topic: t.Topic, Partition: p}]; ok {
					rp.Offset, rp.ErrorCode = g.CommittedOffset, int16(g.ErrorCode)
				} else if m.ErrorCode == protocol.NONE {
					rp.ErrorCode = errUnknownTopicOrPartition
				}
				rt.Partitions = append(rt.Partitions, rp)
			}
			resp.Topics = append(resp.Topics, rt)
		}
		return resp
	case *protocol.JoinGroupResponse:
		return l.joinResponse(cl, m)
	case *protocol.SyncGroupResponse:
		return l.syncResponse(cl, m)
	case *protocol.HeartbeatResponse:
		resp := cl.r.req.(*kmsg.HeartbeatRequest).ResponseKind().(*kmsg.HeartbeatResponse)
		resp.ErrorCode = int16(m.ErrorCode)
		return resp
	case *protocol.FetchResponse:
		return l.fetchResponse(cl, m)
	case *protocol.ProduceResponse:
		return l.produceResponse(cl, m)
	case *protocol.MetadataResponse:
		return l.metadataResponse(cl, m)
	case *protocol.ListOffsetsResponse:
		return l.listOffsetsResponse(cl, m)
	case *protocol.LeaveGroupResponse:
		return leaveGroupResponse(cl, m)
	case *protocol.DescribeProducersResponse:
		return l.describeProducersResponse(cl, m)
	case *protocol.DescribeTransactionsResponse:
		return l.describeTransactionsResponse(cl, m)
	case *protocol.ListTransactionsResponse:
		return l.listTransactionsResponse(cl, m)
	case *protocol.WriteTxnMarkersResponse:
		return l.writeTxnMarkersResponse(cl, m)
	}
	l.drop(cl.r.c, fmt.Sprintf("the simulation answered %s with %s", apiName(cl.r.key), msg.APIKey()))
	return nil
}

// groupOrdered groups partition results by topic; map order does not
// matter to a client, which reads each topic by name.
func groupOrdered(rs []protocol.PartitionError) map[string][]protocol.PartitionError {
	return partitionsByTopic(rs)
}
