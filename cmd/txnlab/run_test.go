package main

import (
	"bytes"
	"os"
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
