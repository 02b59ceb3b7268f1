package txncoord

// AddOffsetsToTxn (key 25): KafkaApis maps the group to its
// __consumer_offsets partition (Utils.abs(group.hashCode) % 50) and adds
// that one partition to the transaction through the very same
// AddPartitionsToTxn logic, so the coordinator will send that partition a
// marker and the group coordinator can make the offsets visible exactly
// when the transaction commits. That is the answer to the chapter's first
// thought question.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleAddOffsetsToTxn(w *sim.World, env *sim.Envelope, m *protocol.AddOffsetsToTxnRequest) {
	tp := protocol.TopicPartition{Topic: protocol.ConsumerOffsetsTopic, Partition: c.host.GroupPartitionFor(m.GroupId)}
	c.addPartitions(w, m.TransactionalId, m.ProducerId, m.ProducerEpoch, []protocol.TopicPartition{tp}, func(w *sim.World, err protocol.ErrorCode) {
		c.reply(w, env, &protocol.AddOffsetsToTxnResponse{ErrorCode: err})
	})
}
