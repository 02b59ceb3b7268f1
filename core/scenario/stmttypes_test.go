package scenario

import (
	"fmt"
	"go/ast"
	"go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// stmtTypes lists every type of this package that is a statement: the
// types with an apply(*Session) *Error method, read from the source, so
// a statement added anywhere is found without anyone adding it to a list.
func stmtTypes(t *testing.T) []string {
	t.Helper()
	fset := gotoken.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Name.Name != "apply" || len(fn.Recv.List) != 1 {
				continue
			}
			star, ok := fn.Recv.List[0].Type.(*ast.StarExpr)
			if !ok {
				continue
			}
			if id, ok := star.X.(*ast.Ident); ok && strings.HasSuffix(id.Name, "Stmt") {
				out = append(out, "*scenario."+id.Name)
			}
		}
	}
	slices.Sort(out)
	if len(out) < 30 {
		t.Fatalf("found only %d statement types: the apply method's shape changed and this test must follow", len(out))
	}
	return out
}

// TestEveryStatementTypeIsExercised: the examples of the parser's tables
// (verb.example), with everyStatement, which the round trip,
// line-by-line and interpretation tests run, make one of every statement
// type the package defines (issue 26: a hand-kept list missed 5 of 38).
func TestEveryStatementTypeIsExercised(t *testing.T) {
	s, err := Parse("", everyStatement)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, st := range s.Statements {
		seen[fmt.Sprintf("%T", st)] = true
	}
	for _, e := range tableExamples() {
		seen[fmt.Sprintf("%T", parseExample(t, e[1]))] = true
	}
	for _, typ := range stmtTypes(t) {
		if !seen[typ] {
			t.Errorf("no statement of the parser's tables makes a %s: give its table row an example", typ)
		}
	}
}

// TestEveryVerbIsDocumented: each verb of the parser's table is shown in
// docs/scenario-language.md as a statement (a code span starting with it)
// and is a word of its grammar, so a statement cannot ship without its
// documentation.
func TestEveryVerbIsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/scenario-language.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	grammar := doc[strings.Index(doc, "## Grammar"):]
	for _, v := range statementVerbs {
		shown := regexp.MustCompile("`" + regexp.QuoteMeta(v) + "( [^`]*)?`")
		if !shown.MatchString(doc[:len(doc)-len(grammar)]) {
			t.Errorf("docs/scenario-language.md never shows a `%s …` statement", v)
		}
		if !strings.Contains(grammar, `"`+v+`"`) {
			t.Errorf("docs/scenario-language.md's grammar does not name %q", v)
		}
	}
	// The grammar's enumerations follow the tables they list.
	production := func(name string) string {
		i := strings.Index(grammar, "\n"+name)
		if i < 0 {
			t.Fatalf("the grammar has no %s production", name)
		}
		p := grammar[i:]
		return p[:strings.Index(p, ";")]
	}
	mechs, invs := production("mechanism"), production("invariant")
	for _, m := range Mechanisms {
		if !strings.Contains(mechs, `"`+m.String()+`"`) {
			t.Errorf("the grammar's mechanism production lacks %q", m)
		}
	}
	for _, i := range Invariants {
		if !strings.Contains(invs, `"`+i.String()+`"`) {
			t.Errorf("the grammar's invariant production lacks %q", i)
		}
	}
}

