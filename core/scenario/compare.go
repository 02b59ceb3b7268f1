package scenario

// Comparing two runs of one script under different settings (`txnlab
// diff`, and the playground's compare view): the settings, a run that
// remembers which events each statement produced, and the alignment of
// two such runs statement by statement.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// Settings are what a comparison varies: config keys, switched-off
// mechanisms, the seed. They apply right after the cluster statement, as
// if written there; a later config or break/restore line of the script
// still has the last word from its line on.
type Settings struct {
	Seed   uint64 // 0: the script's own
	Config []Setting
	Break  []Mechanism
}

// KafkaPresets are the shorthands kafka=VERSION: what each Kafka release
// does by default. 3.5 is the classic protocol; 3.6 adds the leader's
// verification (KIP-890 part 1) and no longer bumps the leader epoch on
// an ISR shrink (KAFKA-15021); 3.8 no longer reloads a coordinator whose
// partition changed without a new leader (KAFKA-15468); 4.0 adds
// transaction version 2.
var KafkaPresets = map[string][]Setting{
	"3.5": {{"transaction.partition.verification.enable", 0}, {"transaction.version", 0},
		{"leader.epoch.bump.on.isr.shrink", 1}, {"coordinator.reload.on.partition.change", 1}},
	"3.6": {{"transaction.partition.verification.enable", 1}, {"transaction.version", 0},
		{"leader.epoch.bump.on.isr.shrink", 0}, {"coordinator.reload.on.partition.change", 1}},
	"3.8": {{"transaction.partition.verification.enable", 1}, {"transaction.version", 0},
		{"leader.epoch.bump.on.isr.shrink", 0}, {"coordinator.reload.on.partition.change", 0}},
	"4.0": {{"transaction.partition.verification.enable", 1}, {"transaction.version", 2},
		{"leader.epoch.bump.on.isr.shrink", 0}, {"coordinator.reload.on.partition.change", 0}},
}

// ParseSettings reads settings written as KEY=VALUE words separated by
// spaces or commas: any config key, break=MECHANISM, seed=N, and
// kafka=3.5|3.6|4.0. "" is no settings.
func ParseSettings(text string) (Settings, error) {
	var st Settings
	for _, word := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		k, v, ok := strings.Cut(word, "=")
		if !ok {
			return st, fmt.Errorf("%q: settings are KEY=VALUE (a config key, break=, seed= or kafka=)", word)
		}
		switch k {
		case "seed":
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil || n == 0 {
				return st, fmt.Errorf("seed=%s: a positive integer", v)
			}
			st.Seed = n
		case "break":
			m, ok := MechanismByName(v)
			if !ok {
				return st, fmt.Errorf("break=%s: unknown mechanism (%s)", v, strings.Join(mechanismNames[1:], ", "))
			}
			st.Break = append(st.Break, m)
		case "kafka":
			p, ok := KafkaPresets[v]
			if !ok {
				return st, fmt.Errorf("kafka=%s: one of 3.5, 3.6, 3.8, 4.0", v)
			}
			st.Config = setAll(st.Config, p)
		default:
			// The config statement's own parser checks the key and value.
			c, err := Parse("settings", "cluster\nconfig "+word+"\n")
			if err != nil {
				msg := err.Error()
				if _, after, ok := strings.Cut(msg, "settings:2:"); ok {
					if _, rest, ok := strings.Cut(after, ": "); ok {
						msg = rest
					}
				}
				return st, fmt.Errorf("%s: %s", word, msg)
			}
			st.Config = setAll(st.Config, c.Statements[1].(*ConfigStmt).Settings)
		}
	}
	return st, nil
}

// setAll sets each of add in list, replacing an earlier value of a key.
func setAll(list, add []Setting) []Setting {
	for _, a := range add {
		found := false
		for i := range list {
			if list[i].Key == a.Key {
				list[i].Value, found = a.Value, true
			}
		}
		if !found {
			list = append(list, a)
		}
	}
	return list
}

// String renders the settings as ParseSettings reads them.
func (st Settings) String() string {
	var parts []string
	if len(st.Config) > 0 {
		parts = append(parts, strings.TrimPrefix((&ConfigStmt{Settings: st.Config}).String(), "config "))
	}
	for _, m := range st.Break {
		parts = append(parts, "break="+m.String())
	}
	if st.Seed != 0 {
		parts = append(parts, "seed="+strconv.FormatUint(st.Seed, 10))
	}
	if len(parts) == 0 {
		return "(script as written)"
	}
	return strings.Join(parts, " ")
}

