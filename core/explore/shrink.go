package explore

import (
	"slices"
	"strings"

	"txnlab/core/check"
)

func has(vs []check.Violation, inv, shape string) bool {
	return find(vs, inv, shape) != nil
}

func find(vs []check.Violation, inv, shape string) *check.Violation {
	for i, v := range vs {
		if (inv == "" || v.Invariant == inv) && (shape == "" || Shape(v.Message) == shape) {
			return &vs[i]
		}
	}
	return nil
}

// Shape is a violation message without its particulars (names, values,
// offsets, numbers): two messages of the same shape report the same kind
// of anomaly. Shrinking keeps the shape, so the script does not drift to
// another anomaly of the same invariant (a record of an aborted
// transaction is not one read before its commit was sent).
func Shape(msg string) string {
	var kept []string
	for _, f := range strings.Fields(msg) {
		if strings.ContainsAny(f, "0123456789\"/@[]'-") {
			continue
		}
		kept = append(kept, strings.Trim(f, ",.:;"))
	}
	return strings.Join(kept, " ")
}

// ShrinkOptions configure Shrink.
type ShrinkOptions struct {
	// Invariant is the one that must still be violated ("" for any), and
	// Shape, when set, the Shape its message must keep.
	Invariant string
	Shape     string
	// Final judges with the liveness checks on: the lines are a body to
	// which each candidate gets the liveness phase its live state calls
	// for (see Replay), and the result includes that phase. Without it
	// the lines are judged as they stand, as the shrunk script's
	// `expect violation INVARIANT` judges them under `txnlab run`.
	Final bool
	// MaxTries bounds the candidate scripts run (0: 4000).
	MaxTries int
	// StepBudget bounds each run (0: the default).
	StepBudget int
	// Seeds is how many seeds a candidate must show the violation under
	// (0: DefaultShrinkSeeds): the script's own, then seeds 2, 3, … as
	// overrides. A shrunk example that shows its anomaly under one
	// network timing only would teach a race, not the mechanism.
	Seeds int
	// Keep, when set, replaces the invariant test: a candidate is kept
	// when it is valid and Keep holds for its outcome (to shrink on a
	// property such as "never goes quiet").
	Keep func(o *Outcome) bool
	// Pinned lines are never removed: the break and protocol lines of a
	// KIP-890 mechanism, whose anomaly the classic protocol shows too, so
	// that the shrunk script still says what was broken.
	Pinned []string
	// Tick, when set, is called before each candidate is run, with the
	// candidates run so far, and again every few thousand steps of its
	// runs; when it returns false the shrink ends there with the
	// shortest script found so far. A host that must not block
	// (a browser running the explorer in slices) hands control back in
	// it, and a Stop button answers false.
	Tick func(tries int) bool
}

// Shrunk is a shrinking's result.
type Shrunk struct {
	Lines []string
	// Tries counts the candidate scripts run.
	Tries int
	// Violation is the message of the kept violation in the shrunk script.
	Violation string
	// SeedDependent is set when even the script shrinking started from
	// did not show the violation under every seed: the result was then
	// shrunk under the script's own seed alone.
	SeedDependent bool
	// Final is set when only the liveness checks see the violation: the
	// lines then end with the liveness phase and `expect violation`
	// (which judges the history so far) cannot show it.
	Final bool
}

// Settled is the shrunk script as it shows its violation: the lines,
// and for a Final one the liveness phase Replay gives their end, which
// heals and settles the cluster for the liveness checks.
func (sh *Shrunk) Settled() []string {
	if !sh.Final {
		return sh.Lines
	}
	return Replay(sh.Lines, 0).Lines
}

type shrinker struct {
	opts  ShrinkOptions
	tries int
	best  []string
	cache map[string]bool
	pause func() bool
}

