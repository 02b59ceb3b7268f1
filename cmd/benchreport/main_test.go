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
BenchmarkSeek-2            	       1	       403.8 ms/scrub-max	       208.2 ms/scrub-p50	       106.6 ms/scrub-pos-max	        54.90 ms/scrub-pos-p50	       211.6 ms/stepback-max	        42.30 ms/stepback-p50	       153.3 ms/stepback-pos-max
--- BENCH: BenchmarkSeek-2
    bench_test.go:242: /playground: app running after 1.817s
BenchmarkEngineInWorker/worker-2 	       1	        23.48 MB/engine-heap	         5.202 ms/main-task-max	        54.90 ms/move-max	        11.70 ms/move-p50
BenchmarkMemory-2          	       1	         1.662 MB/js-heap	        82.31 MB/wasm-memory
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
	write("loads.txt", "start 0.95 85\nsim-wasm 0.61 0\n")
	write("browser.txt", browserOut)
	write("explore.txt", "explore: 2000 runs in 7.1s (281.7 runs/s, 3120 events/run, 2 job(s)), seeds 1..2000, nothing broken\n")
	write("app.wasm", strings.Repeat("x", 1000))
	r := report(dir, filepath.Join(dir, "app.wasm"), host{CPU: "Test CPU", Cores: 2, Commit: "abc123"})
	for _, want := range []string{
		beginMarker, endMarker, "2026-11-30T08:00Z", "Test CPU, 2 cores", "Load average 1.25",
		"began at: start 0.95 (waited 85 s), sim-wasm 0.61.",
		"| 1.82 s | ≤ 1.0 s | **not met** (1.8× the budget) |",
		"| 42 ms | ≤ 50 ms | met |",
		"| 1.30× | ≤ 1.3× | met |",
		"| 282 runs/s | ≥ 1,000 runs/s | **not met**",
		"longest main-thread task | 5.2 ms | ≤ 16 ms | met |",
		"| 1.7 MB | ≤ 200 MB | met |",
		"1,000 bytes",
		"Simulation, native | not measured",
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
