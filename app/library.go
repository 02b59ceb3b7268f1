package app

import (
	"strings"
	"sync"

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
}

// Library lists the example scenarios in the order the scenarios package
// gives: the chapter's scenarios, then the broken-mechanism examples. The
// slice is shared: callers must not change it.
func Library() []Scenario { return library() }

// library reads the scenarios once: the editor's select lists them at
// every render.
var library = sync.OnceValue(func() []Scenario {
	all := scenarios.All()
	list := make([]Scenario, 0, len(all))
	for _, s := range all {
		list = append(list, libraryEntry(s))
	}
	return list
})

func libraryEntry(s scenarios.Scenario) Scenario {
	title, purpose := splitNarrative(s.Narrative)
	if title == "" {
		title = s.Slug
	}
	return Scenario{Slug: s.Slug, Title: title, Purpose: purpose, Script: s.Script}
}

// splitNarrative takes the narrative's first sentence as the title and the
// rest as the purpose. The scripts wrap their comments, so the first line
// alone often stops mid-sentence ("… still open (before").
func splitNarrative(narrative string) (title, purpose string) {
	first, rest, _ := strings.Cut(strings.TrimSpace(narrative), "\n\n")
	first = strings.Join(strings.Fields(first), " ")
	end := len(first)
	for _, stop := range []string{". ", "? ", "! "} {
		if i := strings.Index(first, stop); i >= 0 && i+1 < end {
			end = i + 1
		}
	}
	title = strings.TrimSuffix(first[:end], ".")
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
func scenarioBySlug(slug string) (Scenario, bool) {
	s, ok := scenarios.Get(slug)
	if !ok {
		return Scenario{}, false
	}
	return libraryEntry(s), true
}
