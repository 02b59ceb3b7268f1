package playground

import (
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The trace's lists draw each event once and keep its item (traceLines):
// what they show must still be the history's own lines after the script
// changes and in another language, never an item kept from before.
func TestTraceListsKeepNoItemOfAnotherHistoryOrLanguage(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	drawn := func(lang string) (kept, fresh string) {
		p.run.engine.Seek(p.run.engine.Len())
		d := &p.run.diagramState
		d.layout()
		n := len(d.full.Rows)
		kept = app.HTMLString((&traceList{Gen: p.run.histGen, Lang: lang, From: 0, To: n, d: d, lines: &p.trace.lines}).Render())
		fresh = app.HTMLString((&traceList{Gen: p.run.histGen, Lang: lang, From: 0, To: n, d: d}).Render())
		return kept, fresh
	}

	kept, fresh := drawn("en")
	if kept != fresh {
		t.Fatalf("the kept items differ from a fresh drawing:\n%s\n%s", kept, fresh)
	}
	// Drawn again from what was kept: the same.
	if again, _ := drawn("en"); again != fresh {
		t.Fatalf("drawn again from the kept items, the list changed:\n%s\n%s", again, fresh)
	}
	happy := fresh

	// Another script: the new history's lines, not the old ones.
	sc, _ := scenarioBySlug("zombie-fencing-init")
	p.setEditor(ctx, sc.Script)
	p.startLoad(ctx, sc.Script, nil)
	kept, fresh = drawn("en")
	if kept != fresh || kept == happy {
		t.Fatalf("after another script, the list shows kept items of the first:\n%s\n%s", kept, fresh)
	}
	zombie := fresh

	// Another language: the items are drawn anew.
	kept, fresh = drawn("zh")
	if kept != fresh || kept == zombie {
		t.Fatalf("in Chinese after English, the list is not the Chinese one:\n%s\n%s", kept, fresh)
	}
}
