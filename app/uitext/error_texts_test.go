package uitext

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"txnlab/app/engine"
	"txnlab/core/scenario"
	"txnlab/internal/badlines"
)

// runtimeScripts are scripts whose run stops at a statement that cannot
// apply at that moment: the runtime errors a learner meets.
var runtimeScripts = []string{
	"cluster\nproducer p transactional.id=t\np init\npause p\np begin\n",
	"cluster\nproducer p transactional.id=t\np init\ncrash p\np begin\n",
	"cluster\nproducer p transactional.id=t\np init &\np begin\n",
	"cluster\nproducer p transactional.id=t\nwait p\n",
	"cluster\nrestart broker-1\n",
	"cluster\nresume broker-1\n",
	"cluster\ncrash broker-1\npause broker-1\n",
	"cluster\npause broker-1\npause broker-1\n",
	"cluster\nproducer p transactional.id=t\ncrash p\nrequest InitProducerId from=p TransactionalId=t\n",
	"cluster brokers=1\nproducer p\ncrash broker-0\nrequest Metadata from=p\n",
	"cluster brokers=1\nproducer p\ncrash broker-0\nrequest InitProducerId from=p\n",
	"cluster\nproducer p transactional.id=t\np init\ntxn t epoch=5\n",
	"cluster\nproducer p transactional.id=x\np init\ntxn t epoch=5 pid=0\n",
	"cluster brokers=1\ncrash broker-0\ntxn t epoch=5\n",
	"cluster brokers=3 txn-partitions=1\nconfig min.insync.replicas=3 transaction.state.log.min.isr=3\ncrash broker-1\ntxn t epoch=5\n",
	"cluster brokers=1\ncrash admin\nadmin list-transactions\n",
	"cluster brokers=1\npause admin\nadmin list-transactions\n",
}

// boundedScripts are runs that stop at one of the bounds on a script's
// work, each lowered (or not) by bound so that the test stays quick.
var boundedScripts = []struct {
	src   string
	bound func(*scenario.Session)
}{
	{"cluster\nadvance 30d\n", func(s *scenario.Session) { s.MaxStepsPerStatement = 50 }},
	{"cluster\nadvance 30d\n", func(s *scenario.Session) { s.MaxEvents = 50 }},
	{"cluster\nadvance 30d\n", func(s *scenario.Session) { s.MaxWork = 50 }},
	{"cluster\ntopic t\nproducer p transactional.id=x request.timeout.ms=0 delivery.timeout.ms=0 retry.backoff.ms=0 max.block.ms=0\np init\np begin\np send t/0 k=v\np commit\nrun\n",
		func(s *scenario.Session) { s.MaxPending = 200 }},
	{"cluster\n" + strings.Repeat("advance 365d\n", 11), func(*scenario.Session) {}},
}

// badScripts are scripts that do not parse as a whole, for the errors
// a single line after the prelude cannot make: the cluster statement's
// place and options, and the script's limits.
var badScripts = []string{
	"topic t\n",
	"# x\ntopic t\ncluster\n",
	"cluster seed=abc\n",
	"cluster latency=5ms..1ms\n",
	"cluster\n" + manyLines("topic t%d\n", 40),
	"cluster\n" + manyLines("producer p%d\n", 40),
	"cluster\n" + strings.Repeat("\n", scenario.MaxLines),
}

