package playground

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/core/protocol"
	"txnlab/core/sim"
	"txnlab/diagram"
)

// Natively the page runs as go-app pre-renders it on the server: a run
// completes in one slice and nothing is deferred to a browser, so the
// handlers can be called with a zero Context.
var ctx app.Context

// newTestPlayground is the playground as its route builds it, with a
// library scenario loaded as OnNav would.
func newTestPlayground(t *testing.T, slug string) *playground {
	t.Helper()
	sc, ok := scenarioBySlug(slug)
	if !ok {
		t.Fatalf("no scenario %s", slug)
	}
	p := NewPlayground()
	p.lib.slug, p.lib.original = sc.Slug, sc.Script
	p.setEditor(ctx, sc.Script)
	p.startLoad(ctx, sc.Script, nil)
	if p.run.busy || p.run.engine.Len() == 0 {
		t.Fatalf("the scenario did not load: busy=%v len=%d", p.run.busy, p.run.engine.Len())
	}
	return p
}

// render renders the page's current state to HTML.
func render(p *playground) string { return app.HTMLString(p.Render()) }

// The page mounts and updates in go-app's own engine: a tree go-app
// cannot build or patch (an SVG element without its namespace, say) fails
// here rather than in a browser.
func TestPlaygroundMountsAndUpdatesInTheTestEngine(t *testing.T) {
	e := app.NewTestEngine()
	p := newTestPlayground(t, "zombie-fencing-init")
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	for _, move := range []func(app.Context, app.Event){p.onStep, p.onStep, p.onRunToEnd, p.onStepBack, p.onReset} {
		move(ctx, app.Event{})
		p.run.selected = 0
		if err := e.Load(p); err != nil {
			t.Fatal(err)
		}
		e.ConsumeAll()
	}
	p.view.tab = panels.TabPartitions
	p.onRunToEnd(ctx, app.Event{})
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
}

func TestPlaygroundRendersTheContract(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	p.run.engine.Seek(p.run.engine.Len())
	html := render(p)
	for _, want := range []string{
		`aria-label="Scenario script"`,
		`aria-label="Reset"`, `aria-label="Step back"`, `aria-label="Play"`,
		`aria-label="Pause"`, `aria-label="Step"`, `aria-label="Run to end"`,
		`aria-label="Speed"`, `aria-label="Position in the history"`, `aria-label="API to run until"`,
		`aria-label="Sequence diagram"`,
		`data-digest="` + p.run.engine.Digest() + `"`,
		`aria-label="Cluster"`,
		`data-node="broker-0"`, `data-node="app"`, `data-node="reader"`,
		`data-stmt="crash broker-0"`, `data-stmt="app commit"`, `data-stmt="reader poll"`,
		`role="tablist"`,
		`Step 52 of 52`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the playground lacks %s", want)
		}
	}
	if strings.Contains(html, ` style=`) {
		t.Error("an inline style: the Content-Security-Policy forbids them")
	}
}

func TestTransportMovesThroughTheHistory(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	var ev app.Event
	d0 := p.run.engine.Digest()

	p.onStep(ctx, ev)
	if html := render(p); !strings.Contains(html, "Step 1 of") {
		t.Errorf("after Step: %s", html)
	}
	if p.run.engine.Digest() == d0 {
		t.Errorf("a step left the digest at %s", d0)
	}
	p.onStepBack(ctx, ev)
	if p.run.engine.Pos() != 0 || p.run.engine.Digest() != d0 {
		t.Errorf("Step back: at %d, digest %s, want 0 and %s", p.run.engine.Pos(), p.run.engine.Digest(), d0)
	}
	p.onStepBack(ctx, ev) // at 0: nothing to undo
	if p.run.engine.Pos() != 0 {
		t.Errorf("Step back at 0 moved to %d", p.run.engine.Pos())
	}
	p.onRunToEnd(ctx, ev)
	if p.run.engine.Pos() != p.run.engine.Len() {
		t.Errorf("Run to end: at %d of %d", p.run.engine.Pos(), p.run.engine.Len())
	}
	p.onReset(ctx, ev)
	if p.run.engine.Pos() != 0 {
		t.Errorf("Reset: at %d", p.run.engine.Pos())
	}
	p.view.untilAPI = "WriteTxnMarkers"
	p.onRunUntil(ctx, ev)
	sent := false
	evs := p.run.engine.Events()
	for _, e := range evs[p.run.engine.EventsAt(p.run.engine.Pos()-1):] {
		sent = sent || e.Kind == sim.KindSend && e.API == protocol.WriteTxnMarkers
	}
	if !sent || p.actionErr {
		t.Errorf("Run until WriteTxnMarkers stopped at %d without sending one (%s)", p.run.engine.Pos(), uitext.PlainText(p.run.actionMsg))
	}
	p.onRunToEnd(ctx, ev)
	p.onRunUntil(ctx, ev)
	if !p.actionErr {
		t.Error("Run until past the last WriteTxnMarkers did not say so")
	}
}

