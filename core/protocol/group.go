package protocol

// The consumer group membership APIs of the classic protocol (Kafka 3.5's
// GroupCoordinator): JoinGroup, Heartbeat and SyncGroup, with the field
// names of their JSON schemas (JoinGroupRequest.json, …) and the versions
// a 3.5 Java consumer sends (JoinGroup v9, Heartbeat v4, SyncGroup v5).
// The member metadata and assignments the consumer protocol encodes as
// bytes (ConsumerProtocolSubscription, ConsumerProtocolAssignment) are
// kept decoded: the subscribed topics, the assigned partitions.

import (
	"strconv"
	"strings"
)

// NoGenerationId and NoMemberId are what a consumer outside any
// generation sends (JoinGroupRequest.UNKNOWN_GENERATION_ID,
// UNKNOWN_MEMBER_ID): a simple group's commits, a first JoinGroup.
const (
	NoGenerationId int32 = -1
	NoMemberId           = ""
)

// ConsumerProtocolType is the ProtocolType of every Java consumer.
const ConsumerProtocolType = "consumer"

// JoinGroupProtocol is one assignment protocol a member supports, with
// its subscription (ConsumerProtocolSubscription's Topics).
type JoinGroupProtocol struct {
	Name   string
	Topics []string
}

// JoinGroupRequest (key 11) asks to join, or rejoin, a group.
type JoinGroupRequest struct {
	GroupId            string
	SessionTimeoutMs   int32
	RebalanceTimeoutMs int32
	MemberId           string
	GroupInstanceId    string // "" is null: a dynamic member
	ProtocolType       string
	Protocols          []JoinGroupProtocol
}

// JoinGroupMember is one member as the leader learns it.
type JoinGroupMember struct {
	MemberId        string
	GroupInstanceId string
	Topics          []string // the member's subscription
}

// JoinGroupResponse ends a member's join: its generation, the leader, and
// (for the leader only) every member's subscription.
type JoinGroupResponse struct {
	ErrorCode    ErrorCode
	GenerationId int32
	ProtocolType string
	ProtocolName string
	Leader       string
	MemberId     string
	Members      []JoinGroupMember
}

// SyncGroupAssignment is one member's assignment in the leader's SyncGroup.
type SyncGroupAssignment struct {
	MemberId   string
	Assignment []TopicPartition
}

// SyncGroupRequest (key 14) fetches a member's assignment; the leader's
// carries every member's.
type SyncGroupRequest struct {
	GroupId         string
	GenerationId    int32
	MemberId        string
	GroupInstanceId string
	ProtocolType    string
	ProtocolName    string
	Assignments     []SyncGroupAssignment
}

// SyncGroupResponse carries the member's assignment.
type SyncGroupResponse struct {
	ErrorCode    ErrorCode
	ProtocolType string
	ProtocolName string
	Assignment   []TopicPartition
}

// HeartbeatRequest (key 12) keeps a member's session alive.
type HeartbeatRequest struct {
	GroupId         string
	GenerationId    int32
	MemberId        string
	GroupInstanceId string
}

// HeartbeatResponse carries one error; REBALANCE_IN_PROGRESS asks the
// member to rejoin.
type HeartbeatResponse struct {
	ErrorCode ErrorCode
}

func (*JoinGroupRequest) APIKey() APIKey  { return JoinGroup }
func (*JoinGroupResponse) APIKey() APIKey { return JoinGroup }
func (*SyncGroupRequest) APIKey() APIKey  { return SyncGroup }
func (*SyncGroupResponse) APIKey() APIKey { return SyncGroup }
func (*HeartbeatRequest) APIKey() APIKey  { return Heartbeat }
func (*HeartbeatResponse) APIKey() APIKey { return Heartbeat }

func (*JoinGroupRequest) IsResponse() bool  { return false }
func (*JoinGroupResponse) IsResponse() bool { return true }
func (*SyncGroupRequest) IsResponse() bool  { return false }
func (*SyncGroupResponse) IsResponse() bool { return true }
func (*HeartbeatRequest) IsResponse() bool  { return false }
func (*HeartbeatResponse) IsResponse() bool { return true }

