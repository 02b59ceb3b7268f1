package playground

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"
	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/uitext"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// lessonScript is a short scenario as a lesson block holds one.
const lessonScript = `cluster brokers=3
topic orders partitions=1
producer app transactional.id=order-txn-1
app init
app begin
app send orders/0 k=v
app commit
run
`

// atPos answers every query with the query and the position, so a test
// sees which position the facts were evaluated at (the core's Query is
// wired by the integrator; see session.queryFn).
type atPos struct{ engine.Engine }

func (a atPos) Query(q string) (string, error) { return fmt.Sprintf("%s@%d", q, a.Pos()), nil }

// mountEmbedded mounts a lesson's embedded playground in go-app's test
// engine, with the facts answered by atPos.
func mountEmbedded(t *testing.T, e app.TestEngine, id, lang string) *ScenarioPlayground {
	t.Helper()
	s := &ScenarioPlayground{ID: id, Title: "EndTxn: commit", Script: lessonScript,
		Facts: []string{"txn order-txn-1 state", "partition orders/0 lso"}, Lang: lang}
	if err := e.Load(s); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	s.run.engine = atPos{s.run.engine}
	return s
}

// Before it runs (the server's pre-render, or a block not yet scrolled
// to), the playground shows its script and a placeholder, and has done
// no work.
func TestEmbeddedShowsTheScriptAndRunsNothingUntilAsked(t *testing.T) {
	e := app.NewTestEngine()
	s := mountEmbedded(t, e, "endtxn", "en")
	if s.run.engine.Script() != "" || s.run.engine.Len() != 0 || s.lazy.started {
		t.Fatalf("the playground ran before it was asked: script %q, %d steps", s.run.engine.Script(), s.run.engine.Len())
	}
	html := app.HTMLString(s.Render())
	for _, want := range []string{
		`<section `, `class="embedded-playground"`, `data-scenario="endtxn"`, `data-state="idle"`,
		`aria-label="Scenario script"`, "app send orders/0 k=v",
		`data-placeholder`, `data-action="run"`,
		`aria-label="Reset"`, `aria-label="Step back"`, `aria-label="Play"`, `aria-label="Pause"`,
		`aria-label="Step"`, `aria-label="Run to end"`, `aria-label="Position in the history"`,
		`data-digest="`, `data-fact="txn order-txn-1 state"`,
		`href="/playground#s=` + EncodeScript(lessonScript) + `"`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the embedded playground lacks %s", want)
		}
	}
	if strings.Contains(html, `aria-label="Sequence diagram"`) || strings.Contains(html, ` style=`) {
		t.Error("a diagram before the run, or an inline style")
	}
}

// A question card's ShowRequest runs the script and stops right after
// the line it names; the facts are the values there; a request for
// another block is not this one's.
func TestEmbeddedShowRequestStopsAfterTheLine(t *testing.T) {
	e := app.NewTestEngine()
	s := mountEmbedded(t, e, "endtxn", "en")
	other := &ScenarioPlayground{ID: "other", Script: lessonScript}
	other.OnInit()

	s.lazy.ctx.NewActionWithValue(ShowAction, ShowRequest{ID: "endtxn", Stop: 5})
	e.ConsumeAll()
	if s.run.busy || s.run.engine.Len() == 0 {
		t.Fatalf("the script did not run: busy=%v len=%d", s.run.busy, s.run.engine.Len())
	}
	want := s.run.engine.StepAfterLine(5)
	if got := s.run.engine.Pos(); got != want || got == 0 {
		t.Fatalf("at step %d, want %d (right after line 5)", got, want)
	}
	if l := s.run.engine.Line(); l <= 5 && l != 0 {
		t.Errorf("stopped on line %d, before line 5 ran", l)
	}
	html := app.HTMLString(s.Render())
	for _, want := range []string{
		`aria-label="Sequence diagram"`, `data-api="InitProducerId"`,
		`data-digest="` + s.run.engine.Digest() + `"`,
		fmt.Sprintf(`Step %d of %d`, want, s.run.engine.Len()),
		fmt.Sprintf(`<output data-value="txn order-txn-1 state@%d">`, want),
		fmt.Sprintf(`partition orders/0 lso@%d`, want),
	} {
		if !strings.Contains(html, want) {
			t.Errorf("after the ShowRequest the playground lacks %s", want)
		}
	}
	if strings.Contains(html, `data-placeholder`) {
		t.Error("the placeholder is still there")
	}

	// Stop 0 is the end; the script is already loaded, so nothing reruns.
	gen := s.run.histGen
	s.lazy.ctx.NewActionWithValue(ShowAction, ShowRequest{ID: "endtxn"})
	e.ConsumeAll()
	if s.run.engine.Pos() != s.run.engine.Len() || s.run.histGen != gen {
		t.Errorf("Stop 0: at %d of %d (histories %d → %d)", s.run.engine.Pos(), s.run.engine.Len(), gen, s.run.histGen)
	}
	if other.lazy.started {
		t.Error("a request for endtxn ran the block other")
	}
}

