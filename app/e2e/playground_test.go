package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The contract other code and later tests rely on: these names are how a
// person with a screen reader, and every browser test, finds the controls.
const (
	selScript  = `textarea[aria-label="Scenario script"]`
	selDiagram = `svg[aria-label="Sequence diagram"]`
	selDigest  = `[data-digest]`
)

var transportLabels = []string{"Reset", "Step back", "Play", "Pause", "Step", "Run to end"}

func button(label string) string { return `button[aria-label="` + label + `"]` }

func count(b *browser, sel string) int {
	b.t.Helper()
	return eval[int](b, `document.querySelectorAll(`+jsString(sel)+`).length`)
}

func digest(b *browser) string {
	b.t.Helper()
	return eval[string](b, `document.querySelector(`+jsString(selDigest)+`).dataset.digest`)
}

var positionRE = regexp.MustCompile(`^Step (\d+) of (\d+)$`)

// position reads "Step i of n".
func position(b *browser) (int, int) {
	b.t.Helper()
	s := b.text(".status .position")
	m := positionRE.FindStringSubmatch(s)
	if m == nil {
		b.t.Fatalf("position reads %q", s)
	}
	i, _ := strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	return i, n
}

func waitPosition(b *browser, i int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("step %d", i),
		fmt.Sprintf(`(document.querySelector(".status .position")||{}).textContent?.startsWith("Step %d of")`, i))
}

func TestPlaygroundHasTheContractedControls(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")

	sels := []string{selScript, selDiagram, selDigest, `section[aria-label="Cluster"]`}
	for _, l := range transportLabels {
		sels = append(sels, button(l))
	}
	for _, sel := range sels {
		if n := count(b, sel); n != 1 {
			t.Errorf("%s: %d elements, want 1", sel, n)
		}
	}
	// go-app v10 creates an element in the namespace it is given; an SVG
	// child without XMLNS lands in the HTML namespace and is not drawn.
	if n := count(b, selDiagram+` *`); n == 0 {
		t.Errorf("the diagram has no children")
	}
	if bad := eval[int](b, `[...document.querySelectorAll(`+jsString(selDiagram+", "+selDiagram+" *")+`)].filter(e => e.namespaceURI !== "http://www.w3.org/2000/svg").length`); bad != 0 {
		t.Errorf("%d diagram elements are outside the SVG namespace", bad)
	}
	if title := eval[string](b, `document.title`); !strings.HasPrefix(title, "Playground") {
		t.Errorf("title %q", title)
	}
	if d := digest(b); len(d) != 16 {
		t.Errorf("digest %q, want 16 hex digits", d)
	}
}

func TestStepAdvancesTheDiagramAndStepBackUndoesIt(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")

	start, n := position(b)
	if start != 0 || n < 2 {
		t.Fatalf("at step %d of %d, want 0 of at least 2", start, n)
	}
	d0, rows0 := digest(b), count(b, ".sequence .row")

	b.click(button("Step"))
	waitPosition(b, 1)
	if d := digest(b); d == d0 {
		t.Errorf("digest still %s after a step", d)
	}
	if rows := count(b, ".sequence .row"); rows != rows0+1 {
		t.Errorf("%d diagram rows after a step, want %d", rows, rows0+1)
	}
	if items := count(b, "#trace li"); items != 1 {
		t.Errorf("%d trace lines after a step, want 1", items)
	}

	b.click(button("Step back"))
	waitPosition(b, 0)
	if d := digest(b); d != d0 {
		t.Errorf("digest %s after stepping back, want %s: stepping must be reversible", d, d0)
	}

	b.click(button("Run to end"))
	waitPosition(b, n)
	if v := eval[string](b, `document.querySelector(`+jsString(button("Step"))+`).getAttribute("aria-disabled")`); v != "true" {
		t.Errorf("Step at the end: aria-disabled=%q, want true", v)
	}
	b.click(button("Reset"))
	waitPosition(b, 0)
}

func TestPlayRunsToTheEnd(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	_, n := position(b)
	b.click(button("Play"))
	b.waitFor("the pause button to be active", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "false"`)
	waitPosition(b, n)
	b.waitFor("play to stop by itself", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "true"`)
}

