package client

// A consumer's group membership, as the Java consumer's
// AbstractCoordinator and ConsumerCoordinator (Kafka 3.5) run it with the
// eager range assignor: subscribe(), then at each poll() a member not in
// the current generation (or asked to rejoin) revokes its partitions and
// joins (FindCoordinator, JoinGroup, again after MEMBER_ID_REQUIRED,
// SyncGroup, the leader computing the assignment), then fetches its
// partitions' committed offsets. A heartbeat every heartbeat.interval.ms
// (a background thread in Java, so a paused or crashed process sends
// none) keeps the session alive; REBALANCE_IN_PROGRESS asks for a rejoin
// at the next poll, UNKNOWN_MEMBER_ID/FENCED_INSTANCE_ID reset the member
// id, ILLEGAL_GENERATION the generation.
//
// groupMetadata() changes only when a join completes (onJoinComplete), as
// in Java: a consumer evicted while it was paused still reports its old
// generation and member id, which is how its transactional producer's
// TxnOffsetCommit gets fenced (KIP-447).
//
// Simplified: no LeaveGroup (close and max.poll.interval.ms expiry do not
// leave; the session times out instead), no auto-commit, no cooperative
// protocol.

import (
	"slices"
	"strconv"
	"strings"

	"txnlab/core/internal/ptrsort"
	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// GroupMetadata is ConsumerGroupMetadata: what a consumer's
// groupMetadata() returns, and what sendOffsetsToTransaction carries.
type GroupMetadata struct {
	GroupId         string
	GenerationId    int32
	MemberId        string
	GroupInstanceId string
}

// SimpleGroupMetadata is new ConsumerGroupMetadata(groupId): what the
// deprecated sendOffsetsToTransaction(offsets, groupId) sends, with no
// generation and no member, so the coordinator checks nothing.
func SimpleGroupMetadata(group string) GroupMetadata {
	return GroupMetadata{GroupId: group, GenerationId: protocol.NoGenerationId, MemberId: protocol.NoMemberId}
}

// MemberState is the consumer's membership state (AbstractCoordinator's
// MemberState).
type MemberState uint8

// The member states.
const (
	Unjoined            MemberState = iota // not in a generation
	PreparingRebalance                     // JoinGroup sent, waiting
	CompletingRebalance                    // SyncGroup sent, waiting
	StableMember                           // in the generation, heartbeating
)

var memberStateNames = []string{"UNJOINED", "PREPARING_REBALANCE", "COMPLETING_REBALANCE", "STABLE"}

// String returns the Java client's name of the state.
func (s MemberState) String() string { return memberStateNames[s] }

// membership is the group half of a consumer.
type membership struct {
	// Subscription is what subscribe() was given, sorted; nil for assign().
	Subscription []string
	// Member is the consumer's state in its group.
	Member       MemberState
	generation   int32
	memberId     string
	rejoinNeeded bool
	metadata     GroupMetadata
	hbInflight   int64
	hbSeq        int
}

// GroupMetadata is groupMetadata(): the generation and member id of the
// last join that completed.
func (c *Consumer) GroupMetadata() GroupMetadata {
	if c.metadata.GroupId == "" {
		return GroupMetadata{GroupId: c.Cfg.GroupId, GenerationId: protocol.NoGenerationId, GroupInstanceId: c.Cfg.GroupInstanceId}
	}
	return c.metadata
}

// Subscribe is subscribe(topics): the partitions come from the group's
// assignment at the next poll.
func (c *Consumer) Subscribe(w *sim.World, topics []string) *Call {
	call := c.start(w, CallSubscribe, strings.Join(topics, " "))
	if c.Cfg.GroupId == "" {
		// KafkaConsumer.maybeThrowInvalidGroupIdException
		c.finishSaying(w, call, Raised(protocol.InvalidGroupIdException), sim.NoteNoGroupID)
		return call
	}
	c.Subscription = slices.Sorted(slices.Values(topics))
	c.rejoinNeeded = true
	c.finish(w, call, OK, "")
	return call
}

// Unsubscribe is unsubscribe(): the consumer gives up its partitions and
// leaves its group at once. A dynamic member in a generation sends
// LeaveGroup and does not wait for the answer (AbstractCoordinator
// maybeLeaveGroup, reason "the consumer unsubscribed from all topics");
// a static member sends nothing, its session expiring as when it
// stops; either forgets its generation and member id.
func (c *Consumer) Unsubscribe(w *sim.World) *Call {
	call := c.start(w, CallUnsubscribe, "")
	if c.Subscription != nil && c.Cfg.GroupInstanceId == "" && c.groupCoordinator != sim.NoNode &&
		c.Member != Unjoined && c.memberId != protocol.NoMemberId {
		w.Send(c.node, c.groupCoordinator, &protocol.LeaveGroupRequest{GroupId: c.Cfg.GroupId,
			Members: []protocol.LeaveGroupMember{{MemberId: c.memberId, Reason: "the consumer unsubscribed from all topics"}}}, 0)
	}
	c.resetGeneration(true)
	for _, tp := range c.Assigned {
		delete(c.Positions, tp)
	}
	c.Assigned, c.Subscription, c.metadata = nil, nil, GroupMetadata{}
	c.needOffsets, c.rejoinNeeded = false, false
	c.finish(w, call, OK, "")
	return call
}

// needsJoin reports whether the next poll must (re)join the group.
func (c *Consumer) needsJoin() bool {
	return c.Subscription != nil && (c.Member != StableMember || c.rejoinNeeded)
}

// startJoin is onJoinPrepare (eager: revoke every partition) and the
// first JoinGroup.
func (c *Consumer) startJoin(w *sim.World) {
	for _, tp := range c.Assigned {
		delete(c.Positions, tp)
	}
	c.Assigned = nil
	c.needOffsets = false
	c.rejoinNeeded = false
	c.Member = PreparingRebalance
	c.hbSeq++ // no heartbeats while rebalancing
	c.sendGroupRequest(w, "join")
}

// membershipRequest builds the JoinGroup or SyncGroup the consumer
// sends next (nil for another kind).
func (c *Consumer) membershipRequest(kind string) protocol.Message {
	switch kind {
	case "join":
		return &protocol.JoinGroupRequest{GroupId: c.Cfg.GroupId, SessionTimeoutMs: int32(c.Cfg.SessionTimeoutMs),
			RebalanceTimeoutMs: int32(c.Cfg.MaxPollIntervalMs), MemberId: c.memberId, GroupInstanceId: c.Cfg.GroupInstanceId,
			ProtocolType: protocol.ConsumerProtocolType, Protocols: c.joinProtocols()}
	case "sync":
		return c.syncRequest
	}
	return nil
}

func (c *Consumer) resetGeneration(resetMemberId bool) {
	c.generation = protocol.NoGenerationId
	if resetMemberId {
		c.memberId = protocol.NoMemberId
	}
	c.Member = Unjoined
	c.hbSeq++
}

// onJoinResponse is JoinGroupResponseHandler.
func (c *Consumer) onJoinResponse(w *sim.World, m *protocol.JoinGroupResponse) {
	switch m.ErrorCode {
	case protocol.NONE:
		c.generation, c.memberId = m.GenerationId, m.MemberId
		c.Member = CompletingRebalance
		req := &protocol.SyncGroupRequest{GroupId: c.Cfg.GroupId, GenerationId: m.GenerationId, MemberId: m.MemberId,
			GroupInstanceId: c.Cfg.GroupInstanceId, ProtocolType: m.ProtocolType, ProtocolName: m.ProtocolName}
		if m.Leader == m.MemberId {
			if m.ProtocolName == RoundRobinAssignor {
				req.Assignments = c.roundRobinAssign(m.Members)
			} else {
				req.Assignments = c.rangeAssign(m.Members)
			}
		}
		c.syncRequest = req
		c.sendGroupRequest(w, "sync")
	case protocol.MEMBER_ID_REQUIRED:
		c.memberId = m.MemberId
		c.sendGroupRequest(w, "join")
	case protocol.UNKNOWN_MEMBER_ID, protocol.ILLEGAL_GENERATION:
		c.resetGeneration(true)
		c.Member = PreparingRebalance
		w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "join")
	case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
		c.groupCoordinator = sim.NoNode
		w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "join")
	case protocol.COORDINATOR_LOAD_IN_PROGRESS, protocol.REBALANCE_IN_PROGRESS:
		w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "join")
	default: // FENCED_INSTANCE_ID, INVALID_SESSION_TIMEOUT, …: the poll throws
		c.resetGeneration(m.ErrorCode == protocol.FENCED_INSTANCE_ID)
		c.finish(w, c.call, Broker(m.ErrorCode), "")
	}
}

