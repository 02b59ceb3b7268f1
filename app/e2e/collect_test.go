package e2e

import "testing"

// TestEveryPageLooksForIdleMoments opens the playground and a Chinese
// lesson and checks that each page started its idle collections
// (browser.CollectWhenIdle, called by cmd/wasm's main for every page):
// Chromium has requestIdleCallback and counts events, so a page that
// does not say so (data-idle-collect) never collects in the browser's
// idle moments, and its collections land in the learner's moves.
func TestEveryPageLooksForIdleMoments(t *testing.T) {
	b := newBrowser(t)
	for _, path := range []string{"/playground", "/zh/lessons/01-why-transactions"} {
		b.open(path)
		if got := eval[string](b, `document.documentElement.dataset.idleCollect ?? "not said"`); got != "on" {
			t.Errorf("%s: the page's idle collections: %s, want on", path, got)
		}
	}
}
