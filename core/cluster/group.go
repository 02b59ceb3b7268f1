package cluster

// Consumer-group membership (KIP-447's fencing needs it) and
// producer-state expiration, as operations and queries hosts use: a
// consumer's subscribe(), sendOffsetsToTransaction with a consumer's
// groupMetadata(), a group's membership, and the expiration settings.

import (
	"fmt"

	"txnlab/core/client"
	"txnlab/core/groupcoord"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Subscribe calls subscribe(topics) on consumer name: its next poll
// joins the group.
func (c *Cluster) Subscribe(name string, topics []string) (*Call, error) {
	return c.consumerCall(name, func(k *client.Consumer) *Call { return k.Subscribe(c.World, topics) })
}

// Unsubscribe calls unsubscribe() on consumer name: a member of a
// group leaves it with LeaveGroup.
func (c *Cluster) Unsubscribe(name string) (*Call, error) {
	return c.consumerCall(name, func(k *client.Consumer) *Call { return k.Unsubscribe(c.World) })
}

// SendOffsetsWithGroupMetadata calls sendOffsetsToTransaction(offsets,
// consumer.groupMetadata()) on producer name: the TxnOffsetCommit
// carries the consumer's generation, member id and instance id as of its
// last completed join (KIP-447).
func (c *Cluster) SendOffsetsWithGroupMetadata(name, consumer string, offs []protocol.OffsetEntry) (*Call, error) {
	k := c.Consumers[consumer]
	if k == nil {
		return nil, fmt.Errorf("%s is not a consumer", consumer)
	}
	md := k.GroupMetadata()
	return c.producerCall(name, func(p *client.Producer) *Call { return p.SendOffsetsToTransaction(c.World, md, offs) })
}

// SetProducerIdExpiration sets producer.id.expiration.ms and
// producer.id.expiration.check.interval.ms (0 keeps a value) and re-arms
// every live broker's check, as a dynamic broker config change does.
func (c *Cluster) SetProducerIdExpiration(expiration, interval sim.Time) {
	if expiration > 0 {
		c.BrokerCfg.ProducerIdExpirationMs = expiration
	}
	if interval > 0 {
		c.BrokerCfg.ProducerIdExpirationCheckIntervalMs = interval
	}
	for _, b := range c.Brokers {
		if b != nil && c.World.StatusOf(b.Node) != sim.Crashed {
			b.RescheduleProducerExpiration(c.World)
		}
	}
}

// GroupView is a consumer group's membership (groupcoord's view).
type GroupView = groupcoord.GroupView

// GroupStates lists the group states by Kafka's names.
func GroupStates() []string { return groupcoord.GroupStateNames() }

// Group is a consumer group's membership as its coordinator holds it;
// false when no live broker coordinates it.
func (c *Cluster) Group(id string) (GroupView, bool) {
	leader, _ := c.GroupCoordinatorOf(id)
	if b := c.Broker(leader); b != nil {
		return b.Group.Group(id)
	}
	return GroupView{}, false
}
