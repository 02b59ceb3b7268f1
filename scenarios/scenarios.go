// Package scenarios embeds the scenario library, so the CLI's tests, the
// playground and the explorer all read the same scripts.
//
// Each script has a Chinese twin under zh/ (zh/SLUG.scenario,
// zh/broken/SLUG.scenario): the same statements on the same lines, byte
// for byte, with every comment in Chinese. A Chinese page shows the twin;
// both parse to the same Script.String(), so they run the same and a
// share link's digest does not depend on the page's language.
package scenarios

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed *.scenario broken/*.scenario zh
var files embed.FS

// Chinese is the language code of the twins (lessons/doc.Chinese's value;
// this package does not import the lessons).
const Chinese = "zh"

// Scenario is one library script.
type Scenario struct {
	// Slug is the file name without .scenario ("broken/" kept for the
	// broken-mechanism examples).
	Slug string
	// Title is the first line of the leading # narrative; Narrative is the
	// whole narrative without the # marks.
	Title     string
	Narrative string
	Script    string
	// Lang is the language of Title, Narrative and the comments: "zh" for
	// a Chinese twin, "" for the English original.
	Lang string
}

// All returns every script, the chapter's scenarios first, then the
// broken-mechanism examples, each group by name.
func All() []Scenario { return AllIn("") }

// AllIn is All in lang: for "zh" each script's Chinese twin, the English
// original only for a script without one (TestEveryScriptHasAChineseTwin
// fails on it); for any other lang, All.
func AllIn(lang string) []Scenario {
	var out []Scenario
	for _, dir := range []string{".", "broken"} {
		// embed.FS lists a directory sorted by name; fs.Glob would link
		// io/fs's pattern matching and a sort into the wasm for this.
		entries, _ := files.ReadDir(dir)
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".scenario")
			if !ok || e.IsDir() {
				continue
			}
			if dir != "." {
				name = dir + "/" + name
			}
			data, _ := files.ReadFile(name + ".scenario")
			out = append(out, read(lang, name, data))
		}
	}
	return out
}

// Get finds a script by slug, reading that script alone: the playground
// opens one at start-up, before it needs the list.
func Get(slug string) (Scenario, bool) { return GetIn("", slug) }

// GetIn is Get in lang: for "zh" the script's Chinese twin, or the
// English original if it has none; for any other lang, Get. The slug is
// the English one: a twin is the same scenario.
func GetIn(lang, slug string) (Scenario, bool) {
	dir, name, sub := strings.Cut(slug, "/")
	if sub && dir != "broken" || strings.Contains(name, "/") || !fs.ValidPath(slug) {
		return Scenario{}, false
	}
	data, err := files.ReadFile(slug + ".scenario")
	if err != nil {
		return Scenario{}, false
	}
	return read(lang, slug, data), true
}

// read is slug, whose English script is original, in lang. (Existence is
// read from the file itself: fs.Stat would link FileInfo's methods into
// the wasm.)
func read(lang, slug string, original []byte) Scenario {
	if lang == Chinese {
		if data, err := files.ReadFile(twinPath(slug)); err == nil {
			s := parse(slug, string(data))
			s.Lang = Chinese
			return s
		}
	}
	return parse(slug, string(original))
}

// twinPath is where slug's Chinese twin is embedded.
func twinPath(slug string) string { return Chinese + "/" + slug + ".scenario" }

func parse(slug, src string) Scenario {
	s := Scenario{Slug: slug, Script: src}
	var narrative []string
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(line, "#") {
			break
		}
		narrative = append(narrative, strings.TrimSpace(strings.TrimPrefix(line, "#")))
	}
	s.Narrative = strings.TrimSpace(strings.Join(narrative, "\n"))
	if len(narrative) > 0 {
		s.Title = strings.TrimSuffix(strings.TrimSuffix(narrative[0], "."), "。")
	}
	return s
}

// PackEntry is one scenario of the Jepsen pack and the first Kafka
// release whose default protocol prevents its anomaly.
type PackEntry struct {
	Slug string
	// FixedIn is a kafka= preset of core/scenario's settings: "3.6"
	// (the leader's verification, KIP-890 part 1), "3.8" (no coordinator
	// reload under the same leader, KAFKA-15468) or "4.0" (transaction
	// version 2, part 2).
	FixedIn string
}

// JepsenPack lists the scenarios that each show one anomaly the classic
// protocol (Kafka 3.5) lets through and the checker names, the ones
// Jepsen's Bufstream analysis (2024) and KIP-890 describe; each script
// is run unchanged under the newer protocol to show it prevented.
var JepsenPack = []PackEntry{
	{"jepsen-delayed-produce", "3.6"},
	{"jepsen-delayed-endtxn", "4.0"},
	{"jepsen-aborted-read", "4.0"},
	{"hanging-transaction", "3.6"},
	{"hanging-after-reload", "3.8"},
}
