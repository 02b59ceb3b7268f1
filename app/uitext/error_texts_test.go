package uitext

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
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

var keptInProse = map[string]bool{"Kafka": true, "Broker": true, "ID": true, "PID": true, "epoch": true, "API": true}

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

// FuzzErrorPieces: no error text makes the matcher panic, and what it
// says of one keeps the text's values.
func FuzzErrorPieces(f *testing.F) {
	f.Add(`unknown statement "sned"; did you mean "send"?`)
	f.Add(`partition 7 does not exist: topic orders has partitions 0 to 1`)
	f.Add(`; did you mean "`)
	f.Fuzz(func(t *testing.T, msg string) {
		errorPieces(msg)
		CoreErrorIn("zh", msg)
	})
}