// Shrink delta-debugs a failing script: it removes clients, chunks of
// statements and single statements, then simplifies what remains
// (fewer records, smaller counts and durations, no background calls,
// fewer brokers and partitions, plain names), keeping each change only
// while the script stays valid and still violates the same invariant.
// lines must fail to begin with.
func Shrink(lines []string, opts ShrinkOptions) *Shrunk {
	if opts.MaxTries <= 0 {
		opts.MaxTries = 4000
	}
	if opts.Seeds <= 0 {
		opts.Seeds = DefaultShrinkSeeds
	}
	s := &shrinker{opts: opts, best: append([]string(nil), lines...), cache: map[string]bool{}}
	s.pause = s.pauseHook()
	seedDependent := false
	if opts.Keep == nil && opts.Seeds > 1 && !s.fails(s.best) {
		// The run itself shows the violation under its own seed only:
		// shrink under that one rather than not at all.
		seedDependent = true
		s.opts.Seeds = 1
		s.cache = map[string]bool{}
	}
	for round := 0; round < 8; round++ {
		before := Join(s.best)
		s.removeClients()
		s.ddmin()
		s.removePairs()
		s.simplify()
		s.rename()
		if Join(s.best) == before || s.tries >= opts.MaxTries {
			break
		}
	}
	out := &Shrunk{Lines: s.best, Tries: s.tries, Final: opts.Final, SeedDependent: seedDependent}
	var vs []check.Violation
	if opts.Final {
		// The body alone: `txnlab explore --check` appends the liveness
		// phase, as every candidate got it here. Writing the phase out
		// too gave a file that ran it twice, and the second heal
		// restarted what the first left stuck, so the file hid the very
		// violation it was shrunk for.
		vs = Replay(s.best, opts.StepBudget).Violations
	} else {
		vs = Exec(Join(s.best), opts.StepBudget, false).Violations
	}
	if v := find(vs, opts.Invariant, opts.Shape); v != nil {
		out.Violation = v.String()
	}
	return out
}

// fails reports whether a candidate still shows the violation.
func (s *shrinker) fails(lines []string) bool {
	src := Join(lines)
	if v, ok := s.cache[src]; ok {
		return v
	}
	if s.tries >= s.opts.MaxTries {
		return false
	}
	if s.opts.Tick != nil && !s.opts.Tick(s.tries) {
		// Stopped: every loop of the shrink ends at MaxTries.
		s.opts.MaxTries = s.tries
		return false
	}
	s.tries++
	var ok bool
	if s.opts.Keep != nil {
		o := Exec(src, s.opts.StepBudget, false)
		ok = (o.Err == nil || o.Panic != "") && s.opts.Keep(o)
	} else {
		// The script's own seed first: most candidates lose the
		// violation there, and the other seeds are not run.
		ok = true
		for i := 0; ok && i < max(s.opts.Seeds, 1); i++ {
			if i > 0 && s.pause != nil && !s.pause() {
				return false
			}
			ok = s.failsUnder(lines, src, shrinkSeed(i))
		}
	}
	s.cache[src] = ok
	return ok
}

// DefaultShrinkSeeds is how many seeds a shrunk script must reproduce
// under.
const DefaultShrinkSeeds = 5

// shrinkSeed is the i-th seed a candidate is judged under: 0 (the
// cluster statement's own), then 2, 3, ….
func shrinkSeed(i int) uint64 {
	if i == 0 {
		return 0
	}
	return uint64(i) + 1
}

// pauseHook is the runs' hook into Tick (nil without one): a false answer
// ends the shrink as one before a candidate does.
func (s *shrinker) pauseHook() func() bool {
	if s.opts.Tick == nil {
		return nil
	}
	return func() bool {
		if s.opts.Tick(s.tries) {
			return true
		}
		s.opts.MaxTries = s.tries
		return false
	}
}

func (s *shrinker) failsUnder(lines []string, src string, seed uint64) bool {
	if s.opts.Final {
		r, _ := replay(lines, s.opts.StepBudget, seed, s.pause)
		return r.Err == nil && !r.Exhausted && has(r.Violations, s.opts.Invariant, s.opts.Shape)
	}
	o := execSeed(src, s.opts.StepBudget, false, seed, s.pause)
	return o.Err == nil && !o.Exhausted && has(o.Violations, s.opts.Invariant, s.opts.Shape)
}

// try keeps a candidate when it still fails.
func (s *shrinker) try(lines []string) bool {
	if len(lines) == 0 || Join(lines) == Join(s.best) {
		return false
	}
	for _, p := range s.opts.Pinned {
		if !slices.Contains(lines, p) {
			return false
		}
	}
	if s.fails(lines) {
		s.best = lines
		return true
	}
	return false
}