// TopError of a JoinGroup response.
func (m *JoinGroupResponse) TopError() ErrorCode { return m.ErrorCode }

// TopError of a SyncGroup response.
func (m *SyncGroupResponse) TopError() ErrorCode { return m.ErrorCode }

// TopError of a Heartbeat response.
func (m *HeartbeatResponse) TopError() ErrorCode { return m.ErrorCode }

func (f *fields) instance(id string) {
	if id != "" {
		f.s("GroupInstanceId", id)
	}
}

func topicList(ts []string) string { return "[" + strings.Join(ts, ",") + "]" }

// Summary of JoinGroup.
func (m *JoinGroupRequest) Summary() string { return summary(m) }

func (m *JoinGroupRequest) summarize(f *fields) {
	f.s("GroupId", m.GroupId)
	f.i("SessionTimeoutMs", int64(m.SessionTimeoutMs))
	f.i("RebalanceTimeoutMs", int64(m.RebalanceTimeoutMs))
	f.s("MemberId", m.MemberId)
	f.instance(m.GroupInstanceId)
	parts := make([]string, len(m.Protocols))
	for i, p := range m.Protocols {
		parts[i] = p.Name + ":" + topicList(p.Topics)
	}
	f.add("Protocols", "["+strings.Join(parts, ",")+"]")
}

// Summary of JoinGroup.
func (m *JoinGroupResponse) Summary() string { return summary(m) }

func (m *JoinGroupResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	f.i("GenerationId", int64(m.GenerationId))
	// The protocol shows when it is not the Java consumer's default, so
	// the lines of a range-only group read as they always did.
	if m.ProtocolName != "" && m.ProtocolName != "range" {
		f.s("ProtocolName", m.ProtocolName)
	}
	f.s("Leader", m.Leader)
	f.s("MemberId", m.MemberId)
	if len(m.Members) > 0 {
		ids := make([]string, len(m.Members))
		for i, mm := range m.Members {
			ids[i] = mm.MemberId
		}
		f.add("Members", topicList(ids))
	}
}

// Summary of SyncGroup.
func (m *SyncGroupRequest) Summary() string { return summary(m) }

func (m *SyncGroupRequest) summarize(f *fields) {
	f.s("GroupId", m.GroupId)
	f.i("GenerationId", int64(m.GenerationId))
	f.s("MemberId", m.MemberId)
	f.instance(m.GroupInstanceId)
	if len(m.Assignments) > 0 {
		parts := make([]string, len(m.Assignments))
		for i, a := range m.Assignments {
			parts[i] = a.MemberId + ":" + tpList(a.Assignment)
		}
		f.add("Assignments", "["+strings.Join(parts, ",")+"]")
	}
}

// Summary of SyncGroup.
func (m *SyncGroupResponse) Summary() string { return summary(m) }

func (m *SyncGroupResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	f.add("Assignment", tpList(m.Assignment))
}

// Summary of Heartbeat.
func (m *HeartbeatRequest) Summary() string { return summary(m) }

func (m *HeartbeatRequest) summarize(f *fields) {
	f.s("GroupId", m.GroupId)
	f.i("GenerationId", int64(m.GenerationId))
	f.s("MemberId", m.MemberId)
	f.instance(m.GroupInstanceId)
}

// Summary of Heartbeat.
func (m *HeartbeatResponse) Summary() string { return summary(m) }

func (m *HeartbeatResponse) summarize(f *fields) { f.e("ErrorCode", m.ErrorCode) }

// groupSummary renders a commit's group metadata (TxnOffsetCommit v3+,
// OffsetCommit) only when it is not a simple group's (generation -1, no
// member), so the lines of scripts without membership read as before.
func groupSummary(f *fields, generation int32, member, instance string) {
	if generation != NoGenerationId || member != NoMemberId || instance != "" {
		f.i("GenerationId", int64(generation))
		f.s("MemberId", member)
		f.instance(instance)
	}
}

var (
	fGen      = FieldSpec{Name: "GenerationId", Kind: FieldInt}
	fMember   = FieldSpec{Name: "MemberId", Kind: FieldString}
	fInstance = FieldSpec{Name: "GroupInstanceId", Kind: FieldString}
)

