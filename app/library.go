package app

import (
	"strings"

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
// gives: the chapter's scenarios, then the broken-mechanism examples.
func Library() []Scenario {
	all := scenarios.All()
	list := make([]Scenario, 0, len(all))
	for _, s := range all {
		title := s.Title
		if title == "" {
			title = s.Slug
		}
		purpose := s.Narrative
		if first, rest, ok := strings.Cut(purpose, "\n"); ok && strings.TrimSuffix(first, ".") == s.Title {
			purpose = strings.TrimSpace(rest)
		} else if strings.TrimSuffix(purpose, ".") == s.Title {
			purpose = ""
		}
		list = append(list, Scenario{Slug: s.Slug, Title: title, Purpose: purpose, Script: s.Script})
	}
	return list
}

// scenarioBySlug finds a library entry for a playground link.
func scenarioBySlug(slug string) (Scenario, bool) {
	for _, s := range Library() {
		if s.Slug == slug {
			return s, true
		}
	}
	return Scenario{}, false
}
