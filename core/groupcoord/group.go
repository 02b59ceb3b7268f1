package groupcoord

// Group membership of the classic protocol, as far as fencing a
// consume-transform-produce zombie needs it (KIP-447): Kafka 3.5's
// GroupCoordinator and GroupMetadata, reduced.
//
// - States Empty, PreparingRebalance, CompletingRebalance, Stable (Dead is
//   not modelled: groups are never deleted).
// - A rebalance starts when a member joins, when a member's session
//   expires (no heartbeat for session.timeout.ms) or when the leader
//   rejoins. The join phase waits for every known member to rejoin, at
//   most the largest rebalance timeout (max.poll.interval.ms); dynamic
//   members that did not rejoin are removed, static ones (KIP-345) stay
//   until their session expires. A group going from Empty waits
//   group.initial.rebalance.delay.ms first, longer while members keep
//   arriving (InitialDelayedJoin).
// - Completing the join bumps the generation (initNextGeneration) and
//   answers every JoinGroup; the leader's SyncGroup hands out the
//   assignment and the group becomes Stable.
// - validateOffsetCommit fences commits by member id, group instance id
//   and generation (OffsetCommit and TxnOffsetCommit alike).
//
// Simplified: the group's metadata record (GroupMetadataManager.storeGroup)
// is not written to __consumer_offsets, so a coordinator failover forgets
// the membership and its members rejoin; no pending-sync expiration
// (DelayedSync), no group.max.size.

