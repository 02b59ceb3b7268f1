package main

// txnlab metrics: the operator's metrics of one run (core/metrics), as
// CSV, one row each time a value changes: what a chart of the run plots.

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"os"

	"txnlab/core/metrics"
	"txnlab/core/scenario"
)

func init() {
	extraCommands["metrics"] = func(args []string) int { return metricsCmd(args, os.Stdout, os.Stderr) }
}

// metricsCmd runs a script and writes its metrics as CSV: time_ms,
// metric, subject, value, mbean; --list describes every metric instead.
func metricsCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("metrics", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 0, "run with this seed instead of the script's")
	list := fs.Bool("list", false, "describe every metric and exit")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: txnlab metrics FILE [--seed N] | txnlab metrics --list")
		fs.PrintDefaults()
	}
	file, rest := "", args
	if len(rest) > 0 && rest[0] != "" && rest[0][0] != '-' {
		file, rest = rest[0], rest[1:]
	}
	if err := fs.Parse(rest); err != nil {
		return 2
	}
	extra := fs.Args()
	if file == "" && len(extra) > 0 {
		file, extra = extra[0], extra[1:]
	}
	if len(extra) > 0 || *list && file != "" {
		// A second file, or a file with --list, was dropped without a
		// word: say what was not read.
		stray := file
		if len(extra) > 0 {
			stray = extra[0]
		}
		fmt.Fprintf(stderr, "txnlab metrics: unexpected argument %q (one scenario FILE, or --list alone)\n", stray)
		fs.Usage()
		return 2
	}
	if *list {
		w := csv.NewWriter(stdout)
		w.Write([]string{"metric", "scope", "unit", "mbean", "means"})
		for _, m := range metrics.All {
			w.Write([]string{m.Name, m.Scope, m.Unit, m.MBean, m.Means})
		}
		w.Flush()
		return 0
	}
	if file == "" {
		fs.Usage()
		return 2
	}
	src, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "txnlab metrics: %v\n", err)
		return 2
	}
	script, err := scenario.Parse(file, string(src))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	s := scenario.NewSession(file, script)
	s.SeedOverride = *seed
	var series metrics.Series
	for !s.Done() {
		s.Step()
		if s.Cluster != nil {
			series.Record(s.Cluster)
		}
	}
	if s.Err != nil {
		fmt.Fprintln(stderr, s.Err)
		return 2
	}
	// The playground's Metrics panel downloads the same rows
	// (metrics.CSV).
	io.WriteString(stdout, metrics.CSV(series.Points))
	return 0
}
