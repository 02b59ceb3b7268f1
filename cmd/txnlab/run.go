package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/diagram"
)

// runCmd is `txnlab run`.
func runCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text, json or mermaid")
	seed := fs.Uint64("seed", 0, "override the cluster statement's seed")
	all := fs.Bool("all", false, "text: also show replication traffic")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: txnlab run FILE... [--format text|json|mermaid] [--seed N] [--all]")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "txnlab run: no scenario file given")
		fs.Usage()
		return 2
	}
	if *format != "text" && *format != "json" && *format != "mermaid" {
		fmt.Fprintf(stderr, "txnlab run: unknown format %q (text, json or mermaid)\n", *format)
		return 2
	}
	worst := 0
	for i, file := range files {
		if i > 0 && *format == "text" {
			fmt.Fprintln(stdout)
		}
		code := runFile(file, *format, *seed, *all, stdout, stderr)
		if code > worst {
			worst = code
		}
	}
	return worst
}

// parseInterspersed lets flags follow the file names, as users write
// `txnlab run a.scenario --format json`.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return files, nil
		}
		files = append(files, args[0])
		args = args[1:]
	}
}

// Outcome is what running one file produced.
type Outcome struct {
	File    string
	Session *scenario.Session
	Err     error
}

// Execute parses and runs one script.
func Execute(file, src string, seed uint64) Outcome {
	script, err := scenario.Parse(file, src)
	if err != nil {
		return Outcome{File: file, Err: err}
	}
	s := scenario.NewSession(file, script)
	s.SeedOverride = seed
	s.Run()
	if s.Err != nil {
		return Outcome{File: file, Session: s, Err: s.Err}
	}
	return Outcome{File: file, Session: s}
}

func runFile(file, format string, seed uint64, all bool, stdout, stderr io.Writer) int {
	src, err := readScript(file)
	if err != nil {
		fmt.Fprintf(stderr, "txnlab run: %v\n", err)
		return 2
	}
	out := Execute(file, src, seed)
	switch format {
	case "json":
		writeJSON(stdout, out)
	case "mermaid":
		if out.Session != nil && out.Session.Cluster != nil {
			fmt.Fprint(stdout, diagram.Mermaid(out.Session.Cluster.World.Names(), out.Session.Cluster.World.Trace.Events(0), diagram.Filter{}))
		}
	default:
		switch {
		case out.Session != nil && out.Session.Cluster != nil:
			writeText(stdout, out.Session, all)
		case out.Err == nil:
			// An empty script, or comments alone, printed nothing at all.
			fmt.Fprintf(stdout, "== %s\n-- no cluster statement: nothing ran\n", file)
		}
	}
	if out.Err != nil {
		fmt.Fprintln(stderr, out.Err)
		return 2
	}
	if out.Session.Failed() > 0 {
		return 1
	}
	return 0
}

func writeJSON(w io.Writer, out Outcome) {
	doc := map[string]any{"file": out.File}
	if out.Err != nil {
		doc["error"] = out.Err.Error()
	}
	if s := out.Session; s != nil && s.Cluster != nil {
		doc["events"] = sim.Export{Names: s.Cluster.World.Names(), Events: s.Cluster.World.Trace.Events(0)}
		doc["results"] = s.Results
		doc["digest"] = s.Cluster.World.Trace.Digest()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(doc)
}

// writeText prints the history the way a person reads a sequence diagram:
// messages with their key fields, state changes and appends indented
// under the node, then every expectation and the digest.
func writeText(w io.Writer, s *scenario.Session, all bool) {
	events := s.Cluster.World.Trace.Events(0)
	if name := s.File; name != "" {
		fmt.Fprintf(w, "== %s\n", name)
	}
	for i := range events {
		if line := TextLine(s.Cluster.World.Names(), &events[i], all); line != "" {
			fmt.Fprintln(w, line)
		}
	}
	fmt.Fprintln(w, "-- expectations")
	for _, r := range s.Results {
		fmt.Fprintln(w, r.String())
	}
	fmt.Fprintf(w, "-- %d passed, %d failed\n", len(s.Results)-s.Failed(), s.Failed())
	fmt.Fprintf(w, "digest %s\n", s.Cluster.World.Trace.Digest())
}

// TextLine renders one event for the text format, or "" to hide it;
// names is the run's table of node names.
func TextLine(names *sim.Names, e *sim.Event, all bool) string {
	if e.Internal && !all {
		return ""
	}
	t := fmt.Sprintf("%8s  ", e.At.String())
	switch e.Kind {
	case sim.KindSend:
		arrow := "→"
		if e.Resp {
			arrow = "⇠"
		}
		label := e.API.String()
		if e.Resp {
			label += ".response"
		}
		from, to := names.Name(e.Node), names.Name(e.Peer)
		if e.Resp {
			from, to = to, from
		}
		return t + fmt.Sprintf("%s %s %s  %s %s", from, arrow, to, label, e.Msg.Summary())
	case sim.KindDeliver:
		return ""
	case sim.KindDrop:
		label := e.API.String()
		if e.Resp {
			label += ".response"
		}
		return t + fmt.Sprintf("%s ✕ %s  %s lost: %s", names.Name(e.Node), names.Name(e.Peer), label, e.Text)
	case sim.KindState:
		return t + fmt.Sprintf("    %s │ %s: %s → %s %s", names.Name(e.Node), e.Subject, names.Label(e.From), names.Label(e.To), e.Text)
	case sim.KindAppend:
		return t + fmt.Sprintf("    %s │ append %s@%d %s", names.Name(e.Node), e.Subject, e.Offset, e.Text)
	case sim.KindCallStart:
		return t + fmt.Sprintf("%s: %s %s", names.Name(e.Node), e.Subject, e.Text)
	case sim.KindCallEnd:
		return t + fmt.Sprintf("%s: %s returned %s", names.Name(e.Node), e.Subject, e.Text)
	case sim.KindExpect:
		return t + fmt.Sprintf("expect (%s) %s", e.Subject, e.Text)
	case sim.KindNote:
		node := names.Name(e.Node)
		if node == "" {
			node = "script"
		}
		return t + strings.TrimSpace(fmt.Sprintf("    %s │ %s %s", node, e.Subject, e.Text))
	default:
		return t + fmt.Sprintf("%s %s %s %s", e.Kind, names.Name(e.Node), e.Subject, e.Text)
	}
}
