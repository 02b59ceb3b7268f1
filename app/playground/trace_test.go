package playground

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/workload"
)

// The trace's lists draw each event once and keep its item (traceLines):
// what the trace shows must still be the history's own lines after the
// script changes and in another language, never an item kept from
// before.
func TestTraceListsKeepNoItemOfAnotherHistoryOrLanguage(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	// drawn is the trace's lists at the history's end as the page draws
	// them, from the items it kept, and as a trace that kept none draws
	// them. (Only the lists: go-app writes an element's attributes in no
	// fixed order, the lists are markup of ours.)
	lists := regexp.MustCompile(`(?s)<ol start=.*?</ol>`)
	draw := func() string {
		return strings.Join(lists.FindAllString(app.HTMLString(p.renderTrace()), -1), "\n")
	}
	drawn := func() (kept, fresh string) {
		p.run.engine.Seek(p.run.engine.Len())
		kept = draw()
		saved := p.trace.lines
		p.trace.lines = traceLines{}
		fresh = draw()
		p.trace.lines = saved
		return kept, fresh
	}

	kept, fresh := drawn()
	if kept == "" || kept != fresh {
		t.Fatalf("the kept items differ from a fresh drawing:\n%s\n%s", kept, fresh)
	}
	// Drawn again from what was kept: the same.
	if again, _ := drawn(); again != fresh {
		t.Fatalf("drawn again from the kept items, the trace changed:\n%s\n%s", again, fresh)
	}
	happy := fresh

	// Another script: the new history's lines, not the old ones.
	sc, _ := scenarioBySlug("zombie-fencing-init")
	p.setEditor(ctx, sc.Script)
	p.startLoad(ctx, sc.Script, nil)
	kept, fresh = drawn()
	if kept != fresh || kept == happy {
		t.Fatalf("after another script, the trace shows kept items of the first:\n%s\n%s", kept, fresh)
	}
	zombie := fresh

	// Another language: the items are drawn anew.
	p.run.lang = "zh"
	kept, fresh = drawn()
	if kept != fresh || kept == zombie {
		t.Fatalf("in Chinese after English, the trace is not the Chinese one:\n%s\n%s", kept, fresh)
	}
}

// A step that drops the trace's oldest list (its events past traceShown)
// must leave every other list where it was among the box's children:
// go-app matches children by position, and lists that all moved one
// place were all drawn again, 200 items for the browser to parse in one
// step of a long history.
func TestTraceListsKeepTheirPlacesWhenTheOldestGoes(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	script := workload.Script(workload.ForMessages(400))
	p.setEditor(ctx, script)
	p.startLoad(ctx, script, nil)
	p.run.filter.Replication = true
	// places maps each list's first event to its place among the
	// lists' box's children, the dropped lists' empty boxes included.
	child := regexp.MustCompile(`<ol start="(\d+)"|<div class="trace-dropped">`)
	places := func() map[string]int {
		m := map[string]int{}
		for i, c := range child.FindAllStringSubmatch(app.HTMLString(p.renderTrace()), -1) {
			if c[1] != "" {
				m[c[1]] = i
			}
		}
		return m
	}
	moved, compared := 0, 0
	for pos := 1; pos <= p.run.engine.Len() && compared < 200; pos++ {
		p.run.engine.Seek(pos - 1)
		before := places()
		p.run.engine.Seek(pos)
		after := places()
		if _, whole := after["1"]; len(before) < traceShown/traceAlign || whole {
			continue // nothing dropped yet
		}
		for start, at := range before {
			if now, ok := after[start]; ok {
				compared++
				if now != at {
					moved++
				}
			}
		}
	}
	if compared == 0 {
		t.Fatal("no step dropped a list: the history is too short for the test")
	}
	if moved != 0 {
		t.Errorf("%d of %d lists moved to another place at a step", moved, compared)
	}
}
