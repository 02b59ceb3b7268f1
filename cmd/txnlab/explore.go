package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"txnlab/core/explore"
	"txnlab/core/safety"
	"txnlab/core/scenario"
)

func init() {
	extraCommands["explore"] = func(args []string) int { return exploreCmd(args, os.Stdout, os.Stderr) }
}

const exploreUsage = `usage: txnlab explore [--runs N] [--seed S] [--break MECHANISM] [--out DIR]
                     [--keep-going] [--jobs N] [--no-bias] [--actions N] [--shrink-tries N]
                     [--config KEY=VALUE...]
       txnlab explore --check FILE...
       txnlab explore --list-mechanisms | --list-invariants

Generates random but valid fault schedules (crashes, pauses, drops,
delays, partitions, timeouts, zombies) as scenario scripts, runs each to a
healed, quiescent end and judges it with the invariant checker, liveness
checks included. Run i uses seed S+i, so --seed S --runs 1 replays run i=0.

On the first violation it shrinks the script to a minimal scenario ending
in "expect violation INVARIANT" and writes it under --out (with the full
script next to it). --break MECHANISM switches that safety mechanism off
in every run and leans the generator towards what it guards; the KIP-890
mechanisms (partition-verification, epoch-bump) run under
transaction.version=2. --config "transaction.version=2" explores Kafka 4's
protocol with nothing broken.

--list-mechanisms and --list-invariants print the names "break" and
"expect violation" accept, one a line, in the language's order.
--check judges scenario files the way explore judges its runs.

exit status: 0 no violation, 1 a violation (or an invalid generated
script), 2 bad arguments.
`

