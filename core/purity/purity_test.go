// Package core_test guards what the whole of core/ may use. The same
// core runs in the browser (WebAssembly), the CLI and the tests, and must
// give the same trace for the same script and seed everywhere: so no
// clock, no OS, no network, no goroutines or locks, no randomness but the
// simulation's own seeded streams, and no UI library. layers_test.go
// guards the module's layering: what each package may import, as
// docs/architecture.md's table says.
package purity_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// forbidden maps an import path (or a path prefix ending in "/") to why
// core/ must not use it.
var forbidden = []struct{ path, why string }{
	{"time", "virtual time only: sim.Time (importing time at all is forbidden, even for durations)"},
	{"os", "no host access: core runs in a browser tab"},
	{"os/", "no host access: core runs in a browser tab"},
	{"net", "no real network: messages cross the simulated one"},
	{"net/", "no real network: messages cross the simulated one"},
	{"syscall/js", "no browser access: the app/ layer talks to the page"},
	{"math/rand", "randomness comes only from sim.Rand's seeded streams"},
	{"math/rand/v2", "randomness comes only from sim.Rand's seeded streams"},
	{"crypto/rand", "randomness comes only from sim.Rand's seeded streams"},
	{"sync", "one goroutine, no locks: the event loop is single-threaded"},
	{"sync/", "one goroutine, no locks: the event loop is single-threaded"},
	{"github.com/maxence-charriere/", "the UI library belongs in app/"},
}

func forbiddenWhy(path string) (string, bool) {
	for _, f := range forbidden {
		if path == f.path || (strings.HasSuffix(f.path, "/") && strings.HasPrefix(path, f.path)) {
			return f.why, true
		}
	}
	return "", false
}

// checkFile reports every forbidden import and every go statement of one
// parsed file.
func checkFile(fset *token.FileSet, f *ast.File) []string {
	var problems []string
	for _, imp := range f.Imports {
		path, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		if why, bad := forbiddenWhy(path); bad {
			problems = append(problems, fset.Position(imp.Pos()).String()+": imports "+strconv.Quote(path)+": "+why)
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if g, ok := n.(*ast.GoStmt); ok {
			problems = append(problems, fset.Position(g.Pos()).String()+": starts a goroutine: the simulation runs on the caller's goroutine, one event at a time")
		}
		return true
	})
	return problems
}

// TestCorePurity parses every non-test Go file under core/ (this test's
// directory, natively and under Node).
func TestCorePurity(t *testing.T) {
	fset := token.NewFileSet()
	var files, problems []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || (strings.HasPrefix(d.Name(), ".") && path != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			problems = append(problems, path+": "+err.Error())
			return nil
		}
		files = append(files, strings.TrimPrefix(filepath.ToSlash(path), "../"))
		problems = append(problems, checkFile(fset, f)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	// The walk must have seen the core: guard against a test that checks
	// nothing (a wrong working directory, a moved tree).
	for _, must := range []string{"sim/world.go", "sim/rand.go", "partition/log.go", "txncoord/coordinator.go", "scenario/interp.go"} {
		i := sort.SearchStrings(files, must)
		if i == len(files) || files[i] != must {
			t.Fatalf("%s was not checked; checked %d files: %v", must, len(files), files)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	t.Logf("%d files checked", len(files))
}

// TestPurityCheckerCatches feeds the checker code it must reject, so a
// broken checker cannot pass silently.
func TestPurityCheckerCatches(t *testing.T) {
	src := `package bad

import (
	"fmt"
	"time"
	stdos "os"
	"os/exec"
	"net/http"
	"sync"
	"sync/atomic"
	"math/rand"
	r2 "math/rand/v2"
	cr "crypto/rand"
	"syscall/js"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
	"timex"
	"osutil"
)

func f() {
	go fmt.Println()
	func() { go func() {}() }()
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "bad.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	problems := checkFile(fset, f)
	want := []string{`"time"`, `"os"`, `"os/exec"`, `"net/http"`, `"sync"`, `"sync/atomic"`, `"math/rand"`,
		`"math/rand/v2"`, `"crypto/rand"`, `"syscall/js"`, `"github.com/maxence-charriere/go-app/v10/pkg/app"`}
	joined := strings.Join(problems, "\n")
	for _, w := range want {
		if !strings.Contains(joined, "imports "+w+":") {
			t.Errorf("import %s not caught:\n%s", w, joined)
		}
	}
	for _, ok := range []string{`"fmt"`, `"timex"`, `"osutil"`} {
		if strings.Contains(joined, "imports "+ok+":") {
			t.Errorf("%s flagged wrongly", ok)
		}
	}
	if n := strings.Count(joined, "starts a goroutine"); n != 2 {
		t.Errorf("%d go statements caught, want 2:\n%s", n, joined)
	}
}
