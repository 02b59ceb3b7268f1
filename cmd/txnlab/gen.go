package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"txnlab/core/workload"
)

// gen is not in the usage: it writes the long generated scenarios the
// benchmarks run (core/workload), for a person to run or paste into the
// playground.
func init() {
	extraCommands["gen"] = func(args []string) int { return genCmd(args, os.Stdout, os.Stderr) }
}

const genUsage = `usage: txnlab gen [--events N | --messages N | --heavy] [--seed S]

Writes a generated load scenario (core/workload) to standard output: about
N trace events, or about N messages, or the simulation benchmark's load.
`

func genCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, genUsage) }
	events := fs.Int("events", 0, "about this many trace events")
	messages := fs.Int("messages", 0, "about this many messages (replication included)")
	heavy := fs.Bool("heavy", false, "the simulation benchmark's load (about 46,500 events)")
	seed := fs.Uint64("seed", 1, "the cluster's seed")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	chosen := 0
	for _, set := range []bool{*events > 0, *messages > 0, *heavy} {
		if set {
			chosen++
		}
	}
	if chosen != 1 || fs.NArg() > 0 || *events < 0 || *messages < 0 {
		fmt.Fprint(stderr, genUsage)
		return 2
	}
	var c workload.Config
	switch {
	case *events > 0:
		c = workload.ForEvents(*events)
	case *messages > 0:
		c = workload.ForMessages(*messages)
	default:
		c = workload.Heavy
	}
	c.Seed = *seed
	fmt.Fprint(stdout, workload.Script(c))
	return 0
}
