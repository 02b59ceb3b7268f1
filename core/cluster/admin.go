package cluster

// The operator: one admin client node, named "admin", made by the first
// admin call, as kafka-transactions.sh is run when an operator needs it.
// Its calls are kafka-transactions.sh's subcommands (client/admin.go).

import (
	"fmt"
	"sort"

	"txnlab/core/client"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// AdminName is the admin client's node name, which no client may take.
const AdminName = "admin"

// Admin returns the admin client, making its node on first use.
func (c *Cluster) Admin() *client.Admin {
	if c.admin == nil {
		id := c.World.Node(AdminName)
		c.admin = client.NewAdmin(id, client.DefaultAdminConfig, clientMeta{c})
		c.World.AddNode(id, c.admin)
	}
	return c.admin
}

// HasAdmin reports whether the admin client has been made.
func (c *Cluster) HasAdmin() bool { return c.admin != nil }

// adminCall starts an admin call, unless one is still running or the
// admin's process is down.
func (c *Cluster) adminCall(call func(*client.Admin) *Call) (*Call, error) {
	a := c.Admin()
	if a.Busy() {
		return nil, fmt.Errorf("the admin's previous call has not returned yet")
	}
	if st := c.World.StatusOf(a.Node); st != sim.Up {
		return nil, fmt.Errorf("the admin is %s", st)
	}
	return call(a), nil
}

// AdminListTransactions runs kafka-transactions.sh list.
func (c *Cluster) AdminListTransactions(states []string, pids []int64) (*Call, error) {
	return c.adminCall(func(a *client.Admin) *Call { return a.ListTransactions(c.World, states, pids) })
}

// AdminDescribeTransactions runs kafka-transactions.sh describe.
func (c *Cluster) AdminDescribeTransactions(id string) (*Call, error) {
	return c.adminCall(func(a *client.Admin) *Call { return a.DescribeTransactions(c.World, id) })
}

// AdminDescribeProducers runs kafka-transactions.sh describe-producers, asking
// the leader (broker < 0) or that broker.
func (c *Cluster) AdminDescribeProducers(tp protocol.TopicPartition, broker int32) (*Call, error) {
	return c.adminCall(func(a *client.Admin) *Call { return a.DescribeProducers(c.World, tp, broker) })
}

// AdminFindHanging runs kafka-transactions.sh find-hanging over a topic, or a
// broker's replicas when topic is "".
func (c *Cluster) AdminFindHanging(topic string, broker int32, maxTimeout sim.Time) (*Call, error) {
	return c.adminCall(func(a *client.Admin) *Call { return a.FindHanging(c.World, topic, broker, maxTimeout) })
}

// AdminAbort runs kafka-transactions.sh abort.
func (c *Cluster) AdminAbort(tp protocol.TopicPartition, startOffset int64) (*Call, error) {
	return c.adminCall(func(a *client.Admin) *Call { return a.AbortTransaction(c.World, tp, startOffset) })
}

// MaxTransactionTimeout is find-hanging's default maximum transaction
// timeout (15 minutes).
const MaxTransactionTimeout = client.MaxTransactionTimeout

// LiveBrokers lists the brokers the controller holds alive.
func (m clientMeta) LiveBrokers() []int32 {
	var out []int32
	for i, ok := range m.c.Meta.Alive {
		if ok {
			out = append(out, int32(i))
		}
	}
	return out
}

// PartitionsOf lists a topic's partitions in order.
func (m clientMeta) PartitionsOf(topic string) []protocol.TopicPartition {
	var out []protocol.TopicPartition
	for tp := range m.c.Meta.Partitions {
		if tp.Topic == topic {
			out = append(out, tp)
		}
	}
	sortTPs(out)
	return out
}

// ReplicasOn lists the user topics' partitions a broker holds a replica
// of, in order.
func (m clientMeta) ReplicasOn(b int32) []protocol.TopicPartition {
	var out []protocol.TopicPartition
	for tp, p := range m.c.Meta.Partitions {
		if isUserTopic(tp.Topic) && p.IsReplica(b) {
			out = append(out, tp)
		}
	}
	sortTPs(out)
	return out
}

func sortTPs(tps []protocol.TopicPartition) {
	sort.Slice(tps, func(i, j int) bool {
		if tps[i].Topic != tps[j].Topic {
			return tps[i].Topic < tps[j].Topic
		}
		return tps[i].Partition < tps[j].Partition
	})
}

var _ client.AdminMetadata = clientMeta{}
