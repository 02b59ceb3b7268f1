package app

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"txnlab/core/scenario"
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
		cases := []struct {
			name string
			got  string
		}{
			{slug + ".svg", diagramSVG(history, history, diagramFilter{})},
			{slug + ".mmd", mermaid(history, diagramFilter{})},
			{slug + ".half-nofetch.mmd", mermaid(half, diagramFilter{HideFetch: true})},
		}
		if slug == "coordinator-crash-during-markers" {
			// Replication shown is most of a trace: one file of it.
			cases = append(cases, struct {
				name string
				got  string
			}{slug + ".half-replication.svg", diagramSVG(history, half, diagramFilter{Replication: true})})
		}
		for _, c := range cases {
			path := filepath.Join("testdata", "export", c.name)
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
