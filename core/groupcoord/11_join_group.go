package groupcoord

// JoinGroup (key 11): GroupCoordinator.handleJoinGroup,
// doNewMemberJoinGroup, doCurrentMemberJoinGroup, addMemberAndRebalance,
// updateMemberAndRebalance, Kafka 3.5 (JoinGroup v9).
//
// - NOT_COORDINATOR / COORDINATOR_LOAD_IN_PROGRESS; a session timeout
//   outside group.min/max.session.timeout.ms is INVALID_SESSION_TIMEOUT.
// - An unknown group is created Empty for a member without an id; a
//   member id the group does not know is UNKNOWN_MEMBER_ID.
// - A dynamic member without an id is given one (client id + a counter)
//   and told MEMBER_ID_REQUIRED; it joins again with it (KIP-394). A
//   static member (GroupInstanceId) joins at once; joining again with a
//   new member id replaces the old one, which is then FENCED_INSTANCE_ID.
// - A member's join starts a rebalance (from Empty, Stable or
//   CompletingRebalance) or counts towards the one under way; a follower
//   of a Stable group rejoining with the same subscription, or any member
//   rejoining during CompletingRebalance with the same subscription, just
//   gets the current generation back.
// - The answer waits until the join phase completes (group.go,
//   onCompleteJoin): every member then learns the new generation.

import (
	"slices"
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

func (c *Coordinator) handleJoinGroup(w *sim.World, env *sim.Envelope, m *protocol.JoinGroupRequest) {
	fail := func(err protocol.ErrorCode, memberId string) {
		w.Send(c.host.BrokerNode(), env.From, &protocol.JoinGroupResponse{ErrorCode: err, GenerationId: protocol.NoGenerationId, MemberId: memberId}, env.ID)
	}
	op, p, err := c.partitionOf(m.GroupId)
	if err != protocol.NONE {
		fail(err, m.MemberId)
		return
	}
	session := sim.Time(m.SessionTimeoutMs)
	if session < c.cfg.MinSessionTimeoutMs || session > c.cfg.MaxSessionTimeoutMs {
		fail(protocol.INVALID_SESSION_TIMEOUT, m.MemberId)
		return
	}
	unknown := m.MemberId == protocol.NoMemberId
	g := op.groupOf(m.GroupId, unknown)
	if g == nil {
		fail(protocol.UNKNOWN_MEMBER_ID, m.MemberId)
		return
	}
	var topics []string
	if len(m.Protocols) > 0 {
		topics = m.Protocols[0].Topics
	}
	if !g.supportsProtocols(m.ProtocolType, m.Protocols) {
		// doNewMemberJoinGroup and doCurrentMemberJoinGroup check it
		// before anything else about the member.
		fail(protocol.INCONSISTENT_GROUP_PROTOCOL, m.MemberId)
		return
	}
	if unknown {
		c.nextMember++
		id := w.Name(env.From) + "-" + strconv.Itoa(int(op.epoch)) + "." + strconv.Itoa(c.nextMember)
		if m.GroupInstanceId != "" {
			if old, ok := g.static[m.GroupInstanceId]; ok {
				c.replaceStaticMember(w, p, g, g.members[old], id, env, m, topics)
				return
			}
		} else {
			// requireKnownMemberId (JoinGroup v4+): hand out an id and
			// wait for the member to come back with it.
			g.pending[id] = true
			w.AfterBackground(c.host.BrokerNode(), session, timerPending, pendingTimer{p, g.id, id})
			fail(protocol.MEMBER_ID_REQUIRED, id)
			return
		}
		c.addMemberAndRebalance(w, p, g, id, env, m, topics)
		return
	}
	if g.pending[m.MemberId] {
		delete(g.pending, m.MemberId)
		c.addMemberAndRebalance(w, p, g, m.MemberId, env, m, topics)
		return
	}
	if err := g.validateCurrentMember(m.MemberId, m.GroupInstanceId); err != protocol.NONE {
		fail(err, m.MemberId)
		return
	}
	mem := g.members[m.MemberId]
	same := slices.Equal(mem.topics, topics)
	switch g.state {
	case PreparingRebalance:
		c.updateMemberAndRebalance(w, p, g, mem, env, m, topics, rebalanceReason{sim.NoteRebalanceJoinDuringPrepare, mem.id})
	case CompletingRebalance:
		if same {
			c.answerCurrentGeneration(w, g, mem, env, mem.id == g.leader)
		} else {
			c.updateMemberAndRebalance(w, p, g, mem, env, m, topics, rebalanceReason{sim.NoteRebalanceMetadata, mem.id})
		}
	case Stable:
		switch {
		case mem.id == g.leader:
			c.updateMemberAndRebalance(w, p, g, mem, env, m, topics, rebalanceReason{sim.NoteRebalanceLeaderRejoin, mem.id})
		case !same:
			c.updateMemberAndRebalance(w, p, g, mem, env, m, topics, rebalanceReason{sim.NoteRebalanceMetadata, mem.id})
		default:
			c.answerCurrentGeneration(w, g, mem, env, false)
		}
	case Empty:
		fail(protocol.UNKNOWN_MEMBER_ID, m.MemberId)
	}
}

func (c *Coordinator) addMemberAndRebalance(w *sim.World, p int32, g *group, id string, env *sim.Envelope, m *protocol.JoinGroupRequest, topics []string) {
	mem := &member{id: id, instanceId: m.GroupInstanceId, node: env.From, client: w.Name(env.From), sessionTimeout: sim.Time(m.SessionTimeoutMs),
		rebalanceTimeout: sim.Time(m.RebalanceTimeoutMs), topics: slices.Clone(topics), join: env, isNew: true,
		protocols: protocolNames(m.Protocols), protocolType: m.ProtocolType}
	if g.state == PreparingRebalance && g.generation == 0 {
		g.newMemberAdded = true
	}
	g.add(mem)
	c.scheduleExpiration(w, p, g, mem, newMemberJoinTimeoutMs)
	c.maybePrepareRebalance(w, p, g, rebalanceReason{sim.NoteRebalanceNewMember, id})
}

func (c *Coordinator) updateMemberAndRebalance(w *sim.World, p int32, g *group, mem *member, env *sim.Envelope, m *protocol.JoinGroupRequest, topics []string, reason rebalanceReason) {
	mem.topics = slices.Clone(topics)
	mem.protocols = protocolNames(m.Protocols)
	mem.sessionTimeout, mem.rebalanceTimeout = sim.Time(m.SessionTimeoutMs), sim.Time(m.RebalanceTimeoutMs)
	if mem.join != nil && mem.join != env {
		// a JoinGroup resent while the first waits: the newer one is answered
		old := mem.join
		w.Send(c.host.BrokerNode(), old.From, &protocol.JoinGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID, GenerationId: protocol.NoGenerationId}, old.ID)
	}
	mem.join = env
	c.maybePrepareRebalance(w, p, g, reason)
}

