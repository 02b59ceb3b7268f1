package scenario

import (
	"strings"
	"testing"
)

// expect liveness violation judges with the liveness checks on, on the
// same healed, quiet cluster expect liveness asks for: it passes where
// the checker finds a violation (of the invariant named), and fails,
// saying what is missing, where it finds none or the cluster is not
// healed.
func TestExpectLivenessViolation(t *testing.T) {
	// lso-bound broken: c1 reads p1's open transaction (read-committed).
	const broken = `cluster brokers=1 txn-partitions=3 offsets-partitions=3
break lso-bound
topic orders partitions=1
producer p1 transactional.id=tx-a
consumer c1 isolation.level=read_committed
c1 assign orders/0
p1 init
p1 begin
p1 send orders/0 k1=v1
c1 poll
`
	intact := strings.Replace(broken, "break lso-bound\n", "", 1)
	for _, tc := range []struct {
		name, script, expect string
		ok                   bool
		wanted, actual       string
	}{
		{"the violation named", broken + "run\n", "expect liveness violation read-committed", true,
			"on a healed, quiet cluster, a violation of read-committed", "read-committed: c1 received"},
		{"any violation", broken + "run\n", "expect liveness violation", true,
			"on a healed, quiet cluster, a violation of any invariant", "read-committed: c1 received"},
		{"another invariant", broken + "run\n", "expect liveness violation fencing", false,
			"a violation of fencing", "read-committed: c1 received"},
		{"no violation", intact + "run\n", "expect liveness violation", false,
			"a violation of any invariant", "no violation"},
		{"not healed", broken + "drop Fetch\nrun\n", "expect liveness violation read-committed", false,
			"a violation of read-committed", "not healed: the network has a cut, drop or delay rule (heal)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := runScript(t, tc.script+tc.expect+"\n").Results
			r := rs[len(rs)-1]
			if r.Line != tc.expect || r.OK != tc.ok || !strings.Contains(r.Expected, tc.wanted) || !strings.Contains(r.Actual, tc.actual) {
				t.Errorf("got %s\nwant ok=%v, expected containing %q, actual containing %q", r, tc.ok, tc.wanted, tc.actual)
			}
		})
	}
}
