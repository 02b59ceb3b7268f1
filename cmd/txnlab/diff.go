package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"txnlab/core/scenario"
)

func init() {
	extraCommands["diff"] = func(args []string) int { return diffCmd(args, os.Stdout, os.Stderr) }
}

const diffUsage = `usage: txnlab diff FILE [--a SETTINGS] [--b SETTINGS] [--seed N] [--break MECHANISM] [--all]

Runs the script twice, under settings a and under settings b, and prints
the events that differ, statement by statement, each differing statement
with a one-line summary of what only a did and what only b did, then both
digests. SETTINGS are KEY=VALUE words (spaces or commas between them): any
config key (transaction.version=2,
transaction.partition.verification.enable=true, ...), kafka=3.5|3.6|4.0
(the protocol each release runs by default), break=MECHANISM, seed=N.
--seed and --break apply to both runs. They act as if written right after
the cluster statement. --all also prints the statements that do not differ.

example:
  txnlab diff scenarios/jepsen-delayed-endtxn.scenario --a kafka=3.5 --b kafka=4.0

exit status: 0 the runs are the same, 1 they differ (or one stopped at a
statement that could not apply under its settings), 2 bad arguments or a
script that does not parse.
`

func diffCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, diffUsage) }
	aText := fs.String("a", "", "settings of run a")
	bText := fs.String("b", "", "settings of run b")
	seed := fs.Uint64("seed", 0, "seed of both runs")
	mech := fs.String("break", "", "mechanism switched off in both runs")
	all := fs.Bool("all", false, "also print the statements whose events are the same")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	if len(files) != 1 {
		fmt.Fprint(stderr, "txnlab diff: give exactly one scenario file\n\n"+diffUsage)
		return 2
	}
	common := ""
	if *seed != 0 {
		common += " seed=" + strconv.FormatUint(*seed, 10)
	}
	if *mech != "" {
		common += " break=" + *mech
	}
	var settings [2]scenario.Settings
	for i, text := range []string{*aText, *bText} {
		st, err := scenario.ParseSettings(common + " " + text)
		if err != nil {
			fmt.Fprintf(stderr, "txnlab diff: --%c: %v\n", "ab"[i], err)
			return 2
		}
		settings[i] = st
	}
	src, err := readScript(files[0])
	if err != nil {
		fmt.Fprintf(stderr, "txnlab diff: %v\n", err)
		return 2
	}
	var runs [2]*scenario.RecordedRun
	for i := range runs {
		r, err := scenario.RunRecorded(files[0], src, settings[i])
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			return 2
		}
		runs[i] = r
	}
	return printDiff(stdout, files[0], runs[0], runs[1], *all)
}

// violations names the invariants the checker finds broken at the end
// of a run.
func violations(r *scenario.RecordedRun) string {
	names := r.Violated()
	if len(names) == 0 {
		return "no violation"
	}
	return "violates " + strings.Join(names, ", ")
}

func printDiff(w io.Writer, file string, a, b *scenario.RecordedRun, all bool) int {
	fmt.Fprintf(w, "== %s\n", file)
	for i, r := range []*scenario.RecordedRun{a, b} {
		fmt.Fprintf(w, "%c: %s\n", "ab"[i], r.Settings)
	}
	stopped := false
	for i, r := range []*scenario.RecordedRun{a, b} {
		// A statement that cannot apply under one setting (a `wait` with
		// nothing pending, say) ends that run there: what ran is still
		// compared, and the runs differ.
		if r.Session.Err != nil {
			fmt.Fprintf(w, "%c stopped: %v\n", "ab"[i], r.Session.Err)
			stopped = true
		}
	}
	diffs := scenario.Align(a, b)
	differing := 0
	for _, d := range diffs {
		if !d.Differs() && !all {
			continue
		}
		if d.Differs() {
			differing++
		}
		fmt.Fprintf(w, "\nline %d: %s\n", d.Line, d.Text)
		if d.Summary != "" {
			fmt.Fprintf(w, "  %s\n", d.Summary)
		}
		for _, op := range d.Ops {
			switch op.Op {
			case '-':
				fmt.Fprintf(w, "  - %s\n", a.Session.Cluster.World.Trace.At(op.A).Line(a.Session.Cluster.World.Names()))
			case '+':
				fmt.Fprintf(w, "  + %s\n", b.Session.Cluster.World.Trace.At(op.B).Line(b.Session.Cluster.World.Names()))
			}
		}
	}
	fmt.Fprintf(w, "\nstatements that differ: %d of %d\n", differing, len(diffs))
	for i, r := range []*scenario.RecordedRun{a, b} {
		fmt.Fprintf(w, "%c: digest %s, %d expectation(s) failed, %s\n", "ab"[i], r.Digest(), r.Session.Failed(), violations(r))
	}
	if differing > 0 || stopped {
		return 1
	}
	return 0
}