func TestTypingKeepsTheCaretWhereItIs(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	// Typing re-parses the script and re-renders the page; the caret must
	// stay where the learner put it. (Browsers leave the caret alone when
	// a render writes back the very value typed, so this cannot catch a
	// render that lags behind fast typing; playground.editorText is what
	// prevents that.)
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); t.setSelectionRange(1, 1); return true })()`)
	b.do(chromedp.KeyEvent("X"))
	b.waitFor("the key to land", `document.querySelector(`+jsString(selScript)+`).value.startsWith("#X")`)
	if at := eval[int](b, `document.querySelector(`+jsString(selScript)+`).selectionStart`); at != 2 {
		t.Errorf("caret at %d after typing at 1, want 2", at)
	}
}

func TestScriptErrorPointsAtItsLine(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	setScript := func(s string) {
		eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.value = `+jsString(s)+`; t.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
	}

	setScript("a -> b: hello\nthis is not a statement")
	b.waitFor("the error", `document.querySelector("#script-error[role=alert]")?.textContent.startsWith("Line 2, column 1")`)
	if v := eval[string](b, `document.querySelector(`+jsString(selScript)+`).getAttribute("aria-invalid")`); v != "true" {
		t.Errorf("aria-invalid=%q on a bad script", v)
	}

	setScript("a -> b: hello")
	b.waitFor("the error to clear", `!document.querySelector("#script-error")`)
	if _, n := position(b); n != 1 {
		t.Errorf("%d steps in a one-line script", n)
	}
}

func TestScenarioLibraryOpensInThePlayground(t *testing.T) {
	b := newBrowser(t)
	b.open("/")
	if h := b.text("h1"); !strings.Contains(h, "Kafka transactions") {
		t.Errorf("home h1 %q", h)
	}
	// In-app navigation: go-app routes the click without a page load.
	b.click(`nav a[href="/scenarios"]`)
	b.waitFor("the scenario list", `location.pathname === "/scenarios" && document.querySelectorAll("li.scenario").length >= 2`)
	b.click(`li.scenario:nth-child(2) a`)
	b.waitFor("the playground", `location.pathname === "/playground" && !!document.querySelector(`+jsString(selScript)+`)`)
	if v := eval[string](b, `document.querySelector(`+jsString(selScript)+`).value`); !strings.Contains(v, "producer-b") {
		t.Errorf("the playground did not load the second scenario; script:\n%s", v)
	}
	b.click(button("Run to end"))
	b.waitFor("the fencing error in the diagram", `document.querySelector(`+jsString(selDiagram)+`).textContent.includes("PRODUCER_FENCED")`)
}

func TestWasmArrivesCompressedWithRightProgress(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	type entry struct {
		Encoded int `json:"enc"`
		Decoded int `json:"dec"`
	}
	e := eval[entry](b, `(() => { const e = performance.getEntriesByType("resource").find(e => e.name.endsWith("/web/app.wasm")); return {enc: e.encodedBodySize, dec: e.decodedBodySize} })()`)
	fi, err := os.Stat(filepath.Join(repoRoot, "web", "app.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	if e.Decoded != int(fi.Size()) {
		t.Errorf("decoded %d bytes, the wasm has %d", e.Decoded, fi.Size())
	}
	if e.Encoded*3 > e.Decoded {
		t.Errorf("wasm sent as %d bytes for %d: not compressed", e.Encoded, e.Decoded)
	}
	// The loader divides the bytes it received (decompressed) by the size
	// the page announced: it must be the decompressed size, or the bar
	// reads ~400 %.
	appJS := eval[string](b, `fetch("/app.js").then(r => r.text())`, chromedp.EvalAwaitPromise)
	if want := fmt.Sprintf(`goappWasmContentLength = "%d"`, fi.Size()); !strings.Contains(appJS, want) {
		t.Errorf("app.js does not announce the decompressed size (%s)", want)
	}
}

func TestDarkTheme(t *testing.T) {
	b := newBrowser(t)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	b.open("/playground")
	b.click(button("Run to end"))
	bg := eval[string](b, `getComputedStyle(document.body).backgroundColor`)
	if bg != "rgb(20, 24, 31)" {
		t.Errorf("body background %s in the dark theme", bg)
	}
}

// TestConsoleCheckCatchesCSPViolations proves the console check that every
// test ends with can see a Content-Security-Policy violation, so "no
// console errors" also means "nothing the CSP blocked".
func TestConsoleCheckCatchesCSPViolations(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	eval[bool](b, `(document.body.setAttribute("style", "outline: 1px solid red"), true)`)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		for _, m := range b.takeConsoleErrors() {
			if strings.Contains(m.Text, "Content Security Policy") {
				return
			}
			t.Errorf("unexpected console %s: %s", m.Type, m.Text)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("an inline style was applied or its CSP violation never reached the console")
}

// TestWorksOfflineOnceVisited: go-app's service worker caches the site
// under the server's version, so after one visit the playground loads and
// runs with the server gone.
func TestWorksOfflineOnceVisited(t *testing.T) {
	srv, url, stop := startServer(t)
	b := newBrowser(t)
	b.openURL(url + "/playground")
	cache := "app-" + srv.Version()
	b.waitFor("the service worker to cache the site", `navigator.serviceWorker.ready
		.then(() => caches.has(`+jsString(cache)+`))
		.then(has => has && caches.open(`+jsString(cache)+`))
		.then(c => c && Promise.all(["/web/app.wasm", "/playground", "/scenarios"].map(u => c.match(u))))
		.then(hits => !!hits && hits.every(Boolean))`)
	stop()
	if _, err := (&http.Client{Timeout: time.Second}).Get(url + "/healthz"); err == nil {
		t.Fatal("the server still answers")
	}
	b.openURL(url + "/playground")
	b.click(button("Step"))
	waitPosition(b, 1)
	b.do(chromedp.Navigate(url + "/scenarios"))
	b.waitFor("the scenario list offline", `document.querySelectorAll("li.scenario").length >= 2`)
}
