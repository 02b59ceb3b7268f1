package groupcoord

import (
	"testing"

	"txnlab/core/protocol"
)

// validateOffsetCommit decides as Kafka 3.5's GroupCoordinator does
// (GroupCoordinatorTest testTxnCommitOffsetWith{InvalidMemberId,
// KnownMemberId,IllegalGeneration,LegalGeneration,FencedInstanceId} and
// the plain-commit cases), in its order: member, then generation.
func TestValidateOffsetCommit(t *testing.T) {
	stable := func() *group {
		g := newGroup("g")
		g.add(&member{id: "m1"})
		g.add(&member{id: "m2", instanceId: "i2"})
		g.state, g.generation = Stable, 3
		return g
	}
	empty := newGroup("g")
	for _, c := range []struct {
		name     string
		g        *group
		gen      int32
		member   string
		instance string
		txn      bool
		want     protocol.ErrorCode
	}{
		{"simple commit into an empty group", empty, -1, "", "", false, protocol.NONE},
		{"simple txn commit into an empty group", empty, -1, "", "", true, protocol.NONE},
		{"txn commit without metadata into a live group", stable(), -1, "", "", true, protocol.NONE},
		{"plain commit without a member into a live group", stable(), -1, "", "", false, protocol.UNKNOWN_MEMBER_ID},
		{"current member and generation", stable(), 3, "m1", "", true, protocol.NONE},
		{"unknown member", stable(), 3, "zombie", "", true, protocol.UNKNOWN_MEMBER_ID},
		{"removed member of an older generation: the member first", stable(), 2, "zombie", "", true, protocol.UNKNOWN_MEMBER_ID},
		{"current member, older generation", stable(), 2, "m1", "", true, protocol.ILLEGAL_GENERATION},
		{"current member, generation -1", stable(), -1, "m1", "", true, protocol.ILLEGAL_GENERATION},
		{"static member", stable(), 3, "m2", "i2", true, protocol.NONE},
		{"static member replaced", stable(), 3, "m2-old", "i2", true, protocol.FENCED_INSTANCE_ID},
		{"unknown instance", stable(), 3, "m9", "i9", true, protocol.UNKNOWN_MEMBER_ID},
		{"generation into an empty group", empty, 1, "", "", true, protocol.UNKNOWN_MEMBER_ID},
	} {
		if got := c.g.validateOffsetCommit(c.gen, c.member, c.instance, c.txn); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
