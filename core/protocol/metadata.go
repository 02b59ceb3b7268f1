package protocol

// The read-only APIs a client asks any broker: Metadata (key 3), where
// partitions and their leaders are, and ListOffsets (key 2), an offset
// by time (the log's start, its end, the first record at or after a
// timestamp). Field names are those of MetadataRequest.json and
// ListOffsetsRequest.json; the versions are a 3.5 Java client's
// (Metadata v12, ListOffsets v7). The simulated Java-like clients read
// the controller's metadata directly (docs/kafka-fidelity.md, S1); these
// messages are what a real client on the wire listener, or a script,
// sends, so the broker's answer is drawn in the diagram.

import (
	"strconv"
	"strings"
)

// MetadataRequest (key 3) asks for topics' partitions and leaders.
// Topics nil is Kafka's null: every topic, the internal ones included.
type MetadataRequest struct {
	Topics []string
	// AllowAutoTopicCreation is carried for the wire listener, which
	// creates a missing topic as auto.create.topics.enable does; the
	// broker itself answers UNKNOWN_TOPIC_OR_PARTITION.
	AllowAutoTopicCreation bool
}

// MetadataBroker is one live broker. A wire listener fills in the host
// and port a client connects to; in the simulation Host is the broker's
// node name.
type MetadataBroker struct {
	NodeId int32
	Host   string
}

// MetadataPartition is one partition's leadership (LeaderId -1 and
// LEADER_NOT_AVAILABLE when its leader is offline).
type MetadataPartition struct {
	ErrorCode       ErrorCode
	PartitionIndex  int32
	LeaderId        int32
	LeaderEpoch     int32
	ReplicaNodes    []int32
	IsrNodes        []int32
	OfflineReplicas []int32
}

// MetadataTopic is one topic: UNKNOWN_TOPIC_OR_PARTITION and no
// partitions when it does not exist.
type MetadataTopic struct {
	ErrorCode  ErrorCode
	Name       string
	IsInternal bool
	Partitions []MetadataPartition
}

// MetadataResponse lists the live brokers and the topics asked for.
type MetadataResponse struct {
	Brokers      []MetadataBroker
	ControllerId int32
	Topics       []MetadataTopic
}

// The special timestamps of ListOffsets (ListOffsetsRequest.java).
const (
	LatestTimestamp   int64 = -1 // the high watermark, or the LSO for read_committed
	EarliestTimestamp int64 = -2 // the log start offset
	MaxTimestamp      int64 = -3 // the record with the largest timestamp (v7)
)

// ListOffsetsPartition is one partition of a ListOffsets request.
type ListOffsetsPartition struct {
	TopicPartition
	// CurrentLeaderEpoch is the leader epoch the client knows (-1: none),
	// so a stale leader or client is told FENCED/UNKNOWN_LEADER_EPOCH.
	CurrentLeaderEpoch int32
	Timestamp          int64
}

// ListOffsetsRequest (key 2) asks partition leaders for offsets by time.
type ListOffsetsRequest struct {
	ReplicaId      int32 // -1: a consumer
	IsolationLevel int8
	Partitions     []ListOffsetsPartition
}

// ListOffsetsPartitionResponse is one partition's answer: Offset -1 and
// Timestamp -1 when no record matches.
type ListOffsetsPartitionResponse struct {
	TopicPartition
	ErrorCode   ErrorCode
	Timestamp   int64
	Offset      int64
	LeaderEpoch int32
}

// ListOffsetsResponse carries one answer per partition asked.
type ListOffsetsResponse struct {
	Partitions []ListOffsetsPartitionResponse
}

func (*MetadataRequest) APIKey() APIKey     { return Metadata }
func (*MetadataResponse) APIKey() APIKey    { return Metadata }
func (*ListOffsetsRequest) APIKey() APIKey  { return ListOffsets }
func (*ListOffsetsResponse) APIKey() APIKey { return ListOffsets }

func (*MetadataRequest) IsResponse() bool     { return false }
func (*MetadataResponse) IsResponse() bool    { return true }
func (*ListOffsetsRequest) IsResponse() bool  { return false }
func (*ListOffsetsResponse) IsResponse() bool { return true }

