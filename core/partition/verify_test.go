package partition_test

import (
	"testing"

	"txnlab/core/partition"
	"txnlab/core/protocol"
)

// KIP-890 part 1 on the log (UnifiedLog.maybeStartTransactionVerification
// and the check in analyzeAndValidateProducerState): with verification
// on, a transactional batch that opens a transaction here must carry the
// guard of a verification started for its producer and not yet spent;
// the guard is spent by the first transactional batch or marker of that
// producer, which defeats a verification answer that outlived an abort
// (the ABA case).
func TestVerificationGuard(t *testing.T) {
	verified := partition.AllChecks
	verified.Verification = true
	const pid = 7
	tests := []struct {
		name string
		// run does the steps and returns the outcome of the last append
		run     func(l *partition.Log) partition.AppendResult
		wantErr protocol.ErrorCode
		wantDup bool
	}{
		{"no verification: INVALID_TXN_STATE", func(l *partition.Log) partition.AppendResult {
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, 0)
		}, protocol.INVALID_TXN_STATE, false},
		{"verified: appended", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g)
		}, protocol.NONE, false},
		{"a stale guard", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g+1)
		}, protocol.INVALID_TXN_STATE, false},
		{"the guard outlived an abort marker (ABA)", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			l.AppendMarker(pid, 0, protocol.ControlAbort, 0, 0, 0, verified)
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g)
		}, protocol.INVALID_TXN_STATE, false},
		{"the guard is spent by the first append", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g)
			l.AppendMarker(pid, 0, protocol.ControlCommit, 0, 0, 0, verified)
			return l.AppendAsLeaderVerified(batch(pid, 0, 1, 1, true), 0, 0, verified, g)
		}, protocol.INVALID_TXN_STATE, false},
		{"an open transaction needs none", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g)
			if l.StartVerification(pid, 0, 1) != 0 {
				t.Error("a verification was started inside an open transaction")
			}
			return l.AppendAsLeaderVerified(batch(pid, 0, 1, 1, true), 0, 0, verified, 0)
		}, protocol.NONE, false},
		{"an open transaction of an older epoch does not count", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g)
			if l.StartVerification(pid, 1, 0) == 0 {
				t.Error("the next epoch's batch was let into the open transaction")
			}
			return l.AppendAsLeaderVerified(batch(pid, 1, 0, 1, true), 0, 0, verified, 0)
		}, protocol.INVALID_TXN_STATE, false},
		{"a retried batch is a duplicate before it is unverified", func(l *partition.Log) partition.AppendResult {
			g := l.StartVerification(pid, 0, 0)
			l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, g)
			l.AppendMarker(pid, 0, protocol.ControlCommit, 0, 0, 0, verified)
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, verified, 0)
		}, protocol.NONE, true},
		{"a non-transactional batch is not verified", func(l *partition.Log) partition.AppendResult {
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, false), 0, 0, verified, 0)
		}, protocol.NONE, false},
		{"verification off (Kafka 3.5)", func(l *partition.Log) partition.AppendResult {
			return l.AppendAsLeaderVerified(batch(pid, 0, 0, 1, true), 0, 0, partition.AllChecks, 0)
		}, protocol.NONE, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := partition.NewLog(tp0)
			res := tc.run(l)
			if res.Err != tc.wantErr || res.Duplicate != tc.wantDup {
				t.Fatalf("append: %v duplicate %v, want %v duplicate %v", res.Err, res.Duplicate, tc.wantErr, tc.wantDup)
			}
			if res.Err != protocol.NONE && res.BaseOffset != -1 {
				t.Fatalf("a rejected batch got offset %d", res.BaseOffset)
			}
		})
	}
}
