package diagram

import (
	"reflect"
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/scenarios"
)

// A position's layout, taken as a prefix of the whole history's, is the
// layout of that prefix alone: every row, arrow (in flight or not) and
// span the same.
func TestLayoutPrefixIsTheLayoutOfThePrefix(t *testing.T) {
	for _, slug := range []string{"coordinator-crash-during-markers", "zombie-fencing-init", "markers-fail"} {
		sc, _ := scenarios.Get(slug)
		e := engine.New()
		if err := e.Load(sc.Script); err != nil {
			t.Fatal(err)
		}
		h := e.History()
		for _, f := range []Filter{{}, {Replication: true}, {HideFetch: true}} {
			lanes := LanesOf(f, Run{e.Names(), h})
			full := FullLayout(lanes, e.Names(), h, f)
			for i := 0; i <= e.Len(); i += max(1, e.Len()/40) {
				n, last := e.EventsAt(i), e.EventsAt(max(0, i-1))
				got, want := full.At(n, last), FullLayout(lanes, e.Names(), h[:n], f).At(n, last)
				strip := func(l *Layout) *Layout {
					c := *l
					c.Arrows = nil
					for _, a := range l.Arrows {
						a.endRow, a.dropAt = 0, 0
						c.Arrows = append(c.Arrows, a)
					}
					if len(c.Rows) == 0 {
						c.Rows = nil
					}
					return &c
				}
				if !reflect.DeepEqual(strip(got), strip(want)) {
					t.Fatalf("%s %+v: the layout at step %d differs from the prefix's", slug, f, i)
				}
			}
		}
	}
}

// TestInternalISRNotesAreHidden: the diagram hides the internal topics'
// ISR changes by the core's Internal flag, not by reading the note's
// text; every such note of a failover scenario carries the flag, and the
// default filter hides it.
func TestInternalISRNotesAreHidden(t *testing.T) {
	n := 0
	for _, slug := range []string{"coordinator-crash-during-markers", "coordinator-crash-before-prepare"} {
		sc, _ := scenarios.Get(slug)
		e := engine.New()
		if err := e.Load(sc.Script); err != nil {
			t.Fatal(err)
		}
		hist := e.History()
		for i := range hist {
			ev := &hist[i]
			if ev.Kind != sim.KindNote || !strings.HasPrefix(ev.Subject, "__") || !strings.HasPrefix(ev.Text, "ISR ") {
				continue
			}
			n++
			if !ev.Internal || (Filter{}).Shows(ev) {
				t.Errorf("%s: %s is shown by default (Internal %v)", slug, ev.Line(e.Names()), ev.Internal)
			}
			if !(Filter{Replication: true}).Shows(ev) {
				t.Errorf("%s: %s is hidden even with replication shown", slug, ev.Line(e.Names()))
			}
		}
	}
	if n == 0 {
		t.Fatal("no ISR note of an internal topic in the failover scenarios")
	}
}

// The core says what each append holds and whether an expectation held;
// the diagram draws from those fields. Over the library's runs every
// marker append is drawn as a marker of its type and no other append is;
// and an expectation is drawn red exactly when the core marked it unmet.
func TestAppendsAndExpectationsAreDrawnFromTheirFields(t *testing.T) {
	markers := 0
	for _, sc := range scenarios.All() {
		e := engine.New()
		if err := e.Load(sc.Script); err != nil {
			continue // a library script that stops early is tested elsewhere
		}
		hist := e.History()
		for i := range hist {
			ev := &hist[i]
			if ev.Kind != sim.KindAppend {
				continue
			}
			text, class := noteText(e.Names(), ev, &english)
			want := map[sim.Contents]string{sim.CommitMarker: "COMMIT", sim.AbortMarker: "ABORT"}[ev.Contents]
			if (want != "") != (class == "append marker") || (want != "" && (!strings.HasPrefix(text, want+" marker") || !strings.HasPrefix(ev.Text, want+"("))) {
				t.Errorf("%s: %s drawn as %q (%s)", sc.Slug, ev.Line(e.Names()), text, class)
			}
			if want != "" {
				markers++
			}
		}
	}
	if markers == 0 {
		t.Fatal("no marker in the library's runs: the test proves nothing")
	}
	script, err := scenario.Parse("t", "cluster\ntopic t partitions=1\nproducer p\nexpect log t/0 = none\nexpect log t/0 = p:a\n")
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession("t", script)
	s.Run()
	hist := s.Cluster.World.Trace.Events(0)
	svg := SVG(s.Cluster.World.Names(), hist, hist, Filter{})
	if n := strings.Count(svg, `class="note expect ok"`); n != 1 {
		t.Errorf("%d expectations drawn as met, want 1", n)
	}
	if n := strings.Count(svg, `class="note expect failed"`); n != 1 {
		t.Errorf("%d expectations drawn as failed, want 1", n)
	}
}

