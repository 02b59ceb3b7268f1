package scenario

// The values a statement is made of, read and written the same way by
// every statement: KEY=VALUE options and the option tables that declare
// them, free text, integers, durations, booleans, topic partitions,
// client names, enumerations, and "did you mean".

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// option is one KEY=VALUE token.
type option struct {
	key  string
	raw  string // the value as written (not empty); decoded by whoever reads it
	col  int    // column of the token
	vcol int    // column of the value
}

// options is the KEY=VALUE tokens of a statement, in the order written.
type options struct {
	list  []option
	order []string // the statement's canonical option order
}

func (o options) get(key string) (option, bool) {
	for _, x := range o.list {
		if x.key == key {
			return x, true
		}
	}
	return option{}, false
}

func (o options) has(key string) bool { _, ok := o.get(key); return ok }

// given lists the keys written, in canonical order.
func (o options) given() OptionSet {
	var g OptionSet
	for _, k := range o.order {
		if o.has(k) {
			g = append(g, k)
		}
	}
	return g
}

// options consumes the remaining tokens as KEY=VALUE options.
func (lp *lineParser) options(stmt string, allowed []string) options {
	return lp.optionsEmpty(stmt, allowed)
}

// optionsEmpty is options where the keys emptyOK may be written with
// nothing after the "=" (partitions=: none).
func (lp *lineParser) optionsEmpty(stmt string, allowed []string, emptyOK ...string) options {
	opts := options{order: allowed}
	for lp.more() {
		t := lp.next("")
		eq := indexOutside(t.raw, "=", false)
		if eq <= 0 || t.quoted {
			if len(allowed) == 0 {
				lp.failf(t.col, "unexpected %q: %s takes no options", t.raw, stmt)
			}
			lp.failf(t.col, "expected an option KEY=VALUE (%s), got %q", strings.Join(allowed, ", "), t.raw)
		}
		key := t.raw[:eq]
		known := false
		for _, a := range allowed {
			known = known || a == key
		}
		if !known {
			hint := didYouMean(key, allowed)
			if hint == "" {
				hint = "; options: " + strings.Join(allowed, ", ")
			}
			lp.failf(t.col, "unknown option %q for %s%s", key, stmt, hint)
		}
		if opts.has(key) {
			lp.failf(t.col, "option %s is given twice", key)
		}
		raw := t.raw[eq+1:]
		if raw == "" && !slices.Contains(emptyOK, key) {
			lp.failf(t.col, "%s needs a value: write %s=...", key, key)
		}
		opts.list = append(opts.list, option{key: key, raw: raw, col: t.col, vcol: runeCol(t.raw, t.col, eq+1)})
	}
	return opts
}

// value decodes a free-text value: plain text, or one quoted string that
// spans all of it. It reports whether it was quoted.
func (lp *lineParser) value(raw string, col int) (string, bool) {
	if raw == "" || raw[0] != '"' {
		if q := strings.IndexByte(raw, '"'); q >= 0 {
			lp.failf(runeCol(raw, col, q), "a quote must enclose the whole value")
		}
		return raw, false
	}
	end := quotedEnd(raw)
	if end < 0 {
		lp.failf(col, "unterminated quote: add a closing \"")
	}
	if end != len(raw) {
		lp.failf(runeCol(raw, col, end), "unexpected text after the closing quote")
	}
	return unescape(raw[1 : end-1]), true
}

