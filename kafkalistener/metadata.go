//go:build !wasm

package kafkalistener

// Metadata and ListOffsets, answered by the simulated brokers
// (core/broker/3_metadata.go, 2_list_offsets.go) so that they are drawn
// and recorded: the listener only adds what the wire needs and the
// simulation does not hold, the brokers' hosts and ports, and turns
// timestamps between the wall clock and virtual time.

import (
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// translateMetadata creates, before the request enters the simulation,
// a topic a client names before it exists, as Kafka's
// auto.create.topics.enable does, by a recorded topic statement.
func (l *Listener) translateMetadata(cl *call, req *kmsg.MetadataRequest) protocol.Message {
	m := &protocol.MetadataRequest{AllowAutoTopicCreation: req.Version < 4 || req.AllowAutoTopicCreation}
	if req.Topics != nil {
		m.Topics = []string{}
	}
	for _, t := range req.Topics {
		name := deref(t.Topic)
		m.Topics = append(m.Topics, name)
		if _, ok := l.c.Meta.Topic(name); ok || !m.AllowAutoTopicCreation || !validTopic(name) {
			continue
		}
		if err := l.apply("topic " + name + " partitions=" + strconv.Itoa(l.cfg.AutoCreatePartitions)); err != nil {
			l.note("could not create topic %s for %s: %v", name, cl.r.clientID, err)
		}
	}
	return m
}

func (l *Listener) metadataResponse(cl *call, m *protocol.MetadataResponse) *kmsg.MetadataResponse {
	resp := cl.r.req.(*kmsg.MetadataRequest).ResponseKind().(*kmsg.MetadataResponse)
	resp.ClusterID = strPtr("txnlab")
	resp.ControllerID = m.ControllerId
	for _, b := range m.Brokers {
		host, port := l.hostPort(b.NodeId)
		resp.Brokers = append(resp.Brokers, kmsg.MetadataResponseBroker{NodeID: b.NodeId, Host: host, Port: port})
	}
	for _, t := range m.Topics {
		mt := kmsg.MetadataResponseTopic{Topic: strPtr(t.Name), IsInternal: t.IsInternal, ErrorCode: int16(t.ErrorCode),
			Partitions: []kmsg.MetadataResponseTopicPartition{}}
		if t.ErrorCode == protocol.UNKNOWN_TOPIC_OR_PARTITION && !t.IsInternal && (!validTopic(t.Name) || strings.HasPrefix(t.Name, "__")) {
			// Kafka checks the name before it looks the topic up.
			mt.ErrorCode = errInvalidTopic
		}
		for _, p := range t.Partitions {
			mt.Partitions = append(mt.Partitions, kmsg.MetadataResponseTopicPartition{ErrorCode: int16(p.ErrorCode),
				Partition: p.PartitionIndex, Leader: p.LeaderId, LeaderEpoch: p.LeaderEpoch,
				Replicas: append([]int32{}, p.ReplicaNodes...), ISR: append([]int32{}, p.IsrNodes...),
				OfflineReplicas: append([]int32{}, p.OfflineReplicas...)})
		}
		resp.Topics = append(resp.Topics, mt)
	}
	return resp
}

// translateListOffsets: a timestamp a client searches by is wall-clock
// ms, the simulation's are virtual; the recorded line holds the virtual
// one, so the replay searches the same log the same way.
func (l *Listener) translateListOffsets(cl *call, req *kmsg.ListOffsetsRequest) (protocol.Message, kmsg.Response) {
	m := &protocol.ListOffsetsRequest{ReplicaId: protocol.ConsumerReplicaId, IsolationLevel: req.IsolationLevel}
	cl.local = map[protocol.TopicPartition]int16{}
	for _, t := range req.Topics {
		for _, p := range t.Partitions {
			tp := protocol.TopicPartition{Topic: t.Topic, Partition: p.Partition}
			if !l.c.HasPartition(tp) {
				cl.local[tp] = errUnknownTopicOrPartition
				continue
			}
			ts := p.Timestamp
			if ts >= 0 {
				ts = max(0, ts-l.epochMs)
			}
			epoch := p.CurrentLeaderEpoch
			if req.Version < 4 { // not on the wire before v4
				epoch = -1
			}
			m.Partitions = append(m.Partitions, protocol.ListOffsetsPartition{TopicPartition: tp, Timestamp: max(ts, protocol.MaxTimestamp),
				CurrentLeaderEpoch: max(epoch, -1)})
		}
	}
	if len(m.Partitions) == 0 {
		return nil, l.listOffsetsResponse(cl, nil)
	}
	return m, nil
}

func (l *Listener) listOffsetsResponse(cl *call, sim *protocol.ListOffsetsResponse) *kmsg.ListOffsetsResponse {
	req := cl.r.req.(*kmsg.ListOffsetsRequest)
	resp := req.ResponseKind().(*kmsg.ListOffsetsResponse)
	got := map[protocol.TopicPartition]protocol.ListOffsetsPartitionResponse{}
	if sim != nil {
		for _, p := range sim.Partitions {
			got[p.TopicPartition] = p
		}
	}
	for _, t := range req.Topics {
		rt := kmsg.ListOffsetsResponseTopic{Topic: t.Topic}
		for _, p := range t.Partitions {
			tp := protocol.TopicPartition{Topic: t.Topic, Partition: p.Partition}
			rp := kmsg.ListOffsetsResponseTopicPartition{Partition: p.Partition, Timestamp: -1, Offset: -1, LeaderEpoch: -1}
			if code, ok := cl.local[tp]; ok {
				rp.ErrorCode = code
			} else if g, ok := got[tp]; ok {
				rp.ErrorCode, rp.Offset, rp.LeaderEpoch = int16(g.ErrorCode), g.Offset, g.LeaderEpoch
				rp.Timestamp = l.wallMs(g.Timestamp)
			} else {
				rp.ErrorCode = errNotLeader
			}
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}