// ddmin removes chunks of statements, halving the chunk size down to
// single lines. The cluster statement stays.
func (s *shrinker) ddmin() {
	n := 2
	for len(s.best) > 1 {
		body := s.best[1:]
		if n > len(body) {
			n = len(body)
		}
		chunk := (len(body) + n - 1) / n
		removed := false
		for start := 0; start < len(body); start += chunk {
			end := min(start+chunk, len(body))
			cand := append([]string{s.best[0]}, body[:start]...)
			cand = append(cand, body[end:]...)
			if s.try(cand) {
				removed = true
				break
			}
		}
		switch {
		case removed:
			n = max(n-1, 2)
		case chunk == 1:
			return
		default:
			n *= 2
		}
		if s.tries >= s.opts.MaxTries {
			return
		}
	}
}

// removePairs drops a fault together with the line that undoes it
// (pause/resume, crash/restart, a cut/heal), which ddmin cannot remove
// one at a time without making the script invalid.
func (s *shrinker) removePairs() {
	starts := map[string]bool{"pause": true, "crash": true, "isolate": true, "partition": true, "drop": true, "delay": true}
	ends := map[string]bool{"resume": true, "restart": true, "heal": true}
	for i := 1; i < len(s.best); i++ {
		fi := strings.Fields(s.best[i])
		if len(fi) == 0 || !starts[fi[0]] {
			continue
		}
		for j := i + 1; j < len(s.best); j++ {
			fj := strings.Fields(s.best[j])
			if len(fj) == 0 || !ends[fj[0]] {
				continue
			}
			cand := append([]string(nil), s.best[:i]...)
			cand = append(cand, s.best[i+1:j]...)
			cand = append(cand, s.best[j+1:]...)
			if s.try(cand) {
				i--
				break
			}
		}
		if s.tries >= s.opts.MaxTries {
			return
		}
	}
}

// removeClients drops each client with every line that names it.
func (s *shrinker) removeClients() {
	for _, name := range clientNames(s.best) {
		var cand []string
		for _, l := range s.best {
			if !mentions(l, name) {
				cand = append(cand, l)
			}
		}
		s.try(cand)
	}
}

func clientNames(lines []string) []string {
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 2 && (f[0] == "producer" || f[0] == "consumer") {
			out = append(out, f[1])
		}
	}
	return out
}

// mentions reports whether a line names the client.
func mentions(line, name string) bool {
	for _, f := range strings.Fields(line) {
		if f == name || strings.HasSuffix(f, "="+name) {
			return true
		}
		for _, part := range strings.Split(f, ",") {
			if part == name {
				return true
			}
		}
	}
	return false
}

// simplify rewrites one line at a time into simpler variants.
func (s *shrinker) simplify() {
	for i := 0; i < len(s.best); i++ {
		for _, v := range variants(s.best[i]) {
			cand := append([]string(nil), s.best...)
			cand[i] = v
			if s.try(cand) {
				break
			}
		}
		if s.tries >= s.opts.MaxTries {
			return
		}
	}
}

var durations = []string{"100ms", "1s", "5s", "10s", "20s", "30s", "45s", "70s"}

