package explore

import (
	"sort"
	"strings"

	"txnlab/core/check"
	"txnlab/core/safety"
)

// Config configures a batch of runs.
type Config struct {
	// Runs is how many scenarios to generate; run i uses seed Seed+i.
	Runs int
	Seed uint64
	// Break is the mechanism switched off in every run (nil for none).
	Break *safety.Mechanism
	// KeepGoing runs every run even after a violation.
	KeepGoing bool
	// NoBias: see Options.NoBias.
	NoBias bool
	// Actions and StepBudget are passed to each run (0: defaults).
	Actions    int
	StepBudget int
	// Config: see Options.Config.
	Config string
}

// Report summarises a batch.
type Report struct {
	Runs int
	// ByInvariant counts runs violating each invariant.
	ByInvariant map[string]int
	// Failed counts runs with at least one violation.
	Failed int
	// Invalid counts runs whose script did not apply (generator bugs);
	// Exhausted, runs the step budget cut short (not judged).
	Invalid, Exhausted int
	// First is the first failing run (a violation, or an invalid
	// script), and FirstIndex its index.
	First      *Run
	FirstIndex int
	// FirstInvalid is the first run whose script did not apply.
	FirstInvalid *Run
	// Panics counts runs where the simulation panicked (counted in
	// Invalid too); FirstPanic is the first.
	Panics     int
	FirstPanic *Run
	Steps      int64
	// KafkaAnomalies counts runs whose every violation is a known anomaly
	// of Kafka itself (safety.Anomalies), not counted in Failed: the
	// simulation doing what the release does. ByAnomaly counts them by
	// name and FirstAnomaly is the first.
	KafkaAnomalies int
	ByAnomaly      map[string]int
	FirstAnomaly   *Run
	// FailedSeeds are the seeds of the first MaxFailedSeeds violating
	// runs, so a long --keep-going exploration names each one to replay,
	// not the first only.
	FailedSeeds []uint64
}

// MaxFailedSeeds bounds Report.FailedSeeds.
const MaxFailedSeeds = 50

// Invariants lists the violated invariants in the checker's order.
func (r *Report) Invariants() []string {
	var out []string
	for k := range r.ByInvariant {
		out = append(out, k)
	}
	rank := map[string]int{}
	for i, n := range safety.Invariants {
		rank[n.Name] = i
	}
	sort.Slice(out, func(i, j int) bool { return rank[out[i]] < rank[out[j]] })
	return out
}

// NewReport starts an empty report.
func NewReport() *Report {
	return &Report{ByInvariant: map[string]int{}, ByAnomaly: map[string]int{}, FirstIndex: -1}
}

// Add counts run i; it reports whether the run failed (a violation).
// Runs must be added in index order for First to be the first.
func (rep *Report) Add(i int, r *Run) bool {
	rep.Runs++
	rep.Steps += int64(r.Steps)
	switch {
	case r.Err != nil:
		rep.Invalid++
		if rep.FirstInvalid == nil {
			rep.FirstInvalid = r
		}
		if r.Panic != "" {
			rep.Panics++
			if rep.FirstPanic == nil {
				rep.FirstPanic = r
			}
		}
	case r.Exhausted:
		rep.Exhausted++
	case len(r.Violations) > 0 && onlyAnomalies(r.Violations):
		rep.KafkaAnomalies++
		rep.ByAnomaly[r.Violations[0].Anomaly]++
		if rep.FirstAnomaly == nil {
			rep.FirstAnomaly = r
		}
	case len(r.Violations) > 0:
		rep.Failed++
		seen := map[string]bool{}
		for _, v := range r.Violations {
			if !seen[v.Invariant] {
				seen[v.Invariant] = true
				rep.ByInvariant[v.Invariant]++
			}
		}
		if rep.First == nil {
			rep.First, rep.FirstIndex = r, i
		}
		if len(rep.FailedSeeds) < MaxFailedSeeds {
			rep.FailedSeeds = append(rep.FailedSeeds, r.Seed)
		}
		return true
	}
	return false
}

// onlyAnomalies reports whether every violation is a known Kafka anomaly.
func onlyAnomalies(vs []check.Violation) bool {
	for _, v := range vs {
		if v.Anomaly == "" {
			return false
		}
	}
	return true
}

// RunOptions are the options of run i of a batch.
func (cfg Config) RunOptions(i int) Options {
	return Options{Seed: cfg.Seed + uint64(i), Break: cfg.Break, NoBias: cfg.NoBias, Actions: cfg.Actions, StepBudget: cfg.StepBudget, Config: cfg.Config}
}

// Explore generates and judges cfg.Runs scenarios one after the other,
// calling each (when not nil) after every run; it stops at the first
// violation unless KeepGoing, or when each returns false.
func Explore(cfg Config, each func(i int, r *Run) bool) *Report {
	rep := NewReport()
	for i := 0; i < cfg.Runs; i++ {
		r := Generate(cfg.RunOptions(i))
		failed := rep.Add(i, r)
		if each != nil && !each(i, r) {
			break
		}
		if failed && !cfg.KeepGoing {
			break
		}
	}
	return rep
}

// Target picks the invariant to shrink a failing run on: the one the
// broken mechanism is expected to violate when present, else the
// checker's first.
func Target(r *Run, mechanism *safety.Mechanism) string {
	if v := targetViolation(r, mechanism); v != nil {
		return v.Invariant
	}
	return ""
}

func targetViolation(r *Run, mechanism *safety.Mechanism) *check.Violation {
	if mechanism != nil {
		want, phrase := mechanism.Catches.Name, mechanism.Provoke.Phrase
		var first *check.Violation
		for i, v := range r.Violations {
			if v.Invariant != want {
				continue
			}
			if first == nil {
				first = &r.Violations[i]
			}
			if phrase != "" && strings.Contains(v.Message, phrase) {
				return &r.Violations[i]
			}
		}
		if first != nil {
			return first
		}
	}
	if len(r.Violations) == 0 {
		return nil
	}
	return &r.Violations[0]
}

