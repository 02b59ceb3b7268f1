package groupcoord

// Heartbeat (key 12): GroupCoordinator.handleHeartbeat and
// validateHeartbeat, Kafka 3.5 (Heartbeat v4).
//
// - While the coordinator loads, NONE (it answers blindly);
//   NOT_COORDINATOR passes.
// - An unknown group or member is UNKNOWN_MEMBER_ID, a fenced static
//   member FENCED_INSTANCE_ID, another generation ILLEGAL_GENERATION.
// - Empty: UNKNOWN_MEMBER_ID. CompletingRebalance and Stable: NONE.
//   PreparingRebalance: REBALANCE_IN_PROGRESS, so the member rejoins at
//   its next poll. Each accepted heartbeat renews the member's session
//   for session.timeout.ms.

import (
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleHeartbeat(w *sim.World, env *sim.Envelope, m *protocol.HeartbeatRequest) {
	answer := func(err protocol.ErrorCode) {
		w.Send(c.host.BrokerNode(), env.From, &protocol.HeartbeatResponse{ErrorCode: err}, env.ID)
	}
	op, p, err := c.partitionOf(m.GroupId)
	switch err {
	case protocol.NONE:
	case protocol.COORDINATOR_LOAD_IN_PROGRESS:
		answer(protocol.NONE)
		return
	default:
		answer(err)
		return
	}
	g := op.groups[m.GroupId]
	if g == nil {
		answer(protocol.UNKNOWN_MEMBER_ID)
		return
	}
	if err := g.validateCurrentMember(m.MemberId, m.GroupInstanceId); err != protocol.NONE {
		answer(err)
		return
	}
	if m.GenerationId != g.generation {
		answer(protocol.ILLEGAL_GENERATION)
		return
	}
	mem := g.members[m.MemberId]
	switch g.state {
	case Empty:
		answer(protocol.UNKNOWN_MEMBER_ID)
	case PreparingRebalance:
		c.scheduleExpiration(w, p, g, mem, mem.sessionTimeout)
		answer(protocol.REBALANCE_IN_PROGRESS)
	default:
		c.scheduleExpiration(w, p, g, mem, mem.sessionTimeout)
		answer(protocol.NONE)
	}
}

func itoa(n int32) string { return strconv.Itoa(int(n)) }
