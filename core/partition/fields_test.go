//go:build !js

// The check reads core/'s source and type-checks it: a property of the
// code, the same on every platform, and Node's wasm host has no GOROOT
// to import from.

package partition_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// watchedFields are the fields of Log that OffsetsOrdered reads. The
// assertions after each statement (cluster.AssertChanged) check only the
// logs whose methods changed them, so a write from outside this package
// would slip past them until the end of the run.
var watchedFields = map[string]bool{"Batches": true, "HighWatermark": true, "Ongoing": true, "Unreplicated": true}

// TestOffsetsChangeOnlyThroughMethods fails when code of core/ outside
// this package assigns one of Log's watched fields (or an element of
// one), which would make AssertChanged miss a breach.
func TestOffsetsChangeOnlyThroughMethods(t *testing.T) {
	dirs := map[string][]string{}
	err := filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		dir := filepath.Dir(path)
		if filepath.Base(dir) == "partition" || strings.Contains(dir, "testdata") {
			return nil
		}
		dirs[dir] = append(dirs[dir], path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	var bad []string
	for dir, files := range dirs {
		var parsed []*ast.File
		for _, f := range files {
			af, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			parsed = append(parsed, af)
		}
		info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		conf.Check(dir, fset, parsed, info)
		isLogField := func(e ast.Expr) bool {
			for {
				switch x := e.(type) {
				case *ast.IndexExpr:
					e = x.X
					continue
				case *ast.SliceExpr:
					e = x.X
					continue
				case *ast.ParenExpr:
					e = x.X
					continue
				case *ast.SelectorExpr:
					sel := info.Selections[x]
					if sel != nil && watchedFields[x.Sel.Name] && isLog(sel.Recv()) {
						return true
					}
					e = x.X
					continue
				}
				return false
			}
		}
		for _, af := range parsed {
			ast.Inspect(af, func(n ast.Node) bool {
				var lhs []ast.Expr
				switch s := n.(type) {
				case *ast.AssignStmt:
					lhs = s.Lhs
				case *ast.IncDecStmt:
					lhs = []ast.Expr{s.X}
				}
				for _, e := range lhs {
					if isLogField(e) {
						bad = append(bad, fset.Position(e.Pos()).String())
					}
				}
				return true
			})
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Errorf("%s: a field of partition.Log that OffsetsOrdered reads is set outside package partition", b)
	}
}

func isLog(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "Log" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "txnlab/core/partition"
}
