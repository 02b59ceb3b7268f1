package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axePages are the pages the accessibility audit reads: every page kind,
// both languages, and the lessons with tables, attacks and guarded
// playgrounds.
var axePages = []string{
	"/", "/lessons", "/lessons/review", "/scenarios", "/zh/scenarios", "/compare",
	"/playground", "/zh/playground",
	"/zh/lessons/00-scenario-language", "/lessons/03-transaction-protocols", "/zh/lessons/05-transaction-log",
	"/zh/lessons/06-reading-transactions", "/lessons/08-transaction-version-2",
}

// TestNoAccessibilityViolations runs axe-core (from npm; make test
// installs it, .ci/deps) on each of axePages once the app has drawn it, and
// fails on any violation it reports: a contrast under WCAG AA's 4.5:1, a
// control whose accessible name leaves out the words it shows, a region
// a keyboard cannot scroll, headings that skip a level, an empty table
// header, two landmarks with one name. Each of these was on the site
// when the audit first ran. Then the same in the dark theme, where the
// colours are another set, on the pages that use the most of them.
func TestNoAccessibilityViolations(t *testing.T) {
	axe := axeSource(t)
	br := newBrowser(t)
	audit := func(theme string, pages []string) {
		for _, p := range pages {
			br.open(p)
			time.Sleep(500 * time.Millisecond) // what the app draws after it mounts
			if _, err := chromedp.Run(br.ctx, chromedp.Evaluate[bool](axe+";true")); err != nil {
				t.Fatalf("%s: loading axe: %v", p, err)
			}
			found, err := chromedp.Run(br.ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v =>
				v.impact + " " + v.id + ": " + v.help + " (" + v.nodes.length + "): " +
				v.nodes.slice(0, 3).map(n => n.target.join(" ") + " " + (n.failureSummary || "").split("\n").slice(1, 2).join("")).join(" | ")))`, chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatalf("%s: running axe: %v", p, err)
			}
			for _, f := range found {
				t.Errorf("%s (%s theme): %s", p, theme, f)
			}
		}
	}
	audit("light", axePages)
	if _, err := chromedp.Call(br.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	audit("dark", []string{"/zh/lessons/03-transaction-protocols", "/playground", "/compare", "/lessons/review"})
}

// axeSource is axe-core's script, from npm's global modules (or
// NODE_PATH): the test skips without it, or fails under CI.
func axeSource(t *testing.T) string {
	t.Helper()
	var dirs []string
	if p := os.Getenv("NODE_PATH"); p != "" {
		dirs = append(dirs, strings.Split(p, string(os.PathListSeparator))...)
	}
	if out, err := exec.Command("npm", "root", "-g").Output(); err == nil {
		dirs = append(dirs, strings.TrimSpace(string(out)))
	}
	for _, d := range dirs {
		if b, err := os.ReadFile(d + "/axe-core/axe.min.js"); err == nil {
			return string(b)
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("axe-core is not installed (make test installs it, .ci/deps: npm install -g axe-core@4.14.1); looked in %v", dirs)
	}
	t.Skipf("axe-core is not installed (npm install -g axe-core@4.14.1); looked in %v", dirs)
	return ""
}
