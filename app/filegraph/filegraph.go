// Package filegraph measures how a package's files lean on each other
// (issue 26): file A depends on file B when A uses a name declared in B
// (a function, type, variable, constant, method or struct field). A
// package whose files could be read bottom-up has few dependencies that
// run back up; one where every file reaches into every other is hard to
// learn and to split.
//
// The measure is reproducible and needs no build: the files are parsed
// and type-checked with the standard library alone, and imported
// packages are left empty (their names resolve to nothing, which is
// what a count of dependencies among the package's own files wants).
package filegraph

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// Edge is one dependency between two files of a package: From uses
// Uses names declared in To.
type Edge struct {
	From, To string
	Uses     int
}

// Component is a go-app component of the package: a struct type that
// embeds app.Compo, with its own fields and those its embedded local
// structs add.
type Component struct {
	Name     string
	Fields   int // declared directly, embedded app.Compo excluded
	Embedded int // fields of the package's own structs it embeds
	Methods  int // methods declared on it (value or pointer receiver)
	Files    int // files those methods are declared in
}

// Report is the measure of one package.
type Report struct {
	Files      []string    // the non-test files measured, sorted
	Edges      []Edge      // file-to-file dependencies, From != To
	Order      []string    // a layering of the files, lowest first
	Back       []Edge      // the edges that run against Order
	Components []Component // largest (Fields+Embedded) first
}

// Measure parses the non-test Go files of dir that ctx builds and
// returns its file graph. ctx picks the build (GOOS, GOARCH, tags):
// the browser's files and the server's differ.
func Measure(dir string, ctx build.Context) (Report, error) {
	bp, err := ctx.ImportDir(dir, 0)
	if err != nil {
		return Report{}, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return Report{}, err
		}
		files = append(files, f)
	}
	info := &types.Info{
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
	}
	conf := types.Config{
		Importer: emptyImporter{},
		// Names from the empty imports fail to resolve; the package's
		// own names still do, which is all the graph reads.
		Error: func(error) {},
	}
	pkg, _ := conf.Check(bp.ImportPath, fset, files, info)

	base := func(p token.Pos) string { return filepath.Base(fset.Position(p).Filename) }
	uses := map[[2]string]int{}
	add := func(from token.Pos, obj types.Object) {
		if obj == nil || obj.Pkg() != pkg || !obj.Pos().IsValid() {
			return
		}
		// Only package-level names, methods and fields: a local
		// variable never crosses files.
		switch o := obj.(type) {
		case *types.Var:
			if !o.IsField() && o.Parent() != pkg.Scope() {
				return
			}
		case *types.Func:
		default:
			if obj.Parent() != pkg.Scope() {
				return
			}
		}
		a, b := base(from), base(obj.Pos())
		if a != b {
			uses[[2]string{a, b}]++
		}
	}
	for id, obj := range info.Uses {
		add(id.Pos(), obj)
	}
	var r Report
	r.Files = append(r.Files, bp.GoFiles...)
	sort.Strings(r.Files)
	for k, n := range uses {
		r.Edges = append(r.Edges, Edge{From: k[0], To: k[1], Uses: n})
	}
	sort.Slice(r.Edges, func(i, j int) bool {
		if r.Edges[i].From != r.Edges[j].From {
			return r.Edges[i].From < r.Edges[j].From
		}
		return r.Edges[i].To < r.Edges[j].To
	})
	r.Order = layer(r.Files, r.Edges)
	rank := map[string]int{}
	for i, f := range r.Order {
		rank[f] = i
	}
	for _, e := range r.Edges {
		// A file should use only files below it.
		if rank[e.To] > rank[e.From] {
			r.Back = append(r.Back, e)
		}
	}
	r.Components = components(pkg, fset)
	return r, nil
}

// layer orders the files lowest first so that few edges run back up: the
// greedy heuristic of Eades, Lin and Smyth for a small feedback arc set
// (files that use nothing go to the bottom, files nothing uses to the
// top, else the file whose users outnumber its uses the most goes low).
// It is deterministic: ties break by name.
func layer(files []string, edges []Edge) []string {
	out := map[string]map[string]bool{} // uses
	in := map[string]map[string]bool{}  // used by
	left := map[string]bool{}
	for _, f := range files {
		out[f], in[f], left[f] = map[string]bool{}, map[string]bool{}, true
	}
	for _, e := range edges {
		out[e.From][e.To] = true
		in[e.To][e.From] = true
	}
	count := func(m map[string]bool) int {
		n := 0
		for f := range m {
			if left[f] {
				n++
			}
		}
		return n
	}
	remaining := func() []string {
		var s []string
		for f := range left {
			s = append(s, f)
		}
		sort.Strings(s)
		return s
	}
	var low, high []string
	take := func(f string) { delete(left, f) }
	for len(left) > 0 {
		moved := true
		for moved {
			moved = false
			for _, f := range remaining() {
				if count(out[f]) == 0 { // uses nothing left: lowest
					low = append(low, f)
					take(f)
					moved = true
				} else if count(in[f]) == 0 { // used by nothing left: highest
					high = append(high, f)
					take(f)
					moved = true
				}
			}
		}
		if len(left) == 0 {
			break
		}
		best, score := "", 0
		for _, f := range remaining() {
			if s := count(in[f]) - count(out[f]); best == "" || s > score {
				best, score = f, s
			}
		}
		low = append(low, best)
		take(best)
	}
	for i := len(high) - 1; i >= 0; i-- {
		low = append(low, high[i])
	}
	return low
}

// components lists the struct types that embed go-app's Compo.
func components(pkg *types.Package, fset *token.FileSet) []Component {
	var cs []Component
	if pkg == nil {
		return nil
	}
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		st, ok := named.Underlying().(*types.Struct)
		if !ok || !embedsCompo(st) {
			continue
		}
		c := Component{Name: name}
		for i := range st.NumFields() {
			f := st.Field(i)
			if f.Embedded() {
				if s, ok := localStruct(f.Type(), pkg); ok {
					c.Embedded += s.NumFields()
					continue
				}
				if f.Name() == "Compo" {
					continue
				}
			}
			c.Fields++
		}
		files := map[string]bool{}
		for i := range named.NumMethods() {
			m := named.Method(i)
			files[filepath.Base(fset.Position(m.Pos()).Filename)] = true
		}
		c.Methods, c.Files = named.NumMethods(), len(files)
		cs = append(cs, c)
	}
	sort.SliceStable(cs, func(i, j int) bool {
		return cs[i].Fields+cs[i].Embedded > cs[j].Fields+cs[j].Embedded
	})
	return cs
}

// embedsCompo reports whether st embeds a field named Compo (go-app's
// app.Compo, which the empty import leaves unresolved but named).
func embedsCompo(st *types.Struct) bool {
	for i := range st.NumFields() {
		if f := st.Field(i); f.Embedded() && f.Name() == "Compo" {
			return true
		}
	}
	return false
}

// localStruct is t's struct when t (or *t) is a struct of pkg.
func localStruct(t types.Type, pkg *types.Package) (*types.Struct, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	if !ok || n.Obj().Pkg() != pkg {
		return nil, false
	}
	s, ok := n.Underlying().(*types.Struct)
	return s, ok
}

// emptyImporter gives every import as an empty, complete package.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	parts := strings.Split(path, "/")
	name := parts[len(parts)-1]
	if len(parts) > 1 && strings.HasPrefix(name, "v") && strings.Trim(name[1:], "0123456789") == "" {
		name = parts[len(parts)-2] // a module's major version
	}
	p := types.NewPackage(path, name)
	p.MarkComplete()
	return p, nil
}
