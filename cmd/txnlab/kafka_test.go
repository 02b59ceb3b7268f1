//go:build !wasm

package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"txnlab/core/scenario"
)

// TestKafkaSessionFile: `txnlab kafka` records its session to the file
// as it goes, console statements included, and the file replays to the
// live digest.
func TestKafkaSessionFile(t *testing.T) {
	save := filepath.Join(t.TempDir(), "s.scenario")
	l, out, err := startKafka("127.0.0.1:0", "cluster brokers=2\ntopic orders\n", "setup", save, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	console(strings.NewReader("crash broker-1\n# a comment\nrestart broker-1\n"), l)
	if err := l.Statement("no such statement"); err == nil {
		t.Error("a wrong statement was accepted")
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	out.Close()
	rec, err := os.ReadFile(save)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(rec), "\ncrash broker-1\n") || !strings.Contains(string(rec), "\nrestart broker-1\n") {
		t.Fatalf("the session file lacks the console's statements:\n%s", rec)
	}
	script, err := scenario.Parse("s", string(rec))
	if err != nil {
		t.Fatal(err)
	}
	replay := scenario.NewSession("s", script)
	replay.Run()
	if replay.Err != nil {
		t.Fatal(replay.Err)
	}
	if got, want := replay.Cluster.World.Trace.Digest(), l.Digest(); got != want {
		t.Fatalf("replay %s, live %s:\n%s", got, want, rec)
	}
}
