package uitext

import (
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"txnlab/core/explore"
)

// findingScripts are the scripts whose runs make the checker's findings:
// the library's, its broken mechanisms', the checker's own cases and the
// explorer's anomalies and regressions.
var findingScripts = []string{
	"../../scenarios/*.scenario", "../../scenarios/broken/*.scenario",
	"../../core/check/testdata/*.scenario", "../../core/explore/testdata/*/*.scenario",
}

// findings is every message the checker gives on findingScripts' runs,
// checked as the explorer checks a run at its end (explore.ExecFinal).
func findings(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, g := range findingScripts {
		files, err := filepath.Glob(g)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: %v, %d files", g, err, len(files))
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range explore.ExecFinal(string(src), 0).Violations {
				seen[v.Message] = true
			}
		}
	}
	var out []string
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	if len(out) < 30 {
		t.Fatalf("only %d findings: the scripts no longer show the anomalies", len(out))
	}
	return out
}

// TestFindingsInChinese holds every finding of the scripts' runs to a
// Chinese sentence, as TestCoreErrorsInChinese holds the errors: a form
// matches it, its prose has no English, no value it reads is English,
// and every form still matches a finding.
func TestFindingsInChinese(t *testing.T) {
	var unmatched []string
	for _, msg := range findings(t) {
		pieces, ok := formPieces(violationTexts, msg)
		if !ok {
			unmatched = append(unmatched, msg)
			continue
		}
		checkChinese(t, msg, pieces)
		if got := PlainText(ViolationPieces("zh", msg)); got != PlainText(pieces) {
			t.Errorf("the inspector says %q as %q, not by its form", msg, got)
		}
	}
	if len(unmatched) > 0 {
		t.Errorf("%d findings match no form of violationTexts:\n%s", len(unmatched), strings.Join(unmatched, "\n"))
	}
}

// checkChinese fails for a finding's Chinese whose values hold English
// or whose prose has a Latin word outside code.
func checkChinese(t *testing.T, msg string, pieces []Piece) {
	t.Helper()
	for _, p := range pieces {
		if p.Code {
			if m := englishInCode.FindString(p.Text); m != "" || strings.Contains(p.Text, "'s ") {
				t.Errorf("%q: the value %q is English", msg, p.Text)
			}
			continue
		}
		for _, w := range proseLatin.FindAllString(p.Text, -1) {
			if !keptInProse[w] {
				t.Errorf("%q: the Chinese %q has the word %q outside code", msg, p.Text, w)
			}
		}
	}
}

// TestEveryFindingFormSaysItInChinese says each form's own example (its
// placeholders filled with values a finding holds) in Chinese: a form
// no script's run reaches (a check of a mechanism the library never
// breaks) is read as the others are.
func TestEveryFindingFormSaysItInChinese(t *testing.T) {
	fill := strings.NewReplacer("%s", "orders/0", "%d", "7", "%q", `"v1"`)
	for _, f := range violationTexts {
		msg := fill.Replace(f.en)
		pieces, ok := formPieces(violationTexts, msg)
		if !ok {
			t.Errorf("the form %q does not match its own example %q", f.en, msg)
			continue
		}
		checkChinese(t, msg, pieces)
	}
}

// TestRecordResequencedTwiceSaysBothIdentities: a record the producer
// re-sequenced twice names two earlier identities, joined as core/check's
// identities joins them; the Chinese names all six of their numbers.
func TestRecordResequencedTwiceSaysBothIdentities(t *testing.T) {
	msg := `p1's record "v1" (producer 0, sequence 3, re-sequenced from producer 0 epoch 0 sequence 0, producer 0 epoch 1 sequence 2) is in orders/0 2 times`
	pieces, ok := formPieces(violationTexts, msg)
	if !ok {
		t.Fatalf("no form matches %q", msg)
	}
	checkChinese(t, msg, pieces)
	if got, want := PlainText(pieces), "序列号 0，以及生产者 ID 0、epoch 1、序列号 2"; !strings.Contains(got, want) {
		t.Errorf("the finding reads %q, want it to name the second identity (%q)", got, want)
	}
}

// valueFragments are the checker's formats that make a value a finding
// names, not a finding: each finding's form takes it apart.
var valueFragments = map[string]bool{"%s's transaction #%d": true, "%s@%d": true, "producer %d epoch %d sequence %d": true}

// TestEveryFindingHasAForm reads the formats of core/check's findings
// (its report calls and the messages it builds with fmt.Sprintf) and
// fails for each that no form of violationTexts covers (formCover: the
// format itself or a more specific sentence of it, one of its values
// taken apart, one English part spelt out), and for a form that covers
// none (stale).
func TestEveryFindingHasAForm(t *testing.T) {
	found, used := 0, make([]bool, len(violationTexts))
	for _, sf := range sourceFormats(t, findingFormat, "../../core/check/*.go") {
		if valueFragments[sf.format] {
			continue
		}
		found++
		re, covered := formCover(sf.format), false
		for i, v := range violationTexts {
			if re.MatchString(v.en) {
				covered, used[i] = true, true
			}
		}
		if !covered {
			t.Errorf("%s: no form of violationTexts covers the finding %q", sf.pos, sf.format)
		}
	}
	if found < 30 {
		t.Errorf("only %d finding formats found in core/check: the reading is broken", found)
	}
	for i, u := range used {
		if !u {
			t.Errorf("the form %q covers no finding of core/check's source: drop it", violationTexts[i].en)
		}
	}
}

// formCover matches the forms that cover a finding's format: the format
// itself, or a more specific sentence of it, each of its values (any
// verb) standing for any text, placeholders included.
func formCover(format string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(format); i++ {
		if format[i] == '%' && i+1 < len(format) {
			i++
			b.WriteString(".*?")
			continue
		}
		b.WriteString(regexp.QuoteMeta(format[i : i+1]))
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// findingFormat is the format of a finding n makes: c.report(inv,
// evidence, "…"), reportAnomaly(a, evidence, "…"),
// reportAnomalyAs(a, inv, evidence, "…"), or fmt.Sprintf("…") with a
// sentence in it.
func findingFormat(n ast.Node) (string, bool) {
	call, ok := n.(*ast.CallExpr)
	if !ok {
		return "", false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	at, ok := map[string]int{"report": 2, "reportAnomaly": 2, "reportAnomalyAs": 3, "Sprintf": 0}[sel.Sel.Name]
	if !ok || at >= len(call.Args) {
		return "", false
	}
	lit, ok := call.Args[at].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	if err != nil || strings.Count(s, " ") < 2 && !valueFragments[s] {
		return "", false // not a sentence ("%s/%d")
	}
	return s, true
}