// Apply returns a copy of script with the settings' statements after its
// cluster statement (a script starts with one; first otherwise). They are
// marked by their zero column: RunRecorded counts their events as the
// cluster's.
func (st Settings) Apply(script *Script) *Script {
	var extra []Stmt
	at := Pos{Line: 1}
	i := 0
	if len(script.Statements) > 0 {
		if c, ok := script.Statements[0].(*ClusterStmt); ok {
			at, i = Pos{Line: c.Pos.Line}, 1
		}
	}
	if len(st.Config) > 0 {
		extra = append(extra, &ConfigStmt{Base: Base{Pos: at, Text: "config (settings)"}, Settings: st.Config})
	}
	for _, m := range st.Break {
		extra = append(extra, &BreakStmt{Base: Base{Pos: at, Text: "break (settings)"}, Mechanism: m})
	}
	out := *script
	out.Statements = append(append(append([]Stmt(nil), script.Statements[:i]...), extra...), script.Statements[i:]...)
	return &out
}

// Span is the events one statement of the script produced: [From, To)
// in the trace.
type Span struct {
	Stmt     int // index in the script as written
	Line     int
	Text     string
	From, To int
}

// RecordedRun is a finished run with the span of every statement.
type RecordedRun struct {
	Settings Settings
	Session  *Session
	Spans    []Span
}

