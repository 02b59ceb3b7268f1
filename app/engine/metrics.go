package engine

import (
	"errors"
	"time"

	"txnlab/core/metrics"
	"txnlab/core/scenario"
	"txnlab/core/sim"
)

// The operator's metrics of a history (core/metrics, issue 28), as the
// playground's Metrics panel charts them. They are sampled after every
// event, as `txnlab metrics` samples them, so the panel downloads the
// CLI's rows; the history records pause points, not events, so the
// series comes from a replay of its own, made only when a page asks
// (most learners never open the panel) and cut into slices, in the
// worker when the engine runs there. A page asks like it asks for the
// violations: Metrics answers ready=false until the series is at hand.
//
//	page → worker  {op: "metrics", eng, gen}        the series of history gen
//	worker → page  {op: "metrics", eng, gen, met}   it

// Metrics is the series of a history's operator metrics.
type Metrics struct {
	// Points are the values where they change (metrics.Series).
	Points []metrics.Point
	// End is the virtual time the run ends at: a chart's right edge.
	End sim.Time
}

// metricsSlice is how long a page's own engine replays for the series
// per call of Metrics: a page polls it between frames.
const metricsSlice = 10 * time.Millisecond

// metricsJob is the replay that samples a history's metrics.
type metricsJob struct {
	loads  int // the history it is of (sessionEngine.loads)
	s      *scenario.Session
	series metrics.Series
	end    sim.Time
}

// Metrics replays the loaded history for up to metricsSlice and returns
// its series once the replay is over.
func (e *sessionEngine) Metrics() (Metrics, bool) { return e.MetricsWithin(metricsSlice) }

// MetricsWithin is Metrics replaying for about budget (the worker's
// slice is its own).
func (e *sessionEngine) MetricsWithin(budget time.Duration) (Metrics, bool) {
	if !e.workMetrics(budget) {
		return Metrics{}, false
	}
	if e.met == nil {
		return Metrics{}, true
	}
	return Metrics{Points: e.met.series.Points, End: e.met.end}, true
}

// workMetrics advances the replay for about budget and reports whether
// the series is complete. It samples after each Step, the CLI's loop; a
// history the engine cut at maxHistorySteps is sampled as far as it goes.
func (e *sessionEngine) workMetrics(budget time.Duration) bool {
	if e.script == nil {
		return true
	}
	j := e.met
	if j == nil || j.loads != e.loads {
		j = &metricsJob{loads: e.loads, s: scenario.NewSession(scriptFile, e.script)}
		e.met = j
	}
	start := time.Now()
	for n := 1; j.s != nil && !j.s.Done(); n++ {
		j.s.Step()
		e.follow(j.s)
		if c := j.s.Cluster; c != nil {
			if c.World.Trace.Len() > len(e.events) {
				break // past where the history was cut
			}
			j.series.Record(c)
		}
		if n%64 == 0 && time.Since(start) >= budget {
			return false
		}
	}
	if j.s != nil {
		j.end = e.steps[len(e.steps)-1].now
		j.s = nil // a whole cluster: the series is all that is kept
	}
	return true
}

// wireMetrics is a series on the wire: a point is four numbers, its time,
// its metric (the place in metrics.All: the page and the worker run the
// same wasm), its subject (the place in S) and its value.
type wireMetrics struct {
	S   []string   `json:"s,omitempty"`
	P   [][4]int64 `json:"p,omitempty"`
	End sim.Time   `json:"e,omitempty"`
}

func encodeMetrics(m Metrics) *wireMetrics {
	w := &wireMetrics{End: m.End, P: make([][4]int64, len(m.Points))}
	metricIdx, subjectIdx := map[*metrics.Metric]int{}, map[string]int{}
	for i, mm := range metrics.All {
		metricIdx[mm] = i
	}
	for i, p := range m.Points {
		si, ok := subjectIdx[p.Subject]
		if !ok {
			si = len(w.S)
			subjectIdx[p.Subject] = si
			w.S = append(w.S, p.Subject)
		}
		w.P[i] = [4]int64{int64(p.At), int64(metricIdx[p.Metric]), int64(si), p.Value.Value}
	}
	return w
}

func decodeMetrics(w *wireMetrics) (Metrics, error) {
	m := Metrics{End: w.End, Points: make([]metrics.Point, len(w.P))}
	for i, p := range w.P {
		if p[1] < 0 || p[1] >= int64(len(metrics.All)) || p[2] < 0 || p[2] >= int64(len(w.S)) {
			return Metrics{}, errors.New("the engine's worker sent a metric the page does not know")
		}
		m.Points[i] = metrics.Point{At: sim.Time(p[0]), Value: metrics.Value{Metric: metrics.All[p[1]], Subject: w.S[p[2]], Value: p[3]}}
	}
	return m, nil
}

// askMetrics notes that the page wants the series of history r.Gen.
func (s *Server) askMetrics(r request) {
	if sv := s.engine(r.Eng); r.Gen == sv.gen {
		sv.metGen = r.Gen
	}
}

// workMetrics advances the series a page asked for, for about budget,
// sends each one complete, and reports whether any work remains. A
// history replaced since it was asked for is not sampled: the page asks
// again for the new one.
func (s *Server) workMetrics(budget time.Duration) bool {
	start := time.Now()
	for id, sv := range s.engines {
		if sv.metGen == 0 || sv.run != 0 {
			continue
		}
		if sv.metGen != sv.gen {
			sv.metGen = 0
			continue
		}
		m, done := sv.e.MetricsWithin(max(time.Millisecond, budget-time.Since(start)))
		if !done {
			return true
		}
		sv.metGen = 0
		s.send(reply{Op: "metrics", Eng: id, Gen: sv.gen, Met: encodeMetrics(m)})
	}
	return false
}

// remoteMetrics is what the page holds of a history's series.
type remoteMetrics struct {
	m     Metrics
	gen   int // the history m is of, 0 when none
	asked int // the history last asked for
}

// Metrics is the series once the worker sent it; the first call for a
// history asks for it, and the page is notified when it comes.
func (r *remoteEngine) Metrics() (Metrics, bool) {
	if !r.loaded {
		return Metrics{}, true
	}
	if r.met.gen == r.gen {
		return r.met.m, true
	}
	if r.met.asked != r.gen {
		r.met.asked = r.gen
		r.link.request(request{Op: "metrics", Eng: r.id, Gen: r.gen})
	}
	return Metrics{}, false
}

// metricsWaiting reports whether r waits for a series from the worker.
func (r *remoteEngine) metricsWaiting() bool {
	return r.loaded && r.met.asked == r.gen && r.met.gen != r.gen
}

// receiveMetrics keeps a series the worker sent, and reports whether it
// is of the history shown.
func (r *remoteEngine) receiveMetrics(m reply) bool {
	if m.Gen != r.gen || m.Met == nil {
		return false
	}
	met, err := decodeMetrics(m.Met)
	if err != nil {
		r.link.Fail(err)
		return true
	}
	r.met.m, r.met.gen = met, m.Gen
	return true
}
