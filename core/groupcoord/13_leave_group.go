package groupcoord

// LeaveGroup (key 13): GroupCoordinator.handleLeaveGroup,
// removeCurrentMemberFromGroup, removePendingMemberAndUpdateGroup,
// Kafka 3.5 (LeaveGroup v5).
//
// - COORDINATOR_LOAD_IN_PROGRESS / NOT_COORDINATOR at the top level
//   (validateGroupStatus).
// - An unknown group: NONE at the top level, UNKNOWN_MEMBER_ID for every
//   member.
// - Per member: without a member id, the static member of that
//   group.instance.id leaves (an operator's removal), UNKNOWN_MEMBER_ID
//   if there is none; a member id handed out by MEMBER_ID_REQUIRED and
//   not yet joined is forgotten; otherwise validateCurrentMember
//   (UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID) and the member is removed at
//   once: the group rebalances without waiting for its session to expire
//   (removeMemberAndUpdateGroup), or, already rebalancing, may now
//   complete its join.

import (
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleLeaveGroup(w *sim.World, env *sim.Envelope, m *protocol.LeaveGroupRequest) {
	resp := &protocol.LeaveGroupResponse{}
	op, p, err := c.partitionOf(m.GroupId)
	if err != protocol.NONE {
		resp.ErrorCode = err
		w.Send(c.host.BrokerNode(), env.From, resp, env.ID)
		return
	}
	g := op.groups[m.GroupId]
	for _, lm := range m.Members {
		r := protocol.LeaveGroupMemberResponse{MemberId: lm.MemberId, GroupInstanceId: lm.GroupInstanceId}
		switch {
		case g == nil:
			r.ErrorCode = protocol.UNKNOWN_MEMBER_ID
		case lm.MemberId == protocol.NoMemberId:
			id, ok := g.static[lm.GroupInstanceId]
			if lm.GroupInstanceId == "" || !ok {
				r.ErrorCode = protocol.UNKNOWN_MEMBER_ID
				break
			}
			c.memberLeft(w, p, g, g.members[id])
		case g.pending[lm.MemberId]:
			delete(g.pending, lm.MemberId)
			c.tryCompleteJoin(w, p, g)
		default:
			if r.ErrorCode = g.validateCurrentMember(lm.MemberId, lm.GroupInstanceId); r.ErrorCode == protocol.NONE {
				c.memberLeft(w, p, g, g.members[lm.MemberId])
			}
		}
		resp.Members = append(resp.Members, r)
	}
	w.Send(c.host.BrokerNode(), env.From, resp, env.ID)
}

// memberLeft is removeCurrentMemberFromGroup: the member goes now, its
// heartbeat timer becomes void (it no longer names a member).
func (c *Coordinator) memberLeft(w *sim.World, p int32, g *group, m *member) {
	if m.sync != nil {
		// Its SyncGroup waits for the leader's: nobody would answer it.
		env := m.sync
		m.sync = nil
		w.Send(c.host.BrokerNode(), env.From, &protocol.SyncGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID}, env.ID)
	}
	c.removeMemberAndUpdateGroup(w, p, g, m, rebalanceReason{sim.NoteRebalanceMemberLeft, m.id})
}