// onSyncResponse is SyncGroupResponseHandler, then onJoinComplete.
func (c *Consumer) onSyncResponse(w *sim.World, m *protocol.SyncGroupResponse) {
	switch m.ErrorCode {
	case protocol.NONE:
		c.Member = StableMember
		c.metadata = GroupMetadata{GroupId: c.Cfg.GroupId, GenerationId: c.generation, MemberId: c.memberId, GroupInstanceId: c.Cfg.GroupInstanceId}
		c.Assigned = slices.Clone(m.Assignment)
		for _, tp := range c.Assigned {
			c.Positions[tp] = -1
		}
		c.needOffsets = len(c.Assigned) > 0
		c.hbSeq++
		w.AfterBackground(c.node, c.Cfg.HeartbeatIntervalMs, "heartbeat", c.hbSeq)
		w.Note(c.node, c.Cfg.GroupId, sim.NoteJoinedGroup, w.Name(c.node), c.Cfg.GroupId, itoa32(c.generation), c.memberId)
		if len(c.Assigned) == 0 {
			c.finishSaying(w, c.call, OK, sim.NoteNothingAssigned)
			return
		}
		c.step(w)
	case protocol.REBALANCE_IN_PROGRESS:
		c.Member = PreparingRebalance
		c.sendGroupRequest(w, "join")
	case protocol.UNKNOWN_MEMBER_ID, protocol.ILLEGAL_GENERATION:
		c.resetGeneration(true)
		c.Member = PreparingRebalance
		w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "join")
	case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
		c.groupCoordinator = sim.NoNode
		c.resetGeneration(false)
		c.Member = PreparingRebalance
		w.After(c.node, c.Cfg.RetryBackoffMs, "retry", "join")
	default:
		c.resetGeneration(m.ErrorCode == protocol.FENCED_INSTANCE_ID)
		c.finish(w, c.call, Broker(m.ErrorCode), "")
	}
}

