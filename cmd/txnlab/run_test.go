package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"txnlab/core/scenario"
	"txnlab/diagram"
)

// TestRunMermaidIsThePagesExport: `txnlab run --format mermaid` prints the
// diagram the playground's Mermaid export downloads for the same script,
// so an instructor's slides and a learner's download agree.
func TestRunMermaidIsThePagesExport(t *testing.T) {
	const file = "../../scenarios/happy-path.scenario"
	var stdout, stderr bytes.Buffer
	if code := runCmd([]string{file, "--format", "mermaid"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	script, err := scenario.Parse(file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession(file, script)
	s.Run()
	want := diagram.Mermaid(s.Cluster.World.Names(), s.Cluster.World.Trace.Events(0), diagram.Filter{})
	if got := stdout.String(); got != want {
		t.Fatalf("the CLI's diagram differs from the page's export:\n%s\nwant:\n%s", got, want)
	}
	if !strings.HasPrefix(want, "sequenceDiagram\n") || !strings.Contains(want, "->>") {
		t.Fatalf("not a sequence diagram with messages:\n%s", want)
	}
}

// txnlab metrics writes the run's metrics as CSV rows that change over
// time, and --list names every metric with its MBean.
func TestMetricsCommand(t *testing.T) {
	var out, errOut strings.Builder
	if code := metricsCmd([]string{"../../scenarios/find-and-abort-hanging.scenario"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	csv := out.String()
	for _, want := range []string{"time_ms,metric,subject,value,mbean\n",
		",LastStableOffsetLag,orders/0,3,\"kafka.cluster:type=Partition,name=LastStableOffsetLag,topic=orders,partition=0\"\n",
		",PartitionsWithLateTransactionsCount,broker-0,1,"} {
		if !strings.Contains(csv, want) {
			t.Errorf("metrics CSV lacks %q", want)
		}
	}
	out.Reset()
	if code := metricsCmd([]string{"--list"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "record-retry-total,producer,batches,") {
		t.Errorf("--list: exit %d\n%s", code, out.String())
	}
	if code := metricsCmd([]string{"no-such-file.scenario"}, &out, &errOut); code != 2 {
		t.Errorf("a missing file: exit %d, want 2", code)
	}
}

// A mistake in run's arguments shows run's own usage line (Go's flag
// package said "Usage of run:" and nothing of FILE), and exits 2.
func TestRunUsageMistakesShowItsUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--seed", "abc", "x.scenario"}, {"--nope", "x.scenario"}} {
		var out, errOut bytes.Buffer
		if code := runCmd(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "usage: txnlab run FILE...") {
			t.Errorf("txnlab run %q: exit %d, stderr %q; want exit 2 and run's usage", args, code, errOut.String())
		}
	}
}

// A script with no cluster statement (empty, or comments alone) says
// that nothing ran, where it printed nothing at all.
func TestRunSaysWhenNothingRan(t *testing.T) {
	file := filepath.Join(t.TempDir(), "comments.scenario")
	if err := os.WriteFile(file, []byte("# only a comment\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := runCmd([]string{file}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "no cluster statement: nothing ran") {
		t.Errorf("txnlab run on comments alone: exit %d, %q %q", code, out.String(), errOut.String())
	}
}
