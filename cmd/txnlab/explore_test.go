package main

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"txnlab/core/explore"
	"txnlab/core/safety"
)

func TestExploreCmdExitCodes(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--runs", "0"}, 2, "--runs must be at least 1"},
		{[]string{"--break", "nonsense"}, 2, "unknown mechanism"},
		{[]string{"--runs", "3", "extra"}, 2, "unexpected argument"},
		{[]string{"--bogus"}, 2, "flag provided but not defined"},
		{[]string{"--runs", "6", "--jobs", "2", "--out", out}, 0, "violations: none"},
		{[]string{"--runs", "50", "--break", "aborted-filter", "--out", out}, 1, "expect violation"},
	} {
		var stdout, stderr bytes.Buffer
		code := exploreCmd(c.args, &stdout, &stderr)
		all := stdout.String() + stderr.String()
		if strings.Contains(all, "reproduce: txnlab run ") {
			path := strings.TrimSpace(all[strings.Index(all, "reproduce: txnlab run ")+len("reproduce: txnlab run "):])
			path = strings.Fields(path)[0]
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			all += string(src)
			var o, e bytes.Buffer
			if rc := runCmd([]string{path}, &o, &e); rc != 0 {
				t.Errorf("txnlab run %s exited %d: %s", path, rc, e.String())
			}
		}
		if code != c.code || !strings.Contains(all, c.want) {
			t.Errorf("explore %v: exit %d, want %d with %q in:\n%s", c.args, code, c.code, c.want, all)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "aborted-filter.scenario")); err != nil {
		t.Error(err)
	}
}

// The same runs give the same report with one job or several.
func TestExploreCmdJobsAgree(t *testing.T) {
	var a, b, e bytes.Buffer
	exploreCmd([]string{"--runs", "8", "--seed", "40", "--keep-going", "--jobs", "1", "--out", t.TempDir()}, &a, &e)
	exploreCmd([]string{"--runs", "8", "--seed", "40", "--keep-going", "--jobs", "3", "--out", t.TempDir()}, &b, &e)
	strip := func(s string) string { // drop the timing line
		_, rest, _ := strings.Cut(s, "\n")
		return rest
	}
	if strip(a.String()) != strip(b.String()) {
		t.Fatalf("jobs=1:\n%s\njobs=3:\n%s", a.String(), b.String())
	}
}

// explore --check judges a hand-written scenario the way the explorer
// judges its own runs, heal-and-settle phase included: a correct
// scenario that ends with timers still scheduled (an expired id's hourly
// scan) is not reported as never going quiet, and a broken one is still
// caught.
func TestExploreCheckHandWritten(t *testing.T) {
	for _, c := range []struct {
		file string
		code int
		want string
	}{
		{"../../scenarios/transactional-id-expiration.scenario", 0, "every invariant holds"},
		{"../../scenarios/happy-path.scenario", 0, "every invariant holds"},
		{"../../scenarios/broken/epoch-fencing.scenario", 1, "fencing:"},
	} {
		var stdout, stderr bytes.Buffer
		code := exploreCmd([]string{"--check", c.file}, &stdout, &stderr)
		all := stdout.String() + stderr.String()
		if code != c.code || !strings.Contains(all, c.want) {
			t.Errorf("explore --check %s: exit %d, want %d with %q:\n%s", c.file, code, c.code, c.want, all)
		}
	}
}

// TestExploreLists: the Makefile's explore-smoke loop reads
// --list-mechanisms, so it must print core/safety's table, one name a
// line and nothing else, and every name it prints must be one --break
// accepts.
func TestExploreLists(t *testing.T) {
	for _, c := range []struct {
		flag string
		want []string
	}{
		{"--list-mechanisms", safety.MechanismNames()},
		{"--list-invariants", safety.InvariantNames()},
	} {
		var stdout, stderr bytes.Buffer
		if code := exploreCmd([]string{c.flag}, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
			t.Fatalf("%s exited %d: %s", c.flag, code, stderr.String())
		}
		if got := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n"); !slices.Equal(got, c.want) {
			t.Errorf("%s printed %q, want %q", c.flag, got, c.want)
		}
	}
	if len(safety.MechanismNames()) != len(safety.Mechanisms) || !strings.Contains(strings.Join(safety.MechanismNames(), " "), "aborted-filter") {
		t.Errorf("mechanisms %v", safety.MechanismNames())
	}
	var stdout, stderr bytes.Buffer
	if code := exploreCmd([]string{"--list-mechanisms", "extra"}, &stdout, &stderr); code != 2 {
		t.Errorf("--list-mechanisms extra exited %d", code)
	}
}

