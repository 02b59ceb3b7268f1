package lessons

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoUnsafeHTML keeps goldmark's default of leaving raw HTML out: no
// file of the package (tests aside) may use html.WithUnsafe, and a lesson
// full of raw HTML renders none of it.
func TestNoUnsafeHTML(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "WithUnsafe" {
				t.Errorf("%s: uses %s.WithUnsafe: lessons never pass raw HTML through", fset.Position(sel.Pos()), sel.X)
			}
			return true
		})
	}

	src := "<script>alert(1)</script>\n\n<iframe src=x></iframe>\n\nA <img src=x onerror=alert(1)> and <a href=x>link</a>.\n"
	var buf bytes.Buffer
	if err := NewMarkdown().Convert([]byte(src), &buf); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"<script", "<iframe", "<img", "<a href"} {
		if strings.Contains(buf.String(), bad) {
			t.Errorf("raw HTML %q passed through:\n%s", bad, buf.String())
		}
	}
}
