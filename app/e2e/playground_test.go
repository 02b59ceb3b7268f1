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
	"txnlab/core/workload"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/core/scenario"
	"txnlab/scenarios"
)

// The contract other code and later tests rely on: these names are how a
// person with a screen reader, and every browser test, finds the controls.
const (
	selScript  = `textarea[aria-label="Scenario script"]`
	selDiagram = `svg[aria-label="Sequence diagram"]`
	selDigest  = `[data-digest]`
	selScroll  = `#diagram-scroll`
)

var transportLabels = []string{"Reset", "Step back", "Play", "Pause", "Step", "Run to end"}

func button(label string) string { return `button[aria-label="` + label + `"]` }

// card is a node's card in the cluster panel.
func card(node string) string { return `.node-card[data-node="` + node + `"]` }

func count(b *browser, sel string) int {
	b.t.Helper()
	return eval[int](b, `document.querySelectorAll(`+jsString(sel)+`).length`)
}

func digest(b *browser) string {
	b.t.Helper()
	return eval[string](b, `document.querySelector(`+jsString(selDigest)+`).dataset.digest`)
}

func scriptText(b *browser) string {
	b.t.Helper()
	return eval[string](b, `document.querySelector(`+jsString(selScript)+`).value`)
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
	waitState(b)
}

// waitState waits until the cluster panel shows the state of the
// position shown: the engine's worker answers it a reply after the move.
func waitState(b *browser) {
	b.t.Helper()
	b.waitFor("the position's cluster state", `(() => { const p = document.querySelector(".status .position"), c = document.querySelector("section.cluster"); return !p || !c || c.dataset.pos === p.dataset.pos })()`)
}

// waitIdle waits for the script to have run: no run in progress and no
// edit waiting to run.
func waitIdle(b *browser) {
	b.t.Helper()
	b.waitFor("the script to run", `!document.querySelector(".status .busy") && !document.querySelector(".status[data-running=true]") && !document.querySelector(".editor-status")`)
	waitState(b)
}

// openScenario opens a library scenario and waits until it has run.
func openScenario(b *browser, slug string) {
	b.t.Helper()
	b.open("/playground?scenario=" + slug)
	waitIdle(b)
	b.waitFor("the scenario's script", `document.querySelector(`+jsString(selScript)+`).value.length > 0`)
}

// cliDigest runs a script the way `txnlab run` does and returns the digest
// it prints as its last line.
func cliDigest(t *testing.T, src string) string {
	t.Helper()
	script, err := scenario.Parse("cli", src)
	if err != nil {
		t.Fatalf("the page's script does not parse: %v\n%s", err, src)
	}
	s := scenario.NewSession("cli", script)
	s.Run()
	return s.Cluster.World.Trace.Digest()
}

// findArrow scrolls the diagram from the top until an arrow matching sel
// is drawn (only the rows on screen are in the DOM) and returns the
// number of matches there, leaving the diagram scrolled to it.
func findArrow(b *browser, sel string) int {
	b.t.Helper()
	q := jsString(selDiagram + " " + sel)
	scroll := `document.querySelector(` + jsString(selScroll) + `)`
	height := eval[int](b, scroll+`.scrollHeight`)
	view := eval[int](b, scroll+`.clientHeight`)
	for top := 0; top <= height; top += max(view/2, 100) {
		eval[bool](b, fmt.Sprintf(`(%s.scrollTop = %d, true)`, scroll, top))
		// The page draws the rows of the new scroll position after the
		// scroll event; the diagram says which rows it drew.
		b.waitFor("the rows at this scroll position", fmt.Sprintf(`(() => {
			const s = %s, d = document.querySelector(%s).dataset;
			const row = Math.floor(s.scrollTop / %d);
			return +d.first <= row && (+d.last > row + 2 || +d.last >= +d.rows);
		})()`, scroll, jsString(selDiagram), rowHeight))
		if n := eval[int](b, `document.querySelectorAll(`+q+`).length`); n > 0 {
			eval[bool](b, `(document.querySelector(`+q+`).scrollIntoView({block: "center"}), true)`)
			return n
		}
	}
	return 0
}

// rowHeight is the diagram's row height in pixels (diagram/diagram.go).
const rowHeight = 24