// manyLines is format (with one %d) for 0 to n-1, one after another.
func manyLines(format string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// extraLines are refused lines the corpus cannot hold (a computed list)
// or that need no prelude.
var extraLines = []string{"break epoch-fencng", "restore", "p1 commit\x00", "p1 commit \xff"}

// coreErrors is every error of the corpus (core/scenario's bad lines),
// of extraLines, of runtimeScripts, of the compare page's settings and of
// the playground's engine, as each says it now, with what made it.
func coreErrors(t *testing.T) []badlines.Case {
	t.Helper()
	b, err := os.ReadFile("../../core/scenario/testdata/bad-lines.txt")
	if err != nil {
		t.Fatal(err)
	}
	prelude, cases, err := badlines.Parse(string(b))
	if err != nil {
		t.Fatal(err)
	}
	base, err := scenario.Parse("", prelude)
	if err != nil {
		t.Fatalf("prelude: %v", err)
	}
	var out []badlines.Case
	lines := slices.Concat(extraLines, nil)
	for _, c := range cases {
		lines = append(lines, c.Line)
	}
	for _, line := range lines {
		_, err := scenario.ParseLine(line, 10, base.Decls)
		var list scenario.ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("%q: %v", line, err)
		}
		out = append(out, badlines.Case{Line: line, Want: list[0].Pos.String() + ": " + list[0].Msg})
	}
	for _, src := range badScripts {
		_, err := scenario.Parse("", src)
		var list scenario.ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("%q: %v", src, err)
		}
		for _, e := range list {
			out = append(out, badlines.Case{Line: src, Want: e.Pos.String() + ": " + e.Msg})
		}
	}
	for _, b := range boundedScripts {
		s, err := scenario.Parse("", b.src)
		if err != nil {
			t.Fatalf("%q: %v", b.src, err)
		}
		sess := scenario.NewSession("", s)
		b.bound(sess)
		sess.Run()
		if sess.Err == nil {
			t.Fatalf("%q runs to its end", b.src)
		}
		out = append(out, badlines.Case{Line: b.src, Want: sess.Err.Pos.String() + ": " + sess.Err.Msg})
	}
	for _, src := range runtimeScripts {
		s, err := scenario.Parse("", src)
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		sess := scenario.NewSession("", s)
		sess.Run()
		if sess.Err == nil {
			t.Fatalf("%q runs to its end", src)
		}
		out = append(out, badlines.Case{Line: src, Want: sess.Err.Pos.String() + ": " + sess.Err.Msg})
	}
	for _, bad := range []string{"kafka=3.9", "seed=x", "break=nope", "transactional"} {
		_, err := scenario.ParseSettings(bad)
		if err == nil {
			t.Fatalf("the settings %q have no error", bad)
		}
		out = append(out, badlines.Case{Line: bad, Want: "1:1: " + err.Error()})
	}
	return append(out, engineErrors(t)...)
}

// engineErrors are the playground engine's own refusals of a button's
// statement (Engine.BeginAct) and of a query: before a script, before
// the cluster, after a run that stopped; the statement it runs is
// refused as the core refuses it, after "stmt: ".
func engineErrors(t *testing.T) []badlines.Case {
	t.Helper()
	var out []badlines.Case
	add := func(what string, err error) {
		if err == nil {
			t.Fatalf("%s: no error", what)
		}
		out = append(out, badlines.Case{Line: what, Want: "1:1: " + err.Error()})
	}
	run := func(e engine.Engine) {
		for done := false; !done; {
			done, _ = e.Work(time.Hour)
		}
	}
	e := engine.New()
	add("act before a script", e.BeginAct("crash broker-1"))
	_, err := e.Query("txn t state")
	add("query before a script", err)
	if err := e.Begin("cluster\nproducer p transactional.id=t\np init\nresume p\n"); err != nil {
		t.Fatal(err)
	}
	run(e)
	e.Seek(0)
	add("act before the cluster", e.BeginAct("crash broker-1"))
	e.Seek(e.Len())
	add("act after a stop", e.BeginAct("crash broker-1"))
	return out
}

// proseLatin finds Latin words in a Chinese sentence's prose: the words
// Chinese writing about Kafka keeps (the glossary's) aside.
var proseLatin = regexp.MustCompile(`[A-Za-z][A-Za-z_.-]*`)

var keptInProse = map[string]bool{"Kafka": true, "Broker": true, "ID": true, "PID": true, "epoch": true, "API": true, "LSO": true, "HW": true}

// englishInCode finds English prose in a value: a function word between
// two others. A list of names or an example statement has none.
var englishInCode = regexp.MustCompile(`\b(the|a|an|to|is|are|must|needs?|with|of|for|after|before|write|takes|it|its|be|has|have|at|in|on|from|as)\b [a-z]`)