// Violated names the invariants the checker finds broken at the end of
// the run, each once, in the order the checker reports them: what
// txnlab diff prints and the compare page shows for each side.
func (r *RecordedRun) Violated() []string {
	if r.Session == nil || r.Session.Cluster == nil {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, v := range r.Session.Cluster.Check(false) {
		if !seen[v.Invariant] {
			seen[v.Invariant] = true
			names = append(names, v.Invariant)
		}
	}
	return names
}

// RunRecorded parses src and runs it under the settings to the end,
// recording which events each statement produced.
func RunRecorded(file, src string, st Settings) (*RecordedRun, error) {
	r, err := StartRecorded(file, src, st)
	if err != nil {
		return nil, err
	}
	for !r.Work(1 << 30) {
	}
	return r.Run(), nil
}

// Recorder is RunRecorded cut into pieces: a page runs a long script a
// bounded number of steps at a time between frames, and ends with the
// same run (and digest) as RunRecorded's.
type Recorder struct {
	run  *RecordedRun
	orig int // the script's statements begun so far, less one
	done bool
}

// StartRecorded parses src and prepares its run under the settings;
// Work runs it.
func StartRecorded(file, src string, st Settings) (*Recorder, error) {
	script, err := Parse(file, src)
	if err != nil {
		return nil, err
	}
	s := NewSession(file, st.Apply(script))
	s.SeedOverride = st.Seed
	return &Recorder{run: &RecordedRun{Settings: st, Session: s}, orig: -1}, nil
}

// Work takes at most steps steps of the session (Session.Step) and
// reports whether the run is over.
func (r *Recorder) Work(steps int) (done bool) {
	s, run := r.run.Session, r.run
	for ; steps > 0 && !s.Done(); steps-- {
		if s.active == nil && s.pc < len(s.Script.Statements) {
			st := s.Script.Statements[s.pc]
			if st.Position().Col != 0 { // a statement of the script, not of the settings
				r.orig++
				run.close()
				run.Spans = append(run.Spans, Span{Stmt: r.orig, Line: st.Position().Line, Text: stmtText(st), From: s.traceLen()})
			}
		}
		s.Step()
	}
	if s.Done() && !r.done {
		r.done = true
		run.close()
	}
	return r.done
}

// Begun is how many statements of the script have begun, for a
// progress indicator.
func (r *Recorder) Begun() int { return r.orig + 1 }

// Run is the recorded run: complete once Work has reported done.
func (r *Recorder) Run() *RecordedRun { return r.run }

func (s *Session) traceLen() int {
	if s.Cluster == nil {
		return 0
	}
	return s.Cluster.Trace().Len()
}

func (r *RecordedRun) close() {
	if n := len(r.Spans); n > 0 {
		r.Spans[n-1].To = r.Session.traceLen()
	}
}

func stmtText(st Stmt) string {
	if b, ok := st.(interface{ Source() string }); ok && b.Source() != "" {
		return b.Source()
	}
	return st.String()
}

// Digest is the run's trace digest.
func (r *RecordedRun) Digest() string {
	if r.Session.Cluster == nil {
		return sim.DigestOf(nil, nil)
	}
	return r.Session.Cluster.Trace().Digest()
}

func (r *RecordedRun) event(i int) *sim.Event { return r.Session.Cluster.Trace().At(i) }

func (r *RecordedRun) names() *sim.Names { return r.Session.Cluster.Names() }

// EventOp is one line of a statement's alignment: an event both runs
// have ('='), one only run A has ('-'), or one only B has ('+'). A and B
// index the runs' traces (-1 on the side that lacks it).
type EventOp struct {
	Op   byte
	A, B int
}

// StmtDiff is one statement's events in both runs, aligned.
type StmtDiff struct {
	Stmt    int
	Line    int
	Text    string
	Ops     []EventOp
	Summary string // one line: what only A did, what only B did ("" when the same)
	// OnlyA and OnlyB are the summary's parts: the labels of the events
	// only run A has, and only B has, most frequent first, "×N" after a
	// repeated one ("EndTxn v3 app→broker-0"). A page words the line in
	// its own language around them.
	OnlyA, OnlyB []string
}

// Differs reports whether the statement's events differ between the runs.
func (d StmtDiff) Differs() bool {
	for _, op := range d.Ops {
		if op.Op != '=' {
			return true
		}
	}
	return false
}

// Shape is an event as the alignment compares it: the canonical line
// without its time and message number, which shift between runs that
// otherwise do the same thing. names is the run's table (Trace.Names).
func Shape(names *sim.Names, e *sim.Event) string {
	l := e.Line(names)
	if i := strings.Index(l, "ms "); i >= 0 {
		l = l[i+3:]
	}
	if strings.HasPrefix(l, "send #") || strings.HasPrefix(l, "deliver #") || strings.HasPrefix(l, "drop #") {
		kind, rest, _ := strings.Cut(l, " #")
		if _, after, ok := strings.Cut(rest, " "); ok {
			l = kind + " " + after
		}
	}
	return l
}

// maxAlign bounds the alignment table of one statement (events of A ×
// events of B); past it the unmatched middle is shown as removed and added.
const maxAlign = 4_000_000

// Align aligns two runs of the same script statement by statement: the
// events of statement i in A against those of statement i in B, by a
// longest common subsequence of their shapes. Replication traffic (the
// events the UI hides by default) is left out. Both runs must come from
// the same script (their statements line up one to one); a run that
// stopped early has no events for the statements it did not reach.
func Align(a, b *RecordedRun) []StmtDiff {
	n := max(len(a.Spans), len(b.Spans))
	out := make([]StmtDiff, 0, n)
	for i := 0; i < n; i++ {
		var d StmtDiff
		var ea, eb []int
		if i < len(a.Spans) {
			sp := a.Spans[i]
			d.Stmt, d.Line, d.Text = sp.Stmt, sp.Line, sp.Text
			ea = a.visible(sp)
		}
		if i < len(b.Spans) {
			sp := b.Spans[i]
			d.Stmt, d.Line, d.Text = sp.Stmt, sp.Line, sp.Text
			eb = b.visible(sp)
		}
		d.Ops = alignEvents(a, b, ea, eb)
		d.OnlyA, d.OnlyB = labels(a, b, d.Ops, '-'), labels(a, b, d.Ops, '+')
		d.Summary = summarize(d)
		out = append(out, d)
	}
	return out
}

func (r *RecordedRun) visible(sp Span) []int {
	var out []int
	for i := sp.From; i < sp.To; i++ {
		if !r.event(i).Internal {
			out = append(out, i)
		}
	}
	return out
}

func alignEvents(a, b *RecordedRun, ea, eb []int) []EventOp {
	sa := make([]string, len(ea))
	for i, e := range ea {
		sa[i] = Shape(a.names(), a.event(e))
	}
	sb := make([]string, len(eb))
	for i, e := range eb {
		sb[i] = Shape(b.names(), b.event(e))
	}
	var ops []EventOp
	// Common prefix and suffix first: most statements differ in a few
	// events, and the table then covers only the middle.
	p := 0
	for p < len(sa) && p < len(sb) && sa[p] == sb[p] {
		ops = append(ops, EventOp{'=', ea[p], eb[p]})
		p++
	}
	q := 0
	for q < len(sa)-p && q < len(sb)-p && sa[len(sa)-1-q] == sb[len(sb)-1-q] {
		q++
	}
	ma, mb := sa[p:len(sa)-q], sb[p:len(sb)-q]
	ia, ib := ea[p:len(ea)-q], eb[p:len(eb)-q]
	if len(ma)*len(mb) > maxAlign {
		for _, e := range ia {
			ops = append(ops, EventOp{'-', e, -1})
		}
		for _, e := range ib {
			ops = append(ops, EventOp{'+', -1, e})
		}
	} else {
		ops = append(ops, lcs(ma, mb, ia, ib)...)
	}
	for k := q; k > 0; k-- {
		ops = append(ops, EventOp{'=', ea[len(ea)-k], eb[len(eb)-k]})
	}
	return ops
}

// lcs aligns x and y by a longest common subsequence; removals come
// before additions where both are possible.
func lcs(x, y []string, ix, iy []int) []EventOp {
	n, m := len(x), len(y)
	t := make([][]int32, n+1)
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var ops []EventOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, EventOp{'=', ix[i], iy[j]})
			i, j = i+1, j+1
		case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, EventOp{'-', ix[i], -1})
			i++
		default:
			ops = append(ops, EventOp{'+', -1, iy[j]})
			j++
		}
	}
	return ops
}