// runToEnd presses Run to end and waits until the page is there.
func runToEnd(b *browser) int {
	b.t.Helper()
	b.click(button("Run to end"))
	// A run still in progress (the worker answers a message later) ends
	// at the end of the history it brings: read its length then.
	b.waitFor("the run to end", `!document.querySelector(".status[data-running=true]")`)
	_, n := position(b)
	waitPosition(b, n)
	return n
}

// diagramHTML is the diagram's markup with every element's attributes
// sorted: go-app may patch attributes in any order, which changes nothing
// drawn but would change outerHTML.
func diagramHTML(b *browser) string {
	b.t.Helper()
	return eval[string](b, `(() => {
		const walk = e => "<" + e.tagName + [...e.attributes].map(a => " " + a.name + "=" + JSON.stringify(a.value)).sort().join("") + ">" +
			[...e.childNodes].map(c => c.nodeType === 1 ? walk(c) : c.textContent).join("") + "</" + e.tagName + ">";
		return walk(document.querySelector(`+jsString(selDiagram)+`));
	})()`)
}

// key names a key for chromedp.KeyEvent.
func key(name string) string {
	return map[string]string{"ArrowRight": kb.ArrowRight, "ArrowLeft": kb.ArrowLeft, "Home": kb.Home, "End": kb.End}[name]
}

func setScript(b *browser, s string) {
	b.t.Helper()
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.value = `+jsString(s)+`; t.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
}

func setSpeed(b *browser, index int) {
	b.t.Helper()
	eval[bool](b, fmt.Sprintf(`(() => { const s = document.querySelector('select[aria-label="Speed"]'); s.value = "%d"; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`, index))
}

func TestPlaygroundHasTheContractedControls(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	waitIdle(b)

	sels := []string{selScript, selDiagram, selDigest, `section[aria-label="Cluster"]`,
		`select[aria-label="Speed"]`, `input[type=range][aria-label="Position in the history"]`,
		`select[aria-label="API to run until"]`, button("Run until"), `[role=tablist]`}
	for _, l := range transportLabels {
		sels = append(sels, button(l))
	}
	for _, sel := range sels {
		if n := count(b, sel); n != 1 {
			t.Errorf("%s: %d elements, want 1", sel, n)
		}
	}
	runToEnd(b)
	// go-app v10 creates an element in the namespace it is given; an SVG
	// child without XMLNS lands in the HTML namespace and is not drawn.
	if n := count(b, selDiagram+` *`); n < 20 {
		t.Errorf("the diagram has %d elements", n)
	}
	if bad := eval[int](b, `[...document.querySelectorAll("svg, svg *")].filter(e => e.namespaceURI !== "http://www.w3.org/2000/svg").length`); bad != 0 {
		t.Errorf("%d diagram elements are outside the SVG namespace", bad)
	}
	for _, node := range []string{"broker-0", "broker-1", "broker-2", "app", "reader"} {
		if count(b, card(node)) != 1 {
			t.Errorf("no card for %s", node)
		}
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
	openScenario(b, "happy-path")

	start, n := position(b)
	if start != 0 || n < 10 {
		t.Fatalf("at step %d of %d, want 0 of at least 10", start, n)
	}
	d0 := digest(b)
	for i := 1; i <= 3; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
	}
	if d := digest(b); d == d0 {
		t.Errorf("digest still %s after three steps", d)
	}
	if rows := eval[int](b, `+document.querySelector(`+jsString(selDiagram)+`).dataset.rows`); rows == 0 {
		t.Error("no diagram rows after three steps")
	}
	d3, html3 := digest(b), diagramHTML(b)
	b.click(button("Step back"))
	waitPosition(b, 2)
	b.click(button("Step"))
	waitPosition(b, 3)
	if d := digest(b); d != d3 {
		t.Errorf("digest %s after back and forth, want %s", d, d3)
	}
	if html := diagramHTML(b); html != html3 {
		t.Error("the diagram differs after stepping back and forth")
	}
	for i := 2; i >= 0; i-- {
		b.click(button("Step back"))
		waitPosition(b, i)
	}
	if d := digest(b); d != d0 {
		t.Errorf("digest %s after stepping back to 0, want %s", d, d0)
	}

	// The keyboard: → steps, ← steps back, End and Home.
	eval[bool](b, `(document.activeElement.blur(), true)`)
	b.do(chromedp.KeyEvent(key("ArrowRight")))
	waitPosition(b, 1)
	b.do(chromedp.KeyEvent(key("End")))
	waitPosition(b, n)
	if v := eval[string](b, `document.querySelector(`+jsString(button("Step"))+`).getAttribute("aria-disabled")`); v != "true" {
		t.Errorf("Step at the end: aria-disabled=%q, want true", v)
	}
	if got, want := digest(b), cliDigest(t, scriptText(b)); got != want {
		t.Errorf("digest at the end %s, the CLI prints %s", got, want)
	}
	b.do(chromedp.KeyEvent(key("ArrowLeft")))
	waitPosition(b, n-1)
	b.do(chromedp.KeyEvent(key("Home")))
	waitPosition(b, 0)

	// Space plays and pauses, and does not scroll the page.
	y0 := eval[int](b, `window.scrollY`)
	b.do(chromedp.KeyEvent(" "))
	b.waitFor("playing", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "false"`)
	b.do(chromedp.KeyEvent(" "))
	b.waitFor("paused", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "true"`)
	if y := eval[int](b, `window.scrollY`); y != y0 {
		t.Errorf("space scrolled the page from %d to %d", y0, y)
	}

	// The scrubber seeks anywhere.
	eval[bool](b, `(() => { `+scrubTo(7)+`; return true })()`)
	waitPosition(b, 7)
}