// A ShowRequest with its own script keeps the learner's edit on Undo;
// Reset goes back to the lesson's script; a parse error is shown at its
// line and column.
func TestEmbeddedKeepsTheLearnersEdit(t *testing.T) {
	e := app.NewTestEngine()
	s := mountEmbedded(t, e, "endtxn", "en")
	edited := lessonScript + "app begin\n"
	s.run.script = edited // as typing leaves it
	card := strings.Replace(lessonScript, "app commit", "app abort", 1)
	s.lazy.ctx.NewActionWithValue(ShowAction, ShowRequest{ID: "endtxn", Script: card, Stop: 7})
	e.ConsumeAll()
	if s.run.engine.Script() != card || s.run.script != card {
		t.Fatalf("the card's script was not loaded: %q", s.run.engine.Script())
	}
	if len(s.run.undo) != 1 || s.run.undo[0] != edited {
		t.Fatalf("the edit is not on Undo: %q", s.run.undo)
	}
	s.onUndo(s.lazy.ctx, app.Event{})
	if s.run.script != edited || s.run.engine.Script() != edited {
		t.Errorf("Undo did not bring the edit back")
	}
	s.onReset(s.lazy.ctx, app.Event{})
	if s.run.script != lessonScript || s.run.engine.Script() != lessonScript || s.run.engine.Pos() != 0 {
		t.Errorf("Reset: script %q at %d", s.run.script, s.run.engine.Pos())
	}

	s.lazy.ctx.NewActionWithValue(ShowAction, ShowRequest{ID: "endtxn", Script: "cluster brokers=3\napp bogus\n"})
	e.ConsumeAll()
	html := app.HTMLString(s.Render())
	if !strings.Contains(html, `data-line="2"`) || !strings.Contains(html, `role="alert"`) {
		t.Errorf("no parse error at line 2:\n%s", html)
	}
	if s.run.engine.Script() != lessonScript {
		t.Errorf("a script that does not parse replaced the history")
	}
}

// On a Chinese page what a reader sees and hears is Chinese, while the
// contract's English aria-labels stay for selectors: each such element is
// named in Chinese by aria-labelledby (which screen readers take first).
// The link leads to the full playground.
func TestEmbeddedSpeaksThePagesLanguage(t *testing.T) {
	e := app.NewTestEngine()
	s := mountEmbedded(t, e, "endtxn", "zh")
	s.onRun(s.lazy.ctx, app.Event{})
	e.ConsumeAll()
	html := app.HTMLString(s.Render())
	for _, want := range []string{
		`aria-label="Scenario script"`, `aria-labelledby="script-name-endtxn"`, `id="script-name-endtxn"`, ">场景脚本<",
		`aria-label="Sequence diagram"`, ">时序图<",
		`aria-label="Step"`, `aria-labelledby="endtxn-step"`, `id="endtxn-step"`, ">前进一步<",
		`data-action="reset"`, `data-action="back"`, `data-action="play"`, `data-action="pause"`,
		`data-action="step"`, `data-action="end"`,
		`href="/zh/playground#s=`, "在完整的演练场中打开",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the Chinese playground lacks %s", want)
		}
	}
	en := app.HTMLString(mountEmbedded(t, app.NewTestEngine(), "endtxn", "en").Render())
	if strings.Contains(en, "aria-labelledby") {
		t.Error("an English page names its controls twice")
	}
}

