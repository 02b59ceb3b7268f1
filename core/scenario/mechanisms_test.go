package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryMechanismMatters: each mechanism of core/safety's table has a
// broken/ example in the library that expects the violation the
// mechanism prevents, and the same script with the mechanism left on
// shows no such violation. A mechanism added to the table with no hook
// in the simulation (breaking it changes nothing) fails here, whatever
// the other tables say (issue 26, 3).
func TestEveryMechanismMatters(t *testing.T) {
	for _, m := range Mechanisms {
		t.Run(m.Name, func(t *testing.T) {
			rel := "scenarios/broken/" + m.Name + ".scenario"
			src, err := os.ReadFile(filepath.Join(repoRoot, rel))
			if err != nil {
				t.Fatalf("no broken/ example for %s: %v", m.Name, err)
			}
			// A liveness mechanism's example ends healed and quiet, and
			// says so: only the liveness checks see what it lets through.
			want := "expect violation " + m.Catches.Name
			final := strings.Contains(string(src), "\nexpect liveness violation "+m.Catches.Name+"\n")
			if !final && !strings.Contains(string(src), "\n"+want+"\n") {
				t.Fatalf("%s says neither `%s` nor `expect liveness violation %s`", rel, want, m.Catches.Name)
			}
			broken := violated(t, rel, string(src), final)
			if !broken[m.Catches.Name] {
				t.Fatalf("%s broken: no %s violation", rel, m.Catches.Name)
			}
			var on []string
			for _, line := range strings.Split(string(src), "\n") {
				if strings.TrimSpace(line) == "break "+m.Name || strings.HasPrefix(line, "expect violation") ||
					strings.HasPrefix(line, "expect liveness violation") {
					continue
				}
				on = append(on, line)
			}
			if intact := violated(t, rel, strings.Join(on, "\n"), final); intact[m.Catches.Name] {
				t.Errorf("%s with %s on still violates %s: the example shows no work of the mechanism", rel, m.Name, m.Catches.Name)
			}
		})
	}
}

// violated runs a script to its end and names the invariants the checker
// finds violated, with its liveness checks on when final.
func violated(t *testing.T, file, src string, final bool) map[string]bool {
	t.Helper()
	script, err := Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(file, script)
	s.Run()
	if s.Err != nil {
		t.Fatalf("%s: %v", file, s.Err)
	}
	out := map[string]bool{}
	for _, v := range s.Cluster.Check(final) {
		out[v.Invariant] = true
	}
	return out
}