// TestLanguageDocumentsEveryStatement ties docs/scenario-language.md to
// the parser's tables, both ways, as core/safety's test does for the
// mechanisms: "Statements at a glance" lists exactly the verb table, in
// its order, with each verb's example; each alternative of the grammar's statement production is
// a production that starts with a verb (or a client, for the client's
// actions and an external client's requests), and every verb starts
// one; the expect production's subjects are exactly expectSubjects.
func TestLanguageDocumentsEveryStatement(t *testing.T) {
	b, err := os.ReadFile("../../docs/scenario-language.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	glance := regexp.MustCompile("(?s)\n## Statements at a glance\n(.*?)\n## ").FindStringSubmatch(doc)
	if glance == nil {
		t.Fatal(`docs/scenario-language.md has no "Statements at a glance" section`)
	}
	var listed []string
	for _, r := range regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\| `(.*?)` \\|").FindAllStringSubmatch(glance[1], -1) {
		listed = append(listed, r[1])
		for _, v := range verbs {
			if example := strings.ReplaceAll(r[2], `\|`, "|"); v.name == r[1] && v.example != example {
				t.Errorf("Statements at a glance shows %s as `%s`, the verb table's example is `%s`", v.name, example, v.example)
			}
		}
	}
	if !slices.Equal(listed, statementVerbs) {
		t.Errorf("Statements at a glance lists %v, the verb table holds %v", listed, statementVerbs)
	}

	grammar := doc[strings.Index(doc, "## Grammar"):]
	production := func(name string) string {
		m := regexp.MustCompile(`(?s)\n` + regexp.QuoteMeta(name) + ` *=(.*?);`).FindStringSubmatch(grammar)
		if m == nil {
			t.Fatalf("the grammar has no %s production", name)
		}
		return regexp.MustCompile(`\(\*.*?\*\)`).ReplaceAllString(m[1], "")
	}
	// alternatives splits a production's body at its top-level "|"
	// (a quoted "|" and those inside parentheses or braces do not count).
	alternatives := func(body string) []string {
		var out []string
		depth, quoted, start := 0, false, 0
		for i, r := range body {
			switch {
			case r == '"':
				quoted = !quoted
			case quoted:
			case r == '(' || r == '{' || r == '[':
				depth++
			case r == ')' || r == '}' || r == ']':
				depth--
			case r == '|' && depth == 0:
				out = append(out, strings.TrimSpace(body[start:i]))
				start = i + 1
			}
		}
		return append(out, strings.TrimSpace(body[start:]))
	}
	firstWord := regexp.MustCompile(`^"([a-z-]+)"`)
	started := map[string]bool{}
	for _, alt := range alternatives(production("statement")) {
		body := strings.TrimSpace(production(alt))
		if m := firstWord.FindStringSubmatch(body); m != nil {
			if !slices.Contains(statementVerbs, m[1]) {
				t.Errorf("the grammar's %s starts with %q, which is not a verb of the parser's table", alt, m[1])
			}
			started[m[1]] = true
		} else if !strings.HasPrefix(body, "P ") && !strings.HasPrefix(body, "C ") {
			t.Errorf("the grammar's %s starts with neither a verb nor a client: %.40q", alt, body)
		}
	}
	for _, v := range statementVerbs {
		if !started[v] {
			t.Errorf("no alternative of the grammar's statement production starts with %q", v)
		}
	}

	subjects := map[string]bool{}
	expect := strings.TrimSpace(production("expect"))
	expect = strings.TrimSuffix(strings.TrimPrefix(expect, `"expect" (`), ")")
	for _, alt := range alternatives(expect) {
		if m := firstWord.FindStringSubmatch(alt); m != nil {
			subjects[m[1]] = true
		}
	}
	for _, s := range expectSubjectNames() {
		if !subjects[s] {
			t.Errorf("the grammar's expect production has no %q alternative", s)
		}
		delete(subjects, s)
	}
	for s := range subjects {
		t.Errorf("the grammar's expect production has %q, which expectSubjects lacks", s)
	}
}

// exampleSetup declares what the examples of the verb and expectation
// tables name (verb.example).
const exampleSetup = `cluster brokers=3
topic orders partitions=2
producer p1 transactional.id=order-txn-1
consumer c1 isolation.level=read_committed group.id=g1
client kgo
`

// tableExamples are the examples of the verb table, expectSubjects and
// clientExpects, by the word the table keys them with.
func tableExamples() [][2]string {
	var out [][2]string
	for _, v := range verbs {
		out = append(out, [2]string{v.name, v.example})
	}
	for _, e := range expectSubjects {
		out = append(out, [2]string{"expect " + e.name, e.example})
	}
	for _, e := range clientExpects {
		out = append(out, [2]string{"expect NAME " + e.name, e.example})
	}
	return out
}

// parseExample parses one example after exampleSetup and returns the
// statement it makes.
func parseExample(t *testing.T, example string) Stmt {
	t.Helper()
	src := exampleSetup + example + "\n"
	if strings.HasPrefix(example, "cluster ") {
		src = example + "\n"
	}
	s, err := Parse("", src)
	if err != nil {
		t.Fatalf("%q: %v", example, err)
	}
	checkRoundTrip(t, s)
	return s.Statements[len(s.Statements)-1]
}

// TestEveryTableExampleParses: every verb and expectation of the
// parser's tables has an example, which parses to a statement whose
// canonical text it is, starting with the word the table keys it by.
func TestEveryTableExampleParses(t *testing.T) {
	for _, e := range tableExamples() {
		word, example := e[0], e[1]
		t.Run(word, func(t *testing.T) {
			if example == "" {
				t.Fatalf("%s has no example in its table", word)
			}
			st := parseExample(t, example)
			if st.String() != example {
				t.Errorf("%q renders as %q: write the example in canonical form", example, st.String())
			}
			fields, want := strings.Fields(example), strings.Fields(word)
			if want[0] == "expect" && len(want) == 3 {
				want[1] = fields[1] // the client's name
			}
			if len(fields) < len(want) || !slices.Equal(fields[:len(want)], want) {
				t.Errorf("%q does not start with %q", example, word)
			}
		})
	}
}
