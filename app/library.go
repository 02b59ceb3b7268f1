package app

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// libraryFS holds the example scenarios. It is a stub in the fake engine's
// language until the real scenarios in /scenarios can be embedded (embed
// cannot reach a parent directory, so that needs a small package there
// exporting its FS); only this variable changes then.
//
//go:embed library/*.scenario
var libraryFS embed.FS

// Scenario is one entry of the scenario library.
type Scenario struct {
	// Slug names the scenario in links: /playground?scenario=Slug.
	Slug string
	// Title and Purpose are the script's first two comment lines, so a
	// scenario describes itself and the list cannot drift from the files.
	Title, Purpose string
	// Script is the whole file, comments included.
	Script string
}

// Library lists the example scenarios in file-name order; a numeric prefix
// on the file names sets the order a learner meets them in.
func Library() []Scenario {
	list, err := libraryFrom(libraryFS, "library")
	if err != nil {
		// The files are compiled in: failing to read them is a build bug.
		panic(err)
	}
	return list
}

// libraryFrom reads every .scenario file in dir of fsys.
func libraryFrom(fsys fs.FS, dir string) ([]Scenario, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.scenario"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	list := make([]Scenario, 0, len(names))
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		s := Scenario{Slug: slugOf(name), Script: string(b)}
		var header []string
		for line := range strings.Lines(s.Script) {
			c, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
			if !ok || len(header) == 2 {
				break
			}
			header = append(header, strings.TrimSpace(c))
		}
		header = append(header, "", "")
		s.Title, s.Purpose = header[0], header[1]
		if s.Title == "" {
			s.Title = s.Slug
		}
		list = append(list, s)
	}
	return list, nil
}

// slugOf turns "library/01-commit.scenario" into "commit".
func slugOf(name string) string {
	base := strings.TrimSuffix(path.Base(name), ".scenario")
	if i := strings.IndexByte(base, '-'); i > 0 && strings.Trim(base[:i], "0123456789") == "" {
		base = base[i+1:]
	}
	return base
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
