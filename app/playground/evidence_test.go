package playground

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/panels"
	"txnlab/app/uitext"
	"txnlab/scenarios"
)

// TestBrokenExamplesExerciseTheirMechanism: every broken/ example of the
// library exercises the mechanism it breaks, so the break tab never
// tells a learner that switch is idle there; and the happy path, which
// sends no offsets and has one producer, says add-offsets and
// epoch-fencing are.
func TestBrokenExamplesExerciseTheirMechanism(t *testing.T) {
	for _, sc := range scenarios.All() {
		name, ok := strings.CutPrefix(sc.Slug, "broken/")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "-off")
		p := newTestPlayground(t, sc.Slug)
		if why, idle := panels.Unexercised(p.run.engine.History())[name]; idle {
			t.Errorf("%s: says %s is never exercised (%s)", sc.Slug, name, uitext.Tr("", why))
		}
	}
	p := newTestPlayground(t, "happy-path")
	idle := panels.Unexercised(p.run.engine.History())
	for _, name := range []string{"add-offsets", "epoch-fencing", "sequence-check"} {
		if _, ok := idle[name]; !ok {
			t.Errorf("happy-path: %s not reported idle", name)
		}
	}
	for _, name := range []string{"add-partitions", "lso-bound", "aborted-filter"} {
		if why, ok := idle[name]; ok {
			t.Errorf("happy-path: %s reported idle (%s), but the happy path uses it", name, uitext.Tr("", why))
		}
	}
	p.onRunToEnd(ctx, app.Event{})
	p.view.tab = panels.TabBreak
	html := render(p)
	if !strings.Contains(html, "This scenario never exercises add-offsets: no producer calls send-offsets") {
		t.Errorf("the break tab does not say add-offsets is idle:\n%s", html)
	}
}
