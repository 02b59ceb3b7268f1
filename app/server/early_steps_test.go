//go:build !wasm

package server

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/app/playground"
	"txnlab/scenarios"
)

var earlyTemplate = regexp.MustCompile(`(?s)<template data-early-step="(\d+)" data-early-at="([^"]*)">(.*?)</template>`)

// The playground's page carries its first steps (issue 13: Step works
// before the wasm has started): for each of the first EarlySteps steps,
// the parts a step changes, in the page's language, with the position,
// the digest and the diagram of that step.
func TestThePlaygroundsFirstStepsAreServerRendered(t *testing.T) {
	s := newLessonServer(t)
	for _, tc := range []struct{ path, slug, step string }{
		{"/playground", "happy-path", "Step %d of %d"},
		{"/zh/playground?scenario=abort", "abort", "第 %d 步 / 共 %d 步"},
	} {
		sc, ok := scenarios.Get(tc.slug)
		if !ok {
			t.Fatalf("no scenario %s", tc.slug)
		}
		e := engine.New()
		if err := e.Load(sc.Script); err != nil {
			t.Fatal(err)
		}
		body := get(t, s, tc.path).Body.String()
		parts := map[string][]string{} // step → the selectors it replaces
		rows := -1
		for _, m := range earlyTemplate.FindAllStringSubmatch(body, -1) {
			parts[m[1]] = append(parts[m[1]], m[2])
			if !strings.Contains(m[2], "stage") {
				continue
			}
			var k int
			fmt.Sscan(m[1], &k)
			e.Seek(k)
			if want := fmt.Sprintf(tc.step, k, e.Len()); !strings.Contains(m[3], want) {
				t.Errorf("GET %s: step %d's stage does not say %q", tc.path, k, want)
			}
			if want := `data-digest="` + e.Digest() + `"`; !strings.Contains(m[3], want) {
				t.Errorf("GET %s: step %d's stage has not the digest of step %d (%s)", tc.path, k, k, want)
			}
			var n int
			fmt.Sscan(regexp.MustCompile(`data-rows="(\d+)"`).FindStringSubmatch(m[3])[1], &n)
			if n < rows || (k == playground.EarlySteps && n == 0) {
				t.Errorf("GET %s: step %d's diagram has %d rows, after %d at the step before", tc.path, k, n, rows)
			}
			rows = n
			if strings.HasPrefix(tc.path, "/zh/") && strings.Contains(m[3], ">Step ") {
				t.Errorf("GET %s: step %d's stage speaks English", tc.path, k)
			}
		}
		// The page itself stays at step 0: the steps are rendered on its
		// engine, which goes back there before the page is written.
		e.Seek(0)
		page := earlyTemplate.ReplaceAllString(body, "")
		if want := fmt.Sprintf(tc.step, 0, e.Len()); !strings.Contains(page, want) || !strings.Contains(page, `data-digest="`+e.Digest()+`"`) || !strings.Contains(page, `data-rows="0"`) {
			t.Errorf("GET %s: the page outside its early steps is not at step 0 (%q, digest %s, no rows)", tc.path, want, e.Digest())
		}
		if len(parts) != playground.EarlySteps {
			t.Fatalf("GET %s: %d steps rendered ahead, want %d", tc.path, len(parts), playground.EarlySteps)
		}
		for k, at := range parts {
			if len(at) != 6 || !strings.Contains(strings.Join(at, " "), ".playground &gt; .cluster") {
				t.Errorf("GET %s: step %s replaces %q", tc.path, k, at)
			}
		}
	}
	// A page with no playground has none.
	if body := get(t, s, "/scenarios").Body.String(); strings.Contains(body, "<template data-early-step") {
		t.Errorf("GET /scenarios: early steps on a page without a playground")
	}
}
