package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/session"
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

// metricsPanel is the panel's state, kept by the playground.
type metricsPanel struct {
	open    bool
	polling bool // a poll of the page's own engine is queued
	// drawn are the charts of history gen in lang.
	gen    int
	lang   string
	groups []metricGroup
	zero   []string
}

// metricGroup is one metric's charts, one per subject.
type metricGroup struct {
	m      *metrics.Metric
	charts []metricChart
}

const svgNS = "http://www.w3.org/2000/svg"

// metricChart is one metric of one subject over the run.
type metricChart struct {
	subject string
	points  []metrics.Point
	svg     string
	lo, hi  int64
}

// Chart geometry, in CSS pixels: the plot spans x0..x1 and y0..y1.
const (
	chartW, chartH = 248, 76
	chartX0        = 40
	chartX1        = chartW - 8
	chartY0        = 8
	chartY1        = chartH - 16
	// chartFocusable bounds the points a chart makes focusable: past it
	// the keyboard would cross hundreds of stops (hover still shows
	// every one).
	chartFocusable = 40
)

// renderMetrics is the panel, closed until the learner opens it.
func (p *playground) renderMetrics() app.UI {
	ready := false
	if p.mx.open {
		_, ready = p.engine.Metrics()
		if !ready && !stateLater(p.engine) && p.hasCtx && !p.mx.polling {
			// The page's own engine replays in slices: come back for
			// the next one after a frame.
			p.mx.polling = true
			p.ctx.After(time.Millisecond, func(app.Context) { p.mx.polling = false })
		}
	}
	return &metricsView{Gen: p.histGen, Lang: p.lang, Open: p.mx.open, Ready: ready, Pos: p.engine.Pos(), p: p}
}

// metricsView is the panel: a component, so go-app redraws it only when
// the history, the position, the language or the series' readiness
// change.
type metricsView struct {
	app.Compo
	Gen   int
	Lang  string
	Open  bool
	Ready bool
	Pos   int
	p     *playground
}

func (v *metricsView) Render() app.UI {
	l := v.Lang
	var body app.UI
	if v.Open {
		body = v.renderBody()
	}
	return app.Section().Class("metrics").Aria("labelledby", "metrics-heading").Body(
		app.Details().Class("metrics-details").Open(v.Open).On("toggle", v.onToggle).Body(
			app.Summary().Body(app.H2().ID("metrics-heading").Text(tr(l, "mx.title"))),
			app.P().Class("muted").Text(tr(l, "mx.lead")),
			body,
		),
	)
}

func (v *metricsView) onToggle(ctx app.Context, e app.Event) {
	open := ctx.JSSrc().Get("open").Bool()
	if open == v.p.mx.open {
		return
	}
	v.p.mx.open, v.Open = open, open
	if v.p.hasCtx {
		v.p.ctx.Dispatch(func(app.Context) {}) // the playground asks the engine
	}
}

func (v *metricsView) renderBody() app.UI {
	p, l := v.p, v.Lang
	m, ready := p.engine.Metrics()
	if !ready {
		return app.P().Class("metrics-wait").Aria("busy", "true").Text(tr(l, "mx.computing"))
	}
	if len(m.Points) == 0 {
		return app.P().Class("muted").Text(tr(l, "mx.none"))
	}
	mx := &p.mx
	if mx.gen != p.histGen || mx.lang != l || mx.groups == nil {
		mx.gen, mx.lang = p.histGen, l
		mx.groups, mx.zero = drawMetrics(l, m)
	}
	now := p.engine.Now()
	groups := make([]app.UI, 0, len(mx.groups)+2)
	groups = append(groups, app.Button().Type("button").Class("tool metrics-csv").Title(tr(l, "mx.csv.title")).
		Text(tr(l, "mx.csv")).OnClick(func(ctx app.Context, e app.Event) {
		if m, ok := p.engine.Metrics(); ok {
			download(ctx, p.exportName("-metrics.csv"), "text/csv", metrics.CSV(m.Points))
		}
	}))
	for _, g := range mx.groups {
		charts := make([]app.UI, len(g.charts))
		for i, c := range g.charts {
			charts[i] = renderChart(l, g.m, c, now, m.End)
		}
		groups = append(groups, app.Div().Class("metric-group").DataSet("metric", g.m.Name).Body(
			app.H3().Body(app.Code().Title(g.m.MBean).Text(g.m.Name), app.Span().Class("muted metric-unit").Text(" ("+g.m.Unit+")")),
			app.P().Class("metric-means").Text(metricMeans(l, g.m)),
			app.Div().Class("metric-charts").Body(charts...),
		))
	}
	if len(mx.zero) > 0 {
		groups = append(groups, app.P().Class("muted metric-zero").Text(tr(l, "mx.zero")+" "+strings.Join(mx.zero, "; ")))
	}
	return app.Div().Class("metric-groups").Body(groups...)
}

// renderChart is one chart with the step line at now and the value there.
func renderChart(l string, m *metrics.Metric, c metricChart, now, end sim.Time) app.UI {
	val := c.points[0].Value.Value
	for _, pt := range c.points {
		if pt.At > now {
			break
		}
		val = pt.Value.Value
	}
	x := chartX(now, end)
	mbean := metrics.MBeanOf(m, c.subject)
	caption := mbean
	if caption == "" {
		caption = tr(l, "mx.nombean")
	}
	return app.Figure().Class("metric-chart").DataSet("metric", m.Name).DataSet("subject", c.subject).Body(
		app.FigCaption().Title(caption).Body(
			app.Span().Class("metric-subject").Text(c.subject),
			app.Span().Class("metric-now").Title(tr(l, "mx.now")).Text(" = "+formatMetric(m, val)),
		),
		app.Div().Class("metric-plot").Body(
			app.Raw(c.svg),
			// The step line: attributes, not a style (the page's CSP
			// refuses inline styles).
			app.Elem("svg").XMLNS(svgNS).Class("metric-step").Attr("width", chartW).Attr("height", chartH).Aria("hidden", "true").Body(
				app.Elem("line").XMLNS(svgNS).Attr("x1", x).Attr("x2", x).Attr("y1", chartY0).Attr("y2", chartY1),
			),
		),
	)
}