// nonEmpty decodes a free-text identifier that must not be empty.
func (lp *lineParser) nonEmpty(what, raw string, col int) string {
	v, _ := lp.value(raw, col)
	if v == "" {
		lp.failf(col, "%s must not be empty", what)
	}
	return v
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// integer parses a decimal integer in [lo, hi].
func (lp *lineParser) integer(what, raw string, col int, lo, hi int64) int64 {
	return lp.integerWhy(what, raw, col, lo, hi, "")
}

func (lp *lineParser) integerWhy(what, raw string, col int, lo, hi int64, why string) int64 {
	digits := strings.TrimPrefix(raw, "-")
	if !allDigits(digits) || (lo >= 0 && digits != raw) {
		kind := "an integer"
		switch {
		case lo >= 1:
			kind = "a positive integer"
		case lo == 0:
			kind = "a non-negative integer"
		}
		lp.failf(col, "%s must be %s, got %q", what, kind, raw)
	}
	v, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || v < lo || v > hi {
		if hi == math.MaxInt64 {
			lp.failf(col, "%s must be at least %d, got %s", what, lo, raw)
		}
		lp.failf(col, "%s must be between %d and %d%s, got %s", what, lo, hi, why, raw)
	}
	return v
}

// duration parses 250ms, 5s, 2m, 3h, 7d or a bare integer (milliseconds),
// at most max.
func (lp *lineParser) duration(what, raw string, col int, max sim.Time) sim.Time {
	num, unit := raw, sim.Millisecond
	for _, u := range []struct {
		suffix string
		d      sim.Time
	}{{"ms", sim.Millisecond}, {"s", sim.Second}, {"m", sim.Minute}, {"h", sim.Hour}, {"d", sim.Day}} {
		if strings.HasSuffix(raw, u.suffix) {
			num, unit = strings.TrimSuffix(raw, u.suffix), u.d
			break
		}
	}
	if !allDigits(num) {
		lp.failf(col, "%s must be a duration like 250ms, 5s, 2m, 3h or 7d, got %q", what, raw)
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n > int64(max/unit) || sim.Time(n)*unit > max {
		lp.failf(col, "%s must be at most %s, got %s", what, FormatDuration(max), raw)
	}
	return sim.Time(n) * unit
}

func (lp *lineParser) boolean(o option) bool {
	switch o.raw {
	case "true":
		return true
	case "false":
		return false
	}
	lp.failf(o.col, "%s must be true or false, got %q", o.key, o.raw)
	return false
}

func validTopic(s string) bool {
	if s == "" || len(s) > 249 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func validClientName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// brokerIndex parses "broker-N".
func brokerIndex(s string) (int, bool) {
	n, ok := strings.CutPrefix(s, "broker-")
	if !ok || !allDigits(n) || len(n) > 4 {
		return 0, false
	}
	i, _ := strconv.Atoi(n)
	return i, true
}

// topicPartition parses TOPIC/PARTITION and checks it against the
// declared topics.
func (lp *lineParser) topicPartition(raw string, col int) protocol.TopicPartition {
	slash := strings.LastIndexByte(raw, '/')
	if slash <= 0 {
		lp.failf(col, "expected TOPIC/PARTITION like orders/0, got %q", raw)
	}
	topic, part := raw[:slash], raw[slash+1:]
	if !validTopic(topic) {
		lp.failf(col, "topic name %q may only hold letters, digits, '.', '_' and '-'", topic)
	}
	pcol := runeCol(raw, col, slash+1)
	p := lp.integer("the partition", part, pcol, 0, math.MaxInt32)
	decl, ok := lp.d.Topic(topic)
	if !ok {
		var names []string
		for _, t := range lp.d.topics {
			names = append(names, t.Name)
		}
		lp.failf(col, "unknown topic %q: declare it with topic first%s", topic, didYouMean(topic, names))
	}
	if p >= int64(decl.Partitions) {
		if decl.Partitions == 1 {
			lp.failf(pcol, "partition %d does not exist: topic %s has one partition, 0", p, topic)
		}
		lp.failf(pcol, "partition %d does not exist: topic %s has partitions 0 to %d", p, topic, decl.Partitions-1)
	}
	return protocol.TopicPartition{Topic: topic, Partition: int32(p)}
}

// clientArg reads the one argument of a statement that names a client.
func (lp *lineParser) clientArg(verb string) ClientDecl {
	t := lp.next(verb + " needs a client name")
	if t.quoted {
		lp.failf(t.col, "expected a client name, got %q", t.raw)
	}
	c := lp.clientName(t.raw, t.col)
	lp.done(verb + " takes one client")
	return c
}

// clientName looks up a declared client.
func (lp *lineParser) clientName(name string, col int) ClientDecl {
	if !validClientName(name) {
		lp.failf(col, "expected a client name, got %q", name)
	}
	c, ok := lp.d.Client(name)
	if !ok {
		lp.unknownClient(token{raw: name, text: name, col: col})
	}
	return c
}

func (lp *lineParser) unknownClient(t token) {
	var names []string
	for _, c := range lp.d.clients {
		names = append(names, c.Name)
	}
	lp.failf(t.col, "unknown client %q: declare it with producer or consumer first%s", t.raw, didYouMean(t.raw, names))
}

// enumString and enumByName back the String and XxxByName functions of the
// enumerations below: names[v] is the name of value v; "" marks a value
// without a name.
func enumString[T ~uint8](v T, names []string, typ string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

func enumByName[T ~uint8](name string, names []string) (T, bool) {
	for i, n := range names {
		if n != "" && n == name {
			return T(i), true
		}
	}
	return 0, false
}

func enumNames(names []string) []string {
	var out []string
	for _, n := range names {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// FormatDuration renders milliseconds the way a script writes them, in the
// largest unit that divides exactly: "7d", "1h", "2m", "5s", "250ms", "0".
func FormatDuration(t sim.Time) string {
	if t == 0 {
		return "0"
	}
	for _, u := range []struct {
		d    sim.Time
		name string
	}{{sim.Day, "d"}, {sim.Hour, "h"}, {sim.Minute, "m"}, {sim.Second, "s"}} {
		if t%u.d == 0 {
			return strconv.FormatInt(int64(t/u.d), 10) + u.name
		}
	}
	return strconv.FormatInt(int64(t), 10) + "ms"
}

// quote renders a free-text value: as is when it holds only letters,
// digits, '.', '_' and '-', otherwise double-quoted with \" and \\.
func quote(s string) string {
	if s != "" && plain(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r < 0x20 || r >= 0x7f && r < 0xa0 {
			// Bytes that are not printable text (a real client's binary
			// keys and values) are written \xNN, one escape a byte.
			for _, c := range []byte(s[i : i+size]) {
				b.WriteString(`\x`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&15])
			}
			i += size
			continue
		}
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
		i += size
	}
	b.WriteByte('"')
	return b.String()
}

func plain(s string) bool {
	for _, r := range s {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

func tpList(tps []protocol.TopicPartition) string {
	if len(tps) == 0 {
		return "none"
	}
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return strings.Join(parts, ",")
}

// wordBuilder joins words with single spaces.
type wordBuilder struct{ s strings.Builder }

func words(ws ...string) *wordBuilder {
	b := &wordBuilder{}
	b.add(ws...)
	return b
}

func (b *wordBuilder) add(ws ...string) {
	for _, w := range ws {
		if b.s.Len() > 0 {
			b.s.WriteByte(' ')
		}
		b.s.WriteString(w)
	}
}

func (b *wordBuilder) opt(k, v string) { b.add(k + "=" + v) }

func (b *wordBuilder) String() string { return b.s.String() }

// DidYouMean returns `; did you mean "x"?` for the candidate closest to
// word within a small edit distance, or "": the suggestion every error of
// the scenario language and of the lessons makes for a misspelt name.
func DidYouMean(word string, cands []string) string { return didYouMean(word, cands) }

func didYouMean(word string, cands []string) string {
	if word == "" || len(word) > 64 {
		return ""
	}
	w := []rune(strings.ToLower(word))
	limit := 1
	if len(w) > 4 {
		limit = 2
	}
	if len(w) > 12 {
		limit = 3
	}
	best, bestD := "", limit+1
	for _, c := range cands {
		if len(c) > 64 {
			continue
		}
		d := editDistance(w, []rune(strings.ToLower(c)))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of neighbours each cost one.
func editDistance(a, b []rune) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// ---- Option tables ----

// optSpec declares one KEY=VALUE option of statement S, once: its key,
// its default, how the parser reads (and range-checks) its value into S,
// and how String() writes it back. The kinds below (integers, durations,
// booleans, text) build the specs most options are; an option of its own
// kind writes its read and write by hand.
type optSpec[S any] struct {
	key   string
	def   func(st *S)                           // sets the default; nil: the zero value
	read  func(lp *lineParser, st *S, o option) // decodes a written value
	write func(st *S) string                    // renders the value canonically
	// present tells String() whether to write the option; nil: when the
	// statement's OptionSet lists it.
	present func(st *S) bool
}

// optTable is a statement's options in canonical order: the order
// String() writes them, OptionSet lists them and errors name them.
type optTable[S any] []optSpec[S]

// text renders option key of st canonically ("" for an unknown key).
func (t optTable[S]) text(st *S, key string) string {
	for _, spec := range t {
		if spec.key == key {
			return spec.write(st)
		}
	}
	return ""
}

func (t optTable[S]) keys() []string {
	keys := make([]string, len(t))
	for i, o := range t {
		keys[i] = o.key
	}
	return keys
}

// defaults sets every option of st to its default.
func (t optTable[S]) defaults(st *S) {
	for _, o := range t {
		if o.def != nil {
			o.def(st)
		}
	}
}

// parse consumes the rest of the line as the table's options (each key
// at most once; the keys emptyOK may have nothing after "=") and reads
// every written one into st, in table order.
func (t optTable[S]) parse(lp *lineParser, stmt string, st *S, emptyOK ...string) options {
	opts := t.scan(lp, stmt, emptyOK...)
	for _, spec := range t {
		t.readOne(lp, st, opts, spec)
	}
	return opts
}

// scan consumes the rest of the line as the table's options without
// reading their values: a statement whose options constrain each other
// then reads them with read, in the order its checks need (so that of
// two mistakes on a line, the one reported stays the same).
func (t optTable[S]) scan(lp *lineParser, stmt string, emptyOK ...string) options {
	return lp.optionsEmpty(stmt, t.keys(), emptyOK...)
}

// read reads the written options among keys, in the order given.
func (t optTable[S]) read(lp *lineParser, st *S, opts options, keys ...string) {
	for _, k := range keys {
		for _, spec := range t {
			if spec.key == k {
				t.readOne(lp, st, opts, spec)
			}
		}
	}
}

func (t optTable[S]) readOne(lp *lineParser, st *S, opts options, spec optSpec[S]) {
	if o, ok := opts.get(spec.key); ok && spec.read != nil {
		spec.read(lp, st, o)
	}
}

// render writes the options present (listed in given, unless the spec
// decides), in table order.
func (t optTable[S]) render(b *wordBuilder, st *S, given OptionSet) {
	for _, spec := range t {
		if spec.present != nil && spec.present(st) || spec.present == nil && given.Has(spec.key) {
			b.opt(spec.key, spec.write(st))
		}
	}
}

// intOpt is an integer option in [lo, hi], default def.
func intOpt[S any, N ~int | ~int16 | ~int32 | ~int64](key string, def N, lo, hi int64, field func(*S) *N) optSpec[S] {
	return optSpec[S]{key: key,
		def:   func(st *S) { *field(st) = def },
		read:  func(lp *lineParser, st *S, o option) { *field(st) = N(lp.integer(o.key, o.raw, o.col, lo, hi)) },
		write: func(st *S) string { return strconv.FormatInt(int64(*field(st)), 10) }}
}

// durOpt is a duration option of at most max, default def.
func durOpt[S any](key string, def, max sim.Time, field func(*S) *sim.Time) optSpec[S] {
	return optSpec[S]{key: key,
		def:   func(st *S) { *field(st) = def },
		read:  func(lp *lineParser, st *S, o option) { *field(st) = lp.duration(o.key, o.raw, o.col, max) },
		write: func(st *S) string { return FormatDuration(*field(st)) }}
}

// boolOpt is a true/false option, default def.
func boolOpt[S any](key string, def bool, field func(*S) *bool) optSpec[S] {
	return optSpec[S]{key: key,
		def:   func(st *S) { *field(st) = def },
		read:  func(lp *lineParser, st *S, o option) { *field(st) = lp.boolean(o) },
		write: func(st *S) string { return strconv.FormatBool(*field(st)) }}
}

// textOpt is a non-empty free-text option (plain or quoted), default "".
func textOpt[S any](key string, field func(*S) *string) optSpec[S] {
	return optSpec[S]{key: key,
		read:  func(lp *lineParser, st *S, o option) { *field(st) = lp.nonEmpty(o.key, o.raw, o.vcol) },
		write: func(st *S) string { return quote(*field(st)) }}
}

// endOpts are the from= and to= options of a statement that matches
// messages; each is written when set.
func endOpts[S any](match func(*S) *MessageMatch) (from, to optSpec[S]) {
	from = optSpec[S]{key: "from",
		read:    func(lp *lineParser, st *S, o option) { match(st).From = lp.nodeRef(o.raw, o.vcol) },
		write:   func(st *S) string { return match(st).From.String() },
		present: func(st *S) bool { return !match(st).From.IsZero() }}
	to = optSpec[S]{key: "to",
		read:    func(lp *lineParser, st *S, o option) { match(st).To = lp.nodeRef(o.raw, o.vcol) },
		write:   func(st *S) string { return match(st).To.String() },
		present: func(st *S) bool { return !match(st).To.IsZero() }}
	return from, to
}

// apiText renders a match's API[.response], the word before its options.
func apiText(m MessageMatch) string { return m.API.String() + dotResponse(m.Response) }

func dotResponse(resp bool) string {
	if resp {
		return ".response"
	}
	return ""
}
