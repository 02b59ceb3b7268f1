package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const browserOut = `goos: linux
goarch: amd64
pkg: txnlab/app/e2e
cpu: AMD EPYC
BenchmarkTimeToInteractive-2   	       1	         1.917 s/TTI-max	         1.822 s/TTI-median	 1.40 s/floor-TTI-median	 1.30 x/TTI-floor-ratio
BenchmarkSeek-2            	       1	       403.8 ms/scrub-max	       208.2 ms/scrub-p50	       106.6 ms/scrub-pos-max	        54.90 ms/scrub-pos-p50	       211.6 ms/stepback-max	        42.30 ms/stepback-p50	       153.3 ms/stepback-pos-max	        16.10 ms/worker-state-p50	        61.40 ms/worker-state-max
--- BENCH: BenchmarkSeek-2
    bench_test.go:242: /playground: app running after 1.817s
BenchmarkEngineInWorker/worker-2 	       1	        23.48 MB/engine-heap	         5.202 ms/main-task-max	        54.90 ms/move-max	        11.70 ms/move-p50
BenchmarkMemory-2          	       1	         1.662 MB/js-heap	        82.31 MB/wasm-memory
BenchmarkLessonTextPainted-2 	       1	       980.0 ms/lesson-paint-max	       444.0 ms/lesson-paint-median	      2925 ms/lesson-wasm-started-median	       296.0 ms/lesson-paint-floor-median
PASS
`

func TestParseBench(t *testing.T) {
	m := parseBench(strings.NewReader(browserOut))
	if v, ok := m.get("BenchmarkSeek", "ms/stepback-p50"); !ok || v != 42.3 {
		t.Errorf("stepback-p50 = %v, %v", v, ok)
	}
	if v, ok := m.get("BenchmarkTimeToInteractive", "s/TTI-median"); !ok || v != 1.822 {
		t.Errorf("TTI = %v, %v", v, ok)
	}
	node := parseBench(strings.NewReader("BenchmarkSimulation \t       3\t1315389696 ns/op\t     46551 events/op\t     35390 events/s\n"))
	if v, ok := node.get("BenchmarkSimulation", "events/s"); !ok || v != 35390 {
		t.Errorf("events/s under Node = %v, %v", v, ok)
	}
}

func TestReportJudgesEveryBudget(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("start.txt", "2026-11-30T08:00Z\n1.25 2.00 3.00 1/200 1234\n")
	write("loads.txt", "start 0.95 85 0.04\nsim-wasm 0.61 0\n")
	write("browser.txt", browserOut)
	write("explore.txt", "explore: 2000 runs in 7.1s (281.7 runs/s, 3120 events/run, 2 job(s)), seeds 1..2000, nothing broken\n")
	write("app.wasm", strings.Repeat("x", 1000))
	r := report(dir, filepath.Join(dir, "app.wasm"), host{CPU: "Test CPU", Cores: 2, Commit: "abc123"})
	for _, want := range []string{
		beginMarker, endMarker, "2026-11-30T08:00Z", "Test CPU, 2 cores", "Load average 1.25",
		"began at: start load 0.95, 0.04 of a core busy (waited 85 s), sim-wasm load 0.61.",
		"| 1.82 s | ≤ 1.0 s | **not met** (1.8× the budget) |",
		"| 42 ms | ≤ 50 ms | met |",
		"| 1.30× | ≤ 1.3× | met |",
		"| 282 runs/s | ≥ 1,000 runs/s | **not met**",
		"longest main-thread task | 5.2 ms | ≤ 16 ms | met |",
		"| 1.7 MB | ≤ 200 MB | met |",
		"a state asked to its reply (median) | 16.1 ms |",
		"a state asked to its reply (slowest) | 61.4 ms | ≤ 50 ms | **not met**",
		"1,000 bytes",
		"Simulation, native | not measured",
		"text painted, server-rendered, cold load (median of 5) | 444 ms | ≤ 300 ms | **not met**",
		"painted in a fresh browser the same way, same run (median of 5) | 296 ms |",
		"the lesson's first paint ÷ the floor's | 1.50× |",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("the report has no %q:\n%s", want, r)
		}
	}
}

func TestWithBlockKeepsTheRest(t *testing.T) {
	doc := "# Benchmarks\n\nIntro.\n\n## Size\n\nHand-written.\n"
	first, err := withBlock(doc, beginMarker+"\nA\n"+endMarker+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first, "# Benchmarks\n\nIntro.\n\n"+beginMarker) || !strings.HasSuffix(first, "\n## Size\n\nHand-written.\n") {
		t.Errorf("first insertion:\n%s", first)
	}
	second, err := withBlock(first, beginMarker+"\nB\n"+endMarker+"\n")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(second, "\nA\n") || !strings.Contains(second, "\nB\n") || !strings.HasSuffix(second, "## Size\n\nHand-written.\n") {
		t.Errorf("replacement:\n%s", second)
	}
	if _, err := withBlock("x "+endMarker, "y"); err == nil {
		t.Error("a lone marker was accepted")
	}
}

func TestBusyCoresFromProcStat(t *testing.T) {
	// Two samples of a 2-core machine's /proc/stat, 100 jiffies of each
	// core apart: 30 of user, 10 of system, 150 idle, 10 iowait.
	a, err := parseCPUTimes("cpu  1000 0 500 8000 100 0 0 0 0 0\ncpu0 500 0 250 4000 50 0 0 0 0 0\n")
	if err != nil {
		t.Fatal(err)
	}
	b, err := parseCPUTimes("cpu  1030 0 510 8150 110 0 0 0 0 0\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := busyCores(a, b, 2); got < 0.39 || got > 0.41 {
		t.Errorf("busy cores = %v, want 0.4 (40 of 200 jiffies on 2 cores)", got)
	}
	if got := busyCores(b, b, 2); got != 0 {
		t.Errorf("busy cores with no time between = %v, want 0", got)
	}
	for _, bad := range []string{"", "intr 1 2 3", "cpu 1 2 x 4 5"} {
		if _, err := parseCPUTimes(bad); err == nil {
			t.Errorf("parseCPUTimes(%q) took it", bad)
		}
	}
}

func TestQuietNeedsLowLoadAndIdleCores(t *testing.T) {
	for _, c := range []struct {
		load, busy float64
		want       bool
	}{
		{0.5, 0.05, true},
		{0.95, 0.24, true},
		// The load average has fallen under 1, but something runs now.
		{0.95, 0.8, false},
		// Idle now, but busy in the last minute.
		{1.5, 0.0, false},
	} {
		if got := quiet(c.load, c.busy); got != c.want {
			t.Errorf("quiet(%v, %v) = %v, want %v", c.load, c.busy, got, c.want)
		}
	}
}