// Every string the embedded playground shows has its Chinese form.

// A lesson page reusing the component for another block starts again
// from the new script, and the history count goes on, so no chunk of the
// old diagram is taken for the new one's.
func TestEmbeddedStartsAgainOnANewScript(t *testing.T) {
	e := app.NewTestEngine()
	s := mountEmbedded(t, e, "endtxn", "en")
	s.onRun(s.lazy.ctx, app.Event{})
	e.ConsumeAll()
	gen := s.run.histGen
	s.Script = strings.Replace(lessonScript, "k=v", "k=w", 1)
	s.OnUpdate(s.lazy.ctx)
	if s.lazy.started || s.run.script != s.Script || s.run.engine.Len() != 0 || s.run.histGen <= gen {
		t.Errorf("after a new script: started=%v len=%d gen %d→%d", s.lazy.started, s.run.engine.Len(), gen, s.run.histGen)
	}
}

// An action button writes its statement into the script at the current
// step and runs again; Undo takes it out.
func TestEmbeddedActionWritesTheStatementAtTheStep(t *testing.T) {
	e := app.NewTestEngine()
	s := &ScenarioPlayground{ID: "pick", Title: "Pick", Script: lessonScript, Lang: "en",
		Actions: []string{"crash coordinator(order-txn-1)"}}
	if err := e.Load(s); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	s.onRun(s.lazy.ctx, app.Event{})
	e.ConsumeAll()
	s.run.engine.Seek(s.run.engine.Len() / 2)
	s.onAct(s.Actions[0])(s.lazy.ctx, app.Event{})
	e.ConsumeAll()
	if !strings.Contains(s.run.script, "crash coordinator(order-txn-1)") || s.run.engine.Script() != s.run.script {
		t.Fatalf("after the action the script is:\n%s\n(msg %q)", s.run.script, uitext.PlainText(s.run.actionMsg))
	}
	if !strings.Contains(app.HTMLString(s.Render()), `data-action="act"`) {
		t.Error("no action button")
	}
	s.onUndo(s.lazy.ctx, app.Event{})
	e.ConsumeAll()
	if s.run.script != lessonScript {
		t.Errorf("Undo left:\n%s", s.run.script)
	}
}

// heldRun is an engine whose next Work returns without finishing, as
// one in a worker does until the run's reply comes.
type heldRun struct {
	engine.Engine
	hold bool
}

func (h *heldRun) Work(budget time.Duration) (bool, error) {
	if h.hold {
		h.hold = false
		return false, nil
	}
	return h.Engine.Work(budget)
}

// A step taken while an edit's run is in progress (the engine's worker
// answers a run a message later) is where the new history opens.
func TestEmbeddedStepDuringAnEditsRunIsKept(t *testing.T) {
	e := app.NewTestEngine()
	s := mountEmbedded(t, e, "endtxn", "en")
	s.onRun(s.lazy.ctx, app.Event{})
	e.ConsumeAll()
	s.run.engine.Seek(2)
	held := &heldRun{Engine: s.run.engine, hold: true}
	s.run.engine = held
	s.run.script = lessonScript + "app begin\n"
	s.applyEdits(s.lazy.ctx)
	if !s.run.busy {
		t.Fatal("the edit's run ended at once: the test holds nothing")
	}
	s.onStep(s.lazy.ctx, app.Event{}) // on the old history, while the run goes on
	for deadline := time.Now().Add(5 * time.Second); s.run.busy && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
		e.ConsumeAll()
	}
	if s.run.busy || s.run.engine.Script() != s.run.script {
		t.Fatalf("the edit's run did not end")
	}
	if s.run.engine.Pos() != 3 {
		t.Errorf("after a step during the edit's run: at %d, want 3", s.run.engine.Pos())
	}
}

