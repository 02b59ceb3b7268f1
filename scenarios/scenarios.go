// Package scenarios embeds the scenario library, so the CLI's tests, the
// playground and the explorer all read the same scripts.
package scenarios

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.scenario broken/*.scenario
var files embed.FS

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
}

// All returns every script, the chapter's scenarios first, then the
// broken-mechanism examples, each group by name.
func All() []Scenario {
	var out []Scenario
	for _, dir := range []string{".", "broken"} {
		names, _ := fs.Glob(files, dir+"/*.scenario")
		sort.Strings(names)
		for _, n := range names {
			data, _ := files.ReadFile(n)
			out = append(out, parse(strings.TrimPrefix(strings.TrimSuffix(n, ".scenario"), "./"), string(data)))
		}
	}
	return out
}

// Get finds a script by slug, reading that script alone: the playground
// opens one at start-up, before it needs the list.
func Get(slug string) (Scenario, bool) {
	dir, name, sub := strings.Cut(slug, "/")
	if sub && dir != "broken" || strings.Contains(name, "/") || !fs.ValidPath(slug) {
		return Scenario{}, false
	}
	data, err := files.ReadFile(slug + ".scenario")
	if err != nil {
		return Scenario{}, false
	}
	return parse(slug, string(data)), true
}

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
		s.Title = strings.TrimSuffix(narrative[0], ".")
	}
	return s
}
