package panels

import (
	"math"
	"slices"
	"sort"

	"txnlab/core/metrics"
	"txnlab/core/sim"
)

// Chart geometry, in CSS pixels: the caption above, the plot spans
// x0..x1 and y0..y1, the time axis's labels below.
const (
	chartW, chartH = 248, 92
	chartX0        = 40
	chartX1        = chartW - 8
	chartY0        = 24
	chartY1        = chartH - 16
	// chartFocusable bounds the points a chart makes focusable: past it
	// the keyboard would cross hundreds of stops (hover still shows
	// every one).
	chartFocusable = 40
)

// timeAxis places a run's virtual time on the charts' width. A linear
// axis gave a 20-minute `advance` nearly all of it and squeezed the
// protocol's first second, where most values change, into a few pixels.
// Here each stretch between two changes (of any metric: every chart
// shares the axis, and so the step line) gets a slot, widened by the
// logarithm of its length: each change keeps a place of its own, a
// minute still looks longer than a millisecond, and the order of events
// stays what it was. A stretch drawn much narrower than a linear axis
// would draw it is marked as cut.
type timeAxis struct {
	at []sim.Time // the stretches' ends, ascending: 0 first, the run's end last
	x  []int      // where each falls
	// cut lists the stretches (by their start's index) drawn at under a
	// third of their linear width and lasting over a second.
	cut []int
}

// axisUnit is the stretch length whose width counts one unit: the
// simulation's resolution, so that two changes a millisecond apart are
// still told apart beside hours.
const axisUnit = sim.Millisecond

func newTimeAxis(points []metrics.Point, end sim.Time) timeAxis {
	at := []sim.Time{0, max(end, 0)}
	for _, pt := range points {
		if pt.At > 0 && pt.At < end {
			at = append(at, pt.At)
		}
	}
	slices.Sort(at)
	at = slices.Compact(at)
	a := timeAxis{at: at, x: make([]int, len(at))}
	if len(at) < 2 || end <= 0 {
		for i := range a.x {
			a.x[i] = chartX0
		}
		return a
	}
	w := make([]float64, len(at)-1)
	total := 0.0
	for i := range w {
		w[i] = 1 + math.Log1p(float64(at[i+1]-at[i])/float64(axisUnit))/4
		total += w[i]
	}
	span := float64(chartX1 - chartX0)
	sum := 0.0
	a.x[0] = chartX0
	for i, wi := range w {
		sum += wi
		a.x[i+1] = chartX0 + int(math.Round(sum/total*span))
		linear := float64(at[i+1]-at[i]) / float64(end)
		if at[i+1]-at[i] > sim.Second && wi/total < linear/3 {
			a.cut = append(a.cut, i)
		}
	}
	return a
}

// X is where time t falls: between the two ends of its stretch, in
// proportion.
func (a timeAxis) X(t sim.Time) int {
	n := len(a.at)
	if n == 0 {
		return chartX0
	}
	if t <= a.at[0] {
		return a.x[0]
	}
	if t >= a.at[n-1] {
		return a.x[n-1]
	}
	i := sort.Search(n, func(i int) bool { return a.at[i] > t }) - 1
	lo, hi := a.at[i], a.at[i+1]
	return a.x[i] + int(int64(a.x[i+1]-a.x[i])*int64(t-lo)/int64(hi-lo))
}