// Minimize shrinks a failing run on invariant inv. It prefers a script
// that shows the violation as it stands, so that `expect violation`
// reproduces it under `txnlab run`; a violation only the liveness
// checks see is shrunk as a body plus its liveness phase (Final set).
//
// The shrunk script keeps the kind of violation (its Shape) found in the
// run for that invariant, the mechanism's preferred kind when there is one.
func Minimize(r *Run, mechanism *safety.Mechanism, inv string, maxTries int) *Shrunk {
	return MinimizeTick(r, mechanism, inv, maxTries, nil)
}

// MinimizeTick is Minimize with a tick (ShrinkOptions.Tick) called before
// each candidate: a browser shrinks in slices with it, and stops early
// when it answers false.
func MinimizeTick(r *Run, mechanism *safety.Mechanism, inv string, maxTries int, tick func(tries int) bool) *Shrunk {
	shape := ""
	if v := targetViolation(r, mechanism); v != nil && v.Invariant == inv {
		shape = Shape(v.Message)
	} else if v := find(r.Violations, inv, ""); v != nil {
		shape = Shape(v.Message)
	}
	pinned := pinnedLines(r, mechanism)
	var pause func() bool
	if tick != nil {
		pause = func() bool { return tick(0) }
	}
	if o := execSeed(r.Script(), 0, false, 0, pause); o.Err == errPaused {
		return &Shrunk{Lines: r.Lines}
	} else if o.Err == nil && has(o.Violations, inv, shape) {
		return Shrink(r.Lines, ShrinkOptions{Invariant: inv, Shape: shape, MaxTries: maxTries, Pinned: pinned, Tick: tick})
	}
	sh := Shrink(r.Lines[:r.Body], ShrinkOptions{Invariant: inv, Shape: shape, Final: true, MaxTries: maxTries, Pinned: pinned, Tick: tick})
	sh.Final = true
	return sh
}

// pinnedLines are the lines a shrink must keep: the protocol's config
// line (Options.Config), and the break of a KIP-890 mechanism, whose
// anomaly the classic protocol shows too (ShrinkOptions.Pinned).
func pinnedLines(r *Run, mechanism *safety.Mechanism) []string {
	var out []string
	for _, l := range r.Lines {
		if (mechanism != nil && mechanism.TV2 && l == "break "+mechanism.Name) ||
			strings.HasPrefix(l, "config transaction.version=") || strings.HasPrefix(l, "config transaction.partition.") {
			out = append(out, l)
		}
	}
	return out
}

// Document renders a shrunk script as a scenario file: a narrative
// header saying what it shows, the statements, and the expectation that
// makes `txnlab run` pass while the violation is there.
func Document(mechanism *safety.Mechanism, inv string, sh *Shrunk, foundBy string, original int) string {
	var b strings.Builder
	title, text := Narrative(mechanism)
	b.WriteString("# " + title + "\n")
	for _, l := range wrap(text, 78) {
		b.WriteString("# " + l + "\n")
	}
	if sh.Violation != "" {
		// A full stop of its own: the library's page joins the header's
		// lines into one paragraph, and "Found by" follows.
		said := sh.Violation
		if !strings.HasSuffix(said, ".") {
			said += "."
		}
		for i, l := range wrap("The checker: "+said, 78) {
			if i > 0 {
				l = "  " + l
			}
			b.WriteString("# " + l + "\n")
		}
	}
	b.WriteString("# Found by `" + foundBy + "`; shrunk " + itoa(original) + " -> " + itoa(len(sh.Lines)) + " statements.\n")
	if sh.SeedDependent {
		b.WriteString("# Shown under the cluster statement's seed only: another network timing may hide it.\n")
	} else {
		b.WriteString("# Reproduces under " + itoa(DefaultShrinkSeeds) + " seeds (txnlab run --seed N).\n")
	}
	switch {
	case !sh.Final:
		writeLines(&b, sh.Lines)
		b.WriteString("expect violation " + inv + "\n")
	case inv == Quiescence:
		// No expectation says "never goes quiet": the file is the
		// body, to which --check appends the liveness phase.
		b.WriteString("# Only the final (liveness) check sees it: replay with `txnlab explore --check FILE`.\n")
		writeLines(&b, sh.Lines)
	default:
		// The body, the liveness phase its end calls for, and the
		// expectation that judges the healed, quiet cluster as the
		// explorer did: `txnlab run` shows it, the playground too.
		b.WriteString("# Only the liveness checks see it: the script heals the cluster and lets it settle first.\n")
		writeLines(&b, sh.Settled())
		b.WriteString("expect liveness violation " + inv + "\n")
	}
	return b.String()
}

func writeLines(b *strings.Builder, lines []string) {
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
}

// Narrative is a title and a short paragraph on what breaking a
// mechanism lets through (nil is nothing broken): the table's, for a
// mechanism.
func Narrative(mechanism *safety.Mechanism) (string, string) {
	if mechanism != nil {
		return mechanism.Title, mechanism.Narrative
	}
	return "Found with nothing broken: a bug in the simulation or in the checker.",
		"Every safety mechanism is on, yet the invariant checker reports a violation."
}

func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// MinimizePanic shrinks a run that panicked to the shortest script that
// still panics with the same message.
func MinimizePanic(r *Run, maxTries int) *Shrunk {
	sh := Shrink(r.Lines, ShrinkOptions{MaxTries: maxTries, Keep: func(o *Outcome) bool { return o.Panic == r.Panic }})
	sh.Violation = "panic: " + r.Panic
	return sh
}
