package playground

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"txnlab/app/panels"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/core/safety"
	"txnlab/core/sim"
	"txnlab/i18n"
	"txnlab/lessons/doc"
)

// Every message exists in both languages, and its Chinese is Chinese:
// a learner on a Chinese page must never meet an English sentence.
func TestEveryMessageHasBothLanguages(t *testing.T) {
	for key, m := range uitext.Messages {
		if strings.TrimSpace(m[0]) == "" || strings.TrimSpace(m[1]) == "" {
			t.Errorf("%s: missing a language: %q", key, m)
		}
		if strings.Count(m[0], "%") != strings.Count(m[1], "%") {
			t.Errorf("%s: the verbs differ between %q and %q", key, m[0], m[1])
		}
		if !hasHan(m[1]) {
			t.Errorf("%s: the Chinese %q has no Chinese in it", key, m[1])
		}
	}
}

// Every key the code asks for is in the catalogue: tr would show the key
// itself.
func TestEveryMessageKeyExists(t *testing.T) {
	// Every UI package of app/, this one included.
	files, _ := filepath.Glob("../*.go")
	more, _ := filepath.Glob("../*/*.go")
	for _, f := range more {
		if !strings.HasPrefix(f, "../e2e/") {
			files = append(files, f)
		}
	}
	call := regexp.MustCompile(`(?:\btr|uitext\.Tr)\([a-zA-Z.]+(?:\(\))?, "([^"]+)"\)`)
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			n++
			if _, ok := uitext.Messages[m[1]]; !ok {
				t.Errorf("%s asks for message %q, which the catalogue lacks", f, m[1])
			}
		}
	}
	if n < 20 {
		t.Fatalf("found only %d tr calls: the pattern no longer matches the code", n)
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Han, r) {
			return true
		}
	}
	return false
}

func TestLanguagePaths(t *testing.T) {
	for _, tc := range []struct {
		path string
		lang doc.Lang
		en   string
		zh   string
	}{
		{"/", doc.English, "/", "/zh/"},
		{"/zh/", doc.Chinese, "/", "/zh/"},
		{"/zh", doc.Chinese, "/", "/zh/"},
		{"/lessons", doc.English, "/lessons", "/zh/lessons"},
		{"/zh/lessons/03-transaction-protocols", doc.Chinese, "/lessons/03-transaction-protocols", "/zh/lessons/03-transaction-protocols"},
		{"/zhongwen", doc.English, "/zhongwen", "/zh/zhongwen"},
	} {
		if got := uitext.LangOf(tc.path); got != tc.lang {
			t.Errorf("langOf(%q) = %s, want %s", tc.path, got, tc.lang)
		}
		if got := uitext.InLang(doc.English, tc.path); got != tc.en {
			t.Errorf("inLang(en, %q) = %q, want %q", tc.path, got, tc.en)
		}
		if got := uitext.InLang(doc.Chinese, tc.path); got != tc.zh {
			t.Errorf("inLang(zh, %q) = %q, want %q", tc.path, got, tc.zh)
		}
	}
	if got := site.LessonSlugOf("/zh/lessons/03-x"); got != "03-x" {
		t.Errorf("lessonSlugOf = %q", got)
	}
	for _, p := range []string{"/lessons", "/lessons/", "/lessons/a/b", "/playground"} {
		if got := site.LessonSlugOf(p); got != "" {
			t.Errorf("lessonSlugOf(%q) = %q, want none", p, got)
		}
	}
}

// The UI's Chinese uses the glossary's terms (i18n.Glossary, which the
// lessons use too): where an English message names a term, its Chinese
// names the glossary's translation, so the page and the lesson beside it
// say the same thing in the same words. Single common words (step,
// state, commit) are used as verbs as often as terms and are left out.
func TestMessagesUseTheGlossary(t *testing.T) {
	strict := map[string]bool{"playground": true, "scenario": true, "lesson": true, "zombie": true, "evidence": true, "hint": true}
	// The core's notes too: their English is the core's table.
	all := map[string][2]string{}
	for k, m := range uitext.Messages {
		all[k] = m
	}
	for c, zh := range uitext.NoteMessages {
		all["note "+sim.NoteTemplates[c]] = [2]string{sim.NoteTemplates[c], zh}
	}
	for _, term := range i18n.Glossary {
		if !strings.Contains(term.En, " ") && !strict[term.En] {
			continue
		}
		word := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(term.En) + `s?\b`)
		zh, _, _ := strings.Cut(term.Zh, "（") // "epoch（纪元）": the gloss is for first mentions
		for key, m := range all {
			if word.MatchString(m[0]) && !strings.Contains(m[1], zh) {
				t.Errorf("%s: %q names %q, but its Chinese %q does not say %q", key, m[0], term.En, m[1], zh)
			}
		}
	}
}

// The messages asked for by a variable (tab labels, node states, the
// shortcuts) are in the catalogue: TestEveryMessageKeyExists sees only
// literal keys. (core/safety's entries: TestEverySafetyEntryIsTranslated.)
func TestEveryComputedMessageKeyExists(t *testing.T) {
	var keys []string
	for _, x := range panels.Tabs {
		keys = append(keys, x.Label)
	}
	for _, x := range panels.ShortcutKeys {
		keys = append(keys, x.What)
	}
	for _, s := range []string{"up", "crashed", "paused", "fenced"} {
		keys = append(keys, "status."+s)
	}
	keys = append(keys, "committed", "pending", "aborted", "plain", "on", "OFF")
	for _, k := range []sim.Kind{sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume} {
		keys = append(keys, "diagram."+k.String()) // diagramWords' Lifecycle
	}
	for k := sim.KindSend; k <= sim.KindNote; k++ {
		if !k.CarriesMessage() && k != sim.KindAppend {
			keys = append(keys, "event."+k.String()) // eventName
		}
	}
	for _, name := range transportNames {
		keys = append(keys, name)
	}
	for _, k := range keys {
		if _, ok := uitext.Messages[k]; !ok {
			t.Errorf("the catalogue lacks %q", k)
		}
	}
}

// TestEverySafetyEntryIsTranslated: every mechanism and invariant of
// core/safety's table has its UI text in English and in Chinese (what the
// break tab's switch and the invariants tab say, and why the break tab
// may call a switch idle), so a new mechanism cannot reach the
// playground half-described.
func TestEverySafetyEntryIsTranslated(t *testing.T) {
	var keys []string
	for _, m := range safety.Mechanisms {
		keys = append(keys, "mechanism."+m.Name)
	}
	for _, p := range safety.Preconditions {
		keys = append(keys, "break.never."+p.Name)
	}
	for _, i := range safety.Invariants {
		keys = append(keys, "invariant."+i.Name)
	}
	for _, k := range keys {
		m, ok := uitext.Messages[k]
		switch {
		case !ok:
			t.Errorf("the catalogue lacks %q", k)
		case m[0] == "" || m[1] == "" || m[0] == m[1]:
			t.Errorf("%q is not in both languages: %q", k, m)
		}
	}
}

// TestEveryMechanismHasAPrecondition: panels.Unexercised judges every
// precondition of the table, so a history that does nothing (one crash)
// calls every switch idle, each for the reason its entry needs
// (panels' TestEveryPreconditionIsJudged names one the scan does not
// judge).
func TestEveryMechanismHasAPrecondition(t *testing.T) {
	idle := panels.Unexercised([]sim.Event{{Kind: sim.KindCrash}})
	for _, m := range safety.Mechanisms {
		if idle[m.Name] != "break.never."+m.Needs.Name {
			t.Errorf("%s: %q", m, idle[m.Name])
		}
	}
}
