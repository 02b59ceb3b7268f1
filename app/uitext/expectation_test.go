package uitext

import (
	"strings"
	"testing"

	"txnlab/core/scenario"
	"txnlab/i18n/english"
	"txnlab/scenarios"
)

// failedExpectations runs every library scenario and evaluates, at its
// end, every expect line of the whole library (another scenario's lines
// mostly fail, each its own way), and the liveness forms on a cluster
// left crashed and cut. It returns each failing line's wanted and found
// values, every distinct one once.
func failedExpectations(t *testing.T) []string {
	t.Helper()
	lib := scenarios.All()
	seen := map[string]bool{}
	var lines []string
	add := func(l string) {
		if !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	for _, sc := range lib {
		for _, l := range strings.Split(sc.Script, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "expect ") {
				add(l)
			}
		}
	}
	for _, l := range []string{"expect liveness", "expect liveness violation", "expect liveness violation fencing",
		"expect invariants", "expect violation", "expect violation atomicity",
		"expect idle pending", "expect idle ok", "expect txn checkout-1 state=CompleteCommit",
		"expect reader aborted payments/0 = none", "expect admin ok", "expect admin found none"} {
		add(l)
	}
	values := map[string]bool{}
	var out []string
	judge := func(name, src string) {
		script, err := scenario.Parse(name, src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		s := scenario.NewSession(name, script)
		s.Run()
		for _, l := range lines {
			r, err := s.Holds(l)
			if err != nil || r.OK {
				continue
			}
			for _, v := range []string{r.Expected, r.Actual} {
				if !values[v] {
					values[v] = true
					out = append(out, v)
				}
			}
		}
	}
	for _, sc := range lib {
		var body []string
		for _, l := range strings.Split(sc.Script, "\n") {
			if !strings.HasPrefix(strings.TrimSpace(l), "expect ") {
				body = append(body, l)
			}
		}
		judge(sc.Slug, strings.Join(body, "\n"))
	}
	happy, _ := scenarios.Get("happy-path")
	// idle makes no call; broker-2, checkout-1's coordinator, is down.
	idle := strings.Replace(happy.Script, "\nproducer app", "\nproducer idle transactional.id=idle-1\nproducer app", 1)
	judge("crashed and cut", idle+"\ncrash broker-2\npause broker-1\ndrop Fetch\n")
	// An admin command that fails.
	judge("admin failed", happy.Script+"\ncrash broker-0\ncrash broker-1\ncrash broker-2\nadmin list-transactions\nrun\n")
	return out
}

// englishWords lists the places where a text holds two plain English
// words in a row, code included: stricter than the lessons' four-word
// rule, because what an expectation says in English is often short ("no
// violation").
func englishWords(text string) []string { return english.WordPairs(text, IsIdentifier) }

// statementText is the library's statements, comments left out: the
// values a script itself writes ("kept after", a b c), which an
// expectation shows as code in every language.
func statementText() string {
	var b strings.Builder
	for _, sc := range scenarios.All() {
		for _, l := range strings.Split(sc.Script, "\n") {
			l, _, _ = strings.Cut(l, "#")
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// A failed expectation on a Chinese page says what it wanted and what
// the run has without an English phrase: the core's phrases in Chinese,
// the values as code; on an English page each is the core's text, as
// code.
func TestExpectationValuesInChinese(t *testing.T) {
	values := failedExpectations(t)
	if len(values) < 50 {
		t.Fatalf("only %d distinct values from failing expectations", len(values))
	}
	scripts := statementText()
	// English is what, shown as it is, the check below refuses.
	englishIn := func(ps []Piece) []string {
		var out []string
		for _, p := range ps {
			if !p.Code {
				for _, w := range proseLatin.FindAllString(p.Text, -1) {
					if !keptInProse[w] { // the glossary's Latin words (Kafka, epoch, LSO)
						out = append(out, p.Text)
					}
				}
				continue
			}
			if !strings.Contains(scripts, p.Text) {
				out = append(out, englishWords(p.Text)...)
			}
		}
		return out
	}
	refused, said := 0, map[string]bool{}
	for _, v := range values {
		en := ExpectationValue("en", v)
		if len(en) != 1 || !en[0].Code || en[0].Text != v {
			t.Errorf("%q in English: %+v", v, en)
		}
		if len(englishIn(en)) > 0 {
			refused++
		}
		zh := ExpectationValue("zh", v)
		for _, w := range englishIn(zh) {
			t.Errorf("%q in Chinese is %+v: English %q", v, zh, w)
		}
		for _, part := range leadParts(v) {
			for _, f := range expectTexts {
				if _, ok := fill(f.en, part); ok {
					said[f.en] = true
				}
			}
		}
	}
	if refused < 10 {
		t.Errorf("only %d of the values, shown as they are, hold English: the check cannot fail", refused)
	}
	for _, f := range expectTexts {
		// An admin statement waits for its answer, so a script's end
		// never finds one still out; the core still says it.
		if !said[f.en] && f.en != "no admin command has returned" {
			t.Errorf("no failing expectation says %q: a stale phrase", f.en)
		}
		if strings.Count(f.en, "%s") != strings.Count(f.zh, "%") {
			t.Errorf("%q has %d values, its Chinese %q another count", f.en, strings.Count(f.en, "%s"), f.zh)
		}
	}
}

// leadParts is v without the leads expectationZh reads first (not
// healed: …; …), as the parts it says one by one.
func leadParts(v string) []string {
	for _, l := range expectLeads {
		if rest, ok := strings.CutPrefix(v, l.en); ok {
			if l.sep == "" {
				return leadParts(rest)
			}
			var out []string
			for _, p := range strings.Split(rest, l.sep) {
				out = append(out, leadParts(p)...)
			}
			return out
		}
	}
	return []string{v}
}

// FuzzExpectationValue: any text, as the core or a script might write
// it, is said without a panic, and each value a Chinese page shows as
// code is a part of the text (nothing invented, nothing from another
// value).
func FuzzExpectationValue(f *testing.F) {
	for _, s := range []string{"no violation", "commit returned NONE", "not healed: broker-0 is crashed; ",
		"no fetch answer for a sent to ", "(x failed: )", "fencing: p1's transaction #1; atomicity (Kafka's own anomaly x): y",
		"on a healed, quiet cluster, not healed: ; ", "%s", "`", "a violation of %[2]s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if en := ExpectationValue("en", v); len(en) != 1 || en[0].Text != v {
			t.Fatalf("%q in English: %+v", v, en)
		}
		for _, p := range ExpectationValue("zh", v) {
			if p.Code && !strings.Contains(v, p.Text) {
				t.Fatalf("%q in Chinese shows %q as code", v, p.Text)
			}
		}
	})
}
