package engine

import (
	"encoding/json"
	"errors"
	"testing"

	"txnlab/core/metrics"
	"txnlab/core/scenario"
	"txnlab/scenarios"
)

// localMetrics asks e for its series until it is complete, as a page
// polls its own engine between frames.
func localMetrics(t *testing.T, e Engine) Metrics {
	t.Helper()
	for i := 0; i < 1_000_000; i++ {
		if m, ok := e.Metrics(); ok {
			return m
		}
	}
	t.Fatal("the series never completed")
	return Metrics{}
}

// cliMetrics samples a script's run as `txnlab metrics` does: after every
// Step.
func cliMetrics(t *testing.T, src string) []metrics.Point {
	t.Helper()
	script, err := scenario.Parse("cli", src)
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession("cli", script)
	var series metrics.Series
	for !s.Done() {
		s.Step()
		if s.Cluster != nil {
			series.Record(s.Cluster)
		}
	}
	return series.Points
}

// Every library script: the page's engine, the engine in the worker (its
// series crossed the wire) and the CLI's loop give the same CSV, row for
// row; the chart's right edge is where the history ends.
func TestMetricsMatchTheCLIOnEveryLibraryScript(t *testing.T) {
	for _, sc := range scenarios.All() {
		t.Run(sc.Slug, func(t *testing.T) {
			local := newSessionEngine()
			local.Load(sc.Script)
			lm := localMetrics(t, local)
			p := newLoopback()
			r := p.link.Engine()
			r.Load(sc.Script)
			if _, ok := r.Metrics(); ok {
				t.Fatal("the worker's series was there before it was asked for")
			}
			p.pump()
			rm, ok := r.Metrics()
			if !ok {
				t.Fatal("the worker did not send the series")
			}
			want := metrics.CSV(cliMetrics(t, sc.Script))
			if got := metrics.CSV(lm.Points); got != want {
				t.Fatalf("the page's engine:\n%s\nthe CLI:\n%s", got, want)
			}
			if got := metrics.CSV(rm.Points); got != want {
				t.Fatalf("through the worker:\n%s\nthe CLI:\n%s", got, want)
			}
			local.Seek(local.Len())
			if lm.End != local.Now() || rm.End != lm.End || len(lm.Points) == 0 {
				t.Errorf("end %v on the page, %v through the worker, history ends at %v; %d points", lm.End, rm.End, local.Now(), len(lm.Points))
			}
		})
	}
}

// The series belongs to the history shown: a new script's run brings a
// new one, asked for again; LastStableOffsetLag of the hanging
// transaction climbs; after the worker fails, the page's own engine
// computes it.
func TestMetricsFollowTheHistory(t *testing.T) {
	p := newLoopback()
	r := p.link.Engine()
	notified := 0
	r.Notify(func() { notified++ })
	if err := r.Load(mustScenario(t, "happy-path")); err != nil {
		t.Fatal(err)
	}
	r.Metrics()
	p.pump()
	happy, ok := r.Metrics()
	if !ok || notified == 0 {
		t.Fatalf("no series (ready %v, notified %d)", ok, notified)
	}
	if err := r.Load(mustScenario(t, "hanging-transaction")); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Metrics(); ok {
		t.Fatal("the old history's series answered for the new one")
	}
	p.pump()
	hanging, ok := r.Metrics()
	if !ok || metrics.CSV(hanging.Points) == metrics.CSV(happy.Points) {
		t.Fatal("the new history's series did not come")
	}
	var lag []int64
	for _, pt := range hanging.Points {
		if pt.Metric == metrics.LastStableOffsetLag && pt.Value.Value > 0 {
			lag = append(lag, pt.Value.Value)
		}
	}
	if len(lag) == 0 {
		t.Error("LastStableOffsetLag never leaves 0 in the hanging transaction")
	}
	if err := r.Load(mustScenario(t, "happy-path")); err != nil {
		t.Fatal(err)
	}
	r.Metrics() // asked of the worker, which fails before answering
	p.link.Fail(errors.New("the worker stopped"))
	if got := localMetrics(t, r); metrics.CSV(got.Points) != metrics.CSV(happy.Points) {
		t.Error("the page's engine gives another series after the fault")
	}
}

// FuzzDecodeMetrics: a series from the worker, however damaged, decodes
// to points that each name a metric, or to an error; never a panic.
func FuzzDecodeMetrics(f *testing.F) {
	for _, s := range []string{`{"s":["orders/0"],"p":[[0,2,0,3]],"e":5}`, `{"p":[[0,99,0,1]]}`, `{"s":[],"p":[[1,0,-1,0]]}`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var w wireMetrics
		if json.Unmarshal(b, &w) != nil {
			return
		}
		m, err := decodeMetrics(&w)
		if err != nil {
			return
		}
		for _, p := range m.Points {
			if p.Metric == nil {
				t.Fatalf("%q: a point without a metric", b)
			}
		}
		if got, err := decodeMetrics(encodeMetrics(m)); err != nil || metrics.CSV(got.Points) != metrics.CSV(m.Points) || got.End != m.End {
			t.Fatalf("%q: does not cross the wire again (%v)", b, err)
		}
	})
}
