package scenarios_test

import (
	"strings"
	"testing"

	"txnlab/core/scenario"
	"txnlab/i18n/english"
	"txnlab/scenarios"
)

// twins is every script's Chinese twin that exists, with its English
// original.
func twins(t *testing.T) (pairs [][2]scenarios.Scenario) {
	t.Helper()
	for _, en := range scenarios.All() {
		zh, ok := scenarios.GetIn(scenarios.Chinese, en.Slug)
		if !ok {
			t.Fatalf("GetIn(zh, %s) finds nothing, Get does", en.Slug)
		}
		if zh.Lang == scenarios.Chinese {
			pairs = append(pairs, [2]scenarios.Scenario{en, zh})
		}
	}
	return pairs
}

// A Chinese page shows every library script with Chinese comments: none
// falls back to the English one.
func TestEveryScriptHasAChineseTwin(t *testing.T) {
	zh := scenarios.AllIn(scenarios.Chinese)
	en := scenarios.All()
	if len(zh) != len(en) {
		t.Fatalf("%d scripts in Chinese, %d in English", len(zh), len(en))
	}
	for i, sc := range zh {
		if sc.Slug != en[i].Slug {
			t.Errorf("script %d is %s in Chinese, %s in English", i, sc.Slug, en[i].Slug)
		}
		if sc.Lang != scenarios.Chinese {
			t.Errorf("%s has no Chinese twin (scenarios/zh/%s.scenario)", sc.Slug, sc.Slug)
		}
	}
}

// A twin is the same scenario: the same statement on every line (so an
// error names the same line in both languages) and the same canonical
// script, hence the same run and the same digest in a share link.
func TestTwinsHaveTheSameStatements(t *testing.T) {
	for _, p := range twins(t) {
		en, zh := p[0], p[1]
		enLines, zhLines := strings.Split(en.Script, "\n"), strings.Split(zh.Script, "\n")
		if len(enLines) != len(zhLines) {
			t.Errorf("%s: %d lines in English, %d in Chinese", en.Slug, len(enLines), len(zhLines))
			continue
		}
		for i := range enLines {
			if a, b := statement(enLines[i]), statement(zhLines[i]); a != b {
				t.Errorf("%s:%d: %q in English, %q in Chinese", en.Slug, i+1, a, b)
			}
		}
		a, errA := scenario.Parse(en.Slug, en.Script)
		b, errB := scenario.Parse(en.Slug, zh.Script)
		if errA != nil || errB != nil {
			t.Errorf("%s: parsing: %v, %v", en.Slug, errA, errB)
			continue
		}
		if a.String() != b.String() {
			t.Errorf("%s: the twin's canonical script differs:\n%s\nwant\n%s", en.Slug, b.String(), a.String())
		}
	}
}

// statement is line without its comment and trailing blanks. No library
// script quotes a '#'.
func statement(line string) string {
	s, _, _ := strings.Cut(line, "#")
	return strings.TrimRight(s, " \t")
}

// A twin's comments are Chinese: none holds an English sentence (the
// lessons' rule, english.Sentences); its title and narrative are Chinese.
func TestTwinsCommentInChinese(t *testing.T) {
	for _, p := range twins(t) {
		en, zh := p[0], p[1]
		for i, line := range strings.Split(zh.Script, "\n") {
			_, comment, ok := strings.Cut(line, "#")
			if !ok {
				continue
			}
			for _, w := range english.Sentences(comment) {
				t.Errorf("%s:%d: English in a Chinese comment: %q", zh.Slug, i+1, w)
			}
		}
		if zh.Title == "" || zh.Title == en.Title || !hasHan(zh.Narrative) {
			t.Errorf("%s: the twin's title %q and narrative are not Chinese", zh.Slug, zh.Title)
		}
	}
}

func hasHan(s string) bool {
	for _, r := range s {
		if r >= 0x4e00 && r <= 0x9fff {
			return true
		}
	}
	return false
}

// GetIn reads the same slugs as Get, whatever the language, and refuses
// the same others.
func TestGetIn(t *testing.T) {
	for _, tc := range []struct {
		lang, slug string
		ok         bool
		twin       bool
	}{
		{scenarios.Chinese, "happy-path", true, true},
		{"en", "happy-path", true, false},
		{"", "happy-path", true, false},
		{scenarios.Chinese, "no-such", false, false},
		{scenarios.Chinese, "zh/happy-path", false, false},
		{scenarios.Chinese, "../happy-path", false, false},
		{scenarios.Chinese, "broken", false, false},
	} {
		sc, ok := scenarios.GetIn(tc.lang, tc.slug)
		if ok != tc.ok || (sc.Lang == scenarios.Chinese) != tc.twin {
			t.Errorf("GetIn(%q, %q) = lang %q, %v; want found %v, twin %v", tc.lang, tc.slug, sc.Lang, ok, tc.ok, tc.twin)
		}
		if ok && sc.Slug != tc.slug {
			t.Errorf("GetIn(%q, %q).Slug = %q", tc.lang, tc.slug, sc.Slug)
		}
	}
}
