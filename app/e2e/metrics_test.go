package e2e

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/app/engine"
	"txnlab/core/metrics"
	"txnlab/scenarios"
)

// openMetrics opens the playground's Metrics panel and waits for its
// charts, which the engine's worker sends once asked.
func openMetrics(b *browser) {
	b.t.Helper()
	b.click(".metrics summary")
	b.waitFor("the charts", `!!document.querySelector('.metric-svg[data-metric="LastStableOffsetLag"]')`)
}

// lagChart selects the LastStableOffsetLag chart of orders/0.
const lagChart = `.metric-svg[data-metric="LastStableOffsetLag"][data-subject="orders/0"]`

// stepLineX is where the step line of the lag chart stands, in pixels.
func stepLineX(b *browser) int {
	b.t.Helper()
	return eval[int](b, `parseInt(document.querySelector(`+jsString(lagChart+" + .metric-step line")+`).getAttribute("x1"))`)
}

// The hanging transaction in the Metrics panel: LastStableOffsetLag of
// orders/0 starts at 0 and climbs, the step line moves with the step and
// the value read at it follows, and Download CSV saves the rows txnlab
// metrics prints for the script.
func TestMetricsPanelChartsTheHangingTransaction(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "hanging-transaction")
	b.waitFor("the engine in the worker", `document.documentElement.dataset.engine === "worker"`)
	openMetrics(b)
	values := eval[[]string](b, `[...document.querySelectorAll(`+jsString(lagChart+" .metric-pt")+`)].map(g => g.getAttribute("aria-label"))`)
	var lag []int
	for _, v := range values {
		// "orders/0: 3 at 1.5s"
		_, rest, _ := strings.Cut(v, ": ")
		n, err := strconv.Atoi(strings.Fields(rest)[0])
		if err != nil {
			t.Fatalf("a point reads %q", v)
		}
		lag = append(lag, n)
	}
	if len(lag) < 2 || lag[0] != 0 || slicesMax(lag) <= 0 {
		t.Fatalf("LastStableOffsetLag of orders/0 does not climb: %v", lag)
	}
	if got := eval[string](b, `document.querySelector(`+jsString(lagChart+" .metric-caption title")+`).textContent`); !strings.Contains(got, "kafka.cluster:type=Partition,name=LastStableOffsetLag,topic=orders,partition=0") {
		t.Errorf("the chart's MBean reads %q", got)
	}

	_, n := position(b)
	x0 := stepLineX(b)
	if now := b.text(lagChart + " + .metric-step .metric-now"); now != "= 0" {
		t.Errorf("at step 0 the lag reads %q", now)
	}
	for i := 1; i <= n && stepLineX(b) == x0; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
	}
	if stepLineX(b) <= x0 {
		t.Fatalf("the step line stayed at %d px while stepping", x0)
	}
	// A point focused by the keyboard shows its value and time, and keeps
	// the focus while the keyboard steps on: a move redraws the step
	// line, not the chart.
	at, _ := position(b)
	x1 := stepLineX(b)
	eval[bool](b, `(document.querySelector(`+jsString(lagChart+" .metric-pt:last-of-type")+`).focus(), true)`)
	if vis := eval[string](b, `getComputedStyle(document.activeElement.querySelector(".metric-tip")).visibility`); vis != "visible" {
		t.Errorf("a focused point's value is %s", vis)
	}
	for at < n && stepLineX(b) == x1 {
		b.do(chromedp.KeyEvent(kb.ArrowRight))
		at++
		waitPosition(b, at)
	}
	if !eval[bool](b, `document.activeElement?.classList.contains("metric-pt") === true`) {
		t.Error("stepping took the focus off the chart's point")
	}
	b.click(button("Run to end"))
	waitPosition(b, n)
	if end := stepLineX(b); end < 200 {
		t.Errorf("at the end the step line stands at %d px", end)
	}
	if now := b.text(lagChart + " + .metric-step .metric-now"); now == "= 0" {
		t.Error("at the end of the hanging transaction the lag reads 0")
	}

	// Download CSV: the blob the page saves.
	eval[bool](b, `(() => { const make = URL.createObjectURL; window.__saved = null;
		URL.createObjectURL = blob => { blob.text().then(t => window.__saved = t); return make.call(URL, blob) }; return true })()`)
	// Clicked by script: the panel is at the page's foot, where the
	// panels above it settling after the run moves it between where a
	// mouse click is aimed and where it lands.
	eval[bool](b, `(document.querySelector(".metrics-csv").click(), true)`)
	b.waitFor("the CSV", `window.__saved !== null`)
	sc, _ := scenarios.Get("hanging-transaction")
	e := engine.New()
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	var m engine.Metrics
	for ok := false; !ok; {
		m, ok = e.Metrics()
	}
	if got, want := eval[string](b, `window.__saved`), metrics.CSV(m.Points); got != want {
		t.Errorf("the page saved\n%s\ntxnlab metrics prints\n%s", got, want)
	}
	b.shot("metrics-panel")
}