// TestCoreErrorsInChinese holds every error of the corpus to a Chinese
// sentence: a form of errorTexts matches it, its prose has no English,
// and no value the form reads out of it is an English phrase. Every
// form must still match an error, so that none is stale.
func TestCoreErrorsInChinese(t *testing.T) {
	used := make([]bool, len(errorTexts))
	var unmatched []string
	for _, c := range coreErrors(t) {
		msg := c.Msg()
		pieces, ok := errorPieces(msg)
		if !ok {
			unmatched = append(unmatched, msg)
			continue
		}
		rest, _ := cutDidYouMean(msg)
		for i, f := range errorTexts {
			if _, ok := matchForm(f.en, rest, nil); ok {
				used[i] = true
				break
			}
		}
		if last := pieces[len(pieces)-1].Text; !strings.HasSuffix(last, "。") && !strings.HasSuffix(last, "？") {
			t.Errorf("%q: the Chinese does not end a sentence: %q", msg, PlainText(pieces))
		}
		if text := PlainText(pieces); strings.Contains(text, "？。") || strings.Contains(text, "。。") {
			t.Errorf("%q: the Chinese ends twice: %q", msg, text)
		}
		for _, p := range pieces {
			if p.Code {
				if m := englishInCode.FindString(p.Text); m != "" && !strings.Contains(c.Line, p.Text) {
					t.Errorf("%q: the value %q is English (%q)", msg, p.Text, m)
				}
				continue
			}
			for _, w := range proseLatin.FindAllString(p.Text, -1) {
				if !keptInProse[w] {
					t.Errorf("%q: the Chinese %q has the word %q outside code", msg, p.Text, w)
				}
			}
		}
		if en := CoreErrorIn("en", msg); en != msg {
			t.Errorf("in English %q became %q", msg, en)
		}
	}
	if len(unmatched) > 0 {
		sort.Strings(unmatched)
		t.Errorf("%d errors match no form of errorTexts:\n%s", len(unmatched), strings.Join(slices.Compact(unmatched), "\n"))
	}
	for i, u := range used {
		if !u {
			t.Errorf("no error of the corpus has the form %q: add a line that makes it to core/scenario/testdata/bad-lines.txt, or drop the form", errorTexts[i].en)
		}
	}
}

func TestMatchForm(t *testing.T) {
	tests := []struct {
		form, msg string
		want      []string
	}{
		{"unknown statement %q", `unknown statement "sned"`, []string{"sned"}},
		{"record %q", `record ""`, []string{`""`}},
		{"unknown statement %q", `unknown statement "a\"b"`, []string{`"a\"b"`}},
		{"unknown statement %q", `unknown statement sned`, nil},
		{"%s is paused: resume it first", "p1 is paused: resume it first", []string{"p1"}},
		{"partition %d does not exist: topic %s has partitions 0 to %d", "partition 7 does not exist: topic orders has partitions 0 to 1", []string{"7", "orders", "1"}},
		{"epoch must be between %d and %d, got %d", "epoch must be between -1 and 32767, got 40000", []string{"-1", "32767", "40000"}},
		{"%d is a number", "x is a number", nil},
		{"%s: %s", "a: b: c", []string{"a", "b: c"}},
		{"exact", "exact", []string{}},
		{"exact", "exactly", nil},
	}
	for _, tc := range tests {
		got, ok := matchForm(tc.form, tc.msg, nil)
		if ok != (tc.want != nil) || (ok && !slices.Equal(got, tc.want)) {
			t.Errorf("matchForm(%q, %q) = %q, %v; want %q", tc.form, tc.msg, got, ok, tc.want)
		}
	}
}

func TestCutDidYouMean(t *testing.T) {
	rest, w := cutDidYouMean(`unknown producer action "sned"; did you mean "send"? (a producer can init)`)
	if rest != `unknown producer action "sned" (a producer can init)` || w != "send" {
		t.Errorf("got %q, %q", rest, w)
	}
	if rest, w := cutDidYouMean(`no suggestion`); rest != "no suggestion" || w != "" {
		t.Errorf("got %q, %q", rest, w)
	}
}