// TopError of a Metadata response: the first topic's or partition's
// error (LEADER_NOT_AVAILABLE, UNKNOWN_TOPIC_OR_PARTITION, …).
func (m *MetadataResponse) TopError() ErrorCode {
	for _, t := range m.Topics {
		if t.ErrorCode != NONE {
			return t.ErrorCode
		}
		for _, p := range t.Partitions {
			if p.ErrorCode != NONE {
				return p.ErrorCode
			}
		}
	}
	return NONE
}

// TopError of a ListOffsets response: the first partition's error.
func (m *ListOffsetsResponse) TopError() ErrorCode {
	for _, p := range m.Partitions {
		if p.ErrorCode != NONE {
			return p.ErrorCode
		}
	}
	return NONE
}

func int32List(vs []int32) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.Itoa(int(v))
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// Summary of Metadata.
func (m *MetadataRequest) Summary() string { return summary(m) }

func (m *MetadataRequest) summarize(f *fields) {
	if m.Topics == nil {
		f.add("Topics", "null")
	} else {
		f.add("Topics", topicList(m.Topics))
	}
	if m.AllowAutoTopicCreation {
		f.b2("AllowAutoTopicCreation", true)
	}
}

// Summary of Metadata: the brokers, then each partition's leader and
// epoch, or a topic's or partition's error.
func (m *MetadataResponse) Summary() string { return summary(m) }

func (m *MetadataResponse) summarize(f *fields) {
	ids := make([]int32, len(m.Brokers))
	for i, b := range m.Brokers {
		ids[i] = b.NodeId
	}
	f.add("Brokers", int32List(ids))
	f.i("ControllerId", int64(m.ControllerId))
	var parts []string
	for _, t := range m.Topics {
		if t.ErrorCode != NONE {
			parts = append(parts, quoteIfNeeded(t.Name)+":"+t.ErrorCode.String())
			continue
		}
		for _, p := range t.Partitions {
			s := TopicPartition{t.Name, p.PartitionIndex}.String() + ":{LeaderId=" + strconv.Itoa(int(p.LeaderId)) +
				" LeaderEpoch=" + strconv.Itoa(int(p.LeaderEpoch)) + " IsrNodes=" + int32List(p.IsrNodes)
			if p.ErrorCode != NONE {
				s += " ErrorCode=" + p.ErrorCode.String()
			}
			parts = append(parts, s+"}")
		}
	}
	f.add("Topics", "["+strings.Join(parts, ", ")+"]")
}

// Summary of ListOffsets.
func (m *ListOffsetsRequest) Summary() string { return summary(m) }

func (m *ListOffsetsRequest) summarize(f *fields) {
	f.i("ReplicaId", int64(m.ReplicaId))
	f.add("IsolationLevel", isolationName(m.IsolationLevel))
	parts := make([]string, len(m.Partitions))
	for i, p := range m.Partitions {
		parts[i] = p.TopicPartition.String() + "@" + strconv.FormatInt(p.Timestamp, 10)
	}
	f.add("Partitions", "["+strings.Join(parts, ",")+"]")
}

// Summary of ListOffsets.
func (m *ListOffsetsResponse) Summary() string { return summary(m) }

func (m *ListOffsetsResponse) summarize(f *fields) {
	parts := make([]string, len(m.Partitions))
	for i, p := range m.Partitions {
		s := p.TopicPartition.String() + ":{"
		if p.ErrorCode != NONE {
			s += "ErrorCode=" + p.ErrorCode.String() + "}"
		} else {
			s += "Offset=" + strconv.FormatInt(p.Offset, 10) + " Timestamp=" + strconv.FormatInt(p.Timestamp, 10) +
				" LeaderEpoch=" + strconv.Itoa(int(p.LeaderEpoch)) + "}"
		}
		parts[i] = s
	}
	f.add("Partitions", "["+strings.Join(parts, ", ")+"]")
}

func (w *walker) int32s(name string, vs []int32) {
	w.list(name, len(vs), func(i int) { w.line(index(i), strconv.Itoa(int(vs[i]))) })
}

