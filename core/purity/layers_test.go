package purity_test

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// module is the module path of this repository (go.mod).
const module = "txnlab"

// externals names the large dependencies the table governs by a short
// name, so that a row can say `go-app` rather than a module path.
var externals = map[string]string{
	"go-app":   "github.com/maxence-charriere/go-app/",
	"goldmark": "github.com/yuin/goldmark",
	"chromedp": "github.com/chromedp/",
	"nats":     "github.com/nats-io/",
	"franz-go": "github.com/twmb/franz-go/",
}

// layer is one row of docs/architecture.md's package table.
type layer struct {
	line  int
	allow []string        // packages and externals it may import
	debts map[string]bool // of allow: imports the design wants gone
}

// tableRow matches a row whose first cell is a backquoted package name.
var tableRow = regexp.MustCompile("^\\| `([a-z0-9/_-]+)` \\|.*\\| (.*) \\|$")

// entry matches one allowed import in the last cell, with an optional
// "*debt: why*" after it.
var entry = regexp.MustCompile("`([a-z0-9/._-]+)`( \\*debt:[^*]*\\*)?")

// readLayers parses the package table of docs/architecture.md.
func readLayers(path string) (map[string]layer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	layers := map[string]layer{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		m := tableRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		if _, dup := layers[m[1]]; dup {
			return nil, fmt.Errorf("%s:%d: %s has two rows", path, n, m[1])
		}
		l := layer{line: n, debts: map[string]bool{}}
		for _, e := range entry.FindAllStringSubmatch(m[2], -1) {
			l.allow = append(l.allow, e[1])
			if e[2] != "" {
				l.debts[e[1]] = true
			}
		}
		layers[m[1]] = l
	}
	return layers, sc.Err()
}

// governed returns the table's name for an import path (a package of the
// module, or one of externals), or "" for an import the table does not
// govern (the standard library, small dependencies).
func governed(path string) string {
	if rest, ok := strings.CutPrefix(path, module+"/"); ok {
		return rest
	}
	for name, prefix := range externals {
		if strings.HasPrefix(path, prefix) {
			return name
		}
	}
	return ""
}

// moduleImports maps every package directory of the module (relative to
// root, slash-separated) to what its non-test files import, in the
// table's names.
func moduleImports(root string) (map[string][]string, error) {
	fset := token.NewFileSet()
	imports := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "third_party" || name == "node_modules" || strings.HasPrefix(name, ".") || name == "out" || name == "web") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, seen := imports[pkg]; !seen {
			imports[pkg] = nil
		}
		if strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if g := governed(p); g != "" && !slices.Contains(imports[pkg], g) {
				imports[pkg] = append(imports[pkg], g)
			}
		}
		return nil
	})
	return imports, err
}

// TestLayers enforces docs/architecture.md's package table on the module.
func TestLayers(t *testing.T) {
	root := filepath.Join("..", "..")
	doc := filepath.Join(root, "docs", "architecture.md")
	layers, err := readLayers(doc)
	if err != nil {
		t.Fatal(err)
	}
	imports, err := moduleImports(root)
	if err != nil {
		t.Fatal(err)
	}
	// Guard against a check that checks nothing (a moved tree, a table
	// that no longer parses).
	for _, must := range []string{"core/sim", "core/scenario", "app/pages", "cmd/txnlab"} {
		if _, ok := imports[must]; !ok {
			t.Fatalf("package %s not found under %s", must, root)
		}
		if _, ok := layers[must]; !ok {
			t.Fatalf("%s has no row for %s (rows: %d)", doc, must, len(layers))
		}
	}
	for _, p := range violations(layers, imports) {
		t.Error(p)
	}
}

// violations compares what packages import with what the table allows.
func violations(layers map[string]layer, imports map[string][]string) []string {
	var out []string
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		if p != "." {
			pkgs = append(pkgs, p)
		}
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		l, ok := layers[pkg]
		if !ok {
			out = append(out, fmt.Sprintf("package %s has no row in docs/architecture.md's table: add one saying what it holds and may import", pkg))
			continue
		}
		for _, imp := range imports[pkg] {
			if imp != pkg && !slices.Contains(l.allow, imp) {
				out = append(out, fmt.Sprintf("%s imports %s, which docs/architecture.md:%d does not allow", pkg, imp, l.line))
			}
		}
		for debt := range l.debts {
			if !slices.Contains(imports[pkg], debt) {
				out = append(out, fmt.Sprintf("%s no longer imports %s: the debt is paid, remove it from docs/architecture.md:%d", pkg, debt, l.line))
			}
		}
	}
	for name, l := range layers {
		if _, ok := imports[name]; !ok {
			out = append(out, fmt.Sprintf("docs/architecture.md:%d has a row for %s, which is not a package", l.line, name))
		}
		for _, a := range l.allow {
			if _, ext := externals[a]; !ext {
				if _, ok := imports[a]; !ok {
					out = append(out, fmt.Sprintf("docs/architecture.md:%d: %s may import %s, which is not a package", l.line, name, a))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestLayersCatch feeds the comparison a table and imports it must
// reject, so that a broken check cannot pass silently.
func TestLayersCatch(t *testing.T) {
	layers := map[string]layer{
		"core/sim":   {line: 1, allow: []string{"core/protocol"}, debts: map[string]bool{}},
		"core/check": {line: 2, allow: []string{"core/sim", "core/client"}, debts: map[string]bool{"core/client": true}},
		"gone":       {line: 3, debts: map[string]bool{}},
	}
	imports := map[string][]string{
		"core/sim":      {"core/protocol", "go-app"},
		"core/check":    {"core/sim"},
		"core/protocol": nil,
		"core/client":   nil,
	}
	got := strings.Join(violations(layers, imports), "\n")
	for _, want := range []string{
		"core/sim imports go-app",
		"core/check no longer imports core/client",
		"package core/protocol has no row",
		"row for gone, which is not a package",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("not reported: %q\ngot:\n%s", want, got)
		}
	}
}