func init() {
	fieldSpecs[msgType{JoinGroup, false}] = []FieldSpec{fGroup, {Name: "SessionTimeoutMs", Kind: FieldInt}, {Name: "RebalanceTimeoutMs", Kind: FieldInt}, fMember, fInstance}
	fieldSpecs[msgType{JoinGroup, true}] = []FieldSpec{fErr, fGen, {Name: "ProtocolName", Kind: FieldString}, {Name: "Leader", Kind: FieldString}, fMember}
	fieldSpecs[msgType{SyncGroup, false}] = []FieldSpec{fGroup, fGen, fMember, fInstance}
	fieldSpecs[msgType{SyncGroup, true}] = []FieldSpec{fErr, fParts}
	fieldSpecs[msgType{Heartbeat, false}] = []FieldSpec{fGroup, fGen, fMember, fInstance}
	fieldSpecs[msgType{Heartbeat, true}] = []FieldSpec{fErr}
	fieldSpecs[msgType{LeaveGroup, false}] = []FieldSpec{fGroup, fMember, fInstance}
	fieldSpecs[msgType{LeaveGroup, true}] = []FieldSpec{fErr, fMember}
}

// optional is a nullable string field outside the null-reading
// TransactionalId: the panel shows it as it is, and scripts match it
// only when set.
func (w *walker) optional(name, v string) {
	w.line(name, strconv.Quote(v))
	if v != "" {
		w.matched(name, FieldValue{Str: v})
	}
}

func (w *walker) strs(name string, vs []string) {
	w.list(name, len(vs), func(i int) { w.line(index(i), strconv.Quote(vs[i])) })
}

func (m *JoinGroupRequest) walk(w *walker) {
	w.str("GroupId", m.GroupId)
	w.int("SessionTimeoutMs", int64(m.SessionTimeoutMs))
	w.int("RebalanceTimeoutMs", int64(m.RebalanceTimeoutMs))
	w.str("MemberId", m.MemberId)
	w.optional("GroupInstanceId", m.GroupInstanceId)
	w.line("ProtocolType", strconv.Quote(m.ProtocolType))
	w.list("Protocols", len(m.Protocols), func(i int) {
		p := &m.Protocols[i]
		w.group(index(i), func() {
			w.line("Name", strconv.Quote(p.Name))
			w.strs("Topics", p.Topics)
		})
	})
}

func (m *JoinGroupResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.int("GenerationId", int64(m.GenerationId))
	w.line("ProtocolType", strconv.Quote(m.ProtocolType))
	w.str("ProtocolName", m.ProtocolName)
	w.str("Leader", m.Leader)
	w.str("MemberId", m.MemberId)
	w.list("Members", len(m.Members), func(i int) {
		mm := &m.Members[i]
		w.group(index(i), func() {
			w.line("MemberId", strconv.Quote(mm.MemberId))
			w.line("GroupInstanceId", strconv.Quote(mm.GroupInstanceId))
			w.strs("Topics", mm.Topics)
		})
	})
}

func (m *SyncGroupRequest) walk(w *walker) {
	w.str("GroupId", m.GroupId)
	w.int("GenerationId", int64(m.GenerationId))
	w.str("MemberId", m.MemberId)
	w.optional("GroupInstanceId", m.GroupInstanceId)
	w.line("ProtocolType", strconv.Quote(m.ProtocolType))
	w.line("ProtocolName", strconv.Quote(m.ProtocolName))
	w.list("Assignments", len(m.Assignments), func(i int) {
		a := &m.Assignments[i]
		w.group(index(i), func() {
			w.line("MemberId", strconv.Quote(a.MemberId))
			w.list("Assignment", len(a.Assignment), func(j int) { w.line(index(j), a.Assignment[j].String()) })
		})
	})
}

// walk gives each assigned partition as a part of its own.
func (m *SyncGroupResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.line("ProtocolType", strconv.Quote(m.ProtocolType))
	w.line("ProtocolName", strconv.Quote(m.ProtocolName))
	w.tps("Assignment", m.Assignment, true)
}