func slicesMax(v []int) int {
	m := v[0]
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// The panel in Chinese: its title, its button, each metric's meaning;
// the metrics keep Kafka's names.
func TestMetricsPanelInChinese(t *testing.T) {
	b := newBrowser(t)
	b.open("/zh/playground?scenario=hanging-transaction")
	waitIdle(b)
	openMetrics(b)
	if got := b.text("#metrics-heading"); got != "指标" {
		t.Errorf("the panel's title is %q", got)
	}
	if got := b.text(".metrics-csv"); got != "下载 CSV" {
		t.Errorf("the CSV button reads %q", got)
	}
	if got := b.text(`.metric-head[data-metric="LastStableOffsetLag"] .metric-means`); !strings.Contains(got, "高水位减去最后稳定偏移量") {
		t.Errorf("LastStableOffsetLag means %q", got)
	}
	if got := b.text(`.metric-head[data-metric="LastStableOffsetLag"] h3 code`); got != "LastStableOffsetLag" {
		t.Errorf("the metric is named %q", got)
	}
	b.click(button("Run to end"))
	noEnglish(t, b, "with the Metrics panel open")
	b.shot("zh-metrics-panel")
}

// With the engine on the page (?engine=page, as after a worker that
// failed), the panel's series comes from the page's own engine, a slice
// per frame, and charts the same climb.
func TestMetricsPanelWithTheEngineOnThePage(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground?scenario=hanging-transaction&engine=page")
	waitIdle(b)
	b.waitFor("the engine on the page", `document.documentElement.dataset.engine === "page"`)
	openMetrics(b)
	if got := b.text(lagChart + " .metric-label"); got != "3" {
		t.Errorf("the lag chart's top reads %q, want 3", got)
	}
}

// chartValues reads the values of a chart's points, in time order, from
// their labels ("orders/0: 3 at 1.5s").
func chartValues(b *browser, chart string) []int {
	b.t.Helper()
	labels := eval[[]string](b, `[...document.querySelectorAll(`+jsString(chart+" .metric-pt")+`)].map(g => g.getAttribute("aria-label"))`)
	var out []int
	for _, v := range labels {
		_, rest, _ := strings.Cut(v, ": ")
		n, err := strconv.Atoi(strings.Fields(rest)[0])
		if err != nil {
			b.t.Fatalf("a point reads %q", v)
		}
		out = append(out, n)
	}
	return out
}

// Issue 28's operator, as a learner meets it: the find-and-abort-hanging
// script's charts show LastStableOffsetLag on orders/0 climb while the
// hanging transaction holds the LSO and fall to 0 once `admin abort`
// writes its marker; the LSO itself moves from 2 to 6; late transactions
// show on the leader (PartitionsWithLateTransactionsCount) and go; and
// the step line at the run's end reads the lag 0.
func TestAnOperatorFindsAndAbortsTheHangingTransaction(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "find-and-abort-hanging")
	openMetrics(b)
	lag := chartValues(b, lagChart)
	if len(lag) < 3 || lag[0] != 0 || slicesMax(lag) <= 0 || lag[len(lag)-1] != 0 {
		t.Fatalf("LastStableOffsetLag of orders/0 does not climb and fall back to 0: %v", lag)
	}
	lso := chartValues(b, `.metric-svg[data-metric="LastStableOffset"][data-subject="orders/0"]`)
	if len(lso) < 2 || lso[len(lso)-1] != 6 || !slices.Contains(lso, 2) {
		t.Errorf("LastStableOffset of orders/0 does not move from 2 to 6: %v", lso)
	}
	late := eval[[]string](b, `[...document.querySelectorAll('.metric-svg[data-metric="PartitionsWithLateTransactionsCount"]')].map(s => s.dataset.subject)`)
	if len(late) == 0 {
		t.Error("no broker charts a late transaction")
	}
	b.click(button("Run to end"))
	_, n := position(b)
	waitPosition(b, n)
	if now := b.text(lagChart + " + .metric-step .metric-now"); now != "= 0" {
		t.Errorf("after the abort the lag reads %q", now)
	}
	// Every expectation of the script, the admin tools' answers among
	// them (find-hanging names orders/0@2 after 20 minutes, the abort
	// succeeds), passes on the page.
	sc, _ := scenarios.Get("find-and-abort-hanging")
	want := 0
	for _, l := range strings.Split(sc.Script, "\n") {
		if strings.HasPrefix(l, "expect ") {
			want++
		}
	}
	ok := eval[int](b, `document.querySelectorAll(".results li.result.ok").length`)
	fail := eval[int](b, `document.querySelectorAll(".results li.result.fail").length`)
	if want == 0 || ok != want || fail != 0 {
		t.Errorf("%d of the script's %d expectations pass on the page, %d fail", ok, want, fail)
	}
	b.shot("metrics-operator")
}
