package broker

// Metadata (key 3): KafkaApis.handleTopicMetadataRequest and
// KRaftMetadataCache.getTopicMetadata / getPartitionMetadata, Kafka 3.5
// (Metadata v12).
//
// - Brokers: the live brokers; ControllerId: KRaft names a random live
//   broker there (clients cannot reach the controllers); txnlab names the
//   lowest-numbered one, to stay deterministic.
// - Topics null: every topic, the internal ones included (IsInternal).
//   A topic that does not exist: UNKNOWN_TOPIC_OR_PARTITION (the wire
//   listener auto-creates topics before asking, as
//   auto.create.topics.enable does).
// - A partition whose leader is not alive: LEADER_NOT_AVAILABLE and
//   LeaderId -1; otherwise NONE with its leader, epoch, replicas, ISR and
//   the replicas on dead brokers (OfflineReplicas).
//
// Every broker answers from the controller's metadata, which reaches
// brokers at once in txnlab (S1).

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (b *Broker) handleMetadata(w *sim.World, env *sim.Envelope, m *protocol.MetadataRequest) {
	resp := &protocol.MetadataResponse{ControllerId: -1}
	for id, alive := range b.Meta.Alive {
		if alive {
			resp.Brokers = append(resp.Brokers, protocol.MetadataBroker{NodeId: int32(id), Host: w.Name(NodeID(int32(id)))})
			if resp.ControllerId < 0 {
				resp.ControllerId = int32(id)
			}
		}
	}
	names := m.Topics
	if names == nil {
		for _, t := range b.Meta.Topics {
			names = append(names, t.Name)
		}
	}
	for _, name := range names {
		resp.Topics = append(resp.Topics, b.topicMetadata(name))
	}
	b.reply(w, env, resp)
}

// topicMetadata is one topic of a Metadata answer.
func (b *Broker) topicMetadata(name string) protocol.MetadataTopic {
	t := protocol.MetadataTopic{Name: name, IsInternal: name == protocol.TransactionStateTopic || name == protocol.ConsumerOffsetsTopic}
	var n int32 = -1
	for _, d := range b.Meta.Topics {
		if d.Name == name {
			n = d.Partitions
		}
	}
	if n < 0 {
		t.ErrorCode = protocol.UNKNOWN_TOPIC_OR_PARTITION
		return t
	}
	for i := int32(0); i < n; i++ {
		ps := b.Meta.Partition(protocol.TopicPartition{Topic: name, Partition: i})
		if ps == nil {
			continue
		}
		p := protocol.MetadataPartition{PartitionIndex: i, LeaderId: ps.Leader, LeaderEpoch: ps.LeaderEpoch,
			ReplicaNodes: append([]int32(nil), ps.Replicas...), IsrNodes: append([]int32(nil), ps.ISR...)}
		for _, r := range ps.Replicas {
			if !b.alive(r) {
				p.OfflineReplicas = append(p.OfflineReplicas, r)
			}
		}
		if ps.Leader < 0 || !b.alive(ps.Leader) {
			p.ErrorCode, p.LeaderId = protocol.LEADER_NOT_AVAILABLE, -1
		}
		t.Partitions = append(t.Partitions, p)
	}
	return t
}

// alive reports whether the controller holds broker id alive.
func (b *Broker) alive(id int32) bool {
	return id >= 0 && int(id) < len(b.Meta.Alive) && b.Meta.Alive[id]
}
