package panels

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/uitext"
	"txnlab/core/metrics"
	"txnlab/core/sim"
	"txnlab/internal/escape"
	"txnlab/lessons/doc"
)

// The Metrics panel (issue 28): the numbers an on-call engineer watches
// (core/metrics), charted over the run's virtual time, one small SVG
// chart per metric and subject, with a vertical line at the step shown.
// Charts are drawn by hand (a charting library would outweigh them in
// the wasm), once per history and language; a move only moves the step
// line and the values read at it. The series comes from the engine (in
// the worker, asked for when the panel opens), never from a run on the
// page's thread for the chart's sake.

// MetricsPanel is the panel's state, kept by the playground.
type MetricsPanel struct {
	Open    bool
	Polling bool // a poll of the page's own engine is queued
	// The charts of history gen in lang: their static parts are markup
	// written once (drawMetrics), a few go-app elements each would cost
	// the wasm more than the strings do.
	gen    int
	lang   string
	groups []metricGroup
	zero   string
	axis   timeAxis
}

// metricGroup is one metric's charts, one per subject, under a head.
type metricGroup struct {
	head   string
	charts []metricChart
}

// metricChart is one metric of one subject over the run: its chart, and
// its values to read at the step.
type metricChart struct {
	m      *metrics.Metric
	points []metrics.Point
	svg    string
	lo, hi int64
}

const svgNS = "http://www.w3.org/2000/svg"

// MetricsView is the panel: a component, so go-app redraws it only when
// the history, the position, the language or the series' readiness
// change. Engine gives the series; Charts keeps them drawn across
// renders (the pointer compares equal); it reports its opening through
// toggled, never through its parent.
type MetricsView struct {
	app.Compo
	Gen      int
	Lang     string
	Open     bool
	Ready    bool
	Pos      int
	Engine   Engine
	Charts   *MetricsPanel
	CSVName  string // the CSV download's file name
	toggled  func(open bool)
	download func(ctx app.Context, name, mime, content string)
}

// NewMetrics is the panel v, reporting the learner's opening or closing
// it through toggled and saving its CSV through download. The funcs are
// kept from the first render: go-app copies only exported fields.
func NewMetrics(v MetricsView, toggled func(open bool), download func(ctx app.Context, name, mime, content string)) *MetricsView {
	v.toggled, v.download = toggled, download
	return &v
}

func (v *MetricsView) Render() app.UI {
	l := v.Lang
	var body app.UI
	if v.Open {
		body = v.renderBody()
	}
	return app.Section().Class("metrics").Aria("labelledby", "metrics-heading").Body(
		app.Details().Open(v.Open).On("toggle", v.onToggle).Body(
			app.Summary().Body(app.H2().ID("metrics-heading").Text(tr(l, "mx.title"))),
			app.P().Class("muted").Text(tr(l, "mx.lead")),
			body,
		),
	)
}

func (v *MetricsView) onToggle(ctx app.Context, e app.Event) {
	open := ctx.JSSrc().Get("open").Bool()
	if open == v.Charts.Open {
		return
	}
	v.Open = open
	v.toggled(open) // the playground asks the engine
}

func (v *MetricsView) renderBody() app.UI {
	l := v.Lang
	m, ready := v.Engine.Metrics()
	if !ready {
		return app.P().Aria("busy", "true").Text(tr(l, "mx.computing"))
	}
	if len(m.Points) == 0 {
		return app.P().Text(tr(l, "mx.none"))
	}
	mx := v.Charts
	if mx.gen != v.Gen || mx.lang != l || mx.groups == nil {
		mx.gen, mx.lang = v.Gen, l
		mx.groups, mx.zero, mx.axis = drawMetrics(l, m)
	}
	now := v.Engine.Now()
	x := strconv.Itoa(mx.axis.X(now))
	// The step line and the value at the step, over each chart: markup
	// of their own, so that a move replaces them and leaves the chart
	// (and a point the learner focused) as it was drawn.
	step := `<svg class="metric-step" xmlns="` + svgNS + `" width="` + strconv.Itoa(chartW) + `" height="` + strconv.Itoa(chartH) +
		`"><line x1="` + x + `" x2="` + x + `" y1="` + strconv.Itoa(chartY0) + `" y2="` + strconv.Itoa(chartY1) +
		`"/><text class="metric-now" x="` + strconv.Itoa(chartX1) + `" y="12">= `
	out := make([]app.UI, 0, len(mx.groups)+2)
	out = append(out, app.Button().Type("button").Class("tool metrics-csv").Title(tr(l, "mx.csv.title")).
		Text(tr(l, "mx.csv")).OnClick(v.onCSV))
	for _, g := range mx.groups {
		charts := make([]app.UI, len(g.charts))
		for i, c := range g.charts {
			charts[i] = app.Div().Class("metric-chart").Body(app.Raw(c.svg), app.Raw(step+formatMetric(c.m, valueAt(c.points, now))+`</text></svg>`))
		}
		out = append(out, app.Div().Class("metric-group").Body(app.Raw(g.head), app.Div().Class("metric-charts").Body(charts...)))
	}
	if mx.zero != "" {
		out = append(out, app.Raw(mx.zero))
	}
	return app.Div().Body(out...)
}

