package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"txnlab/core/scenario"
)

// `txnlab diff` on a Jepsen scenario, 3.5 against 4.0: it exits 1, names
// the EndTxn versions in the summaries, shows the late EndTxn fenced only
// under 4.0, and prints both digests, the first being the script's own
// (what `txnlab run` prints), and which run violates what.
func TestDiffJepsenDelayedEndTxn(t *testing.T) {
	const file = "../../scenarios/jepsen-delayed-endtxn.scenario"
	var stdout, stderr bytes.Buffer
	code := diffCmd([]string{file, "--a", "kafka=3.5", "--b", "kafka=4.0"}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	src, _ := os.ReadFile(file)
	script, err := scenario.Parse(file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession(file, script)
	s.Run()
	for _, want := range []string{
		"a: transaction.partition.verification.enable=false transaction.version=0 leader.epoch.bump.on.isr.shrink=true coordinator.reload.on.partition.change=true\n",
		"b: transaction.partition.verification.enable=true transaction.version=2 leader.epoch.bump.on.isr.shrink=false coordinator.reload.on.partition.change=false\n",
		"\nline 29: app commit &\n  a: EndTxn v3 app→broker-0; b: EndTxn v5 app→broker-0\n",
		"EndTxn.response v5 broker-0→app PRODUCER_FENCED",
		"  + ", "  - ",
		"a: digest " + s.Cluster.World.Trace.Digest() + ", 0 expectation(s) failed, violates read-committed\n",
		"b: digest ", "no violation\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestDiffSameSettings(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := diffCmd([]string{"../../scenarios/happy-path.scenario", "--seed", "3"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "\nstatements that differ: 0 of ") || strings.Contains(stdout.String(), "\nline ") {
		t.Errorf("identical runs reported different:\n%s", stdout.String())
	}
}

func TestDiffBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"a.scenario", "b.scenario"},
		{"../../scenarios/happy-path.scenario", "--a", "transaction.version=9"},
		{"../../scenarios/happy-path.scenario", "--break", "nothing"},
		{"no-such-file.scenario"},
	} {
		var stdout, stderr bytes.Buffer
		if code := diffCmd(args, &stdout, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}
