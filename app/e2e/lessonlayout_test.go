package e2e

import (
	"testing"
)

// TestLessonTablesKeepIdentifiersWhole (issue 24, polish): no Kafka
// identifier in a lesson's tables is split across lines, at a desktop's
// width or a phone's, in English or Chinese (a wide table scrolls in its
// own box), and no lesson page is wider than a phone's screen, after
// blocks opened (lesson 08 was 441 px wide on a 390 px phone).
func TestLessonTablesKeepIdentifiersWhole(t *testing.T) {
	b := newBrowser(t)
	const split = `[...document.querySelectorAll(".lesson-body table code")].filter(c => c.getClientRects().length > 1).map(c => c.textContent).slice(0, 5)`
	for _, size := range []struct{ w, h int64 }{{1280, 800}, {390, 844}} {
		setViewport(b, size.w, size.h, size.w < 500)
		for _, path := range []string{"/lessons/03-transaction-protocols", "/zh/lessons/03-transaction-protocols", "/lessons/08-transaction-version-2", "/zh/lessons/08-transaction-version-2"} {
			b.open(path)
			eval[bool](b, `(() => { document.querySelectorAll("details").forEach(d => d.open = true); return true })()`)
			if got := eval[[]string](b, split); len(got) > 0 {
				t.Errorf("%s at %d px: identifiers split across lines in a table: %q", path, size.w, got)
			}
			if size.w < 500 {
				if over := eval[int](b, `document.scrollingElement.scrollWidth - innerWidth`); over > 0 {
					wide := eval[[]string](b, `[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest("pre, table, .diagram-scroll")).slice(0, 5).map(e => e.outerHTML.slice(0, 100))`)
					t.Errorf("%s: the page is %d px wider than the phone's screen (%q)", path, over, wide)
				}
			}
		}
	}
}
