package playground

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// The editor's gutter marks each expectation's line: ✓ passed (class
// "pass"), ✗ failed ("fail"), on either side of a block's edge (the
// backdrop draws 64 lines a block), each the only mark of its block, and
// no other line.
func TestEditorMarksEachExpectationsLine(t *testing.T) {
	p := newTestPlayground(t, "happy-path")
	lines := strings.Count(p.lib.original, "\n") // happy-path's, ending in a newline
	// Line 128 ends the second block and line 129 begins the third; a
	// fourth, of comments only, follows.
	script := p.lib.original + strings.Repeat("# a comment\n", 127-lines) +
		"expect invariants\nexpect violation\n" + strings.Repeat("# a comment\n", 70)
	p.setEditor(ctx, script)
	p.startLoad(ctx, script, nil)
	p.run.engine.Seek(p.run.engine.Len())
	html := app.HTMLString(p.renderEditor())
	gutter := regexp.MustCompile(`<div class="ln([^"]*)" data-line="(\d+)">`)
	marked, rows := map[int]string{}, 0
	for _, m := range gutter.FindAllStringSubmatch(html, -1) {
		n, _ := strconv.Atoi(m[2])
		rows = max(rows, n)
		for _, mark := range []string{"pass", "fail"} {
			if strings.Contains(m[1], mark) {
				marked[n] = mark
			}
		}
	}
	if rows <= 192 {
		t.Fatalf("the backdrop has %d rows, want a fourth block", rows)
	}
	want := map[int]string{18: "pass", 27: "pass", lines: "pass", 128: "pass", 129: "fail"}
	for line, mark := range want {
		if marked[line] != mark {
			t.Errorf("line %d is marked %q, want %q", line, marked[line], mark)
		}
	}
	for line, mark := range marked {
		if line > lines && want[line] == "" {
			t.Errorf("comment line %d is marked %q", line, mark)
		}
	}
}
