package panels

import (
	"strings"
	"testing"

	"txnlab/core/sim"
	"txnlab/lessons/doc"
)

// The hanging transaction's run spends its first second on the protocol
// and then twenty quiet minutes before the operator aborts. A linear axis
// put every early change within the first pixels of the chart; the
// charts must keep them apart, keep time's order, mark the long quiet
// stretch as cut, and say so in the page's language.
func TestTheTimeAxisKeepsTheFirstSecondReadable(t *testing.T) {
	m := metricsOf(t, "find-and-abort-hanging")
	if m.End < 10*sim.Minute {
		t.Fatalf("the run ends at %v: not the long quiet run this test is about", m.End)
	}
	groups, zero, axis := drawMetrics(string(doc.English), m)
	if len(groups) == 0 {
		t.Fatal("no charts")
	}
	// Every change before the first second, and the first after it.
	var early []sim.Time
	for _, pt := range m.Points {
		if pt.At > 0 && pt.At < sim.Second {
			early = append(early, pt.At)
		}
	}
	if len(early) < 2 {
		t.Fatalf("only %d changes in the first second", len(early))
	}
	first, last := axis.X(early[0]), axis.X(early[len(early)-1])
	if last-first < (chartX1-chartX0)/5 {
		t.Errorf("the first second's changes span %d of %d pixels (a linear axis gave %d)", last-first, chartX1-chartX0,
			int(int64(early[len(early)-1]-early[0])*int64(chartX1-chartX0)/int64(m.End)))
	}
	prev := axis.X(0)
	for _, pt := range m.Points {
		if x := axis.X(pt.At); x < prev && pt.At >= 0 {
			// points are in time order: so must their places be
			t.Fatalf("%v drawn at %d, left of an earlier change at %d", pt.At, x, prev)
		} else {
			prev = x
		}
	}
	if axis.X(0) != chartX0 || axis.X(m.End) != chartX1 {
		t.Errorf("the axis runs %d..%d, not %d..%d", axis.X(0), axis.X(m.End), chartX0, chartX1)
	}
	if len(axis.cut) == 0 || !strings.Contains(groups[0].charts[0].svg, `class="metric-break"`) {
		t.Error("the twenty quiet minutes are not marked as cut")
	}
	if !strings.Contains(zero, "metric-axis-note") {
		t.Error("the page does not say the axis is uneven")
	}
	_, zh, _ := drawMetrics(string(doc.Chinese), m)
	if !strings.Contains(zh, "时间轴并不均匀") {
		t.Errorf("the Chinese page's note: %s", zh)
	}
}
