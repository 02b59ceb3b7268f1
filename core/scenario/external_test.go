package scenario

import (
	"strings"
	"testing"

	"txnlab/core/sim"
)

// externalStatements holds an external client's requests, one of each
// API it may send, as the Kafka listener records them: every field
// written, binary keys escaped, several partitions in one Produce.
const externalStatements = `cluster brokers=3
topic orders partitions=2
client kgo software="franz-go v1.22.3"
request FindCoordinator from=kgo to=broker-0 conn=1 Key=t1 KeyType=1 &
request InitProducerId from=kgo to=broker-0 conn=1 Version=4 TransactionalId=t1 TransactionTimeoutMs=60000 ProducerId=-1 ProducerEpoch=-1
request AddPartitionsToTxn from=kgo to=broker-0 conn=1 Version=3 TransactionalId=t1 ProducerId=0 ProducerEpoch=0 Partitions=orders/0,orders/1
request Produce from=kgo to=broker-0 conn=2 Version=9 TransactionalId=t1 Acks=-1 TimeoutMs=30000 ProducerId=0 ProducerEpoch=0 IsTransactional=true orders/0@0 a=1 "\x00\xff"="b c" orders/1@0 c=3
request AddOffsetsToTxn from=kgo to=broker-0 conn=1 TransactionalId=t1 ProducerId=0 ProducerEpoch=0 GroupId=g
request FindCoordinator from=kgo to=broker-0 conn=1 Key=g KeyType=0
request JoinGroup from=kgo to=broker-1 conn=3 GroupId=g SessionTimeoutMs=45000 RebalanceTimeoutMs=60000 MemberId="" ProtocolType=consumer Protocols=cooperative-sticky:orders,range:orders+orders
request SyncGroup from=kgo to=broker-1 conn=3 GroupId=g GenerationId=1 MemberId=kgo-1 ProtocolType=consumer ProtocolName=range Assignments=kgo-1:orders/0+orders/1,kgo-2: &
request Heartbeat from=kgo to=broker-1 conn=3 GroupId=g GenerationId=1 MemberId=kgo-1 &
request TxnOffsetCommit from=kgo to=broker-1 conn=4 Version=3 TransactionalId=t1 GroupId=g ProducerId=0 ProducerEpoch=0 GenerationId=-1 MemberId="" Offsets=orders/0:5,orders/1:0
request OffsetCommit from=kgo to=broker-1 conn=4 GroupId=h GenerationId=-1 MemberId="" Offsets=orders/0:1 &
request OffsetFetch from=kgo to=broker-1 conn=4 GroupId=g Partitions=none RequireStable=true &
request EndTxn from=kgo to=broker-0 conn=1 Version=3 TransactionalId=t1 ProducerId=0 ProducerEpoch=0 Committed=true
request Fetch from=kgo to=broker-0 conn=5 IsolationLevel=1 SessionEpoch=0 Partitions=orders/0:0
request Produce from=kgo to=broker-0 conn=2 Version=9 Acks=1 TimeoutMs=30000 ProducerId=-1 ProducerEpoch=-1 IsTransactional=false orders/0 ""=v ^nullkey ^ts=1764870000123 ^h=trace:"a b" ^h="x:y" k="" ^nullvalue k2=v2 ^ts=0 orders/1 k3=v3
request Metadata from=kgo to=broker-2 conn=6 Topics=null AllowAutoTopicCreation=false
request Metadata from=kgo to=broker-2 conn=6 Topics=orders,"none","a b",nope AllowAutoTopicCreation=true &
request Metadata from=kgo to=broker-2 conn=6 Topics=none AllowAutoTopicCreation=false &
request ListOffsets from=kgo to=broker-0 conn=5 Version=7 IsolationLevel=1 Partitions=orders/0:-1:0,orders/1:-2:-1
request LeaveGroup from=kgo to=broker-1 conn=3 GroupId=g Members=kgo-1,"kgo 2":i2,kgo-3:"":"the consumer is being closed"
request ListTransactions from=kgo to=broker-0 conn=6 StateFilters=Ongoing,"x,y" ProducerIdFilters=none
request ListTransactions from=kgo to=broker-1 conn=7 StateFilters=none ProducerIdFilters=0,7
request DescribeTransactions from=kgo to=broker-0 conn=1 TransactionalIds=t1,"none",":"
request DescribeProducers from=kgo to=broker-0 conn=5 Partitions=orders/0,orders/1
request WriteTxnMarkers from=kgo to=broker-0 conn=5 Version=1 Markers=0:0:ABORT:0:orders/0+orders/1,5:1:COMMIT:-1:
`

// TestExternalRequestsRoundTrip: each external request renders to the
// text it was parsed from, and the script runs to the same digest twice,
// which is what replaying a recorded session relies on.
func TestExternalRequestsRoundTrip(t *testing.T) {
	s, err := Parse("ext", externalStatements)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(externalStatements), "\n")
	for i, st := range s.Statements {
		if st.String() != lines[i] {
			t.Errorf("line %d renders\n%s\nwritten\n%s", i+1, st.String(), lines[i])
		}
	}
	checkRoundTrip(t, s)
	digest := func() string {
		s, _ := Parse("ext", externalStatements)
		ss := NewSession("ext", s)
		ss.Run()
		if ss.Err != nil {
			t.Fatal(ss.Err)
		}
		return ss.Cluster.World.Trace.Digest()
	}
	if a, b := digest(), digest(); a != b {
		t.Fatalf("two runs: %s and %s", a, b)
	}
}