// onCSV downloads the rows txnlab metrics prints for the script.
func (v *MetricsView) onCSV(ctx app.Context, e app.Event) {
	if m, ok := v.Engine.Metrics(); ok {
		v.download(ctx, v.CSVName, "text/csv", metrics.CSV(m.Points))
	}
}

// valueAt is a series' value at time t: its last change at or before t
// (its first value before that).
func valueAt(pts []metrics.Point, t sim.Time) int64 {
	v := pts[0].Value.Value
	for _, pt := range pts {
		if pt.At > t {
			break
		}
		v = pt.Value.Value
	}
	return v
}

// drawMetrics groups a series into charts, in core/metrics' order, and
// lists apart the metrics that stay 0 all run.
func drawMetrics(l string, m engine.Metrics) (groups []metricGroup, zero string, axis timeAxis) {
	axis = newTimeAxis(m.Points, m.End)
	type key struct {
		m       *metrics.Metric
		subject string
	}
	bySeries := map[key][]metrics.Point{}
	var subjects []key
	for _, pt := range m.Points {
		k := key{pt.Metric, pt.Subject}
		if _, ok := bySeries[k]; !ok {
			subjects = append(subjects, k)
		}
		bySeries[k] = append(bySeries[k], pt)
	}
	var zeros []string
	for _, mm := range metrics.All {
		var g metricGroup
		var flat []string
		for _, k := range subjects {
			if k.m != mm {
				continue
			}
			pts := bySeries[k]
			if allZero(pts) {
				flat = append(flat, k.subject)
				continue
			}
			g.charts = append(g.charts, drawChart(l, mm, k.subject, pts, m.End, axis))
		}
		if len(g.charts) > 0 {
			g.head = `<div class="metric-head" data-metric="` + mm.Name + `"><h3><code title="` + escape.HTML(mm.MBean) + `">` + mm.Name +
				`</code> <span class="muted">(` + tr(l, "mx.unit."+mm.Unit) + `)</span></h3><p class="metric-means">` + escape.HTML(metricMeans(l, mm)) + `</p></div>`
			groups = append(groups, g)
		}
		if len(flat) > 0 {
			zeros = append(zeros, mm.Name+" ("+strings.Join(flat, ", ")+")")
		}
	}
	if len(zeros) > 0 {
		zero = `<p class="muted metric-zero">` + escape.HTML(tr(l, "mx.zero")+" "+strings.Join(zeros, "; ")) + `</p>`
	}
	if len(axis.cut) > 0 {
		zero += `<p class="muted metric-axis-note">` + escape.HTML(tr(l, "mx.axis")) + `</p>`
	}
	return groups, zero, axis
}

func allZero(pts []metrics.Point) bool {
	for _, pt := range pts {
		if pt.Value.Value != 0 {
			return false
		}
	}
	return true
}