// The explorer's collector works to a memory limit with no percentage
// trigger, and gives the percentage trigger back once the live heap
// nears the limit, where a limit-only collector would run cycle after
// cycle.
func TestTheExplorersCollectorBacksOffABigHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	// The settings the test binary runs with, whatever its environment.
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	g := newExploreGC()
	defer g.restore()
	g.check()
	if !g.on || debug.SetGCPercent(-1) != -1 || debug.SetMemoryLimit(-1) != exploreHeapLimit {
		t.Fatal("a small heap: want no percentage trigger and the 128 MiB limit")
	}
	big := make([]*[1 << 20]byte, exploreHeapLimit/2/(1<<20)+8)
	for i := range big {
		big[i] = new([1 << 20]byte)
	}
	runtime.GC()
	g.check()
	runtime.KeepAlive(big)
	if g.on || debug.SetGCPercent(-1) != 400 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Fatal("a live heap over half the limit: want GOGC=400 and no limit back")
	}
	g.restore()
	if got := debug.SetGCPercent(percent); got != percent || debug.SetMemoryLimit(-1) != limit {
		t.Fatalf("after the explorer: GOGC %d, want the collector as it was (%d)", got, percent)
	}
}

// Flags after the files are flags (`--check FILE --seed N` read --seed
// and N as files), and a flag --check would ignore is refused; a seed
// range that would wrap past 2^64-1 is refused rather than repeating
// seeds from 0.
func TestExploreFlagsParsed(t *testing.T) {
	const file = "../../scenarios/abort.scenario"
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--check", file}, 0, "every invariant holds"},
		{[]string{"--check", file, "--seed", "5"}, 2, "--seed is for generated runs"},
		{[]string{"--seed", "18446744073709551615", "--runs", "2"}, 2, "at most 1 run(s) from that seed"},
		{[]string{"--seed", "18446744073709551614", "--runs", "2", "--out", t.TempDir()}, 0, "seeds 18446744073709551614..18446744073709551615"},
		{[]string{"--list-invariants", "--runs", "2"}, 2, "take nothing else"},
	} {
		var stdout, stderr bytes.Buffer
		code := exploreCmd(c.args, &stdout, &stderr)
		if code != c.code || !strings.Contains(stdout.String()+stderr.String(), c.want) {
			t.Errorf("explore %v: exit %d, %s%s; want %d and %q", c.args, code, stdout.String(), stderr.String(), c.code, c.want)
		}
	}
}

// TestExploreNamesEveryViolatingSeed: a --keep-going exploration that
// fails in several runs names each one's seed, so every violation can be
// replayed, not only the first (700,000 runs found five on 2026-12-04
// and printed one).
func TestExploreNamesEveryViolatingSeed(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := exploreCmd([]string{"--runs", "40", "--keep-going", "--break", "lso-bound", "--out", t.TempDir()}, &stdout, &stderr)
	out := stdout.String()
	if code != 1 {
		t.Fatalf("exit %d: %s%s", code, out, stderr.String())
	}
	line := ""
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "violating seeds") {
			line = l
		}
	}
	seeds := strings.Fields(line[strings.LastIndex(line, ":")+1:])
	if len(seeds) < 2 {
		t.Fatalf("no list of violating seeds:\n%s", out)
	}
	failed := 0
	fmt.Sscanf(out[strings.Index(out, "violations in "):], "violations in %d", &failed)
	if want := min(failed, explore.MaxFailedSeeds); len(seeds) != want {
		t.Errorf("%d seeds listed for %d violating runs", len(seeds), failed)
	}
}