import (
	"slices"
	"strconv"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Config is the group coordinator's broker settings.
type Config struct {
	// InitialRebalanceDelayMs is group.initial.rebalance.delay.ms.
	InitialRebalanceDelayMs sim.Time
	// MinSessionTimeoutMs and MaxSessionTimeoutMs are
	// group.min.session.timeout.ms and group.max.session.timeout.ms.
	MinSessionTimeoutMs sim.Time
	MaxSessionTimeoutMs sim.Time
}

// DefaultConfig is Kafka 3.5's defaults (GroupCoordinatorConfig, KafkaConfig).
func DefaultConfig() Config {
	return Config{InitialRebalanceDelayMs: 3 * sim.Second, MinSessionTimeoutMs: 6 * sim.Second, MaxSessionTimeoutMs: 30 * sim.Minute}
}

// newMemberJoinTimeoutMs is GroupCoordinator.NewMemberJoinTimeoutMs: how
// long a new member awaiting its first join may stay without heartbeats.
const newMemberJoinTimeoutMs = 5 * sim.Minute

// GroupState is a group's state, named as Kafka names it.
type GroupState uint8

// The group states.
const (
	Empty GroupState = iota
	PreparingRebalance
	CompletingRebalance
	Stable
)

var groupStateNames = []string{"Empty", "PreparingRebalance", "CompletingRebalance", "Stable"}

// String returns Kafka's name of the state.
func (s GroupState) String() string { return groupStateNames[s] }

// GroupStateNames lists the states by Kafka's names, in order.
func GroupStateNames() []string { return slices.Clone(groupStateNames) }

// GroupStateByName finds a state by Kafka's name.
func GroupStateByName(name string) (GroupState, bool) {
	i := slices.Index(groupStateNames, name)
	return GroupState(max(i, 0)), i >= 0
}

type member struct {
	id, instanceId   string
	node             sim.NodeID
	client           string // node's name, for GroupView
	sessionTimeout   sim.Time
	rebalanceTimeout sim.Time
	topics           []string
	protocols        []string // the assignment protocols it supports, preferred first
	assignment       []protocol.TopicPartition
	join             *sim.Envelope // a JoinGroup awaiting its answer
	sync             *sim.Envelope // a SyncGroup awaiting the leader's assignment
	deadline         sim.Time      // the session expires at this time
	isNew            bool
	protocolType     string
}

type group struct {
	id         string
	state      GroupState
	generation int32
	leader     string
	members    map[string]*member
	order      []string          // member ids in the order they joined: the leader succession
	pending    map[string]bool   // member ids handed out by MEMBER_ID_REQUIRED, not yet joined
	static     map[string]string // group.instance.id → member id
	// protocolType is the members' ProtocolType ("" while Empty);
	// protocolName the protocol selectProtocol chose for the generation.
	protocolType, protocolName string
	// The join phase's delayed operation: joinSeq tells a current timer
	// from a stale one; initial marks InitialDelayedJoin.
	joinSeq        int
	initial        bool
	remaining      sim.Time
	newMemberAdded bool
}

func newGroup(id string) *group {
	return &group{id: id, members: map[string]*member{}, pending: map[string]bool{}, static: map[string]string{}}
}

func (g *group) add(m *member) {
	if len(g.members) == 0 {
		g.protocolType = m.protocolType
	}
	g.members[m.id] = m
	g.order = append(g.order, m.id)
	if m.instanceId != "" {
		g.static[m.instanceId] = m.id
	}
	if g.leader == "" {
		g.leader = m.id
	}
}

func (g *group) remove(id string) {
	m := g.members[id]
	if m == nil {
		return
	}
	delete(g.members, id)
	g.order = slices.DeleteFunc(g.order, func(x string) bool { return x == id })
	if m.instanceId != "" && g.static[m.instanceId] == id {
		delete(g.static, m.instanceId)
	}
	if g.leader == id {
		g.leader = ""
		if len(g.order) > 0 {
			g.leader = g.order[0]
		}
	}
}

func (g *group) rebalanceTimeout() sim.Time {
	var t sim.Time
	for _, m := range g.members {
		t = max(t, m.rebalanceTimeout)
	}
	return t
}

// hasAllMembersJoined: every member has a JoinGroup waiting and no
// member id handed out is still to join.
func (g *group) hasAllMembersJoined() bool {
	for _, m := range g.members {
		if m.join == nil {
			return false
		}
	}
	return len(g.pending) == 0
}

// validateCurrentMember is GroupCoordinator.validateCurrentMember: a
// static member's instance id must map to the member id, and the member
// must exist.
func (g *group) validateCurrentMember(memberId, instanceId string) protocol.ErrorCode {
	if instanceId != "" {
		cur, ok := g.static[instanceId]
		switch {
		case !ok:
			return protocol.UNKNOWN_MEMBER_ID
		case cur != memberId:
			return protocol.FENCED_INSTANCE_ID
		}
		return protocol.NONE
	}
	if g.members[memberId] == nil {
		return protocol.UNKNOWN_MEMBER_ID
	}
	return protocol.NONE
}

// validateOffsetCommit is GroupCoordinator.validateOffsetCommit (3.5):
// a commit without group metadata (generation -1, no member, no instance)
// is accepted into an Empty group, and, when transactional, into any
// group (older TxnOffsetCommit versions carry no metadata); otherwise the
// member must be current and the generation the group's.
func (g *group) validateOffsetCommit(generation int32, memberId, instanceId string, transactional bool) protocol.ErrorCode {
	switch {
	case generation < 0 && g.state == Empty:
		return protocol.NONE
	case generation >= 0 || memberId != protocol.NoMemberId || instanceId != "":
		if err := g.validateCurrentMember(memberId, instanceId); err != protocol.NONE {
			return err
		}
		if generation != g.generation {
			return protocol.ILLEGAL_GENERATION
		}
		return protocol.NONE
	case !transactional && g.state != Empty:
		return protocol.UNKNOWN_MEMBER_ID
	}
	return protocol.NONE
}

// groupOf returns the group, creating it Empty when create is set.
func (op *offsetsPartition) groupOf(id string, create bool) *group {
	g := op.groups[id]
	if g == nil && create {
		g = newGroup(id)
		op.groups[id] = g
	}
	return g
}

// Timer kinds of the membership.
const (
	timerJoin      = "group.join"
	timerHeartbeat = "group.heartbeat"
	timerPending   = "group.pending-member"
)

type joinTimer struct {
	partition int32
	group     string
	seq       int
}

type heartbeatTimer struct {
	partition int32
	group     string
	member    string
	deadline  sim.Time
}

// scheduleExpiration is completeAndScheduleNextExpiration: the member's
// session runs timeout from now. The timers are background ones: a live
// group must not keep `run` from finishing.
func (c *Coordinator) scheduleExpiration(w *sim.World, p int32, g *group, m *member, timeout sim.Time) {
	m.deadline = w.Now() + timeout
	w.AfterBackground(c.host.BrokerNode(), timeout, timerHeartbeat, heartbeatTimer{p, g.id, m.id, m.deadline})
}

// maybePrepareRebalance starts a rebalance unless one is under way, in
// which case the join phase may now be complete.
func (c *Coordinator) maybePrepareRebalance(w *sim.World, p int32, g *group, reason rebalanceReason) {
	if g.state == PreparingRebalance {
		c.tryCompleteJoin(w, p, g)
		return
	}
	c.prepareRebalance(w, p, g, reason)
}

// rebalanceReason is why a group rebalances, as its note says it: the
// note's code and the member it names.
type rebalanceReason struct {
	code   sim.NoteCode
	member string
}

// prepareRebalance: awaiting SyncGroups are answered
// REBALANCE_IN_PROGRESS, the join phase starts (an InitialDelayedJoin
// from Empty, a DelayedJoin bounded by the rebalance timeout otherwise).
func (c *Coordinator) prepareRebalance(w *sim.World, p int32, g *group, reason rebalanceReason) {
	if g.state == CompletingRebalance {
		c.propagateAssignmentError(w, g, protocol.REBALANCE_IN_PROGRESS)
	}
	g.joinSeq++
	if g.state == Empty {
		g.initial = true
		delay := c.cfg.InitialRebalanceDelayMs
		g.remaining = max(g.rebalanceTimeout()-delay, 0)
		g.newMemberAdded = false
		w.AfterBackground(c.host.BrokerNode(), delay, timerJoin, joinTimer{p, g.id, g.joinSeq})
	} else {
		g.initial = false
		w.AfterBackground(c.host.BrokerNode(), g.rebalanceTimeout(), timerJoin, joinTimer{p, g.id, g.joinSeq})
	}
	g.state = PreparingRebalance
	w.Note(c.host.BrokerNode(), g.id, reason.code, g.id, strconv.Itoa(int(g.generation)), reason.member)
	c.tryCompleteJoin(w, p, g)
}

// tryCompleteJoin completes a DelayedJoin once every member has rejoined
// (an InitialDelayedJoin always waits its delay).
func (c *Coordinator) tryCompleteJoin(w *sim.World, p int32, g *group) {
	if g.state == PreparingRebalance && !g.initial && g.hasAllMembersJoined() {
		c.onCompleteJoin(w, p, g)
	}
}

// joinExpired is the join phase's timer.
func (c *Coordinator) joinExpired(w *sim.World, t joinTimer) {
	op := c.parts[t.partition]
	if op == nil {
		return
	}
	g := op.groups[t.group]
	if g == nil || g.joinSeq != t.seq || g.state != PreparingRebalance {
		return
	}
	if g.initial && g.newMemberAdded && g.remaining > 0 {
		// InitialDelayedJoin.onComplete: members are still arriving,
		// wait another delay (at most what is left of the timeout).
		g.newMemberAdded = false
		d := min(c.cfg.InitialRebalanceDelayMs, g.remaining)
		g.remaining -= d
		g.joinSeq++
		w.AfterBackground(c.host.BrokerNode(), d, timerJoin, joinTimer{t.partition, g.id, g.joinSeq})
		return
	}
	c.onCompleteJoin(w, t.partition, g)
}

// onCompleteJoin removes the members that did not rejoin, bumps the
// generation and answers every JoinGroup; the leader's answer lists
// every member's subscription.
func (c *Coordinator) onCompleteJoin(w *sim.World, p int32, g *group) {
	g.joinSeq++ // the delayed operation is done
	for _, id := range slices.Clone(g.order) {
		if m := g.members[id]; m.join == nil && m.instanceId == "" {
			g.remove(id)
			w.Note(c.host.BrokerNode(), g.id, sim.NoteGroupMemberRemoved, g.id, id)
		}
	}
	// maybeElectNewJoinedLeader: a static member kept without rejoining
	// cannot lead; with no member rejoined at all, wait another round.
	if l := g.members[g.leader]; l != nil && l.join == nil {
		g.leader = ""
		for _, id := range g.order {
			if g.members[id].join != nil {
				g.leader = id
				break
			}
		}
		if g.leader == "" {
			g.leader = l.id
			g.joinSeq++
			w.AfterBackground(c.host.BrokerNode(), g.rebalanceTimeout(), timerJoin, joinTimer{p, g.id, g.joinSeq})
			return
		}
	}
	g.generation++
	if len(g.members) == 0 {
		g.protocolName = ""
		g.state = Empty
		w.Note(c.host.BrokerNode(), g.id, sim.NoteGroupEmpty, g.id, strconv.Itoa(int(g.generation)))
		return
	}
	g.protocolName = g.selectProtocol()
	g.state = CompletingRebalance
	var all []protocol.JoinGroupMember
	for _, id := range g.order {
		m := g.members[id]
		all = append(all, protocol.JoinGroupMember{MemberId: m.id, GroupInstanceId: m.instanceId, Topics: m.topics})
	}
	for _, id := range g.order {
		m := g.members[id]
		if m.join == nil {
			continue // a static member that did not rejoin stays, unanswered
		}
		resp := &protocol.JoinGroupResponse{GenerationId: g.generation, ProtocolType: protocol.ConsumerProtocolType,
			ProtocolName: g.protocolName, Leader: g.leader, MemberId: m.id}
		if id == g.leader {
			resp.Members = all
		}
		env := m.join
		m.join = nil
		w.Send(c.host.BrokerNode(), env.From, resp, env.ID)
		c.scheduleExpiration(w, p, g, m, m.sessionTimeout)
		m.isNew = false
	}
}

// RangeProtocol is the assignor a 3.5 Java consumer uses by default
// (partition.assignment.strategy lists RangeAssignor first).
const RangeProtocol = "range"

// supportsProtocols is GroupMetadata.supportsProtocols: an Empty group
// takes any member that names a protocol type and at least one protocol;
// otherwise the type must be the group's and one of the member's
// protocols must be supported by every current member.
func (g *group) supportsProtocols(protocolType string, protocols []protocol.JoinGroupProtocol) bool {
	if g.state == Empty {
		return protocolType != "" && len(protocols) > 0
	}
	if protocolType != g.protocolType {
		return false
	}
	for _, p := range protocols {
		if g.supportedByAll(p.Name) {
			return true
		}
	}
	return false
}

// supportedByAll: every member lists the protocol.
func (g *group) supportedByAll(name string) bool {
	for _, m := range g.members {
		if !slices.Contains(m.protocols, name) {
			return false
		}
	}
	return true
}

// selectProtocol is GroupMetadata.selectProtocol: among the protocols
// every member supports, each member votes for the first of its own
// list, and the protocol with the most votes wins. Kafka breaks a tie by
// the iteration order of a hash map; txnlab gives it to the protocol
// whose first voter joined first (the leader's, when it voted for one).
func (g *group) selectProtocol() string {
	votes := map[string]int{}
	var order []string // protocols in the order their first vote came
	for _, id := range g.order {
		for _, p := range g.members[id].protocols {
			if g.supportedByAll(p) {
				if votes[p] == 0 {
					order = append(order, p)
				}
				votes[p]++
				break
			}
		}
	}
	best := ""
	for _, p := range order {
		if best == "" || votes[p] > votes[best] {
			best = p
		}
	}
	return best
}

// protocolNames lists a JoinGroup's protocol names in its order.
func protocolNames(ps []protocol.JoinGroupProtocol) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name
	}
	return names
}