func durationMs(d string) int64 {
	unit := map[string]int64{"ms": 1, "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000}
	for _, u := range []string{"ms", "s", "m", "h", "d"} {
		if strings.HasSuffix(d, u) {
			n := d[:len(d)-len(u)]
			var v int64
			for _, c := range n {
				if c < '0' || c > '9' {
					return -1
				}
				v = v*10 + int64(c-'0')
			}
			return v * unit[u]
		}
	}
	return -1
}

// variants lists simpler forms of a line, simplest first.
func variants(line string) []string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil
	}
	var out []string
	add := func(fs []string) { out = append(out, strings.Join(fs, " ")) }
	without := func(i int) []string {
		return append(append([]string(nil), f[:i]...), f[i+1:]...)
	}
	// A background call made a foreground one.
	if f[len(f)-1] == "&" {
		add(f[:len(f)-1])
	}
	for i, tok := range f {
		key, val, isOpt := strings.Cut(tok, "=")
		switch {
		case isOpt && key == "count" && val != "1":
			add(without(i))
			g := append([]string(nil), f...)
			g[i] = "count=1"
			add(g)
		case isOpt && (key == "by" || key == "for" || key == "transaction.timeout.ms" || strings.HasSuffix(key, ".ms")):
			if key == "for" || key == "transaction.timeout.ms" {
				add(without(i))
			}
			cur := durationMs(val)
			for _, d := range durations {
				if dm := durationMs(d); cur < 0 || dm < cur {
					g := append([]string(nil), f...)
					g[i] = key + "=" + d
					add(g)
				}
			}
		case isOpt && (key == "from" || key == "to" || key == "group.id" || key == "seed" || key == "isolation.level" || key == "rf"):
			add(without(i))
		case isOpt && (key == "brokers" || key == "partitions"):
			n := 0
			for _, c := range val {
				n = n*10 + int(c-'0')
			}
			for m := 1; m < n; m++ {
				g := append([]string(nil), f...)
				g[i] = key + "=" + itoa(m)
				add(g)
			}
		}
	}
	switch {
	case f[0] == "advance" && len(f) == 2:
		cur := durationMs(f[1])
		for _, d := range durations {
			if durationMs(d) < cur {
				add([]string{"advance", d})
			}
		}
	case len(f) >= 4 && f[1] == "send":
		// Fewer records: keep one.
		for i := 3; i < len(f) && f[i] != "&"; i++ {
			if len(f) > 4 && f[len(f)-1] != "&" || len(f) > 5 {
				add(without(i))
			}
		}
	case len(f) >= 4 && f[1] == "assign":
		for i := 2; i < len(f); i++ {
			add(without(i))
		}
	case len(f) >= 5 && f[1] == "send-offsets":
		for i := 3; i < len(f) && f[i] != "&"; i++ {
			add(without(i))
		}
	}
	return out
}

// rename gives clients, values and keys plain names in order of
// appearance (p1, p2, c1, v1, ...), so the shrunk script reads well.
func (s *shrinker) rename() {
	cand := Canonical(s.best)
	s.try(cand)
}

// Canonical renames producers p1…, consumers c1…, transactional ids
// tx-a…, and record keys and values k1=v1… in order of first appearance.
func Canonical(lines []string) []string {
	names := map[string]string{}
	np, nc := 0, 0
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 2 && f[0] == "producer" {
			np++
			names[f[1]] = "p" + itoa(np)
		}
		if len(f) >= 2 && f[0] == "consumer" {
			nc++
			names[f[1]] = "c" + itoa(nc)
		}
	}
	ids := map[string]string{}
	for _, l := range lines {
		for _, tok := range strings.Fields(l) {
			if id, ok := strings.CutPrefix(tok, "transactional.id="); ok && ids[id] == "" {
				ids[id] = "tx-" + string(rune('a'+len(ids)%26))
			}
		}
	}
	nv := 0
	vals := map[string]string{}
	var out []string
	for _, l := range lines {
		f := strings.Fields(l)
		for i, tok := range f {
			if n, ok := names[tok]; ok {
				f[i] = n
				continue
			}
			if id, ok := strings.CutPrefix(tok, "transactional.id="); ok {
				f[i] = "transactional.id=" + ids[id]
				continue
			}
			if id, ok := strings.CutPrefix(tok, "coordinator("); ok && strings.HasSuffix(id, ")") {
				if n, ok := ids[strings.TrimSuffix(id, ")")]; ok {
					f[i] = "coordinator(" + n + ")"
				}
				continue
			}
			if key, val, ok := strings.Cut(tok, "="); ok {
				if n, ok := names[val]; ok && (key == "from" || key == "to") {
					f[i] = key + "=" + n
					continue
				}
				if len(f) >= 2 && f[1] == "send" && i >= 3 && strings.HasPrefix(key, "k") && strings.HasPrefix(val, "v") {
					if _, ok := vals[tok]; !ok {
						nv++
						vals[tok] = "k" + itoa(nv) + "=v" + itoa(nv)
					}
					f[i] = vals[tok]
				}
			}
		}
		if len(f) >= 2 && (f[0] == "wait" || f[0] == "pause" || f[0] == "resume" || f[0] == "crash" || f[0] == "isolate") {
			if n, ok := names[f[1]]; ok {
				f[1] = n
			}
		}
		out = append(out, strings.Join(f, " "))
	}
	return out
}