// label names an event for the summary: a message by its API and
// version, a call's return by its result, anything else by its kind and
// subject.
func label(names *sim.Names, e *sim.Event) string {
	switch e.Kind {
	case sim.KindSend:
		l := e.API.String()
		if e.Resp {
			l += ".response"
		}
		if e.Msg != nil {
			if v := protocol.VersionOf(e.Msg); v != 0 {
				l += " v" + strconv.Itoa(int(v))
			}
		}
		l += " " + names.Name(e.Node) + "→" + names.Name(e.Peer)
		if e.Failed() {
			l += " " + e.ErrorName()
		}
		return l
	case sim.KindDeliver, sim.KindDrop:
		return "" // the send says it
	case sim.KindCallEnd:
		return names.Name(e.Node) + " " + e.Subject + " returned " + strings.Fields(e.Text + " ?")[0]
	case sim.KindState:
		return names.Name(e.Node) + " " + e.Subject + " → " + names.Label(e.To)
	case sim.KindAppend:
		return "append " + e.Subject
	case sim.KindExpect:
		return "expect " + e.Subject + " " + strings.Fields(e.Text + " ?")[0]
	}
	if e.Subject != "" {
		return e.Kind.String() + " " + e.Subject
	}
	return e.Kind.String() + " " + names.Name(e.Node)
}

// labels are the labels of the events only one run has (op '-': A,
// '+': B), most frequent first, "×N" after a repeated one.
func labels(a, b *RecordedRun, ops []EventOp, op byte) []string {
	n := map[string]int{}
	var order []string
	for _, o := range ops {
		if o.Op != op {
			continue
		}
		var l string
		if op == '-' {
			l = label(a.names(), a.event(o.A))
		} else {
			l = label(b.names(), b.event(o.B))
		}
		if l == "" {
			continue
		}
		if n[l] == 0 {
			order = append(order, l)
		}
		n[l]++
	}
	sort.SliceStable(order, func(i, j int) bool { return n[order[i]] > n[order[j]] })
	for i, l := range order {
		if n[l] > 1 {
			order[i] = l + " ×" + strconv.Itoa(n[l])
		}
	}
	return order
}

// summarize is the one-line account of a statement's differences: the
// labels of the events only A has, then those only B has, at most four
// a side.
func summarize(d StmtDiff) string {
	if !d.Differs() {
		return ""
	}
	side := func(order []string) string {
		if len(order) == 0 {
			return "nothing else"
		}
		if len(order) > 4 {
			return strings.Join(order[:4], ", ") + ", +" + strconv.Itoa(len(order)-4) + " more"
		}
		return strings.Join(order, ", ")
	}
	return "a: " + side(d.OnlyA) + "; b: " + side(d.OnlyB)
}