func exploreCmd(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, exploreUsage) }
	runs := fs.Int("runs", 1000, "number of random scenarios")
	seed := fs.Uint64("seed", 1, "seed of the first run")
	mechName := fs.String("break", "", "switch this safety mechanism off: "+strings.Join(safety.MechanismNames(), ", "))
	listMechs := fs.Bool("list-mechanisms", false, "print the mechanisms, one a line, and exit")
	listInvs := fs.Bool("list-invariants", false, "print the invariants, one a line, and exit")
	config := fs.String("config", "", "config KEY=VALUE words for every run, after the cluster statement (e.g. transaction.version=2)")
	out := fs.String("out", "out", "directory for shrunk scenarios")
	keep := fs.Bool("keep-going", false, "run every run even after a violation (shrinks the first)")
	actions := fs.Int("actions", 0, "random actions per scenario (default 24)")
	tries := fs.Int("shrink-tries", 4000, "most candidate scripts the shrinker runs")
	checkMode := fs.Bool("check", false, "judge the given scenario files with the final checks")
	noBias := fs.Bool("no-bias", false, "with --break, keep the generator's usual mix (no lean towards the mechanism)")
	jobs := fs.Int("jobs", 1, "runs in parallel (results are taken in seed order, so the outcome does not depend on it)")
	// Flags may follow file names (`--check FILE --seed N` took --seed
	// and N for two more files).
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return 2
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *listMechs || *listInvs {
		names := safety.MechanismNames()
		if *listInvs {
			names = safety.InvariantNames()
		}
		if len(files) > 0 || len(set) > 1 {
			fmt.Fprintf(stderr, "txnlab explore: --list-mechanisms and --list-invariants take nothing else\n\n%s", exploreUsage)
			return 2
		}
		for _, n := range names {
			fmt.Fprintln(stdout, n)
		}
		return 0
	}
	if *checkMode {
		// The files are judged as written: a flag for generated runs
		// would be silently ignored.
		for name := range set {
			if name != "check" {
				fmt.Fprintf(stderr, "txnlab explore --check: --%s is for generated runs; a file is judged as written (its seed is the cluster statement's seed=)\n", name)
				return 2
			}
		}
		return exploreCheck(files, stdout, stderr)
	}
	if len(files) > 0 {
		fmt.Fprintf(stderr, "txnlab explore: unexpected argument %q\n\n%s", files[0], exploreUsage)
		return 2
	}
	if *runs < 1 {
		fmt.Fprintln(stderr, "txnlab explore: --runs must be at least 1")
		return 2
	}
	if last := *seed + uint64(*runs-1); last < *seed {
		// Run i uses seed S+i: past 2^64-1 it would wrap to 0 and
		// repeat seeds silently.
		fmt.Fprintf(stderr, "txnlab explore: --seed %d --runs %d passes the largest seed, %d; at most %d run(s) from that seed\n",
			*seed, *runs, uint64(math.MaxUint64), uint64(math.MaxUint64)-*seed+1)
		return 2
	}
	if *actions < 0 || *tries < 1 || *jobs < 1 {
		fmt.Fprintln(stderr, "txnlab explore: --actions must be >= 0, --shrink-tries and --jobs >= 1")
		return 2
	}
	if *config != "" {
		if _, err := scenario.Parse("--config", "cluster\nconfig "+*config+"\n"); err != nil {
			fmt.Fprintf(stderr, "txnlab explore: %v\n", err)
			return 2
		}
	}
	mech, known := safety.MechanismByName(*mechName)
	if *mechName != "" && !known {
		fmt.Fprintf(stderr, "txnlab explore: unknown mechanism %q (one of %s)\n", *mechName, strings.Join(safety.MechanismNames(), ", "))
		return 2
	}

	gc := newExploreGC()
	defer gc.restore()
	tty := isTerminal(os.Stderr)
	start := time.Now()
	lastPrint := start
	cfg := explore.Config{Runs: *runs, Seed: *seed, Break: mech, NoBias: *noBias, KeepGoing: *keep, Actions: *actions, Config: *config}
	rep := explore.NewReport()
	each := func(i int, r *explore.Run) bool {
		gc.check()
		failed := rep.Add(i, r)
		now := time.Now()
		line := fmt.Sprintf("explore: %d/%d runs, %d violating, %d invalid, %.0f runs/s",
			rep.Runs, *runs, rep.Failed, rep.Invalid, float64(rep.Runs)/now.Sub(start).Seconds())
		if n := len(rep.FailedSeeds); n > 0 {
			// A long --keep-going batch names its newest violating
			// seed as it goes: it can be replayed while the batch runs.
			line += fmt.Sprintf(", latest violating seed %d", rep.FailedSeeds[n-1])
		}
		switch {
		case tty && (now.Sub(lastPrint) >= 100*time.Millisecond || rep.Runs == *runs):
			fmt.Fprintf(stderr, "\r\033[K%s", line)
			lastPrint = now
		case !tty && now.Sub(lastPrint) >= 10*time.Second:
			fmt.Fprintln(stderr, line)
			lastPrint = now
		}
		return !failed || *keep
	}
	runOrdered(cfg, *jobs, each)
	if tty {
		fmt.Fprintln(stderr)
	}
	elapsed := time.Since(start)

	what := "nothing broken"
	if mech != nil {
		what = "break " + mech.Name
	}
	fmt.Fprintf(stdout, "explore: %d runs in %s (%.1f runs/s, %.0f events/run, %d job(s)), seeds %d..%d, %s\n",
		rep.Runs, elapsed.Round(time.Millisecond), float64(rep.Runs)/elapsed.Seconds(), float64(rep.Steps)/float64(rep.Runs),
		*jobs, *seed, *seed+uint64(rep.Runs)-1, what)
	if rep.Exhausted > 0 {
		fmt.Fprintf(stdout, "  %d run(s) hit the step budget and were not judged\n", rep.Exhausted)
	}
	if rep.KafkaAnomalies > 0 {
		fmt.Fprintf(stdout, "  %d run(s) showed a known anomaly of Kafka itself, not counted as violations: %v; first, seed %d\n",
			rep.KafkaAnomalies, rep.ByAnomaly, rep.FirstAnomaly.Seed)
	}
	code := 0
	if rep.Panics > 0 {
		code = 1
		r := rep.FirstPanic
		fmt.Fprintf(stdout, "  %d run(s) panicked; first, seed %d: %v\n", rep.Panics, r.Seed, r.Err)
		sh := explore.MinimizePanic(r, *tries)
		doc := explore.Document(mech, "", sh, "txnlab explore --seed "+strconv.FormatUint(r.Seed, 10)+" --runs 1", len(r.Lines))
		doc = strings.TrimSuffix(doc, "expect violation \n")
		if path, err := writeOut(*out, fmt.Sprintf("panic-seed-%d.scenario", r.Seed), doc); err == nil {
			fmt.Fprintf(stdout, "  shrunk to %d statements: %s (txnlab run panics on it)\n", len(sh.Lines), path)
		}
	}
	if n := rep.Invalid - rep.Panics; n > 0 {
		code = 1
		r := rep.FirstInvalid
		fmt.Fprintf(stdout, "  %d generated script(s) did not apply (generator bug); first, seed %d: %v\n", n, r.Seed, r.Err)
		if path, err := writeOut(*out, fmt.Sprintf("invalid-seed-%d.scenario", r.Seed), r.Script()); err == nil {
			fmt.Fprintf(stdout, "  script: %s\n", path)
		}
	}
	if rep.First == nil {
		fmt.Fprintln(stdout, "violations: none")
		return code
	}
	fmt.Fprintf(stdout, "violations in %d of %d runs; by invariant (runs):\n", rep.Failed, rep.Runs)
	for _, inv := range rep.Invariants() {
		fmt.Fprintf(stdout, "  %-18s %d\n", inv, rep.ByInvariant[inv])
	}
	if len(rep.FailedSeeds) > 1 {
		seeds := make([]string, len(rep.FailedSeeds))
		for i, s := range rep.FailedSeeds {
			seeds[i] = strconv.FormatUint(s, 10)
		}
		more := ""
		if rep.Failed > len(seeds) {
			more = fmt.Sprintf(" (the first %d)", len(seeds))
		}
		fmt.Fprintf(stdout, "violating seeds%s, each replayed by txnlab explore --seed N --runs 1: %s\n", more, strings.Join(seeds, " "))
	}
	r := rep.First
	fmt.Fprintf(stdout, "first at run %d (seed %d):\n", rep.FirstIndex+1, r.Seed)
	for i, v := range r.Violations {
		if i == 5 {
			fmt.Fprintf(stdout, "  … and %d more\n", len(r.Violations)-5)
			break
		}
		fmt.Fprintf(stdout, "  %s\n", v)
	}
	inv := explore.Target(r, mech)
	t0 := time.Now()
	sh := explore.Minimize(r, mech, inv, *tries)
	foundBy := "txnlab explore --seed " + strconv.FormatUint(r.Seed, 10) + " --runs 1"
	if mech != nil {
		foundBy = "txnlab explore --break " + mech.Name + " --seed " + strconv.FormatUint(r.Seed, 10) + " --runs 1"
	}
	doc := explore.Document(mech, inv, sh, foundBy, len(r.Lines))
	name := fmt.Sprintf("seed-%d-%s.scenario", r.Seed, inv)
	if mech != nil {
		name = mech.Name + ".scenario"
	}
	script := r.Script()
	if sh.Final {
		// The body: --check appends the liveness phase the run had.
		script = explore.Join(r.Lines[:r.Body])
	}
	full, _ := writeOut(*out, strings.TrimSuffix(name, ".scenario")+".full.scenario", script)
	path, err := writeOut(*out, name, doc)
	if err != nil {
		fmt.Fprintf(stderr, "txnlab explore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "shrunk on %s: %d -> %d statements (%d lines with the header) in %d tries, %s\n",
		inv, len(r.Lines), len(sh.Lines), strings.Count(doc, "\n"), sh.Tries, time.Since(t0).Round(time.Millisecond))
	fmt.Fprintf(stdout, "  %s (full script: %s)\n", path, full)
	switch {
	case sh.Final && inv == explore.Quiescence:
		fmt.Fprintf(stdout, "  only the final (liveness) check sees it: txnlab explore --check %s\n", path)
	case sh.Final:
		fmt.Fprintf(stdout, "  reproduce: txnlab run %s (only the liveness checks see it: the script heals and settles first)\n", path)
	default:
		fmt.Fprintf(stdout, "  reproduce: txnlab run %s\n", path)
	}
	return 1
}

