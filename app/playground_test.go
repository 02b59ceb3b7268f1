package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// newTestPlayground is the playground as its route builds it, with a
// script loaded as OnNav would.
func newTestPlayground(t *testing.T, script string) *playground {
	t.Helper()
	p := &playground{engine: newFakeEngine()}
	p.editorText, p.script = script, script
	p.load()
	return p
}

// render renders the page's current state to HTML. Render builds a fresh
// tree each call, so no mounted component caches an old one.
func render(p *playground) string { return app.HTMLString(p.Render()) }

func TestPlaygroundRendersTheContract(t *testing.T) {
	html := render(newTestPlayground(t, defaultScript))
	for _, want := range []string{
		`aria-label="Scenario script"`,
		`aria-label="Reset"`, `aria-label="Step back"`, `aria-label="Play"`,
		`aria-label="Pause"`, `aria-label="Step"`, `aria-label="Run to end"`,
		`aria-label="Sequence diagram"`,
		`data-digest="`,
		`aria-label="Cluster"`,
		`Step 0 of 5`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("the playground lacks %s", want)
		}
	}
}

func TestTransportMovesThroughTheHistory(t *testing.T) {
	p := newTestPlayground(t, defaultScript)
	var ctx app.Context
	var ev app.Event
	d0 := p.engine.Digest()

	p.onStep(ctx, ev)
	if html := render(p); !strings.Contains(html, "Step 1 of 5") || !strings.Contains(html, "FindCoordinator(txn=order-txn-1)") {
		t.Errorf("after Step: %s", html)
	}
	if p.engine.Digest() == d0 {
		t.Errorf("a step left the digest at %s", d0)
	}
	p.onStepBack(ctx, ev)
	if p.engine.Pos() != 0 || p.engine.Digest() != d0 {
		t.Errorf("Step back: at %d, digest %s, want 0 and %s", p.engine.Pos(), p.engine.Digest(), d0)
	}
	p.onStepBack(ctx, ev) // at 0: nothing to undo
	if p.engine.Pos() != 0 {
		t.Errorf("Step back at 0 moved to %d", p.engine.Pos())
	}
	p.onRunToEnd(ctx, ev)
	if p.engine.Pos() != 5 {
		t.Errorf("Run to end: at %d, want 5", p.engine.Pos())
	}
	p.onStep(ctx, ev) // at the end: nothing to do
	if p.engine.Pos() != 5 {
		t.Errorf("Step at the end moved to %d", p.engine.Pos())
	}
	p.onReset(ctx, ev)
	if p.engine.Pos() != 0 {
		t.Errorf("Reset: at %d", p.engine.Pos())
	}
}

func TestScriptErrorIsShownAtItsPlace(t *testing.T) {
	p := newTestPlayground(t, "a -> b: hello\n\n  -> c: who")
	if p.scriptErr == nil || p.scriptErr.Line != 3 || p.scriptErr.Col != 1 {
		t.Fatalf("error %#v, want line 3 column 1", p.scriptErr)
	}
	html := render(p)
	for _, want := range []string{`role="alert"`, "Line 3, column 1: missing sender", `aria-invalid`} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
}

func TestUnknownScenarioFallsBackToTheDefault(t *testing.T) {
	if _, ok := scenarioBySlug("no-such-thing"); ok {
		t.Fatal("found a scenario that does not exist")
	}
}

func TestDiagramIsSVG(t *testing.T) {
	p := newTestPlayground(t, defaultScript)
	p.engine.Seek(5)
	ui := sequenceDiagram(p.engine.Events(), "trace")
	root, ok := ui.(app.HTML)
	if !ok || root.Tag() != "svg" || root.XMLNamespace() != svgNS {
		t.Fatalf("the diagram root is %T %v", ui, ui)
	}
	html := app.HTMLString(ui)
	for _, want := range []string{`aria-describedby="trace"`, `class="lifeline"`, "→ pid=0 epoch=1", `marker-end="url(#arrowhead)"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the diagram lacks %s", want)
		}
	}
}

func TestLibraryReadsTitlesFromTheScripts(t *testing.T) {
	list := Library()
	if len(list) < 2 {
		t.Fatalf("%d scenarios", len(list))
	}
	for _, sc := range list {
		if sc.Slug == "" || sc.Title == "" || sc.Purpose == "" || sc.Title == sc.Slug {
			t.Errorf("scenario %+v lacks a slug, title or purpose", sc)
		}
		if err := newFakeEngine().Load(sc.Script); err != nil {
			t.Errorf("scenario %s does not load: %v", sc.Slug, err)
		}
	}
	if list[0].Slug != "commit" {
		t.Errorf("first scenario %q: the numeric prefix should order and then drop", list[0].Slug)
	}
}
