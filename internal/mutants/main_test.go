package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEveryMutantApplies: each mutant's text is in its file exactly
// once (after its Near text), so the table follows the code it mutates
// without a full `make mutants` run; names are unique and there are at
// least the twelve issue 25 asks for.
func TestEveryMutantApplies(t *testing.T) {
	if len(Mutants) < 12 {
		t.Errorf("%d mutants, want at least 12", len(Mutants))
	}
	seen := map[string]bool{}
	for _, m := range Mutants {
		if seen[m.Name] || m.Name == "" || m.Why == "" {
			t.Errorf("mutant %q: a name must be unique and say why", m.Name)
		}
		seen[m.Name] = true
		src, err := os.ReadFile(filepath.Join("..", "..", m.File))
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		out, err := m.mutate(src)
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if strings.Count(string(out), m.New) != strings.Count(string(src), m.New)+1 {
			t.Errorf("%s: the new text was not planted once", m.Name)
		}
	}
}

// TestMutateRefusesAmbiguity: a text that is absent or occurs twice, or
// a change of more than one line, is refused rather than guessed.
func TestMutateRefusesAmbiguity(t *testing.T) {
	src := []byte("a := 1\nb := 1\n// here\nb := 1\n")
	for _, c := range []struct {
		m    Mutant
		want string // "" when it applies
		out  string
	}{
		{Mutant{Old: "a := 1", New: "a := 2"}, "", "a := 2\nb := 1\n// here\nb := 1\n"},
		{Mutant{Old: "b := 1", New: "b := 2"}, "occurs 2 times", ""},
		{Mutant{Old: "c := 1", New: "c := 2"}, "occurs 0 times", ""},
		{Mutant{Near: "// here", Old: "b := 1", New: "b := 2"}, "", "a := 1\nb := 1\n// here\nb := 2\n"},
		{Mutant{Near: "// here", Old: "a := 1", New: "a := 2"}, "not after", ""},
		{Mutant{Old: "a := 1", New: "a := 2\nc := 3"}, "one line", ""},
		{Mutant{Old: "a := 1", New: "a := 1"}, "one line", ""},
	} {
		out, err := c.m.mutate(src)
		switch {
		case c.want == "" && (err != nil || string(out) != c.out):
			t.Errorf("%+v: got %q, %v; want %q", c.m, out, err, c.out)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want one saying %q", c.m, err, c.want)
		}
	}
}