// A card's button writes its statement into the script at the current
// moment, the editor shows the new script, and Undo brings the old back.
func TestActFromACardRewritesTheScript(t *testing.T) {
	p := newTestPlayground(t, "coordinator-crash-during-markers")
	old := p.run.script
	p.view.untilAPI = "WriteTxnMarkers"
	p.onRunUntil(ctx, app.Event{})
	p.act(ctx, "crash broker-0")
	if p.actionErr {
		t.Fatalf("the action failed: %s", uitext.PlainText(p.run.actionMsg))
	}
	if !strings.Contains(p.run.script, "\ncrash broker-0\n") || p.run.editorText != p.run.script || p.run.engine.Script() != p.run.script {
		t.Fatalf("the editor does not show the new script:\n%s", p.run.script)
	}
	if snap := p.run.engine.Snapshot(); snap.Brokers[0].Status != "crashed" {
		t.Errorf("broker-0 is %s after the crash", snap.Brokers[0].Status)
	}
	p.onUndo(ctx, app.Event{})
	if p.run.script != old || p.run.engine.Script() != old {
		t.Error("Undo did not bring the original script back")
	}
}

func TestActRefusesToWriteIntoABrokenScript(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	p.run.engine.Seek(5)
	p.run.script = p.run.script + "app sned\n"
	p.applyEdits(ctx)
	if p.run.scriptErr == nil {
		t.Fatal("no parse error")
	}
	typed := p.run.script
	p.act(ctx, "crash broker-0")
	if !p.actionErr || !strings.Contains(uitext.PlainText(p.run.actionMsg), "fix it first") {
		t.Errorf("the action was not refused: %q", uitext.PlainText(p.run.actionMsg))
	}
	if p.run.script != typed {
		t.Error("the refused action changed what the learner typed")
	}
	html := render(p)
	for _, want := range []string{`role="alert"`, `aria-invalid`, `class="ln error"`, `class="error-at"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

// Unapplied edits are run before an action, so the action lands in the
// script the learner sees.
func TestActAppliesPendingEditsFirst(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	p.run.engine.Seek(p.run.engine.Len())
	p.run.script += "# my note\n"
	p.act(ctx, "reader poll")
	if !strings.Contains(p.run.script, "# my note\n") || !strings.HasSuffix(p.run.script, "reader poll\n") {
		t.Errorf("script after the action:\n%s", p.run.script)
	}
}

func TestDiagramLayout(t *testing.T) {
	e := engine.New()
	sc, _ := scenarioBySlug("zombie-fencing-init")
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	l := diagram.LayoutOf(e.Names(), e.History(), e.History(), 0, diagram.Filter{})
	var names []string
	for _, ln := range l.Lanes {
		names = append(names, ln.Node)
	}
	if got := strings.Join(names, " "); got != "c1 p1 p2 broker-0 broker-1 broker-2" {
		t.Errorf("lanes %q: clients left, brokers right by number", got)
	}
	fenced := 0
	for _, a := range l.Arrows {
		ev := &e.History()[a.Send]
		if ev.Internal {
			t.Errorf("replication traffic drawn by default: %s", ev.Line(e.Names()))
		}
		if a.InFlight {
			t.Errorf("an arrow is in flight at the end: %s", ev.Line(e.Names()))
		}
		if a.ToRow <= a.FromRow {
			t.Errorf("an arrow goes back in time: %s", ev.Line(e.Names()))
		}
		if ev.API == protocol.EndTxn && ev.Resp && ev.Error == protocol.PRODUCER_FENCED {
			fenced++
		}
	}
	if fenced != 1 {
		t.Errorf("%d fenced EndTxn responses", fenced)
	}
	var paused bool
	for _, s := range l.Spans {
		paused = paused || e.Names().Name(s.Node) == "p1" && s.Paused && s.To > s.From
	}
	if !paused {
		t.Error("p1's pause is not marked on its lifeline")
	}
	all := diagram.LayoutOf(e.Names(), e.History(), e.History(), 0, diagram.Filter{Replication: true})
	if len(all.Rows) <= len(l.Rows) {
		t.Error("showing replication added no rows")
	}
	noFetch := diagram.LayoutOf(e.Names(), e.History(), e.History(), 0, diagram.Filter{HideFetch: true})
	for _, r := range noFetch.Rows {
		if e.History()[r].API == protocol.Fetch {
			t.Fatal("a Fetch row with Fetch polling hidden")
		}
	}
}

// Only the rows on screen are drawn, however long the history.
func TestDiagramDrawsOnlyTheRowsOnScreen(t *testing.T) {
	p := newTestPlayground(t, "markers-fail")
	p.onRunToEnd(ctx, app.Event{})
	l := p.run.layout()
	if l.NowRow < 500 {
		t.Fatalf("only %d rows: pick a longer scenario", l.NowRow)
	}
	from, to := p.run.window()
	drawn := diagram.DrawRows(l, p.run.engine.Events(), from, to, 0)
	if len(drawn) > 200 {
		t.Errorf("%d shapes drawn for a window of %d rows", len(drawn), to-from)
	}
	if n := strings.Count(render(p), "<g"); n > 400 {
		t.Errorf("%d groups in the page", n)
	}
}

func TestMessageLabels(t *testing.T) {
	e := engine.New()
	sc, _ := scenarioBySlug("zombie-fencing-init")
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"InitProducerId(txn=order-txn-1)":          false,
		"InitProducerId → CONCURRENT_TRANSACTIONS": false,
		"InitProducerId → pid=0 epoch=2":           false,
		"EndTxn → PRODUCER_FENCED":                 false,
	}
	for i := range e.History() {
		ev := &e.History()[i]
		if ev.Kind != sim.KindSend || ev.Internal {
			continue
		}
		l := diagram.MessageLabel(ev)
		if _, ok := want[l]; ok {
			want[l] = true
		}
		if len([]rune(l)) > diagram.MaxLabel {
			t.Errorf("label %q is longer than %d", l, diagram.MaxLabel)
		}
	}
	for l, seen := range want {
		if !seen {
			t.Errorf("no arrow labelled %q", l)
		}
	}
}

func TestMessageFieldsNameTheErrorCode(t *testing.T) {
	e := engine.New()
	sc, _ := scenarioBySlug("zombie-fencing-init")
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	for i := range e.History() {
		ev := &e.History()[i]
		if ev.Kind == sim.KindSend && ev.Error == protocol.PRODUCER_FENCED {
			fs := diagram.MessageFields(ev.Msg)
			if len(fs) == 0 || fs[0].Name != "ErrorCode" || fs[0].Value != "PRODUCER_FENCED (90)" {
				t.Errorf("fields %+v", fs)
			}
			return
		}
	}
	t.Fatal("no fenced response")
}

func TestExports(t *testing.T) {
	e := engine.New()
	sc, _ := scenarioBySlug("zombie-fencing-init")
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	e.Seek(e.Len())
	svgText := diagram.SVG(e.Names(), e.History(), e.Events(), diagram.Filter{})
	dec := xml.NewDecoder(strings.NewReader(svgText))
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SVG export is not well-formed XML: %v", err)
		}
	}
	for _, want := range []string{`xmlns="http://www.w3.org/2000/svg"`, `data-error="PRODUCER_FENCED"`, `<style>`} {
		if !strings.Contains(svgText, want) {
			t.Errorf("the SVG export lacks %s", want)
		}
	}
	m := diagram.Mermaid(e.Names(), e.Events(), diagram.Filter{})
	for _, want := range []string{"sequenceDiagram\n", "participant p1", "p1->>broker_0", "broker_0-->>p1", "PRODUCER_FENCED"} {
		if !strings.Contains(m, want) {
			t.Errorf("the Mermaid export lacks %q", want)
		}
	}
}

// No two library scenarios share a title: the list and the cards are
// told apart by it.
func TestLibraryTitlesAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, sc := range Library() {
		if other, dup := seen[sc.Title]; dup {
			t.Errorf("%s and %s share the title %q", other, sc.Slug, sc.Title)
		}
		seen[sc.Title] = sc.Slug
	}
}

func TestLibraryReadsTheScenariosPackage(t *testing.T) {
	list := Library()
	if len(list) < 10 {
		t.Fatalf("%d scenarios", len(list))
	}
	for _, sc := range list {
		if sc.Slug == "" || sc.Title == "" || sc.Purpose == "" || sc.Script == "" {
			t.Errorf("scenario %+v lacks a slug, title, purpose or script", sc.Slug)
		}
		if strings.HasPrefix(sc.Purpose, sc.Title) {
			t.Errorf("%s: the purpose repeats the title", sc.Slug)
		}
	}
	if _, ok := scenarioBySlug("broken/coordinator-epoch-off"); !ok {
		t.Error("a broken/ slug is not found")
	}
	if _, ok := scenarioBySlug("no-such-thing"); ok {
		t.Error("found a scenario that does not exist")
	}
	if got := site.PlaygroundLink("broken/coordinator-epoch-off"); got != "/playground?scenario=broken/coordinator-epoch-off" {
		t.Errorf("link %s", got)
	}
}

func TestShareLinksRoundTrip(t *testing.T) {
	for _, sc := range Library() {
		enc := EncodeScript(sc.Script)
		if strings.ContainsAny(enc, "+/=#&") {
			t.Fatalf("%s: the encoding is not URL-safe", sc.Slug)
		}
		got, ok, err := sharedScript("s=" + enc)
		if !ok || err != nil || got != sc.Script {
			t.Fatalf("%s: round trip failed: %v", sc.Slug, err)
		}
	}
	// A link made by the encoder before 097cf62 (compress/flate's, best
	// compression: a dynamic block, then the empty stored block of its
	// flush): links learners pasted must keep opening.
	const old = "NIxBCgIxDADvfUU-oFA99zHZNEjYbhOSVPT3ssLeBmYYGiuSHTbXnT3as6SaEKh39gBDT0nRGe1RzLUvYgerkI4zkE6F4y695edWi1XY-CXzhODZr83O34bwxrG4_SvS45AsvwAAAP__"
	want := "cluster brokers=3\ntopic orders partitions=2\nproducer p1 transactional.id=tx-1\np1 begin\np1 send orders key=a value=1\np1 commit\n"
	if got, ok, err := sharedScript("s=" + old + "&p=3"); !ok || err != nil || got != want {
		t.Errorf("a link made by compress/flate: %q, %v", got, err)
	}
	if _, ok, err := sharedScript("s=%%%"); ok || err == nil {
		t.Error("a broken link was accepted")
	}
	if _, ok, err := sharedScript("s=" + old[:len(old)/2]); ok || err == nil {
		t.Error("a link cut in half was accepted")
	}
	if _, ok, err := sharedScript("other=1"); ok || err != nil {
		t.Error("a fragment without a script")
	}
}

// A fenced zombie's card offers nothing but what a FATAL_ERROR producer
// can still do: its transaction buttons and sends are inactive, and the
// card says why.
func TestFatalProducerCardIsInactive(t *testing.T) {
	p := newTestPlayground(t, "zombie-fencing-init")
	p.onRunToEnd(ctx, app.Event{})
	snap := p.run.engine.Snapshot()
	var card string
	for _, pr := range snap.Producers {
		if pr.Name == "p1" {
			if pr.State != "FATAL_ERROR" {
				t.Fatalf("p1 ends in %s; the test wants a fenced producer", pr.State)
			}
			group, offsets := panels.OffsetsGuess(snap)
			card = app.HTMLString(panels.ProducerCard(p.run.lang, p.act, pr, nil, group, offsets))
		}
	}
	for _, stmt := range []string{"p1 init", "p1 begin", "p1 commit", "p1 abort"} {
		i := strings.Index(card, `data-stmt="`+stmt+`"`)
		start := strings.LastIndex(card[:max(i, 0)], "<button")
		end := max(i, 0) + strings.IndexByte(card[max(i, 0):], '>')
		// The whole tag: go-app writes attributes in no fixed order.
		if tag := card[max(start, 0):max(end, 0)]; i < 0 || start < 0 || !strings.Contains(tag, "aria-disabled") || strings.Contains(tag, `aria-disabled="false"`) {
			t.Errorf("%s is active on a fatal producer's card", stmt)
		}
	}
	if !strings.Contains(card, "can only be closed") {
		t.Error("the card does not say the producer is done for")
	}
}

func TestSharedPos(t *testing.T) {
	for frag, want := range map[string]int{"s=abc&p=7": 7, "p=0&s=x": 0, "s=abc": -1, "s=abc&p=-3": -1, "s=abc&p=x": -1, "": -1} {
		if got := sharedPos(frag); got != want {
			t.Errorf("sharedPos(%q) = %d, want %d", frag, got, want)
		}
	}
}

// Every library scenario is listed under exactly one topic of the
// scenarios page, and every topic names only library scenarios.
func TestEveryScenarioHasATopic(t *testing.T) {
	seen := map[string]int{}
	for _, topic := range LibraryTopics {
		for _, slug := range topic.Slugs {
			if _, ok := scenarioBySlug(slug); !ok {
				t.Errorf("topic %q names %s, which the library lacks", topic.Title, slug)
			}
			seen[slug]++
		}
	}
	for _, sc := range Library() {
		if seen[sc.Slug] != 1 {
			t.Errorf("%s is under %d topics", sc.Slug, seen[sc.Slug])
		}
	}
}

// The fields panel shows a request's API version (the classic client's
// when the message does not record one), and an EndTxn response's
// producer id and epoch only from version 5, which carries them.
func TestMessageFieldsShowTheVersion(t *testing.T) {
	get := func(fs []protocol.Field, name string) (string, bool) {
		for _, f := range fs {
			if f.Depth == 0 && f.Name == name {
				return f.Value, true
			}
		}
		return "", false
	}
	if v, _ := get(diagram.MessageFields(&protocol.EndTxnRequest{}), "Version"); v != "3" {
		t.Errorf("classic EndTxn shows version %q", v)
	}
	if v, _ := get(diagram.MessageFields(&protocol.EndTxnRequest{Version: 5}), "Version"); v != "5" {
		t.Errorf("EndTxn v5 shows version %q", v)
	}
	if _, ok := get(diagram.MessageFields(&protocol.EndTxnResponse{}), "ProducerEpoch"); ok {
		t.Error("a v3 EndTxn response shows a ProducerEpoch it does not carry")
	}
	if v, _ := get(diagram.MessageFields(&protocol.EndTxnResponse{Version: 5, ProducerEpoch: 7}), "ProducerEpoch"); v != "7" {
		t.Errorf("EndTxn v5 response epoch %q", v)
	}
}

// Typing on after a line that did not parse makes the error an older
// text's: until the edits run, the editor says they are about to, so
// nothing waiting for "no edit pending" (a learner, a test) acts on the
// old error (a move refused because of a line since fixed).
func TestAnErrorOfAnOlderTextSaysTheEditsAreRunning(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	p.run.script += "reader p\n"
	p.applyEdits(ctx)
	if p.run.scriptErr == nil {
		t.Fatal("no parse error")
	}
	if html := render(p); strings.Contains(html, "editor-status") {
		t.Error("the editor says the edits are running while they stopped at an error")
	}
	p.run.script = strings.TrimSuffix(p.run.script, "reader p\n") + "reader poll\n" // typed, not run yet
	if html := render(p); !strings.Contains(html, "editor-status") {
		t.Error("the editor shows the older text's error without saying the edits are about to run")
	}
	p.applyEdits(ctx)
	for p.run.busy {
		p.work(ctx, p.run.busyGen, nil, false)
	}
	if p.run.scriptErr != nil || p.run.engine.Script() != p.run.script {
		t.Fatalf("the fixed script did not run: %v", p.run.scriptErr)
	}
	if html := render(p); strings.Contains(html, "editor-status") {
		t.Error("the editor still says the edits are running after they ran")
	}
}

// Run to end pressed while a run is in progress (the engine's worker
// answers a run a message later) goes to the end of the history the run
// brings, rather than to the end of the one it replaces.
func TestRunToEndDuringARunWaitsForItsHistory(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	var ev app.Event
	if err := p.run.engine.Begin(p.run.engine.Script()); err != nil {
		t.Fatal(err)
	}
	p.run.busyGen++
	p.run.busy = true
	p.onRunToEnd(ctx, ev)
	p.work(ctx, p.run.busyGen, nil, false)
	if n := p.run.engine.Len(); n == 0 || p.run.engine.Pos() != n {
		t.Errorf("Run to end pressed during the run: at %d of %d, want the end", p.run.engine.Pos(), n)
	}
}

// Step pressed before the page's first history came (the engine's worker
// answers a run a message later) is taken once it comes.
func TestStepDuringTheFirstRunIsTakenWhenItsHistoryComes(t *testing.T) {
	p := NewPlayground()
	sc, _ := scenarioBySlug("happy-path")
	if err := p.run.engine.Begin(sc.Script); err != nil {
		t.Fatal(err)
	}
	p.run.busyGen++
	p.run.busy = true
	var ev app.Event
	p.onStep(ctx, ev)
	p.onStep(ctx, ev)
	p.work(ctx, p.run.busyGen, nil, false)
	if p.run.engine.Len() == 0 || p.run.engine.Pos() != 2 {
		t.Errorf("two steps pressed during the first run: at %d of %d, want 2", p.run.engine.Pos(), p.run.engine.Len())
	}
}

// The editor's blocks are the script's lines, editorBlockLines to a
// block, joined as they were: the gutter numbers every line, the empty
// one after a final newline included.
func TestScriptBlocksAreTheLinesJoined(t *testing.T) {
	for _, n := range []int{0, 1, 2, editorBlockLines - 1, editorBlockLines, editorBlockLines + 1, 3*editorBlockLines + 7} {
		for _, end := range []string{"", "\n"} {
			var ls []string
			for i := range n {
				ls = append(ls, fmt.Sprintf("line %d", i+1))
			}
			script := strings.Join(ls, "\n") + end
			lines := strings.Split(script, "\n")
			var want []string
			for first := 0; first < len(lines); first += editorBlockLines {
				want = append(want, strings.Join(lines[first:min(first+editorBlockLines, len(lines))], "\n"))
			}
			got, count := scriptBlocks(script)
			if count != len(lines) || !slices.Equal(got, want) {
				t.Errorf("%d lines + %q: %d lines in %d blocks, want %d in %d", n, end, count, len(got), len(lines), len(want))
			}
		}
	}
}
