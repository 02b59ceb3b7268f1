package main

import (
	"os"
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/core/metrics"
)

// The playground's Metrics panel downloads what txnlab metrics prints:
// the same columns and values, for a library scenario run both ways.
func TestMetricsCommandMatchesThePlayground(t *testing.T) {
	for _, slug := range []string{"hanging-transaction", "find-and-abort-hanging"} {
		file := "../../scenarios/" + slug + ".scenario"
		var out, errOut strings.Builder
		if code := metricsCmd([]string{file}, &out, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", slug, code, errOut.String())
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New()
		if err := e.Load(string(src)); err != nil {
			t.Fatal(err)
		}
		var m engine.Metrics
		for ok := false; !ok; {
			m, ok = e.Metrics()
		}
		if got := metrics.CSV(m.Points); got != out.String() {
			t.Errorf("%s: the playground's CSV:\n%s\ntxnlab metrics:\n%s", slug, got, out.String())
		}
	}
}

// An argument the command would not read is refused (exit 2), not
// dropped: a second file, or a file given with --list.
func TestMetricsRefusesWhatItWouldNotRead(t *testing.T) {
	file := "../../scenarios/abort.scenario"
	for _, args := range [][]string{{file, file}, {"--list", "x"}, {file, "--list"}, {"--seed", "3", file, "extra"}} {
		var out, errOut strings.Builder
		if code := metricsCmd(args, &out, &errOut); code != 2 || !strings.Contains(errOut.String(), "unexpected argument") || out.Len() != 0 {
			t.Errorf("txnlab metrics %q: exit %d, stderr %q, %d bytes out; want exit 2 naming the argument", args, code, errOut.String(), out.Len())
		}
	}
	for _, args := range [][]string{{"--list"}, {file, "--seed", "3"}, {"--seed", "3", file}} {
		var out, errOut strings.Builder
		if code := metricsCmd(args, &out, &errOut); code != 0 {
			t.Errorf("txnlab metrics %q: exit %d: %s", args, code, errOut.String())
		}
	}
}
