package diagram

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"txnlab/app/engine"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/scenarios"
)

var updateExport = flag.Bool("update-export", false, "rewrite testdata/export from the current exports")

// TestExportGolden: the SVG and Mermaid exports of a few library
// scenarios, at their end and halfway (messages in flight), under the
// filters a learner picks, are byte for byte the committed files: a
// learner's downloads and an instructor's slides do not change unless
// the drawing is meant to.
func TestExportGolden(t *testing.T) {
	for _, slug := range []string{"happy-path", "coordinator-crash-during-markers", "zombie-fencing-init", "consume-transform-produce"} {
		sc, ok := scenarios.Get(slug)
		if !ok {
			t.Fatalf("no scenario %s", slug)
		}
		script, err := scenario.Parse(slug, sc.Script)
		if err != nil {
			t.Fatal(err)
		}
		s := scenario.NewSession(slug, script)
		s.Run()
		history := s.Cluster.World.Trace.Events(0)
		half := history[:len(history)/2]
		names := s.Cluster.World.Names()
		cases := []struct {
			name string
			got  string
		}{
			{slug + ".svg", SVG(names, history, history, Filter{})},
			{slug + ".mmd", Mermaid(names, history, Filter{})},
			{slug + ".half-nofetch.mmd", Mermaid(names, half, Filter{HideFetch: true})},
		}
		if slug == "coordinator-crash-during-markers" {
			// Replication shown is most of a trace: one file of it.
			cases = append(cases, struct {
				name string
				got  string
			}{slug + ".half-replication.svg", SVG(names, history, half, Filter{Replication: true})})
		}
		for _, c := range cases {
			path := filepath.Join("testdata", c.name)
			if *updateExport {
				if err := os.WriteFile(path, []byte(c.got), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if c.got != string(want) {
				t.Errorf("%s differs from the committed export (rerun with -update-export if the change is meant)", path)
			}
		}
	}
}

// TestMermaidCarriesWholeLabels: the Mermaid export writes each arrow's
// whole text, never cut with "…".
func TestMermaidCarriesWholeLabels(t *testing.T) {
	e := engine.New()
	sc, _ := scenarios.Get("consume-transform-produce")
	if err := e.Load(sc.Script); err != nil {
		t.Fatal(err)
	}
	e.Seek(e.Len())
	m := Mermaid(e.Names(), e.Events(), Filter{})
	if strings.Contains(m, "…") {
		t.Errorf("the Mermaid export cuts labels:\n%s", m)
	}
	long := 0
	for i := range e.Events() {
		ev := &e.Events()[i]
		if ev.Kind != sim.KindSend || ev.Internal || len([]rune(MessageText(ev))) <= MaxLabel {
			continue
		}
		long++
		if !strings.Contains(m, mermaidText(MessageText(ev))) {
			t.Errorf("the Mermaid export lacks %q", MessageText(ev))
		}
	}
	if long == 0 {
		t.Fatal("no label longer than the page's limit: the test proves nothing")
	}
}