// TestRunsCodedInOtherOrdersShareLanes: two runs compared side by side
// declare the same clients in opposite orders, so each World gave them
// other codes; the shared lanes go by name, and on each side a client's
// arrows start on its own lane.
func TestRunsCodedInOtherOrdersShareLanes(t *testing.T) {
	run := func(first, second string) Run {
		src := "cluster\ntopic t partitions=1\nproducer " + first + "\nproducer " + second +
			"\n" + first + " send t/0 a=1\n" + second + " send t/0 b=2\n"
		script, err := scenario.Parse("t", src)
		if err != nil {
			t.Fatal(err)
		}
		s := scenario.NewSession("t", script)
		s.Run()
		if s.Err != nil {
			t.Fatal(s.Err)
		}
		return Run{s.Cluster.World.Names(), s.Cluster.World.Trace.Events(0)}
	}
	a, b := run("pa", "pb"), run("pb", "pa")
	ida, _ := a.Names.Lookup("pa")
	idb, _ := b.Names.Lookup("pa")
	if ida == idb {
		t.Fatal("both runs gave pa one code: the test shows nothing")
	}
	lanes := LanesOf(Filter{}, a, b)
	x := map[string]int{}
	for _, ln := range lanes {
		x[ln.Node] = ln.X
	}
	for _, r := range []Run{a, b} {
		l := FullLayout(lanes, r.Names, r.Events, Filter{})
		sends := 0
		for _, ar := range l.Arrows {
			e := &r.Events[ar.Send]
			if name := r.Names.Name(e.Node); name == "pa" || name == "pb" {
				sends++
				if l.X[e.Node] != x[name] {
					t.Errorf("%s's arrow starts at x=%d, its lane is at %d", name, l.X[e.Node], x[name])
				}
			}
		}
		if sends == 0 {
			t.Fatal("no client sent anything")
		}
	}
}

// A layout written over the last position's (the page's every move) is
// the layout At gives afresh, whatever position came before, and once
// its arrays have grown it allocates nothing: on a long history the
// arrows were half a megabyte a move for the page's collector.
func TestALayoutOverTheLastIsTheSameAndAllocatesNothing(t *testing.T) {
	sc, _ := scenarios.Get("coordinator-crash-during-markers")
	e := engine.New()
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	h := e.History()
	f := Filter{Replication: true}
	full := FullLayout(LanesOf(f, Run{e.Names(), h}), e.Names(), h, f)
	// Forward, back, a jump to the end and back to the start.
	moves := []int{1, 2, 3, 2, 1, e.Len(), 0, e.Len() / 2, e.Len() - 1, 3}
	same := func(a, b *Layout) bool {
		norm := func(l *Layout) Layout {
			c := *l
			if len(c.Arrows) == 0 {
				c.Arrows = nil
			}
			if len(c.Newest) == 0 {
				c.Newest = nil
			}
			if len(c.Spans) == 0 {
				c.Spans = nil
			}
			return c
		}
		return reflect.DeepEqual(norm(a), norm(b))
	}
	var l *Layout
	at := func(i int) (n, last int) { return e.EventsAt(i), e.EventsAt(max(0, i-1)) }
	for _, i := range moves {
		n, last := at(i)
		l = full.AtInto(l, n, last)
		if !same(l, full.At(n, last)) {
			t.Fatalf("the layout at step %d written over the last differs from At's", i)
		}
	}
	if allocs := testing.AllocsPerRun(20, func() {
		for _, i := range moves {
			n, last := at(i)
			l = full.AtInto(l, n, last)
		}
	}); allocs != 0 {
		t.Errorf("a move allocates %.0f times over a grown layout, want 0", allocs/float64(len(moves)))
	}
}
