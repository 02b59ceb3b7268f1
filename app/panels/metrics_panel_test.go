package panels

import (
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/app/uitext"
	"txnlab/core/metrics"
	"txnlab/lessons/doc"
	"txnlab/scenarios"
)

// A Chinese reader meets every metric's meaning in Chinese, and its name
// as Kafka's.
func TestEveryMetricMeansSomethingInChinese(t *testing.T) {
	for _, m := range metrics.All {
		zh := metricMeans(string(doc.Chinese), m)
		if zh == m.Means || zh == "" {
			t.Errorf("%s has no Chinese meaning", m.Name)
		}
		if unit := "mx.unit." + m.Unit; tr(doc.English, unit) != m.Unit || tr(doc.Chinese, unit) == unit {
			t.Errorf("%s: unit %q has no translation", m.Name, m.Unit)
		}
		if got := metricMeans(string(doc.English), m); got != m.Means {
			t.Errorf("%s in English: %q", m.Name, got)
		}
	}
	if len(uitext.MetricMeansZh) != len(metrics.All) || metricMeans(string(doc.Chinese), metrics.RecordRetries) != uitext.MetricMeansZh[len(uitext.MetricMeansZh)-1] {
		t.Errorf("%d Chinese meanings for %d metrics", len(uitext.MetricMeansZh), len(metrics.All))
	}
}

// The hanging transaction's charts: a LastStableOffsetLag chart of
// orders/0 whose line climbs, with its MBean, the points labelled in the
// page's language, and the metrics that never leave 0 listed apart.
func TestMetricChartsOfTheHangingTransaction(t *testing.T) {
	m := metricsOf(t, "hanging-transaction")
	for _, lang := range []doc.Lang{doc.English, doc.Chinese} {
		groups, zero, _ := drawMetrics(string(lang), m)
		var lag *metricChart
		for _, g := range groups {
			if g.charts[0].m == metrics.LastStableOffsetLag {
				lag = &g.charts[0]
			}
		}
		if lag == nil {
			t.Fatalf("%s: no LastStableOffsetLag chart", lang)
		}
		if lag.hi <= 0 || !strings.Contains(lag.svg, `class="metric-line"`) || !strings.Contains(lag.svg, `tabindex="0"`) {
			t.Errorf("%s: the lag chart does not climb (hi %d):\n%s", lang, lag.hi, lag.svg)
		}
		point := " at "
		if lang == doc.Chinese {
			point = " 时为 "
		}
		if !strings.Contains(lag.svg, point) {
			t.Errorf("%s: points not labelled in the page's language:\n%s", lang, lag.svg)
		}
		if zero == "" {
			t.Errorf("%s: no metric listed as always 0", lang)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for ms, want := range map[int64]string{0: "0ms", 250: "250ms", 1000: "1s", 12500: "12.5s", 20 * 60_000: "20m", 90 * 60_000: "1.5h"} {
		if got := formatDuration(ms); got != want {
			t.Errorf("formatDuration(%d) = %q, want %q", ms, got, want)
		}
	}
}

// metricsOf runs a library scenario on the page's engine and returns its
// metrics, polled until the engine has them.
func metricsOf(t *testing.T, slug string) engine.Metrics {
	t.Helper()
	sc, _ := scenarios.Get(slug)
	e := engine.New()
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	var m engine.Metrics
	for ok := false; !ok; {
		m, ok = e.Metrics()
	}
	return m
}
