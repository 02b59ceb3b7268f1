package filegraph

import (
	"go/build"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// browser is the build the UI's measure reads: the files the wasm links.
func browser() build.Context {
	c := build.Default
	c.GOOS, c.GOARCH = "js", "wasm"
	return c
}

// uiPackages are the packages of app/ the measure covers, as paths
// relative to this directory.
var uiPackages = []string{"../pages", "../lesson", "../playground", "../site", "../uitext", "../panels", "../browser", "../class", "../progress"}

// ceiling is, per package, how many file-to-file dependencies may run
// back up, and how many fields (own plus embedded) a component may
// have: the figures of docs/architecture.md ("The UI's house"). A
// change that makes the house harder to read fails here.
var ceiling = map[string]struct{ back, fields int }{
	// 45 on the house branch; the merge with class mode (class_follow.go)
	// and the metrics axis (metrics_axis.go) added 3 (48, 71 fields).
	// house3: the runner both playgrounds embed, the panels and the
	// text catalogue moved out: 42, playground 37 + 15 fields; the
	// pages' paths apart from the route table (paths.go): 32; the
	// transport's, compare link's and class bar's playground methods
	// with the other children's: 24; the progressive drawing's fields
	// as one part (idle.go): playground 27 + 15 fields. house8: the
	// diagram's state and views apart from the playground's stage
	// (diagram_state.go), the browser's storage with the other storage
	// helpers (keep.go), an exercise's progress with the progress, the
	// class's student view in class.go and the lesson's following of
	// the class in class_follow.go: 14. The playgrounds' own state in
	// named parts (the library choice, the run's extras, the view
	// choices, the page binding, the trace drawn; the lazy start, the
	// inputs the state was made for, the share link): playground 10 + 12,
	// scenarioPlayground 12 + 12 fields. house9: the playground and the
	// site's frame out of app, then the lessons (app/lesson) and the
	// plain pages with the route table (app/pages): 2 in the lessons,
	// 12 in app/playground, the same 14 in all, and no package is named
	// app any more.
	"../pages":  {back: 0, fields: 6},
	"../lesson": {back: 2, fields: 14},
	// The catalogue of the UI's text, moved out of app (issue 26).
	"../uitext": {back: 0, fields: 0},
	// The playground's panels: no page, no pointer back (issue 26).
	"../panels": {back: 0, fields: 10},
	// What the pages ask of the browser: storage, a download, the
	// clipboard (house8).
	"../browser": {back: 0, fields: 0},
	// Class mode's browser side, out of app with its own names
	// (class.Session, class.Bar; house8).
	"../class": {back: 0, fields: 8},
	// What the site remembers of a learner (house8).
	"../progress": {back: 0, fields: 0},
	// The site's frame: paths, shell, page data (house9).
	"../site": {back: 0, fields: 2},
	// The playground, the lesson's playground and the compare page
	// (house9): the runner's methods over its files run back up.
	"../playground": {back: 12, fields: 14},
}

// TestUIHouse prints each UI package's measure (go test -v) and holds it
// under its ceiling.
func TestUIHouse(t *testing.T) {
	for _, dir := range uiPackages {
		r, err := Measure(dir, browser())
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d files, %d file-to-file dependencies, %d running back up", dir, len(r.Files), len(r.Edges), len(r.Back))
		for _, c := range r.Components[:min(5, len(r.Components))] {
			t.Logf("  component %s: %d fields + %d embedded, %d methods over %d files", c.Name, c.Fields, c.Embedded, c.Methods, c.Files)
		}
		if os.Getenv("FILEGRAPH_VERBOSE") != "" {
			for _, e := range r.Back {
				t.Logf("  back: %s -> %s (%d uses)", e.From, e.To, e.Uses)
			}
		}
		c := ceiling[dir]
		if len(r.Back) > c.back {
			t.Errorf("%s: %d dependencies run back up, more than %d", dir, len(r.Back), c.back)
		}
		if len(r.Components) > 0 && r.Components[0].Fields+r.Components[0].Embedded > c.fields {
			t.Errorf("%s: component %s has %d fields, more than %d", dir, r.Components[0].Name, r.Components[0].Fields+r.Components[0].Embedded, c.fields)
		}
	}
}

// TestMeasureCatches plants a cycle and a layered pair: the measure
// must see exactly the one edge that closes the cycle.
func TestMeasureCatches(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("package p\n\n"+src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", "func A() int { return B() }\n")
	write("b.go", "func B() int { return C() }\n")
	write("c.go", "func C() int { var t T; return t.n }\n\ntype T struct{ n int }\n\nfunc (T) M() int { return A() }\n")
	write("d.go", "import \"github.com/maxence-charriere/go-app/v10/pkg/app\"\n\ntype page struct {\n\tapp.Compo\n\tx, y int\n\tT\n}\n\nfunc (p *page) Render() int { return p.x + p.n + A() }\n")
	r, err := Measure(dir, build.Default)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Edges) != 5 {
		t.Errorf("edges = %v, want 5 (a→b, b→c, c→a, d→c, d→a)", r.Edges)
	}
	if len(r.Back) != 1 {
		t.Errorf("back = %v, want the one edge that closes a→b→c→a", r.Back)
	}
	if got := strings.Join(r.Order[len(r.Order)-1:], ""); got != "d.go" {
		t.Errorf("order = %v, want d.go on top", r.Order)
	}
	if len(r.Components) != 1 || r.Components[0] != (Component{Name: "page", Fields: 2, Embedded: 1, Methods: 1, Files: 1}) {
		t.Errorf("components = %+v", r.Components)
	}
}