// FuzzErrorPieces: no error text or finding makes the matcher panic.
func FuzzErrorPieces(f *testing.F) {
	f.Add(`unknown statement "sned"; did you mean "send"?`)
	f.Add(`partition 7 does not exist: topic orders has partitions 0 to 1`)
	f.Add(`; did you mean "`)
	f.Fuzz(func(t *testing.T, msg string) {
		errorPieces(msg)
		CoreErrorIn("zh", msg)
		ViolationPieces("zh", msg)
	})
}

// unreachable are the parser's, interpreter's and cluster's error formats that no
// case of the corpus makes, each with why: a check no script can fail, a
// txnlab bug, or text no page shows. Every other format must be made by
// a case (TestEveryCoreErrorHasACase), so that a new error gets its case
// and its Chinese with it.
var unreachable = map[string]string{
	"internal assertion failed (a txnlab bug, not Kafka behaviour): %v":        "a txnlab bug",
	"statement %T is not supported":                                            "a txnlab bug",
	"%s is not a producer":                                                     "the parser refuses the line first",
	"%s is not a consumer":                                                     "the parser refuses the line first",
	"an external client cannot send %s: it sends %s":                           "every API the parser knows is one an external client sends",
	"a request from an external client needs from=CLIENT":                      "a line without from= fails earlier (expected NAME=VALUE options)",
	"Acks must be -1, 0 or 1":                                                  "the range check (between -1 and 1) fails first",
	"Acks must be -1, 0 or 1, got %s":                                          "the range check (between -1 and 1) fails first",
	"at most %d records in one request":                                        "longer than a line may be",
	"at most %d partitions in one request":                                     "longer than a line may be",
	"empty group: put at least one node between the bars":                      "\"expected a node before\" fails first",
	"unexpected %q: %s takes no options":                                       "no statement passes an empty option list",
	"there is no broker-%d: the cluster has brokers broker-0 … broker-%d":      "the parser checks the broker first",
	"no broker leads __transaction_state/%d (the partition of %q) now":         "a crashed leader stays the leader",
	"no broker leads __consumer_offsets/%d (the partition of group %q) now":    "a crashed leader stays the leader",
	"%s has no leader now":                                                     "a crashed leader stays the leader",
	"unknown partition %s: declare the topic first (topic NAME partitions=N)":  "the parser checks the partition first",
	"unknown external client %s":                                               "the parser checks the client first",
	"%s has no transactional.id: write TransactionalId=ID or to=NODE":          "the parser requires TransactionalId first",
	"the cluster is already created: cluster must be the first statement":      "the parser refuses a second cluster first",
	"the simulation is between two events of line %d; step to a message first": "the CLI's steps, not a page",

	// core/cluster's, which the interpreter passes on (%v) where the
	// parser has not refused the line first.
	"the admin's previous call has not returned yet":         "an admin statement waits for its answer (no &)",
	"broker-%d's replica %s":                                 "a txnlab bug (an internal assertion)",
	"brokers must be between 1 and %d":                       "the parser checks brokers= first",
	"rf must be between 1 and the number of brokers (%d)":    "the parser checks rf= first",
	"topic %q already exists":                                "the parser refuses a second declaration first",
	"at most %d topics":                                      "the parser's too many topics first",
	"at most %d clients":                                     "the parser's too many clients first",
	"a transactional producer needs enable.idempotence=true": "the parser checks the options first",
	"%q is a reserved node name":                             "the parser checks client names first",
	"%s is already crashed":                                  "a crash of a crashed node is a note, not an error",
	"unknown node %s":                                        "the parser resolves nodes first",
	"unknown broker %s":                                      "the parser resolves brokers first",
	"only brokers can be restarted; a crashed client is gone: declare a new one": "the parser refuses restarting a client first",
	"%s is not a broker: requests go to brokers":                                 "the parser takes to=broker-N only",
	"conn must be between 1 and %d":                                              "the parser checks conn= first",
	"an external client sends requests, not responses":                           "the parser refuses .response first",
	"unknown broker setting %q":                                                  "the parser checks config keys first",
	"pid must be at most %d":                                                     "the parser checks pid= first",
}

// The parser's queries are the lessons' facts and questions, which the
// lessons' tests run: an author's error, never a learner's.
const queryFile = "query.go"