// propagateAssignmentError answers every awaiting SyncGroup with err and
// clears the assignments (resetAndPropagateAssignmentError).
func (c *Coordinator) propagateAssignmentError(w *sim.World, g *group, err protocol.ErrorCode) {
	for _, id := range g.order {
		m := g.members[id]
		m.assignment = nil
		if m.sync != nil {
			env := m.sync
			m.sync = nil
			w.Send(c.host.BrokerNode(), env.From, &protocol.SyncGroupResponse{ErrorCode: err}, env.ID)
		}
	}
}

// heartbeatExpired is onExpireHeartbeat: a member whose session ran out
// without a heartbeat is removed, and the group rebalances (or, already
// rebalancing, may now complete its join).
func (c *Coordinator) heartbeatExpired(w *sim.World, t heartbeatTimer) {
	op := c.parts[t.partition]
	if op == nil {
		return
	}
	g := op.groups[t.group]
	if g == nil {
		return
	}
	m := g.members[t.member]
	if m == nil || m.deadline != t.deadline {
		return // gone, or its session was renewed since
	}
	if !m.isNew && (m.join != nil || m.sync != nil) {
		return // hasSatisfiedHeartbeat: awaiting a join or a sync
	}
	w.Note(c.host.BrokerNode(), g.id, sim.NoteGroupMemberFailed, g.id, m.id)
	c.removeMemberAndUpdateGroup(w, t.partition, g, m, rebalanceReason{sim.NoteRebalanceHeartbeatExpired, m.id})
}