// renderCounter is a component of the update test below: it counts its
// renders and holds kid.
type renderCounter struct {
	app.Compo
	renders *int
	kid     app.UI
	ctx     app.Context
}

func (c *renderCounter) OnMount(ctx app.Context)     { c.ctx = ctx }
func (c *renderCounter) OnPreRender(ctx app.Context) { c.ctx = ctx }
func (c *renderCounter) Render() app.UI {
	*c.renders++
	if c.kid == nil {
		return app.Div()
	}
	return app.Div().Body(c.kid)
}

// isolatedCounter is a renderCounter whose updates stop at it, as a
// lesson's playground's do.
type isolatedCounter struct{ renderCounter }

func (c *isolatedCounter) IsolatesUpdates() {}

// A playground's moves and replies re-render it, not the lesson page
// around it (which drew the whole lesson again for each): its updates,
// and those of the components inside it, stop at it; a component that
// is no isolator still updates what is around it.
func TestEmbeddedUpdatesStopAtThePlayground(t *testing.T) {
	if _, ok := any(&ScenarioPlayground{}).(app.UpdateIsolator); !ok {
		t.Fatal("the embedded playground is no UpdateIsolator")
	}
	var page, pg, inner int
	in := &renderCounter{renders: &inner}
	mid := &isolatedCounter{renderCounter{renders: &pg, kid: in}}
	top := &renderCounter{renders: &page, kid: mid}
	e := app.NewTestEngine()
	if err := e.Load(top); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	counts := func() [3]int { return [3]int{page, pg, inner} }
	base := counts()
	in.ctx.Dispatch(func(app.Context) {})
	e.ConsumeAll()
	if got := counts(); got[0] != base[0] || got[1] != base[1]+1 || got[2] != base[2]+1 {
		t.Errorf("a dispatch inside the playground: renders (page, playground, inside) went %v → %v, want only the last two up by one", base, got)
	}
	base = counts()
	mid.ctx.Dispatch(func(ctx app.Context) { ctx.PreventUpdate() })
	e.ConsumeAll()
	if got := counts(); got != base {
		t.Errorf("a dispatch that prevents its update: renders went %v → %v", base, got)
	}
	base = counts()
	in2 := &renderCounter{renders: new(int)}
	plain := &renderCounter{renders: &page, kid: &renderCounter{renders: &pg, kid: in2}}
	e2 := app.NewTestEngine()
	if err := e2.Load(plain); err != nil {
		t.Fatal(err)
	}
	e2.ConsumeAll()
	base = counts()
	in2.ctx.Dispatch(func(app.Context) {})
	e2.ConsumeAll()
	if got := counts(); got[0] != base[0]+1 {
		t.Errorf("without an isolator the page did not re-render: %v → %v", base, got)
	}
}

// A lesson's playground says each step in a live region, as the full
// playground does: silent before the run, then the step's events in the
// page's language.
func TestEmbeddedNarratesTheStep(t *testing.T) {
	for _, lang := range []string{"en", "zh"} {
		e := app.NewTestEngine()
		s := mountEmbedded(t, e, "endtxn", lang)
		region := regexp.MustCompile(`(?s)<div[^>]*data-narration[^>]*>(.*?)</div>`)
		if m := region.FindStringSubmatch(app.HTMLString(s.Render())); m == nil || strings.TrimSpace(m[1]) != "" {
			t.Fatalf("%s: before the run the live region is %q", lang, m)
		}
		s.lazy.ctx.NewActionWithValue(ShowAction, ShowRequest{ID: "endtxn", Stop: 5})
		e.ConsumeAll()
		page := app.HTMLString(s.Render())
		m := region.FindStringSubmatch(page)
		if m == nil || !strings.Contains(page, `aria-live="polite"`) {
			t.Fatalf("%s: no live region", lang)
		}
		if want := panels.Narration(lang, s.run.engine, s.run.filter); html.UnescapeString(strings.TrimSpace(m[1])) != want || want == "" {
			t.Errorf("%s: the live region says %q, want %q", lang, strings.TrimSpace(m[1]), want)
		}
	}
}