// TestEveryCoreErrorHasACase reads the error formats of core/scenario's
// source (failf, errorf, next, fmt.Errorf and Msg literals) and of
// core/cluster's (whose errors the interpreter passes on), and fails for
// each that no error of the corpus matches and unreachable does not
// explain.
func TestEveryCoreErrorHasACase(t *testing.T) {
	var msgs []string
	for _, c := range coreErrors(t) {
		msg, _ := cutDidYouMean(c.Msg())
		msgs = append(msgs, msg)
	}
	found, used := 0, map[string]bool{}
	for _, sf := range sourceFormats(t, errorFormat, "../../core/scenario/*.go", "../../core/cluster/*.go") {
		if sf.format == "%s" || sf.format == "%v" || sf.format == "" || filepath.Base(sf.file) == queryFile {
			continue
		}
		found++
		if _, ok := unreachable[sf.format]; ok {
			used[sf.format] = true
			continue
		}
		if re := formatRegexp(sf.format); !slices.ContainsFunc(msgs, re.MatchString) {
			t.Errorf("%s: no case of the corpus makes %q: add a line that does to core/scenario/testdata/bad-lines.txt (or a script here) and its form to errorTexts, or say in unreachable why none can", sf.pos, sf.format)
		}
	}
	if found < 200 {
		t.Errorf("only %d error formats found in core/scenario: the reading is broken", found)
	}
	for format := range unreachable {
		if !used[format] {
			t.Errorf("unreachable lists %q, which the source no longer has", format)
		}
	}
}

// sourceFormat is a format string of the core's source, where it is.
type sourceFormat struct {
	file, pos, format string
}

// sourceFormats reads the non-test Go files of globs and returns each
// format extract finds in them.
func sourceFormats(t *testing.T, extract func(ast.Node) (string, bool), globs ...string) []sourceFormat {
	t.Helper()
	var out []sourceFormat
	fset := token.NewFileSet()
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v, %d files", g, err, len(files))
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if format, ok := extract(n); ok {
					out = append(out, sourceFormat{name, fset.Position(n.Pos()).String(), format})
				}
				return true
			})
		}
	}
	return out
}

// errorFormat is the format (or the literal start) of an error n makes:
// lp.failf(col, "…"), s.errorf(st, "…"), lp.next("…" + …),
// fmt.Errorf("…") and Msg: "…".
func errorFormat(n ast.Node) (string, bool) {
	var arg ast.Expr
	switch n := n.(type) {
	case *ast.CallExpr:
		sel, ok := n.Fun.(*ast.SelectorExpr)
		if !ok {
			return "", false
		}
		switch at := map[string]int{"failf": 1, "errorf": 1, "next": 0, "Errorf": 0}[sel.Sel.Name]; {
		case sel.Sel.Name == "Errorf" && fmt.Sprint(sel.X) != "fmt":
			return "", false
		case at < len(n.Args) && (at > 0 || sel.Sel.Name == "next" || sel.Sel.Name == "Errorf"):
			arg = n.Args[at]
		default:
			return "", false
		}
	case *ast.KeyValueExpr:
		if id, ok := n.Key.(*ast.Ident); !ok || id.Name != "Msg" {
			return "", false
		}
		arg = n.Value
	default:
		return "", false
	}
	for {
		b, ok := arg.(*ast.BinaryExpr)
		if !ok || b.Op != token.ADD {
			break
		}
		arg = b.X
	}
	lit, ok := arg.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// formatRegexp matches the errors a format makes, from their start: a
// %q is a quoted string, %d a number, anything else any text (a %s
// after a %q is often a "did you mean", taken out of the errors).
func formatRegexp(format string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			b.WriteString(regexp.QuoteMeta(format[i : i+1]))
			continue
		}
		i++
		switch format[i] {
		case 'q':
			b.WriteString(`"(?:[^"\\]|\\.)*"`)
		case 'd':
			b.WriteString(`-?\d+`)
		case '%':
			b.WriteString("%")
		default:
			b.WriteString(".*?")
		}
	}
	return regexp.MustCompile(b.String())
}
