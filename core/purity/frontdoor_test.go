package purity_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sideDoors are fields a package must not reach through: it uses the
// front door its row names instead. The interpreter acts on and reads
// the simulation only through core/cluster's methods (world.go, ops.go,
// query.go), so what a script may do to the world is listed in one place.
var sideDoors = []struct {
	dir, field, front string
}{
	{"../scenario", "World", "core/cluster's methods (world.go: Now, Trace, Note, StatusOf, …)"},
}

// sideDoorUses lists, as file:line, the selectors .field in src that are
// not a package's exported name (sim.World, the type, is fine).
func sideDoorUses(fset *token.FileSet, f *ast.File, field string) []string {
	imported := map[string]bool{}
	for _, im := range f.Imports {
		name := strings.Trim(im.Path.Value, `"`)
		name = name[strings.LastIndex(name, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imported[name] = true
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != field {
			return true
		}
		if id, ok := sel.X.(*ast.Ident); ok && imported[id.Name] {
			return true
		}
		out = append(out, fset.Position(sel.Sel.Pos()).String())
		return true
	})
	return out
}

func TestNoSideDoors(t *testing.T) {
	for _, d := range sideDoors {
		files, err := filepath.Glob(filepath.Join(d.dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", d.dir, err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue // tests may look at the world to judge it
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, src, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range sideDoorUses(fset, f, d.field) {
				t.Errorf("%s reaches through .%s: use %s", at, d.field, d.front)
			}
		}
	}
}

func TestSideDoorCatches(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"package p\nimport \"txnlab/core/sim\"\nvar w *sim.World", 0},
		{"package p\nfunc f(s *S) { _ = s.Cluster.World.Now() }", 1},
		{"package p\nfunc f(c *C) { w := c.World; _ = w }", 1},
		{"package p\nfunc f(c *C) { _ = c.Now() }", 0},
	} {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := sideDoorUses(fset, f, "World"); len(got) != tc.want {
			t.Errorf("%q: %v, want %d", tc.src, got, tc.want)
		}
	}
}
