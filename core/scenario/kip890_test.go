package scenario

import (
	"strings"
	"testing"

	"txnlab/core/safety"
)

// The leader's verification and transaction version 2, end to end
// through the broker: each script runs under the settings, and the trace
// must hold (or lack) the messages named, with the checker's verdict.
func TestKIP890Paths(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		settings string
		// has and lacks are substrings of canonical event lines
		has, lacks []string
		violates   string // "" for none
	}{
		{
			// root cause 2 of hanging transactions: a client writing
			// before AddPartitionsToTxn; the leader's verification
			// catches it (v4: INVALID_TXN_STATE to a Produce v9).
			name:     "verification stops a buggy client (3.6)",
			script:   "cluster brokers=1\nbreak add-partitions\ntopic orders\nproducer p transactional.id=t\np init\np begin\np send orders/0 a=1\nexpect p error INVALID_TXN_STATE\np abort\nrun\n",
			settings: "kafka=3.6",
			has:      []string{"AddPartitionsToTxn Version=4 TransactionalId=t ProducerId=0 ProducerEpoch=0 VerifyOnly=true Partitions=[orders/0]", "Results=[orders/0:INVALID_TXN_STATE]", "Produce.response Responses=[orders/0:INVALID_TXN_STATE"},
			lacks:    []string{"append broker-0 orders/0@0 [a=1]"},
		},
		{
			name:     "the same buggy client under 3.5",
			script:   "cluster brokers=1\nbreak add-partitions\ntopic orders\nproducer p transactional.id=t\np init\np begin\np send orders/0 a=1\np commit\nrun\n",
			settings: "kafka=3.5",
			has:      []string{"append broker-0 orders/0@0 [a=1]"},
			lacks:    []string{"AddPartitionsToTxn"},
			violates: safety.Atomicity.Name,
		},
		{
			// the second write of a verified transaction needs no new
			// verification: the transaction is open at that epoch
			name:     "one verification per partition and transaction (3.6)",
			script:   "cluster brokers=1\ntopic orders\nproducer p transactional.id=t\np init\np begin\np send orders/0 a=1\np send orders/0 b=2\np commit\nrun\nexpect invariants\n",
			settings: "kafka=3.6",
			has:      []string{"AddPartitionsToTxn Version=4", "AddPartitionsToTxn TransactionalId=t"},
		},
		{
			name:     "TV2: the leader adds, EndTxn v5 bumps, TxnOffsetCommit v5",
			script:   "cluster brokers=1\ntopic orders\nproducer p transactional.id=t\np init\np begin\np send orders/0 a=1\np send-offsets g orders/0=3\np commit\nrun\nexpect invariants\n",
			settings: "transaction.version=2",
			has: []string{"Produce Version=12 TransactionalId=t", "AddPartitionsToTxn Version=5 TransactionalId=t ProducerId=0 ProducerEpoch=0 VerifyOnly=false Partitions=[orders/0]",
				"TxnOffsetCommit Version=5", "EndTxn Version=5", "EndTxn.response ErrorCode=NONE ProducerId=0 ProducerEpoch=1", "COMMIT(pid=0 epoch=1"},
			lacks: []string{"AddOffsetsToTxn", "AddPartitionsToTxn TransactionalId"},
		},
		{
			// the coordinator aborts on timeout (fence: epoch+1); the
			// timed-out producer's own abort looks like a retry of that
			// end and gets NONE with the new epoch, so it goes on (TV2);
			// under TV1 it is fenced (KIP-890 part 2 and KAFKA-19367).
			name:     "TV2: a producer survives its transaction's timeout",
			script:   "cluster brokers=1\ntopic orders\nproducer p transactional.id=t transaction.timeout.ms=5s\np init\np begin\np send orders/0 a=1\nadvance 30s\np abort\nexpect p ok\np begin\np send orders/0 b=2\np commit\nexpect p ok\nrun\nexpect invariants\n",
			settings: "transaction.version=2",
			has:      []string{"EndTxn.response ErrorCode=NONE ProducerId=0 ProducerEpoch=1", "COMMIT(pid=0 epoch=2"},
		},
		{
			name:     "TV1: the same producer is fenced",
			script:   "cluster brokers=1\ntopic orders\nproducer p transactional.id=t transaction.timeout.ms=5s\np init\np begin\np send orders/0 a=1\nadvance 30s\np abort\nexpect p error PRODUCER_FENCED\n",
			settings: "kafka=3.5",
			has:      []string{"EndTxn.response ErrorCode=PRODUCER_FENCED"},
		},
		{
			name:     "TV2 with the epoch bump broken: the epoch stays",
			script:   "cluster brokers=1\ntopic orders\nproducer p transactional.id=t\np init\np begin\np send orders/0 a=1\np commit\nexpect p state READY epoch=0\nrun\n",
			settings: "transaction.version=2 break=epoch-bump",
			has:      []string{"EndTxn.response ErrorCode=NONE ProducerId=0 ProducerEpoch=0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := ParseSettings(tc.settings)
			if err != nil {
				t.Fatal(err)
			}
			r, err := RunRecorded("x", tc.script, st)
			if err != nil || r.Session.Err != nil {
				t.Fatalf("%v %v", err, r.Session.Err)
			}
			for _, res := range r.Session.Results {
				if !res.OK {
					t.Errorf("%s", res)
				}
			}
			var lines []string
			for _, e := range r.Session.Cluster.World.Trace.All() {
				if !e.Internal {
					lines = append(lines, e.Line(r.Session.Cluster.World.Names()))
				}
			}
			all := strings.Join(lines, "\n")
			for _, h := range tc.has {
				if !strings.Contains(all, h) {
					t.Errorf("the trace lacks %q", h)
				}
			}
			for _, l := range tc.lacks {
				if strings.Contains(all, l) {
					t.Errorf("the trace has %q", l)
				}
			}
			vs := r.Session.Cluster.Check(false)
			switch {
			case tc.violates == "" && len(vs) > 0:
				t.Errorf("violations %v", vs)
			case tc.violates != "" && (len(vs) == 0 || vs[0].Invariant != tc.violates):
				t.Errorf("violations %v, want %s", vs, tc.violates)
			}
		})
	}
}