func (c *Coordinator) removeMemberAndUpdateGroup(w *sim.World, p int32, g *group, m *member, reason rebalanceReason) {
	if m.join != nil {
		env := m.join
		m.join = nil
		w.Send(c.host.BrokerNode(), env.From, &protocol.JoinGroupResponse{ErrorCode: protocol.UNKNOWN_MEMBER_ID, GenerationId: protocol.NoGenerationId}, env.ID)
	}
	g.remove(m.id)
	switch g.state {
	case Stable, CompletingRebalance:
		c.maybePrepareRebalance(w, p, g, reason)
	case PreparingRebalance:
		c.tryCompleteJoin(w, p, g)
	}
}

type pendingTimer struct {
	partition int32
	group     string
	member    string
}

// pendingExpired removes a member id handed out by MEMBER_ID_REQUIRED
// that never joined within the session timeout.
func (c *Coordinator) pendingExpired(w *sim.World, t pendingTimer) {
	op := c.parts[t.partition]
	if op == nil {
		return
	}
	if g := op.groups[t.group]; g != nil && g.pending[t.member] {
		delete(g.pending, t.member)
		c.tryCompleteJoin(w, t.partition, g)
	}
}

// GroupView is one group's membership as expectations and the inspector
// read it.
type GroupView struct {
	Group      string
	State      string
	Generation int32
	Leader     string   `json:",omitempty"`
	Members    []string `json:",omitempty"` // member ids, in join order
	// Clients are the members' client nodes, in the same order, and
	// LeaderClient the leader's.
	Clients      []string `json:",omitempty"`
	LeaderClient string   `json:",omitempty"`
	// Protocol is the assignment protocol the generation runs
	// (JoinGroup's ProtocolName), "" while Empty.
	Protocol string `json:",omitempty"`
	// Assignments maps a member id to its partitions (Stable groups).
	Assignments map[string][]protocol.TopicPartition `json:",omitempty"`
}

// Group returns a group's membership, if this broker coordinates it.
func (c *Coordinator) Group(id string) (GroupView, bool) {
	op, _, err := c.partitionOf(id)
	if err != protocol.NONE {
		return GroupView{}, false
	}
	g := op.groups[id]
	if g == nil {
		return GroupView{Group: id, State: Empty.String(), Generation: 0}, true
	}
	v := GroupView{Group: id, State: g.state.String(), Generation: g.generation, Leader: g.leader, Members: slices.Clone(g.order),
		Protocol: g.protocolName}
	for _, mid := range g.order {
		v.Clients = append(v.Clients, g.members[mid].client)
		if mid == g.leader {
			v.LeaderClient = g.members[mid].client
		}
		if a := g.members[mid].assignment; len(a) > 0 {
			if v.Assignments == nil {
				v.Assignments = map[string][]protocol.TopicPartition{}
			}
			v.Assignments[mid] = slices.Clone(a)
		}
	}
	return v, true
}