// TestExternalRequestErrors: what a hand-written external request gets
// wrong is named with its column.
func TestExternalRequestErrors(t *testing.T) {
	head := "cluster\ntopic orders partitions=2\nclient ext\n"
	for _, tc := range []struct{ line, want string }{
		{"request EndTxn from=ext conn=1 Committed=true", "needs to=broker-N"},
		{"request EndTxn from=ext to=broker-0 Committed=true", "needs conn=N"},
		{"request EndTxn from=ext to=coordinator(t) conn=1", "goes to a broker"},
		{"request EndTxn.response from=ext to=broker-0 conn=1", "without .response"},
		{"refused Produce from=ext to=broker-0 error=NOPE", "unknown error"},
		{"refused Produce from=ext error=CORRUPT_MESSAGE", "needs to=broker-N"},
		{"refused Fetch.response from=ext to=broker-0 error=CORRUPT_MESSAGE", "without .response"},
		{"request Produce from=ext to=broker-0 conn=1 orders/0 ^nullkey", "describes a record"},
		{"request Produce from=ext to=broker-0 conn=1 orders/0 k=v ^nullkey", "key is not empty"},
		{"request Produce from=ext to=broker-0 conn=1 orders/0 k=v ^color=red", "unknown record attribute"},
		{"request Produce from=ext to=broker-0 conn=1 orders/0 k=v ^ts=soon", "timestamp"},
		{"request WriteTxnMarkers from=ext to=broker-0 conn=1 Markers=1:0:MAYBE:0:orders/0", "COMMIT|ABORT"},
		{"request WriteTxnMarkers from=ext to=broker-0 conn=1 Markers=1:0:ABORT:0:nope/0", "unknown topic"},
		{"request ListOffsets from=ext to=broker-0 conn=1 Partitions=orders/0:-1", "TIMESTAMP:CURRENT_LEADER_EPOCH"},
		{"request LeaveGroup from=ext to=broker-0 conn=1 GroupId=g Members=a:b:c:d", "MEMBER_ID[:GROUP_INSTANCE_ID[:REASON]]"},
		{`request DescribeTransactions from=ext to=broker-0 conn=1 TransactionalIds="a`, "unterminated quote"},
		{"request Produce from=ext to=broker-0 conn=1 orders/0", "has no records"},
		{"request Produce from=ext to=broker-0 conn=1 orders/0 k=v a/0", "unknown topic"},
		{`request Produce from=ext to=broker-0 conn=1 orders/0 "\x4"=b`, "unknown escape"},
		{"request JoinGroup from=ext to=broker-0 conn=1 Protocols=range", "NAME:TOPIC"},
		{"ext init", "external client"},
		{"client ext", "already declared"},
	} {
		_, err := Parse("t", head+tc.line+"\n")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.line, err, tc.want)
		}
	}
}

// TestExternalClientFaults: the fault statements apply to an external
// client as to a declared one: isolated, its request is lost; a drop
// rule from it drops its request.
func TestExternalClientFaults(t *testing.T) {
	src := "cluster\nclient ext\nisolate ext\nrequest FindCoordinator from=ext to=broker-0 conn=1 Key=t KeyType=1 &\nadvance 1s\nheal\n" +
		"drop FindCoordinator from=ext\nrequest FindCoordinator from=ext to=broker-0 conn=1 Key=t KeyType=1 &\nadvance 1s\n"
	s, err := Parse("faults", src)
	if err != nil {
		t.Fatal(err)
	}
	ss := NewSession("faults", s)
	ss.Run()
	if ss.Err != nil {
		t.Fatal(ss.Err)
	}
	var reasons []string
	for _, e := range ss.Cluster.World.Trace.All() {
		if e.Kind == sim.KindDrop {
			reasons = append(reasons, e.Text)
		}
	}
	if len(reasons) != 2 || reasons[0] != "network cut" || reasons[1] != "dropped by rule" {
		t.Fatalf("drops %q, want the cut's and the rule's", reasons)
	}
}

// TestRefusedIsOnTheClientsLifeline: a request the listener refused at
// the wire is a note on its client's node in the trace, and nothing
// else happens.
func TestRefusedIsOnTheClientsLifeline(t *testing.T) {
	src := "cluster\ntopic orders\nclient kgo\nrefused Produce from=kgo to=broker-0 error=CORRUPT_MESSAGE\n"
	s, err := Parse("refused", src)
	if err != nil {
		t.Fatal(err)
	}
	ss := NewSession("refused", s)
	ss.Run()
	if ss.Err != nil {
		t.Fatal(ss.Err)
	}
	kgo, _ := ss.Cluster.Node("kgo")
	var notes []string
	for _, e := range ss.Cluster.World.Trace.All() {
		if e.Kind == sim.KindNote && e.Node == kgo && e.Note != nil && e.Note.Code == sim.NoteStatement {
			notes = append(notes, e.Note.Args[0])
		}
	}
	if len(notes) != 1 || notes[0] != "refused Produce from=kgo to=broker-0 error=CORRUPT_MESSAGE" {
		t.Fatalf("kgo's notes: %q", notes)
	}
}

// TestExternalAPIsInKeyOrder: the list error messages name is in key
// order, the added APIs among the others.
func TestExternalAPIsInKeyOrder(t *testing.T) {
	for i := 1; i < len(ExternalAPIs); i++ {
		if ExternalAPIs[i-1] >= ExternalAPIs[i] {
			t.Fatalf("%v", ExternalAPIs)
		}
	}
	if len(ExternalAPIs) != 20 {
		t.Fatalf("%d external APIs, want 20: %v", len(ExternalAPIs), ExternalAPIs)
	}
}
