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