func (m *MetadataRequest) walk(w *walker) {
	if m.Topics == nil {
		w.line("Topics", "null")
	} else {
		w.strs("Topics", m.Topics)
	}
	w.flag("AllowAutoTopicCreation", m.AllowAutoTopicCreation)
}

// walk gives each partition as a part of its own; a topic's error
// counts in every part of it (an unknown topic is one part).
func (m *MetadataResponse) walk(w *walker) {
	w.list("Brokers", len(m.Brokers), func(i int) {
		b := &m.Brokers[i]
		w.group(index(i), func() {
			w.line("NodeId", strconv.Itoa(int(b.NodeId)))
			w.line("Host", strconv.Quote(b.Host))
		})
	})
	w.int("ControllerId", int64(m.ControllerId))
	part := 0
	w.list("Topics", len(m.Topics), func(i int) {
		t := &m.Topics[i]
		w.group(index(i), func() {
			if len(t.Partitions) == 0 {
				w.inPart(part, func() { w.code("ErrorCode", t.ErrorCode) })
				part++
			} else {
				w.line("ErrorCode", t.ErrorCode.String()+" ("+strconv.Itoa(int(t.ErrorCode))+")")
			}
			w.line("Name", strconv.Quote(t.Name))
			w.line("IsInternal", strconv.FormatBool(t.IsInternal))
			w.list("Partitions", len(t.Partitions), func(j int) {
				p := &t.Partitions[j]
				w.inPart(part, func() {
					w.group(index(j), func() {
						w.code("ErrorCode", p.ErrorCode)
						w.tp("PartitionIndex", TopicPartition{t.Name, p.PartitionIndex})
						w.int("LeaderId", int64(p.LeaderId))
						w.int("LeaderEpoch", int64(p.LeaderEpoch))
						w.int32s("ReplicaNodes", p.ReplicaNodes)
						w.int32s("IsrNodes", p.IsrNodes)
						w.int32s("OfflineReplicas", p.OfflineReplicas)
					})
				})
				part++
			})
		})
	})
}

func (m *ListOffsetsRequest) walk(w *walker) {
	w.int("ReplicaId", int64(m.ReplicaId))
	w.enum("IsolationLevel", isolationName(m.IsolationLevel), int64(m.IsolationLevel))
	w.list("Partitions", len(m.Partitions), func(i int) {
		p := &m.Partitions[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", p.TopicPartition)
				w.int("CurrentLeaderEpoch", int64(p.CurrentLeaderEpoch))
				w.int("Timestamp", p.Timestamp)
			})
		})
	})
}

func (m *ListOffsetsResponse) walk(w *walker) {
	w.list("Partitions", len(m.Partitions), func(i int) {
		p := &m.Partitions[i]
		w.inPart(i, func() {
			w.group(index(i), func() {
				w.tp("TopicPartition", p.TopicPartition)
				w.code("ErrorCode", p.ErrorCode)
				w.int("Timestamp", p.Timestamp)
				w.int("Offset", p.Offset)
				w.int("LeaderEpoch", int64(p.LeaderEpoch))
			})
		})
	})
}

func init() {
	fInt := func(n string) FieldSpec { return FieldSpec{Name: n, Kind: FieldInt} }
	fieldSpecs[msgType{Metadata, false}] = []FieldSpec{{Name: "Topics", Kind: FieldString}}
	fieldSpecs[msgType{Metadata, true}] = []FieldSpec{fInt("ControllerId"), fErr, fParts, fInt("LeaderId"), fInt("LeaderEpoch")}
	fieldSpecs[msgType{ListOffsets, false}] = []FieldSpec{fInt("ReplicaId"), {Name: "IsolationLevel", Kind: FieldEnum, Enum: isolationLevels}, fParts, fInt("CurrentLeaderEpoch"), fInt("Timestamp")}
	fieldSpecs[msgType{ListOffsets, true}] = []FieldSpec{fParts, fErr, fInt("Timestamp"), fInt("Offset"), fInt("LeaderEpoch")}
}

// isolationName is Kafka's name of an isolation level.
func isolationName(l int8) string { return isolationLevels[l&1] }
