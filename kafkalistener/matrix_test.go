//go:build !wasm

package kafkalistener

// The client matrix beyond Go: librdkafka through Debian's
// python3-confluent-kafka and KafkaJS from npm, each run as a program
// against the listener. Each skips when its client is absent, unless
// CI=true (.ci/run installs both).

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// need skips the test when cmd fails (the client is not installed),
// or fails it under CI.
func need(t *testing.T, what string, cmd *exec.Cmd) {
	t.Helper()
	if out, err := cmd.CombinedOutput(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed (.ci/run installs it): %v\n%s", what, err, out)
		}
		t.Skipf("%s is not installed: %v", what, err)
	}
}

// matrixResult is what a client program prints.
type matrixResult struct {
	Lib             string
	LibVersion      string   `json:"libversion"`
	ReadCommitted   []string `json:"read_committed"`
	ReadUncommitted []string `json:"read_uncommitted"`
	Zombie          string   `json:"zombie"`
}

func runClient(t *testing.T, s *session, cmd *exec.Cmd) matrixResult {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s: %v\n%s\n%s", cmd.Path, err, out, stderr)
	}
	var r matrixResult
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &r); err != nil {
		t.Fatalf("the client printed %q: %v", out, err)
	}
	t.Logf("%s %s: read_committed %q, read_uncommitted %q, zombie %s", r.Lib, r.LibVersion, r.ReadCommitted, r.ReadUncommitted, r.Zombie)
	return r
}

// TestConfluentPython: librdkafka commits to two partitions and aborts,
// its read_committed consumer sees the committed records only, its
// read_uncommitted one all, a second instance fences the first, and the
// session replays to its digest.
func TestConfluentPython(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	need(t, "python3-confluent-kafka", exec.Command("/usr/bin/python3", "-c", "import confluent_kafka"))
	s := startSession(t, twoPartitions)
	script, _ := filepath.Abs("testdata/confluent.py")
	r := runClient(t, s, exec.Command("/usr/bin/python3", script, strings.Join(s.l.Addrs(), ",")))
	if !slices.Equal(r.ReadCommitted, []string{"c0", "c1"}) || !slices.Equal(r.ReadUncommitted, []string{"a0", "c0", "c1"}) {
		t.Errorf("read_committed %q, read_uncommitted %q", r.ReadCommitted, r.ReadUncommitted)
	}
	if r.Zombie != "_FENCED" && r.Zombie != "PRODUCER_FENCED" && r.Zombie != "INVALID_PRODUCER_EPOCH" {
		t.Errorf("the zombie's transaction: %s, want it fenced", r.Zombie)
	}
	rec := s.stop()
	if testing.Verbose() {
		t.Logf("recording:\n%s", rec)
	}
	for _, want := range []string{"\nrequest Metadata from=py-zombie ", "\nrequest Metadata from=py-rc "} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording lacks %q", want)
		}
	}
}

// nodePath is where node finds kafkajs: NODE_PATH, then npm's global
// modules (where .ci/run installs it).
func nodePath() string {
	paths := []string{}
	if p := os.Getenv("NODE_PATH"); p != "" {
		paths = append(paths, p)
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		paths = append(paths, strings.TrimSpace(string(out)))
	}
	return strings.Join(paths, string(os.PathListSeparator))
}

// TestKafkaJS: KafkaJS commits and aborts, its group consumers read
// committed and uncommitted data (through JoinGroup and SyncGroup), a
// second instance fences the first, and the session replays to its
// digest.
func TestKafkaJS(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	env := append(os.Environ(), "NODE_PATH="+nodePath())
	check := exec.Command("node", "-e", "require('kafkajs')")
	check.Env = env
	need(t, "kafkajs (npm)", check)
	s := startSession(t, twoPartitions+"config group.initial.rebalance.delay.ms=0\n")
	script, _ := filepath.Abs("testdata/kafkajs.js")
	cmd := exec.Command("node", script, strings.Join(s.l.Addrs(), ","))
	cmd.Env = env
	r := runClient(t, s, cmd)
	if !slices.Equal(r.ReadCommitted, []string{"c0", "c1"}) || !slices.Equal(r.ReadUncommitted, []string{"a0", "c0", "c1", "s1"}[:len(r.ReadUncommitted)]) {
		t.Errorf("read_committed %q, read_uncommitted %q", r.ReadCommitted, r.ReadUncommitted)
	}
	// KafkaJS 2.2.4 does not know PRODUCER_FENCED (90): it reports
	// KAFKAJS_UNKNOWN_ERROR_CODE for what the simulation answers its old
	// request versions, where Kafka would answer INVALID_PRODUCER_EPOCH
	// (docs/kafka-fidelity.md §22). Either way the zombie must not commit.
	if r.Zombie == "committed" {
		t.Errorf("the zombie's transaction committed, want it fenced")
	}
	rec := s.stop()
	if testing.Verbose() {
		t.Logf("recording:\n%s", rec)
	}
	// KafkaJS's consumers leave their group when they disconnect.
	for _, want := range []string{"\nrequest Metadata from=", "\nrequest LeaveGroup from="} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording lacks %q", want)
		}
	}
}