// exploreCheck judges scenario files with the liveness checks on.
func exploreCheck(files []string, stdout, stderr io.Writer) int {
	if len(files) == 0 {
		fmt.Fprintln(stderr, "txnlab explore --check: no scenario file given")
		return 2
	}
	worst := 0
	for _, f := range files {
		src, err := readScript(f)
		if err != nil {
			fmt.Fprintf(stderr, "txnlab explore --check: %v\n", err)
			return 2
		}
		o := explore.ExecFinal(src, 0)
		switch {
		case o.Err != nil:
			fmt.Fprintf(stderr, "%v\n", named(o.Err, f))
			worst = 2
		case o.Exhausted:
			fmt.Fprintf(stdout, "%s: stopped after %d events (the explorer's budget), not judged\n", f, o.Steps)
		case len(o.Violations) == 0:
			fmt.Fprintf(stdout, "%s: every invariant holds (final checks on)\n", f)
		default:
			for _, v := range o.Violations {
				fmt.Fprintf(stdout, "%s: %s\n", f, v)
			}
			worst = max(worst, 1)
		}
	}
	return worst
}

func writeOut(dir, name, content string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, []byte(content), 0o644)
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// runOrdered runs cfg's runs on jobs goroutines and hands each result to
// each in index order, so stopping at the first violation (each returns
// false) gives the same answer whatever jobs is. The core is
// single-threaded per run; runs share nothing.
func runOrdered(cfg explore.Config, jobs int, each func(i int, r *explore.Run) bool) {
	type result struct {
		i int
		r *explore.Run
	}
	next := make(chan int)
	results := make(chan result, jobs)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results <- result{i, explore.Generate(cfg.RunOptions(i))}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := 0; i < cfg.Runs; i++ {
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	pending := map[int]*explore.Run{}
	want, stopped := 0, false
	for res := range results {
		if stopped {
			continue // drain
		}
		pending[res.i] = res.r
		for r, ok := pending[want]; ok; r, ok = pending[want] {
			delete(pending, want)
			if !each(want, r) {
				stopped = true
				close(stop)
				break
			}
			want++
		}
	}
}

// exploreGC sets the collector for a run of many short simulations. Each
// run allocates a fresh cluster and trace (about 1.4 MB) and drops it, so
// the live heap stays a few MB while the allocation rate is high: the
// collector's cost is the number of cycles. With no percentage trigger
// and a 128 MiB memory limit, a cycle comes every ~100 MB allocated, and
// the heap stays in memory already touched (GOGC=400 let it take fresh
// pages: more page faults). Measured in session 9, `explore --runs 2000
// --jobs 2` interleaved 5 times: 949-1053 runs/s against GOGC=400's
// 690-895, CPU 3.9 s against 4.7, peak RSS 133 MB against 79.
type exploreGC struct {
	on bool
	// percent and limit are the settings before, for restore.
	percent int
	limit   int64
}

// exploreHeapLimit is the memory limit the collector works to.
const exploreHeapLimit = 128 << 20

// newExploreGC switches the percentage trigger off under the limit,
// unless GOGC or GOMEMLIMIT in the environment says otherwise.
func newExploreGC() *exploreGC {
	g := &exploreGC{percent: debug.SetGCPercent(-1), limit: debug.SetMemoryLimit(-1)}
	debug.SetGCPercent(g.percent)
	if os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetGCPercent(-1)
		debug.SetMemoryLimit(exploreHeapLimit)
		g.on = true
	}
	return g
}

// restore puts the collector's settings back as they were (exploreCmd
// also runs inside tests).
func (g *exploreGC) restore() {
	debug.SetGCPercent(g.percent)
	debug.SetMemoryLimit(g.limit)
}

// check goes back to a percentage trigger if the live heap nears the
// limit (long runs, a shrink of a long script), where a limit-only
// collector would run cycle after cycle.
func (g *exploreGC) check() {
	if !g.on {
		return
	}
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 && s[0].Value.Uint64() > exploreHeapLimit/2 {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(math.MaxInt64)
		g.on = false
	}
}

// named puts the file's name on a script error, which the explorer
// parses as "explore".
func named(err error, file string) error {
	var list scenario.ErrorList
	var one *scenario.Error
	switch {
	case errors.As(err, &list):
		out := make(scenario.ErrorList, len(list))
		for i, e := range list {
			c := *e
			c.File = file
			out[i] = &c
		}
		return out
	case errors.As(err, &one):
		c := *one
		c.File = file
		return &c
	}
	return err
}