// joinProtocols is the JoinGroup's protocol list: one per assignor, in
// preference order, each with the subscription
// (ConsumerCoordinator.metadata).
func (c *Consumer) joinProtocols() []protocol.JoinGroupProtocol {
	names := c.Cfg.Assignors
	if len(names) == 0 {
		names = []string{RangeAssignor}
	}
	ps := make([]protocol.JoinGroupProtocol, len(names))
	for i, n := range names {
		ps[i] = protocol.JoinGroupProtocol{Name: n, Topics: c.Subscription}
	}
	return ps
}

// roundRobinAssign is RoundRobinAssignor: every subscribed partition, in
// topic then partition order, goes to the next member (sorted by
// group.instance.id when both have one, else by member id, in a circle)
// that subscribes to its topic.
func (c *Consumer) roundRobinAssign(members []protocol.JoinGroupMember) []protocol.SyncGroupAssignment {
	sorted := slices.Clone(members)
	ptrsort.SortFunc(sorted, func(a, b *protocol.JoinGroupMember) int {
		if a.GroupInstanceId != "" && b.GroupInstanceId != "" {
			return strings.Compare(a.GroupInstanceId, b.GroupInstanceId)
		}
		return strings.Compare(a.MemberId, b.MemberId)
	})
	var topics []string
	for _, m := range members {
		for _, t := range m.Topics {
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
	}
	slices.Sort(topics)
	byMember := map[string][]protocol.TopicPartition{}
	next := 0
	for _, t := range topics {
		for p := int32(0); p < c.meta.PartitionCount(t); p++ {
			for range sorted {
				m := sorted[next%len(sorted)]
				next++
				if slices.Contains(m.Topics, t) {
					byMember[m.MemberId] = append(byMember[m.MemberId], protocol.TopicPartition{Topic: t, Partition: p})
					break
				}
			}
		}
	}
	out := make([]protocol.SyncGroupAssignment, 0, len(members))
	for _, m := range members {
		out = append(out, protocol.SyncGroupAssignment{MemberId: m.MemberId, Assignment: byMember[m.MemberId]})
	}
	return out
}

// rangeAssign is RangeAssignor: per topic, its partitions in order split
// into contiguous ranges over the members subscribed to it, sorted by
// member id (by group.instance.id for static members), the first ones
// taking one more when it does not divide.
func (c *Consumer) rangeAssign(members []protocol.JoinGroupMember) []protocol.SyncGroupAssignment {
	key := func(m protocol.JoinGroupMember) string {
		if m.GroupInstanceId != "" {
			return m.GroupInstanceId
		}
		return m.MemberId
	}
	byMember := map[string][]protocol.TopicPartition{}
	topics := map[string]bool{}
	for _, m := range members {
		for _, t := range m.Topics {
			topics[t] = true
		}
	}
	for _, t := range slices.Sorted(func(yield func(string) bool) {
		for t := range topics {
			if !yield(t) {
				return
			}
		}
	}) {
		var subs []protocol.JoinGroupMember
		for _, m := range members {
			if slices.Contains(m.Topics, t) {
				subs = append(subs, m)
			}
		}
		ptrsort.SortFunc(subs, func(a, b *protocol.JoinGroupMember) int { return strings.Compare(key(*a), key(*b)) })
		n := int(c.meta.PartitionCount(t))
		if n == 0 || len(subs) == 0 {
			continue
		}
		per, extra := n/len(subs), n%len(subs)
		for i, m := range subs {
			start := i*per + min(i, extra)
			length := per
			if i < extra {
				length++
			}
			for p := start; p < start+length; p++ {
				byMember[m.MemberId] = append(byMember[m.MemberId], protocol.TopicPartition{Topic: t, Partition: int32(p)})
			}
		}
	}
	out := make([]protocol.SyncGroupAssignment, 0, len(members))
	for _, m := range members {
		out = append(out, protocol.SyncGroupAssignment{MemberId: m.MemberId, Assignment: byMember[m.MemberId]})
	}
	return out
}

// heartbeat sends one Heartbeat if the member is stable (the timer of a
// past generation, or one fired while rebalancing, is void).
func (c *Consumer) heartbeat(w *sim.World, seq int) {
	if seq != c.hbSeq || c.Member != StableMember || c.hbInflight != 0 {
		return
	}
	if c.groupCoordinator == sim.NoNode {
		w.AfterBackground(c.node, c.Cfg.HeartbeatIntervalMs, "heartbeat", c.hbSeq)
		return
	}
	c.hbInflight = w.Send(c.node, c.groupCoordinator, &protocol.HeartbeatRequest{GroupId: c.Cfg.GroupId, GenerationId: c.generation,
		MemberId: c.memberId, GroupInstanceId: c.Cfg.GroupInstanceId}, 0)
	w.AfterBackground(c.node, c.Cfg.RequestTimeoutMs, "heartbeat-timeout", c.hbInflight)
}

// onHeartbeatResponse is HeartbeatResponseHandler.
func (c *Consumer) onHeartbeatResponse(w *sim.World, m *protocol.HeartbeatResponse) {
	c.hbInflight = 0
	switch m.ErrorCode {
	case protocol.NONE:
	case protocol.REBALANCE_IN_PROGRESS:
		c.rejoinNeeded = true
	case protocol.ILLEGAL_GENERATION:
		c.resetGeneration(false)
		c.rejoinNeeded = true
		return
	case protocol.UNKNOWN_MEMBER_ID, protocol.FENCED_INSTANCE_ID:
		c.resetGeneration(true)
		c.rejoinNeeded = true
		return
	case protocol.NOT_COORDINATOR, protocol.COORDINATOR_NOT_AVAILABLE:
		c.groupCoordinator = sim.NoNode
	}
	w.AfterBackground(c.node, c.Cfg.HeartbeatIntervalMs, "heartbeat", c.hbSeq)
}

// heartbeatTimedOut: the coordinator is marked unknown and the next
// heartbeat waits for a poll to find it again.
func (c *Consumer) heartbeatTimedOut(w *sim.World, id int64) {
	if id != c.hbInflight {
		return
	}
	c.hbInflight = 0
	c.groupCoordinator = sim.NoNode
	w.AfterBackground(c.node, c.Cfg.HeartbeatIntervalMs, "heartbeat", c.hbSeq)
}

func itoa32(n int32) string { return strconv.Itoa(int(n)) }
