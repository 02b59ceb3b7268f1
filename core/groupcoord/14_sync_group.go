package groupcoord

// SyncGroup (key 14): GroupCoordinator.handleSyncGroup, validateSyncGroup,
// doSyncGroup, Kafka 3.5 (SyncGroup v5).
//
// - COORDINATOR_LOAD_IN_PROGRESS is answered REBALANCE_IN_PROGRESS (the
//   member rejoins); NOT_COORDINATOR passes.
// - An unknown group or member is UNKNOWN_MEMBER_ID, a static member
//   whose instance maps to another member FENCED_INSTANCE_ID, another
//   generation ILLEGAL_GENERATION.
// - Empty: UNKNOWN_MEMBER_ID; PreparingRebalance: REBALANCE_IN_PROGRESS.
// - CompletingRebalance: the SyncGroup waits; the leader's carries every
//   member's assignment (a member it left out gets none), which answers
//   every waiting member, and the group becomes Stable. Kafka first
//   writes the assignment to __consumer_offsets (storeGroup); txnlab does
//   not (group.go).
// - Stable: the member's current assignment at once.

import (
	"slices"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleSyncGroup(w *sim.World, env *sim.Envelope, m *protocol.SyncGroupRequest) {
	var g *group
	answer := func(err protocol.ErrorCode, a []protocol.TopicPartition) {
		resp := &protocol.SyncGroupResponse{ErrorCode: err, Assignment: a}
		if err == protocol.NONE {
			resp.ProtocolType, resp.ProtocolName = g.protocolType, g.protocolName
		}
		w.Send(c.host.BrokerNode(), env.From, resp, env.ID)
	}
	op, p, err := c.partitionOf(m.GroupId)
	switch err {
	case protocol.NONE:
	case protocol.COORDINATOR_LOAD_IN_PROGRESS:
		answer(protocol.REBALANCE_IN_PROGRESS, nil)
		return
	default:
		answer(err, nil)
		return
	}
	g = op.groups[m.GroupId]
	if g == nil {
		answer(protocol.UNKNOWN_MEMBER_ID, nil)
		return
	}
	if err := g.validateCurrentMember(m.MemberId, m.GroupInstanceId); err != protocol.NONE {
		answer(err, nil)
		return
	}
	if m.GenerationId != g.generation {
		answer(protocol.ILLEGAL_GENERATION, nil)
		return
	}
	// validateSyncGroup: a ProtocolType or ProtocolName (v5) that is
	// not the group's.
	if (m.ProtocolType != "" && m.ProtocolType != g.protocolType) || (m.ProtocolName != "" && m.ProtocolName != g.protocolName) {
		answer(protocol.INCONSISTENT_GROUP_PROTOCOL, nil)
		return
	}
	mem := g.members[m.MemberId]
	switch g.state {
	case Empty:
		answer(protocol.UNKNOWN_MEMBER_ID, nil)
	case PreparingRebalance:
		answer(protocol.REBALANCE_IN_PROGRESS, nil)
	case CompletingRebalance:
		mem.sync = env
		if mem.id != g.leader {
			return
		}
		for _, id := range g.order {
			g.members[id].assignment = nil
		}
		for _, a := range m.Assignments {
			if x := g.members[a.MemberId]; x != nil {
				x.assignment = slices.Clone(a.Assignment)
			}
		}
		g.state = Stable
		w.Note(c.host.BrokerNode(), g.id, sim.NoteGroupStable, g.id, itoa(g.generation))
		for _, id := range g.order {
			x := g.members[id]
			if x.sync != nil {
				e := x.sync
				x.sync = nil
				w.Send(c.host.BrokerNode(), e.From, &protocol.SyncGroupResponse{ProtocolType: g.protocolType,
					ProtocolName: g.protocolName, Assignment: slices.Clone(x.assignment)}, e.ID)
			}
		}
	case Stable:
		answer(protocol.NONE, slices.Clone(mem.assignment))
		c.scheduleExpiration(w, p, g, mem, mem.sessionTimeout)
	}
}
