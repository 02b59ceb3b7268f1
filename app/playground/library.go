package playground

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"txnlab/lessons/doc"
	"txnlab/scenarios"
)

// Scenario is one entry of the scenario library as the pages show it.
type Scenario struct {
	// Slug names the scenario in links: /playground?scenario=Slug. It may
	// hold a slash ("broken/coordinator-epoch-off").
	Slug string
	// Title is the first line of the script's narrative; Purpose is the
	// rest of it, so a scenario describes itself and the list cannot drift
	// from the files.
	Title, Purpose string
	// Script is the whole file, comments included.
	Script string
	// Lang is the language of Title, Purpose and the script's comments:
	// "zh" for the Chinese twin (scenarios.GetIn), "" for the English.
	Lang string
}

// Library lists the example scenarios in the order the scenarios package
// gives: the chapter's scenarios, then the broken-mechanism examples. The
// slice is shared: callers must not change it.
func Library() []Scenario { return library[0]() }

// libraryIn is Library in lang: on a Chinese page each scenario's Chinese
// twin, whose title, purpose and comments are Chinese.
func libraryIn[L ~string](lang L) []Scenario {
	if doc.Lang(lang) == doc.Chinese {
		return library[1]()
	}
	return library[0]()
}

// library reads the scenarios once per language (English, Chinese): the
// editor's select lists them at every render.
var library = [2]func() []Scenario{readLibrary(""), readLibrary(scenarios.Chinese)}

func readLibrary(lang string) func() []Scenario {
	return sync.OnceValue(func() []Scenario {
		all := scenarios.AllIn(lang)
		list := make([]Scenario, 0, len(all))
		for _, s := range all {
			list = append(list, libraryEntry(s))
		}
		return list
	})
}

func libraryEntry(s scenarios.Scenario) Scenario {
	title, purpose := splitNarrative(s.Narrative)
	if title == "" {
		title = s.Slug
	}
	return Scenario{Slug: s.Slug, Title: title, Purpose: purpose, Script: s.Script, Lang: s.Lang}
}

// splitNarrative takes the narrative's first sentence as the title and the
// rest as the purpose. The scripts wrap their comments, so the first line
// alone often stops mid-sentence ("… still open (before"). A Chinese
// sentence ends at 。？！, with no space after it.
func splitNarrative(narrative string) (title, purpose string) {
	first, rest, _ := strings.Cut(strings.TrimSpace(narrative), "\n\n")
	first = unwrap(first)
	end := len(first)
	for _, stop := range []string{". ", "? ", "! ", "。", "？", "！"} {
		if i := strings.Index(first, stop); i >= 0 && i+len(strings.TrimSpace(stop)) < end {
			end = i + len(strings.TrimSpace(stop))
		}
	}
	title = strings.TrimSuffix(strings.TrimSuffix(first[:end], "."), "。")
	purpose = strings.TrimSpace(first[end:])
	if rest = strings.TrimSpace(rest); rest != "" {
		if purpose != "" {
			purpose += "\n\n"
		}
		purpose += rest
	}
	return title, purpose
}

// scenarioBySlug finds a library entry for a playground link, reading
// that scenario alone: the page opens one before it lists them all.
func scenarioBySlug(slug string) (Scenario, bool) { return ScenarioBySlugIn("", slug) }

// ScenarioBySlugIn is scenarioBySlug in lang: a Chinese page opens the
// Chinese twin.
func ScenarioBySlugIn[L ~string](lang L, slug string) (Scenario, bool) {
	s, ok := scenarios.GetIn(twinLang(lang), slug)
	if !ok {
		return Scenario{}, false
	}
	return libraryEntry(s), true
}

// twinLang is the scenarios package's code for lang's twins.
func twinLang[L ~string](lang L) string {
	if doc.Lang(lang) == doc.Chinese {
		return scenarios.Chinese
	}
	return ""
}

// isLibraryScript says whether script is slug's script as the library has
// it, in either language: what a learner has not edited, which a page in
// the other language replaces with its own twin.
func isLibraryScript(slug, script string) bool {
	for _, lang := range []string{"", scenarios.Chinese} {
		if s, ok := scenarios.GetIn(lang, slug); ok && s.Script == script {
			return true
		}
	}
	return false
}

// unwrap joins a comment's wrapped lines into one: with a space between
// two words as the line break stood for, Latin or Chinese (写入
// PrepareCommit), with none between two Chinese characters or after
// Chinese punctuation, which a Chinese text never spaces.
func unwrap(text string) string {
	var b strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			prev, _ := utf8.DecodeLastRuneInString(b.String())
			next, _ := utf8.DecodeRuneInString(line)
			if spaced(prev) && spaced(next) && (prev < utf8.RuneSelf || next < utf8.RuneSelf) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(line)
	}
	return b.String()
}

// spaced says whether r takes a space between it and a Latin word: a
// Latin character or a Chinese one, not Chinese punctuation.
func spaced(r rune) bool { return r < utf8.RuneSelf || unicode.Is(unicode.Han, r) }

// Paragraphs splits a narrative on its blank lines and joins the lines of
// each paragraph, as the script's comment wrapped them.
func Paragraphs(s string) []string {
	var out []string
	for _, p := range strings.Split(s, "\n\n") {
		if p = unwrap(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
