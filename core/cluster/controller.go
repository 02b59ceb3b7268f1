package cluster

import (
	"txnlab/core/broker"
	"txnlab/core/sim"
)

// The controller stands for the KRaft quorum: it notices a broker that
// stopped heart-beating after broker.session.timeout.ms, fences it, moves
// leadership of its partitions to the next live in-sync replica (bumping
// the leader epoch) and removes it from every ISR. It is never crashed,
// and its decisions reach every broker at once (see
// docs/kafka-fidelity.md).
type controller struct{ c *Cluster }

type sessionCheck struct {
	broker      int32
	incarnation int
}

func (ct *controller) Receive(w *sim.World, env *sim.Envelope) {}

func (ct *controller) Timer(w *sim.World, t *sim.Timer) {
	if t.Kind == "register" {
		id := t.Data.(int32)
		if ct.c.fenced[id] && w.StatusOf(broker.NodeID(id)) == sim.Up {
			ct.c.unfence(id)
		}
		return
	}
	if t.Kind != "session-timeout" {
		return
	}
	sc := t.Data.(sessionCheck)
	c := ct.c
	if c.incarnation[sc.broker] != sc.incarnation || c.fenced[sc.broker] {
		return
	}
	node := broker.NodeID(sc.broker)
	if w.StatusOf(node) != sim.Up || w.Net.IsCut(node, ControllerNode) {
		c.fence(sc.broker)
	}
}

// fence removes a broker from service: leaders move, ISRs shrink.
func (c *Cluster) fence(id int32) {
	w := c.World
	c.fenced[id] = true
	c.Meta.Alive[id] = false
	w.Note(ControllerNode, c.World.Name(broker.NodeID(id)), sim.NoteBrokerFenced, c.BrokerCfg.SessionTimeoutMs.Human())
	for _, p := range c.Meta.SortedPartitions() {
		if !p.IsReplica(id) {
			continue
		}
		if p.Leader == id {
			c.shrinkISR(p, id)
			c.elect(p)
		} else if p.InISR(id) && len(p.ISR) > 1 {
			c.shrinkISR(p, id)
			// KRaft 3.5 bumps the leader epoch on every ISR shrink, even
			// with the same leader (PartitionChangeBuilder, until
			// KAFKA-15021 in 3.6), and a coordinator reloads its partition
			// on every change of it (until KAFKA-15468 in 3.8).
			if !c.BrokerCfg.KeepLeaderEpochOnISRShrink {
				p.LeaderEpoch++
			}
			c.Meta.Version++
		}
	}
	c.metadataChanged()
}

// shrinkISR takes a broker out of a partition's ISR; the last member
// stays, as in Kafka, so that partition can only come back with it.
func (c *Cluster) shrinkISR(p *broker.PartitionState, id int32) {
	if !p.InISR(id) || len(p.ISR) <= 1 {
		return
	}
	var kept []int32
	for _, r := range p.ISR {
		if r != id {
			kept = append(kept, r)
		}
	}
	p.ISR = kept
}

// unfence lets a broker serve again and gives it the partitions that had
// no leader and still list it in their ISR.
func (c *Cluster) unfence(id int32) {
	c.fenced[id] = false
	c.Meta.Alive[id] = true
	c.World.Note(ControllerNode, c.World.Name(broker.NodeID(id)), sim.NoteBrokerRegistered)
	for _, p := range c.Meta.SortedPartitions() {
		if p.Leader < 0 && p.InISR(id) {
			c.elect(p)
		}
	}
	c.metadataChanged()
}

// elect picks the first live in-sync replica in replica order (no unclean
// election) and bumps the leader epoch.
func (c *Cluster) elect(p *broker.PartitionState) {
	c.Meta.Version++
	p.Leader = -1
	for _, r := range p.Replicas {
		if c.Meta.Alive[r] && p.InISR(r) {
			p.Leader = r
			break
		}
	}
	if p.Leader >= 0 {
		p.LeaderEpoch++
	} else if isUserTopic(p.TP.Topic) || c.interesting(p) {
		c.World.Note(ControllerNode, p.TP.String(), sim.NotePartitionOffline)
	}
}

func isUserTopic(t string) bool { return len(t) < 2 || t[:2] != "__" }

// interesting reports whether an internal partition holds data worth a
// note (a transactional id or group lives there).
func (c *Cluster) interesting(p *broker.PartitionState) bool {
	for _, d := range c.Disks {
		if l := d.Logs[p.TP]; l != nil && len(l.Batches) > 0 {
			return true
		}
	}
	return false
}