// drawChart draws one series as a step line (a value holds until it
// changes) under its subject, the MBean in the subject's tooltip, its
// points hoverable and, when few, focusable.
func drawChart(l string, m *metrics.Metric, subject string, pts []metrics.Point, end sim.Time, axis timeAxis) metricChart {
	c := metricChart{m: m, points: pts, lo: 0, hi: 1}
	for _, pt := range pts {
		c.lo, c.hi = min(c.lo, pt.Value.Value), max(c.hi, pt.Value.Value)
	}
	y := func(v int64) int {
		return chartY1 - int(float64(v-c.lo)*float64(chartY1-chartY0)/float64(c.hi-c.lo))
	}
	itoa := strconv.Itoa
	mbean := metrics.MBeanOf(m, subject)
	if mbean == "" {
		mbean = tr(l, "mx.nombean")
	}
	var b strings.Builder
	text := func(class string, x, y int, anchor, s string) {
		b.WriteString(`<text class="` + class + `" x="` + itoa(x) + `" y="` + itoa(y) + `" text-anchor="` + anchor + `">` + escape.HTML(s) + `</text>`)
	}
	b.WriteString(`<svg class="metric-svg" xmlns="` + svgNS + `" width="` + itoa(chartW) + `" height="` + itoa(chartH) +
		`" data-metric="` + m.Name + `" data-subject="` + escape.HTML(subject) + `"><g class="metric-caption"><title>` + escape.HTML(mbean) + `</title>`)
	text("metric-subject", 0, 12, "start", subject)
	b.WriteString(`</g><path class="metric-axis" d="M` + itoa(chartX0) + " " + itoa(chartY0) + "V" + itoa(chartY1) + "H" + itoa(chartX1) + `"/>`)
	text("metric-label", chartX0-4, chartY0+8, "end", formatMetric(m, c.hi))
	text("metric-label", chartX0-4, chartY1, "end", formatMetric(m, c.lo))
	text("metric-label", chartX0, chartH-3, "start", "0")
	text("metric-label", chartX1, chartH-3, "end", formatDuration(int64(end)))
	// A stretch the axis shortened: two slashes across the axis.
	for _, i := range axis.cut {
		mid := (axis.x[i] + axis.x[i+1]) / 2
		b.WriteString(`<path class="metric-break" d="M` + itoa(mid-4) + " " + itoa(chartY1+4) + "l4 -8M" + itoa(mid) + " " + itoa(chartY1+4) + `l4 -8"/>`)
	}
	// The series as steps.
	b.WriteString(`<path class="metric-line" d="`)
	prev := 0
	for i, pt := range pts {
		x, yv := axis.X(pt.At), y(pt.Value.Value)
		if i == 0 {
			b.WriteString("M" + itoa(x) + " " + itoa(yv))
		} else {
			b.WriteString("V" + itoa(prev) + "H" + itoa(x) + "V" + itoa(yv))
		}
		prev = yv
	}
	b.WriteString("H" + itoa(chartX1) + `"/>`)
	for _, pt := range pts {
		x, yv := axis.X(pt.At), y(pt.Value.Value)
		v, at := formatMetric(m, pt.Value.Value), formatDuration(int64(pt.At))
		desc := escape.HTML(fmt.Sprintf(tr(l, "mx.point"), subject, v, at))
		b.WriteString(`<g class="metric-pt"`)
		if len(pts) <= chartFocusable {
			b.WriteString(` tabindex="0"`)
		}
		b.WriteString(` aria-label="` + desc + `"><title>` + desc + `</title><circle cx="` + itoa(x) + `" cy="` + itoa(yv) + `" r="3"/>`)
		anchor, tx := "start", x+5
		if x > (chartX0+chartX1)/2 {
			anchor, tx = "end", x-5
		}
		text("metric-tip", tx, max(chartY0+10, yv-5), anchor, v+" @ "+at)
		b.WriteString(`</g>`)
	}
	b.WriteString(`</svg>`)
	c.svg = b.String()
	return c
}

// formatMetric writes a value in its unit: a time in ns or ms as a
// duration, anything else as the integer it is.
func formatMetric(m *metrics.Metric, v int64) string {
	switch m.Unit {
	case "ns":
		return formatDuration(v / 1_000_000)
	case "ms":
		return formatDuration(v)
	}
	return strconv.FormatInt(v, 10)
}

// formatDuration writes ms milliseconds in the largest unit that keeps
// it short: 250ms, 12.5s, 20m, 1.5h.
func formatDuration(ms int64) string {
	f := func(v float64, unit string) string {
		s := strconv.FormatFloat(v, 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + unit
	}
	switch {
	case ms < 1000 && ms > -1000:
		return strconv.FormatInt(ms, 10) + "ms"
	case ms < 60_000:
		return f(float64(ms)/1000, "s")
	case ms < 3_600_000:
		return f(float64(ms)/60_000, "m")
	}
	return f(float64(ms)/3_600_000, "h")
}

// metricMeans is what a metric counts, in lang: core/metrics says it in
// English, the Chinese is the app's (uitext.MetricMeansZh).
func metricMeans(l string, m *metrics.Metric) string {
	if doc.Lang(l) == doc.Chinese {
		for i, mm := range metrics.All {
			if mm == m && i < len(uitext.MetricMeansZh) {
				return uitext.MetricMeansZh[i]
			}
		}
	}
	return m.Means
}