func (m *HeartbeatRequest) walk(w *walker) {
	w.str("GroupId", m.GroupId)
	w.int("GenerationId", int64(m.GenerationId))
	w.str("MemberId", m.MemberId)
	w.optional("GroupInstanceId", m.GroupInstanceId)
}

func (m *HeartbeatResponse) walk(w *walker) { w.code("ErrorCode", m.ErrorCode) }

// LeaveGroupMember is one member leaving (LeaveGroup v3+'s Members[]).
type LeaveGroupMember struct {
	MemberId        string
	GroupInstanceId string // "" is null
	Reason          string // v5+: why it leaves, for the broker's log
}

// LeaveGroupRequest (key 13) removes members from a group at once, so
// the next rebalance need not wait for their sessions to expire: what a
// consumer sends when it closes or unsubscribes. Version 5 is a 3.5 Java
// consumer's; versions 0-2 name one member at the top level, which a
// wire listener passes as a one-member Members list.
type LeaveGroupRequest struct {
	GroupId string
	Members []LeaveGroupMember
}

// LeaveGroupMemberResponse is one member's outcome (v3+).
type LeaveGroupMemberResponse struct {
	MemberId        string
	GroupInstanceId string
	ErrorCode       ErrorCode
}

// LeaveGroupResponse carries a top-level error (the coordinator's) and,
// when that is NONE, one error per member. Versions 0-2 have only the
// top-level error: a wire listener answers them with the member's.
type LeaveGroupResponse struct {
	ErrorCode ErrorCode
	Members   []LeaveGroupMemberResponse
}

func (*LeaveGroupRequest) APIKey() APIKey    { return LeaveGroup }
func (*LeaveGroupResponse) APIKey() APIKey   { return LeaveGroup }
func (*LeaveGroupRequest) IsResponse() bool  { return false }
func (*LeaveGroupResponse) IsResponse() bool { return true }

// TopError of a LeaveGroup response: the top-level error, else the
// first member's.
func (m *LeaveGroupResponse) TopError() ErrorCode {
	if m.ErrorCode != NONE {
		return m.ErrorCode
	}
	for _, r := range m.Members {
		if r.ErrorCode != NONE {
			return r.ErrorCode
		}
	}
	return NONE
}

// Summary of LeaveGroup.
func (m *LeaveGroupRequest) Summary() string { return summary(m) }

func (m *LeaveGroupRequest) summarize(f *fields) {
	f.s("GroupId", m.GroupId)
	parts := make([]string, len(m.Members))
	for i, mm := range m.Members {
		parts[i] = quoteIfNeeded(mm.MemberId)
		if mm.GroupInstanceId != "" {
			parts[i] += "(" + quoteIfNeeded(mm.GroupInstanceId) + ")"
		}
	}
	f.add("Members", "["+strings.Join(parts, ",")+"]")
}

// Summary of LeaveGroup.
func (m *LeaveGroupResponse) Summary() string { return summary(m) }

func (m *LeaveGroupResponse) summarize(f *fields) {
	f.e("ErrorCode", m.ErrorCode)
	if len(m.Members) > 0 {
		parts := make([]string, len(m.Members))
		for i, mm := range m.Members {
			parts[i] = quoteIfNeeded(mm.MemberId) + ":" + mm.ErrorCode.String()
		}
		f.add("Members", "["+strings.Join(parts, ",")+"]")
	}
}

// walk gives each member as a part of its own.
func (m *LeaveGroupRequest) walk(w *walker) {
	w.str("GroupId", m.GroupId)
	w.list("Members", len(m.Members), func(i int) {
		mm := &m.Members[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.str("MemberId", mm.MemberId)
				w.optional("GroupInstanceId", mm.GroupInstanceId)
				w.line("Reason", strconv.Quote(mm.Reason))
			})
		})
	})
}

// walk gives each member's outcome as a part of its own.
func (m *LeaveGroupResponse) walk(w *walker) {
	w.code("ErrorCode", m.ErrorCode)
	w.list("Members", len(m.Members), func(i int) {
		mm := &m.Members[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.str("MemberId", mm.MemberId)
				w.optional("GroupInstanceId", mm.GroupInstanceId)
				w.code("ErrorCode", mm.ErrorCode)
			})
		})
	})
}