// drawMetrics groups a series into charts, in core/metrics' order, and
// lists apart the metrics that stay 0 all run.
func drawMetrics(l string, m session.Metrics) (groups []metricGroup, zero []string) {
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
	for _, mm := range metrics.All {
		g := metricGroup{m: mm}
		var zeros []string
		for _, k := range subjects {
			if k.m != mm {
				continue
			}
			pts := bySeries[k]
			if allZero(pts) {
				zeros = append(zeros, k.subject)
				continue
			}
			g.charts = append(g.charts, drawChart(l, mm, k.subject, pts, m.End))
		}
		if len(g.charts) > 0 {
			groups = append(groups, g)
		}
		if len(zeros) > 0 {
			zero = append(zero, mm.Name+" ("+strings.Join(zeros, ", ")+")")
		}
	}
	return groups, zero
}

func allZero(pts []metrics.Point) bool {
	for _, pt := range pts {
		if pt.Value.Value != 0 {
			return false
		}
	}
	return true
}

// chartX is where time t falls on a chart of a run that ends at end.
func chartX(t, end sim.Time) int {
	if end <= 0 {
		return chartX0
	}
	t = max(0, min(t, end))
	return chartX0 + int(int64(t)*int64(chartX1-chartX0)/int64(end))
}

// drawChart draws one series as a step line (a value holds until it
// changes), its points hoverable and, when few, focusable.
func drawChart(l string, m *metrics.Metric, subject string, pts []metrics.Point, end sim.Time) metricChart {
	c := metricChart{subject: subject, points: pts, lo: 0, hi: 1}
	for _, pt := range pts {
		c.lo, c.hi = min(c.lo, pt.Value.Value), max(c.hi, pt.Value.Value)
	}
	y := func(v int64) int {
		return chartY1 - int(float64(v-c.lo)*float64(chartY1-chartY0)/float64(c.hi-c.lo))
	}
	itoa := strconv.Itoa
	var b strings.Builder
	b.WriteString(`<svg class="metric-svg" xmlns="` + svgNS + `" width="` + itoa(chartW) + `" height="` + itoa(chartH) + `" viewBox="0 0 ` + itoa(chartW) + " " + itoa(chartH) + `">`)
	// Axes and their ends' labels.
	b.WriteString(`<path class="metric-axis" d="M` + itoa(chartX0) + " " + itoa(chartY0) + "V" + itoa(chartY1) + "H" + itoa(chartX1) + `"/>`)
	label := func(x, y int, anchor, text string) {
		b.WriteString(`<text class="metric-label" x="` + itoa(x) + `" y="` + itoa(y) + `" text-anchor="` + anchor + `">` + escape.HTML(text) + `</text>`)
	}
	label(chartX0-4, chartY0+8, "end", formatMetric(m, c.hi))
	label(chartX0-4, chartY1, "end", formatMetric(m, c.lo))
	label(chartX0, chartH-3, "start", "0")
	label(chartX1, chartH-3, "end", formatDuration(int64(end)))
	// The series as steps.
	b.WriteString(`<path class="metric-line" d="`)
	prev := 0
	for i, pt := range pts {
		x, yv := chartX(pt.At, end), y(pt.Value.Value)
		if i == 0 {
			b.WriteString("M" + itoa(x) + " " + itoa(yv))
		} else {
			b.WriteString("V" + itoa(prev) + "H" + itoa(x) + "V" + itoa(yv))
		}
		prev = yv
	}
	b.WriteString("H" + itoa(chartX1) + `"/>`)
	for _, pt := range pts {
		x, yv := chartX(pt.At, end), y(pt.Value.Value)
		text := formatMetric(m, pt.Value.Value)
		at := formatDuration(int64(pt.At))
		desc := fmt.Sprintf(tr(l, "mx.point"), subject, text, at)
		b.WriteString(`<g class="metric-pt"`)
		if len(pts) <= chartFocusable {
			b.WriteString(` tabindex="0"`)
		}
		b.WriteString(` aria-label="` + escape.HTML(desc) + `"><title>` + escape.HTML(desc) + `</title>`)
		b.WriteString(`<circle cx="` + itoa(x) + `" cy="` + itoa(yv) + `" r="3"/>`)
		anchor, tx := "start", x+5
		if x > (chartX0+chartX1)/2 {
			anchor, tx = "end", x-5
		}
		ty := max(chartY0+10, yv-5)
		b.WriteString(`<text class="metric-tip" x="` + itoa(tx) + `" y="` + itoa(ty) + `" text-anchor="` + anchor + `">` + escape.HTML(text+" @ "+at) + `</text></g>`)
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
// English, the Chinese is the app's (metricMeansZh).
func metricMeans(l string, m *metrics.Metric) string {
	if doc.Lang(l) == doc.Chinese {
		if zh, ok := metricMeansZh[m.Name]; ok {
			return zh
		}
	}
	return m.Means
}