func TestPlayRunsToTheEnd(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "zombie-fencing-init")
	_, n := position(b)
	setSpeed(b, 5)
	b.click(button("Play"))
	b.waitFor("the pause button to be active", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "false"`)
	// The newest message travels along its arrow while playing.
	b.waitFor("a travelling message", `!!document.querySelector(".traveller")`)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if i, _ := position(b); i == n {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	waitPosition(b, n)
	b.waitFor("play to stop by itself", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "true"`)
}

func TestTypingKeepsTheCaretWhereItIs(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	// Typing re-runs the script and re-renders the page; the caret must
	// stay where the learner put it.
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); t.setSelectionRange(1, 1); return true })()`)
	b.do(chromedp.KeyEvent("X"))
	b.waitFor("the key to land", `document.querySelector(`+jsString(selScript)+`).value.startsWith("#X")`)
	waitIdle(b)
	if at := eval[int](b, `document.querySelector(`+jsString(selScript)+`).selectionStart`); at != 2 {
		t.Errorf("caret at %d after typing at 1, want 2", at)
	}
	b.do(chromedp.KeyEvent("YZ"))
	b.waitFor("the keys to land", `document.querySelector(`+jsString(selScript)+`).value.startsWith("#XYZ")`)
	waitIdle(b)
	if at := eval[int](b, `document.querySelector(`+jsString(selScript)+`).selectionStart`); at != 4 {
		t.Errorf("caret at %d after typing three letters at 1, want 4", at)
	}
}

func TestScriptErrorIsShownInlineAndKeepsTheText(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	n := runToEnd(b)
	d := digest(b)

	bad := "cluster brokers=3\ntopic orders partitions=1\nproducer app transactional.id=t1\napp init\napp sned orders/0 a=1\n"
	setScript(b, bad)
	b.waitFor("the error", `document.querySelector("#script-error[role=alert]")?.textContent.startsWith("Line 5, column ")`)
	if v := eval[string](b, `document.querySelector(`+jsString(selScript)+`).getAttribute("aria-invalid")`); v != "true" {
		t.Errorf("aria-invalid=%q on a bad script", v)
	}
	if got := scriptText(b); got != bad {
		t.Errorf("the editor lost the text:\n%s", got)
	}
	if count(b, `#script-backdrop .ln.error[data-line="5"]`) != 1 || count(b, `#script-backdrop .bl.error .error-at`) != 1 {
		t.Error("the error is not marked at its line in the editor")
	}
	b.shot("script-error")
	// The last good history stays on screen, and says it is not this
	// script's: the transport is inactive and a move is refused.
	if _, m := position(b); m != n || digest(b) != d {
		t.Errorf("a parse error replaced the history")
	}
	b.waitFor("the stale note", `document.querySelector(".stale-note")?.textContent.includes("line 5")`)
	for _, l := range []string{"Reset", "Step back", "Play", "Step", "Run to end"} {
		if got := eval[string](b, `document.querySelector(`+jsString(button(l))+`).getAttribute("aria-disabled")`); got != "true" {
			t.Errorf("%s is active while the script does not parse", l)
		}
	}
	b.click(button("Reset"))
	b.do(chromedp.KeyEvent(kb.Home))
	if i, _ := position(b); i != n {
		t.Errorf("a move went through on a stale history: at %d of %d", i, n)
	}
	// A button refuses to write into a script that does not parse.
	b.click(card("broker-1") + ` button[data-stmt="crash broker-1"]`)
	b.waitFor("the refusal", `document.querySelector(".action-msg.error")?.textContent.includes("fix it first")`)
	if got := scriptText(b); got != bad {
		t.Errorf("the refused action changed the text:\n%s", got)
	}

	// A runtime error: the history up to it stays viewable.
	setScript(b, strings.Replace(bad, "app sned orders/0 a=1", "resume app", 1))
	b.waitFor("the runtime error", `document.querySelector("#script-error")?.textContent.includes("stops the run")`)
	waitIdle(b)
	if _, m := position(b); m < 2 {
		t.Errorf("%d steps before the runtime error", m)
	}

	setScript(b, strings.Replace(bad, "app sned orders/0 a=1", "app begin", 1))
	b.waitFor("the error to clear", `!document.querySelector("#script-error")`)
}

