//go:build !wasm

package kafkalistener

// The consumer protocol's bytes. The simulation keeps a member's
// subscription and assignment decoded (topics, partitions); a client's
// own bytes also carry user data and owned partitions (kgo's
// cooperative-sticky), so the listener keeps each member's bytes and
// gives them back where a broker would.

import (
	"slices"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// maxGroupMembers bounds the members whose bytes are kept.
const maxGroupMembers = 1024

type memberBytes struct {
	protocols  map[string][]byte // JoinGroup metadata by protocol name
	assignment []byte            // the leader's SyncGroup assignment
}

type groupBytes map[string]map[string]*memberBytes

func (g groupBytes) member(group, member string) *memberBytes {
	ms := g[group]
	if ms == nil {
		if len(g) >= maxGroupMembers {
			return &memberBytes{}
		}
		ms = map[string]*memberBytes{}
		g[group] = ms
	}
	m := ms[member]
	if m == nil {
		if len(ms) >= maxGroupMembers {
			return &memberBytes{}
		}
		m = &memberBytes{protocols: map[string][]byte{}}
		ms[member] = m
	}
	return m
}

func (g groupBytes) assign(group, member string, b []byte) {
	g.member(group, member).assignment = append([]byte(nil), b...)
}

func (l *Listener) joinResponse(cl *call, m *protocol.JoinGroupResponse) *kmsg.JoinGroupResponse {
	req := cl.r.req.(*kmsg.JoinGroupRequest)
	resp := req.ResponseKind().(*kmsg.JoinGroupResponse)
	resp.ErrorCode, resp.Generation, resp.LeaderID, resp.MemberID = int16(m.ErrorCode), m.GenerationId, m.Leader, m.MemberId
	var offered []string
	for _, p := range req.Protocols {
		offered = append(offered, p.Name)
	}
	name := m.ProtocolName
	if m.ErrorCode == protocol.NONE && !slices.Contains(offered, name) && len(offered) > 0 {
		// The simulated coordinator names "range" whatever the members
		// offer (docs/kafka-fidelity.md); a client that did not offer it
		// cannot assign, so the member's first choice is named instead.
		l.note("the group coordinator chose protocol %q, which %s did not offer; answered %q", name, cl.r.clientID, offered[0])
		name = offered[0]
	}
	ptype := m.ProtocolType
	if ptype == "" {
		ptype = req.ProtocolType
	}
	resp.Protocol, resp.ProtocolType = strPtr(name), strPtr(ptype)
	if m.MemberId != "" {
		mb := l.groups.member(req.Group, m.MemberId)
		for _, p := range req.Protocols {
			mb.protocols[p.Name] = append([]byte(nil), p.Metadata...)
		}
	}
	for _, mm := range m.Members {
		meta := l.groups.member(req.Group, mm.MemberId).protocols[name]
		if meta == nil {
			meta = (&kmsg.ConsumerMemberMetadata{Topics: mm.Topics}).AppendTo(nil)
		}
		jm := kmsg.JoinGroupResponseMember{MemberID: mm.MemberId, ProtocolMetadata: meta}
		if mm.GroupInstanceId != "" {
			jm.InstanceID = strPtr(mm.GroupInstanceId)
		}
		resp.Members = append(resp.Members, jm)
	}
	return resp
}

func (l *Listener) syncResponse(cl *call, m *protocol.SyncGroupResponse) *kmsg.SyncGroupResponse {
	req := cl.r.req.(*kmsg.SyncGroupRequest)
	resp := req.ResponseKind().(*kmsg.SyncGroupResponse)
	resp.ErrorCode = int16(m.ErrorCode)
	resp.ProtocolType, resp.Protocol = strPtr(deref(req.ProtocolType)), strPtr(deref(req.Protocol))
	if m.ErrorCode != protocol.NONE {
		resp.MemberAssignment = []byte{}
		return resp
	}
	if b := l.groups.member(req.Group, req.MemberID).assignment; b != nil {
		resp.MemberAssignment = b
		return resp
	}
	var as kmsg.ConsumerMemberAssignment
	for _, tp := range m.Assignment {
		if n := len(as.Topics); n > 0 && as.Topics[n-1].Topic == tp.Topic {
			as.Topics[n-1].Partitions = append(as.Topics[n-1].Partitions, tp.Partition)
			continue
		}
		as.Topics = append(as.Topics, kmsg.ConsumerMemberAssignmentTopic{Topic: tp.Topic, Partitions: []int32{tp.Partition}})
	}
	resp.MemberAssignment = as.AppendTo(nil)
	return resp
}

// translateLeaveGroup: versions 0-2 name one member at the top level,
// which the simulation takes as a one-member list.
func translateLeaveGroup(req *kmsg.LeaveGroupRequest) *protocol.LeaveGroupRequest {
	m := &protocol.LeaveGroupRequest{GroupId: req.Group}
	if req.Version < 3 {
		m.Members = []protocol.LeaveGroupMember{{MemberId: req.MemberID}}
		return m
	}
	for _, mm := range req.Members {
		m.Members = append(m.Members, protocol.LeaveGroupMember{MemberId: mm.MemberID, GroupInstanceId: deref(mm.InstanceID), Reason: deref(mm.Reason)})
	}
	return m
}

// leaveGroupResponse: versions 0-2 carry only the top-level error, which
// is then the member's.
func leaveGroupResponse(cl *call, m *protocol.LeaveGroupResponse) *kmsg.LeaveGroupResponse {
	req := cl.r.req.(*kmsg.LeaveGroupRequest)
	resp := req.ResponseKind().(*kmsg.LeaveGroupResponse)
	resp.ErrorCode = int16(m.ErrorCode)
	if req.Version < 3 {
		resp.ErrorCode = int16(m.TopError())
		return resp
	}
	for _, mm := range m.Members {
		rm := kmsg.LeaveGroupResponseMember{MemberID: mm.MemberId, ErrorCode: int16(mm.ErrorCode)}
		if mm.GroupInstanceId != "" {
			rm.InstanceID = strPtr(mm.GroupInstanceId)
		}
		resp.Members = append(resp.Members, rm)
	}
	return resp
}