// replaceStaticMember: a static member joining without its member id
// takes a new one; the old id is fenced (FENCED_INSTANCE_ID from then
// on), and the group rebalances.
func (c *Coordinator) replaceStaticMember(w *sim.World, p int32, g *group, old *member, id string, env *sim.Envelope, m *protocol.JoinGroupRequest, topics []string) {
	if old.join != nil {
		w.Send(c.host.BrokerNode(), old.join.From, &protocol.JoinGroupResponse{ErrorCode: protocol.FENCED_INSTANCE_ID, GenerationId: protocol.NoGenerationId, MemberId: old.id}, old.join.ID)
		old.join = nil
	}
	if old.sync != nil {
		w.Send(c.host.BrokerNode(), old.sync.From, &protocol.SyncGroupResponse{ErrorCode: protocol.FENCED_INSTANCE_ID}, old.sync.ID)
		old.sync = nil
	}
	wasLeader := g.leader == old.id
	delete(g.members, old.id)
	i := slices.Index(g.order, old.id)
	g.order[i] = id
	old.id, old.node, old.client = id, env.From, w.Name(env.From)
	g.members[id] = old
	g.static[old.instanceId] = id
	if wasLeader {
		g.leader = id
	}
	c.updateMemberAndRebalance(w, p, g, old, env, m, topics, rebalanceReason{sim.NoteRebalanceStaticRejoin, old.instanceId})
}

func (c *Coordinator) answerCurrentGeneration(w *sim.World, g *group, mem *member, env *sim.Envelope, withMembers bool) {
	resp := &protocol.JoinGroupResponse{GenerationId: g.generation, ProtocolType: protocol.ConsumerProtocolType,
		ProtocolName: g.protocolName, Leader: g.leader, MemberId: mem.id}
	if withMembers {
		for _, id := range g.order {
			x := g.members[id]
			resp.Members = append(resp.Members, protocol.JoinGroupMember{MemberId: x.id, GroupInstanceId: x.instanceId, Topics: x.topics})
		}
	}
	w.Send(c.host.BrokerNode(), env.From, resp, env.ID)
}