func TestScenarioLibraryOpensInThePlayground(t *testing.T) {
	b := newBrowser(t)
	b.open("/")
	if h := b.text("h1"); !strings.Contains(h, "Kafka transactions") {
		t.Errorf("home h1 %q", h)
	}
	// In-app navigation: go-app routes the click without a page load.
	b.click(`nav a[href="/scenarios"]`)
	all := scenarios.All()
	b.waitFor("the scenario list", fmt.Sprintf(`location.pathname === "/scenarios" && document.querySelectorAll("li.scenario").length === %d`, len(all)))
	for _, sc := range all {
		if count(b, `li.scenario[data-slug="`+sc.Slug+`"] a[href="/playground?scenario=`+sc.Slug+`"]`) == 0 {
			t.Errorf("no link to %s", sc.Slug)
		}
	}
	b.shot("scenarios")
	b.click(`li.scenario[data-slug="zombie-fencing-init"] a.button`)
	b.waitFor("the playground", `location.pathname === "/playground" && location.search === "?scenario=zombie-fencing-init"`)
	waitIdle(b)
	want, _ := scenarios.Get("zombie-fencing-init")
	b.waitFor("the scenario's script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(want.Script))
	runToEnd(b)
	if findArrow(b, `.arrow[data-api="EndTxn"][data-kind="response"][data-error="PRODUCER_FENCED"]`) != 1 {
		t.Fatal("no EndTxn response with data-error=PRODUCER_FENCED in the diagram")
	}
	if got, want := digest(b), cliDigest(t, want.Script); got != want {
		t.Errorf("page digest %s, the CLI's %s", got, want)
	}
	// Clicking the arrow shows every field of the message.
	// (Dispatched on the arrow itself: at the pixel chromedp would pick,
	// another arrow's label may lie on top.)
	eval[bool](b, `(document.querySelector(`+jsString(selDiagram+` .arrow[data-error="PRODUCER_FENCED"] .hit`)+`).dispatchEvent(new MouseEvent("click", {bubbles: true})), true)`)
	b.waitFor("the message panel", `document.querySelector("#message-panel")?.textContent.includes("PRODUCER_FENCED (90)")`)
	b.shot("message-panel")

	// Edit the script, then load another scenario from the editor's list:
	// Undo brings the edited script back.
	edited := want.Script + "# my own line\n"
	setScript(b, edited)
	waitIdle(b)
	eval[bool](b, `(() => { const s = document.querySelector('select[aria-label="Load a library scenario"]'); s.value = "happy-path"; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
	b.waitFor("the happy path", `location.search === "?scenario=happy-path" && document.querySelector(`+jsString(selScript)+`).value.startsWith("# The happy path")`)
	waitIdle(b)
	b.click(button("Undo script change"))
	b.waitFor("the edited script back", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(edited))
	// Undo runs the script again: its end redraws the page, and a click
	// sent while the layout moves lands where the menu was (CI, 5 Dec).
	waitIdle(b)

	// Share: the link holds the script and opens it anywhere.
	b.click(`details.export summary`)
	b.waitFor("the export menu open", `document.querySelector("details.export").open`)
	shareItem := `details.export .menu-item[title^="A link"]`
	b.click(shareItem)
	if hit := eval[string](b, `(() => { const r = document.querySelector(`+jsString(shareItem)+`).getBoundingClientRect(); const e = document.elementFromPoint(r.x + r.width/2, r.y + r.height/2); return e ? e.outerHTML.slice(0, 120) : "nothing" })()`); !strings.Contains(hit, "menu-item") && !strings.HasPrefix(hit, "nothing") {
		t.Logf("what lies on the share item now: %s", hit)
	}
	b.waitFor("the link in the address bar", `location.hash.startsWith("#s=")`)
	link := eval[string](b, `location.href`)
	b.openURL(link)
	waitIdle(b)
	b.waitFor("the shared script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(edited))

	// A broken-mechanism scenario opens too: its slug holds a slash.
	b.open("/playground?scenario=broken/coordinator-epoch-off")
	waitIdle(b)
	if !strings.Contains(scriptText(b), "break coordinator-epoch") {
		t.Error("the broken/ scenario did not load")
	}
}

// TestCrashTheCoordinatorFromItsCard: pause at the first WriteTxnMarkers of
// coordinator-crash-during-markers, crash broker-0 from its card, and the
// script and the diagram show the failover.
func TestCrashTheCoordinatorFromItsCard(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "coordinator-crash-during-markers")
	before := scriptText(b)
	b.click(button("Run until")) // the select starts on WriteTxnMarkers
	b.waitFor("a WriteTxnMarkers request on screen", `!!document.querySelector(`+jsString(selDiagram+` .arrow[data-api="WriteTxnMarkers"][data-kind="request"]`)+`)`)
	pos, _ := position(b)
	if pos == 0 {
		t.Fatal("Run until did not move")
	}
	if got := b.text(card("broker-0") + " .badge"); got != "up" {
		t.Fatalf("broker-0 is %q before the crash", got)
	}
	if !strings.Contains(b.text(card("broker-0")), "order-txn-1") {
		t.Error("broker-0's card does not say it coordinates order-txn-1")
	}
	b.shot("before-crash")
	b.click(card("broker-0") + ` button[data-stmt="crash broker-0"]`)
	b.waitFor("the crash in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("\ncrash broker-0\n")`)
	waitIdle(b)
	after := scriptText(b)
	if len(strings.Split(after, "\n")) <= len(strings.Split(before, "\n")) {
		t.Errorf("the script did not grow:\n%s", after)
	}
	b.waitFor("broker-0 crashed", `document.querySelector(`+jsString(card("broker-0")+" .badge")+`)?.textContent === "crashed"`)
	if p, _ := position(b); p <= pos {
		t.Errorf("at step %d after the crash, was at %d", p, pos)
	}
	b.shot("after-crash")
	runToEnd(b)
	if findArrow(b, `.arrow[data-api="WriteTxnMarkers"][data-kind="request"]:not([data-from="broker-0"])`) == 0 {
		t.Error("no WriteTxnMarkers request from another broker: the failover is not in the diagram")
	}
	if got, want := digest(b), cliDigest(t, after); got != want {
		t.Errorf("page digest %s, the CLI's for the new script %s", got, want)
	}
}

func TestDarkTheme(t *testing.T) {
	b := newBrowser(t)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	openScenario(b, "zombie-fencing-init")
	runToEnd(b)
	bg := eval[string](b, `getComputedStyle(document.body).backgroundColor`)
	if bg != "rgb(20, 24, 31)" {
		t.Errorf("body background %s in the dark theme", bg)
	}
	findArrow(b, `.arrow[data-error="PRODUCER_FENCED"]`)
	b.click(`#tab-partitions`)
	b.shot("dark")
}

func TestReducedMotionDrawsNoTraveller(t *testing.T) {
	b := newBrowser(t)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	openScenario(b, "zombie-fencing-init")
	setSpeed(b, 5)
	b.click(button("Play"))
	// At least step 3, not exactly: a loaded machine's playback may
	// catch up past a step between two polls.
	b.waitFor("step 3 or later", `+((document.querySelector(".status .position")||{}).textContent?.match(/^Step (\d+) of/)||[])[1] >= 3`)
	if n := count(b, ".traveller"); n != 0 {
		t.Errorf("%d travelling dots under prefers-reduced-motion", n)
	}
	b.click(button("Pause"))
}

func TestInspectorAndBreakSwitches(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	runToEnd(b)
	b.click(`#tab-partitions`)
	b.waitFor("the partition strips", `document.querySelectorAll(".partition .log-strip .cell.committed").length > 0`)
	b.shot("inspector-partitions")
	b.click(`#tab-transactions`)
	b.waitFor("the coordinator's metadata", `document.querySelector(".txn[data-txn='checkout-1']")?.textContent.includes("CompleteCommit")`)
	b.click(`#tab-invariants`)
	if n := count(b, `.invariant.broken`); n != 0 {
		t.Errorf("%d broken invariants in the happy path", n)
	}
	// Switch the aborted-records filter off after the learner aborted the
	// transaction: the reader then receives aborted records and the
	// read-committed invariant turns red.
	b.do(chromedp.KeyEvent(key("Home")))
	waitPosition(b, 0)
	b.click(`#tab-break`)
	for i := 0; i < 80; i++ {
		if b.text(".status .line") == "line 26" { // app commit
			break
		}
		b.click(button("Step"))
		waitPosition(b, i+1)
	}
	b.click(card("app") + ` button[data-stmt="app abort"]`)
	b.waitFor("abort in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("\napp abort\n")`)
	waitIdle(b)
	b.click(`.switch-row[data-mechanism="aborted-filter"] button[role=switch]`)
	b.waitFor("break in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("break aborted-filter")`)
	waitIdle(b)
	if v := eval[string](b, `document.querySelector('.switch-row[data-mechanism="aborted-filter"] button').getAttribute("aria-checked")`); v != "false" {
		t.Errorf("the switch reads aria-checked=%s after breaking", v)
	}
	// The script's own later poll now receives the aborted records.
	runToEnd(b)
	b.click(`#tab-invariants`)
	b.waitFor("a red invariant", `document.querySelectorAll(".invariant.broken").length > 0`)
	b.shot("inspector-invariants")
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

// TestWasmIsPreloadedAndFetchedOnce: the page's head preloads the wasm,
// so its download starts with the page (not when go-app's deferred loader
// runs), and the loader's own fetch takes the preloaded response: a
// preload whose mode did not match would download 8 MB twice.
func TestWasmIsPreloadedAndFetchedOnce(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	type timing struct {
		Fetches  int     `json:"n"`
		Start    float64 `json:"start"`
		Scripts  float64 `json:"scripts"`
		Preloads int     `json:"preloads"`
	}
	got := eval[timing](b, `(() => {
		const wasm = performance.getEntriesByType("resource").filter(e => e.name.endsWith("/web/app.wasm"));
		const app = performance.getEntriesByType("resource").find(e => e.name.endsWith("/app.js"));
		return {n: wasm.length, start: wasm.length ? wasm[0].startTime : -1, scripts: app ? app.responseEnd : -1,
			preloads: document.querySelectorAll('link[rel="preload"][href="/web/app.wasm"]').length};
	})()`)
	if got.Preloads != 1 {
		t.Fatalf("%d preload links for the wasm in the page's head, want 1", got.Preloads)
	}
	if got.Fetches != 1 {
		t.Fatalf("the wasm was fetched %d times, want once (the loader must use the preloaded response)", got.Fetches)
	}
	if got.Start < 0 || got.Scripts < 0 || got.Start > got.Scripts {
		t.Errorf("the wasm's download started at %.0f ms, after app.js had arrived (%.0f ms): it is not preloaded", got.Start, got.Scripts)
	}
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
	waitIdle(b)
	b.click(button("Step"))
	waitPosition(b, 1)
	b.do(chromedp.Navigate(url + "/scenarios"))
	b.waitFor("the scenario list offline", `document.querySelectorAll("li.scenario").length >= 2`)
}

// A card's buttons change with the node's state (pause becomes resume);
// the button must run the statement it shows, not the one an earlier
// render put at its place.
func TestCardButtonsRunWhatTheyShow(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "zombie-fencing-init")
	for i := 1; i <= 3; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
	}
	b.click(card("p1") + ` button[data-stmt="pause p1"]`) // renders "pause p1" at that place first
	b.waitFor("pause in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("\npause p1\n")`)
	waitIdle(b)
	b.waitFor("p1 paused", `!!document.querySelector(`+jsString(card("p1")+` button[data-stmt="resume p1"]`)+`)`)
	before := scriptText(b)
	b.click(card("p1") + ` button[data-stmt="resume p1"]`)
	b.waitFor("resume in the script", `document.querySelector(`+jsString(selScript)+`).value.split("\nresume p1\n").length > `+strconv.Itoa(len(strings.Split(before, "\nresume p1\n"))))
	waitIdle(b)
	if strings.Count(scriptText(b), "\npause p1") != strings.Count(before, "\npause p1") {
		t.Errorf("the resume button paused p1 again:\n%s", scriptText(b))
	}
}

// At tablet width the panels stack and nothing but the diagram (which
// scrolls inside its own box) is wider than the screen.
func TestTabletWidth(t *testing.T) {
	b := newBrowser(t)
	if _, err := chromedp.Call(b.ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: 820, Height: 1180, DeviceScaleFactor: 1, Mobile: false,
	}); err != nil {
		t.Fatal(err)
	}
	openScenario(b, "coordinator-crash-during-markers")
	b.click(button("Run until"))
	b.waitFor("a WriteTxnMarkers request", `!!document.querySelector(`+jsString(selDiagram+` .arrow[data-api="WriteTxnMarkers"]`)+`)`)
	if over := eval[int](b, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
		t.Errorf("the page is %d px wider than the screen", over)
	}
	b.shot("tablet")
}

// TestTheGroupsTabShowsTheRebalance: the KIP-447 scenario of the library
// shows, in the inspector's Groups tab, the group at generation 2 with
// only the second instance's consumer once the first has been removed,
// next to the committed offsets.
func TestTheGroupsTabShowsTheRebalance(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground?scenario=zombie-fenced-by-group")
	waitIdle(b)
	runToEnd(b)
	b.click("#tab-groups")
	row := `.inspector table.membership tr[data-group="etl"]`
	b.waitFor("the group's row", `!!document.querySelector(`+jsString(row)+`)`)
	if got, want := b.text(row), "etlStable2c2c2"; strings.Join(strings.Fields(got), "") != want {
		t.Errorf("the group's row reads %q, want state Stable, generation 2, members and leader c2", got)
	}
	if !strings.Contains(b.text(".inspector"), "__consumer_offsets") {
		t.Error("the committed offsets are no longer shown under the membership")
	}
}

// The diagram's box redraws itself when the learner scrolls it (and only
// it: the playground around it draws nothing from the scroll), and the
// page redraws it when a move scrolls it: scrolled to the top, then a
// Step back, the rows the diagram follows to are drawn, not left as they
// were at the top.
func TestDiagramDrawsTheRowsScrolledTo(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground")
	waitIdle(b)
	setScript(b, workload.Script(workload.ForMessages(300)))
	b.waitFor("the script to load", `!document.querySelector(".editor-status") && /of [0-9]{3,}/.test(document.querySelector(".status .position").textContent)`)
	n := runToEnd(b)
	scroll := `document.querySelector(` + jsString(selScroll) + `)`
	drawn := func(what string) {
		b.t.Helper()
		b.waitFor(what, fmt.Sprintf(`(() => {
			const s = %s, d = document.querySelector(%s).dataset;
			const row = Math.floor(s.scrollTop / %d);
			return +d.first <= row && (+d.last > row + 2 || +d.last >= +d.rows);
		})()`, scroll, jsString(selDiagram), rowHeight))
	}
	drawn("the newest rows drawn at the end")
	if top := eval[int](b, scroll+`.scrollTop`); top < 2000 {
		t.Fatalf("at the end of %d steps the diagram is scrolled to %d px: too short a history for this test", n, top)
	}
	eval[bool](b, `(`+scroll+`.scrollTop = 0, true)`)
	drawn("the first rows drawn after a scroll to the top")
	b.click(`button[aria-label="Step back"]`)
	waitPosition(b, n-1)
	b.waitFor("the diagram following the position", scroll+`.scrollTop > 1000`)
	drawn("the rows followed to drawn after Step back")
}

// TestEditorMarksTheExecutingLine steps a script whose statements start
// near the end of the editor's first block of 64 lines and checks, at
// every step forward and back, that the backdrop marks the line the
// status names as executing (its number and its text, class "current")
// and no other: the page marks it in place rather than redrawing the
// block's rows, so a mark left behind or put on the wrong block would
// show two executing lines or none.
func TestEditorMarksTheExecutingLine(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	src := eval[string](b, `document.querySelector(`+jsString(selScript)+`).value`)
	const preface = 52
	setScript(b, strings.Repeat("# a long preface, to put the statements across a block's edge\n", preface)+src)
	b.waitFor("the new script's rows", `!!document.querySelector('#script-backdrop .ln[data-line="`+strconv.Itoa(preface+20)+`"]')`)
	waitIdle(b)
	lines, blocks := map[int]bool{}, map[int]bool{}
	check := func(pos int) {
		t.Helper()
		status := b.text(".status .line")
		var line int
		if _, err := fmt.Sscanf(status, "line %d", &line); err != nil {
			t.Fatalf("step %d: the status reads %q", pos, status)
		}
		want := fmt.Sprintf(`["ln:%d","bl:%d"]`, line, line)
		b.waitFor(fmt.Sprintf("step %d: line %d marked, alone", pos, line),
			`JSON.stringify([...document.querySelectorAll("#script-backdrop .current")].map(e => (e.classList.contains("ln") ? "ln:" + e.dataset.line : "bl:" + e.previousElementSibling?.dataset.line))) === `+jsString(want))
		lines[line], blocks[(line-1)/64] = true, true
	}
	const steps = 14
	for i := 1; i <= steps; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
		check(i)
	}
	for i := steps - 1; i >= 1; i-- {
		b.click(button("Step back"))
		waitPosition(b, i)
		check(i)
	}
	if len(lines) < 4 || len(blocks) < 2 {
		t.Errorf("the steps went through lines %v: the test needs several lines in two blocks", lines)
	}
}

// TestDiagramMarksADownNodeToTheBottom checks the span of a crashed
// broker on its lifeline: from the crash down to the diagram's bottom
// while it is down, however far the diagram grows, and a closed span
// once it restarted. The page draws the lifelines and an open span to
// the bottom of the diagram as it grows rather than to a height written
// into them.
func TestDiagramMarksADownNodeToTheBottom(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "coordinator-crash-during-markers")
	// The gap between the bottom of the diagram and that of the open
	// span and of the lifelines, in px, or -1 when there is no open span.
	gaps := `(() => {
		const svg = document.querySelector(` + jsString(selDiagram) + `), bottom = svg.getBoundingClientRect().bottom;
		const open = svg.querySelector(".frame .lifeline-down.open"), life = svg.querySelector(".frame .lifeline");
		return [open ? Math.round(bottom - open.getBoundingClientRect().bottom) : -1, Math.round(bottom - life.getBoundingClientRect().bottom)];
	})()`
	crashed := -1
	for i := 1; i <= 60; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
		g := eval[[]int](b, gaps)
		if g[1] > 2 {
			t.Fatalf("step %d: the lifelines end %d px above the diagram's bottom", i, g[1])
		}
		if g[0] >= 0 {
			if crashed < 0 {
				crashed = i
			}
			if g[0] > 2 {
				t.Fatalf("step %d: the crashed broker's span ends %d px above the diagram's bottom", i, g[0])
			}
		} else if crashed > 0 {
			break // restarted
		}
	}
	if crashed < 0 || crashed > 50 {
		t.Fatalf("no open span on the crashed broker's lifeline (first at step %d)", crashed)
	}
	runToEnd(b)
	if n := count(b, selDiagram+" .frame .lifeline-down.open"); n != 0 {
		t.Errorf("%d open spans after broker-0 restarted", n)
	}
	if n := count(b, selDiagram+" .frame rect.lifeline-down"); n != 1 {
		t.Errorf("%d closed spans after broker-0 restarted, want 1", n)
	}
}
