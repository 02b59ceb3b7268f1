package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

func TestGenWritesARunnableScenario(t *testing.T) {
	var out, errs bytes.Buffer
	if code := genCmd([]string{"--events", "4000", "--seed", "3"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	path := filepath.Join(t.TempDir(), "gen.scenario")
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var o, e bytes.Buffer
	if code := runCmd([]string{path}, &o, &e); code != 0 {
		t.Fatalf("txnlab run of the generated scenario exited %d: %s", code, e.String())
	}
	for _, args := range [][]string{{}, {"--events", "10", "--heavy"}, {"--events", "-1"}, {"--heavy", "extra"}} {
		if code := genCmd(args, &out, &errs); code != 2 {
			t.Errorf("gen %v exited %d, want 2", args, code)
		}
	}
}
