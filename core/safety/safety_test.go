package safety

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestTablesAreComplete: every entry has what its readers need (the
// explorer documents a shrunk run with Title and Narrative and shrinks on
// Catches), names are unique, and the lookups find every entry.
func TestTablesAreComplete(t *testing.T) {
	for _, m := range Mechanisms {
		if m.Name == "" || m.Prevents == "" || m.Catches == nil || m.Title == "" || m.Narrative == "" || m.Needs == nil || m.Provoke.Motif == "" {
			t.Errorf("mechanism %+v lacks a field", m)
		}
		if m.Needs != nil && !slices.Contains(Preconditions, m.Needs) {
			t.Errorf("%s needs %v, which is not in Preconditions", m.Name, m.Needs)
		}
		if !slices.Contains(Invariants, m.Catches) {
			t.Errorf("%s is caught by %v, which is not in Invariants", m.Name, m.Catches)
		}
		if got, ok := MechanismByName(m.Name); !ok || got != m {
			t.Errorf("MechanismByName(%q) = %v, %v", m.Name, got, ok)
		}
	}
	for _, i := range Invariants {
		if i.Name == "" || i.Asserts == "" {
			t.Errorf("invariant %+v lacks a field", i)
		}
		if got, ok := InvariantByName(i.Name); !ok || got != i {
			t.Errorf("InvariantByName(%q) = %v, %v", i.Name, got, ok)
		}
	}
	preconditions := map[string]bool{}
	for _, p := range Preconditions {
		if p.Name == "" || p.Means == "" || preconditions[p.Name] {
			t.Errorf("precondition %+v lacks a field or repeats a name", p)
		}
		preconditions[p.Name] = true
	}
	if len(mechanismByName) != len(Mechanisms) || len(invariantByName) != len(Invariants) {
		t.Errorf("duplicate names: %d mechanisms under %d names, %d invariants under %d names",
			len(Mechanisms), len(mechanismByName), len(Invariants), len(invariantByName))
	}
	if _, ok := MechanismByName("any"); ok {
		t.Error(`"any" found as a mechanism`)
	}
	if (*Invariant)(nil).String() != "any" {
		t.Error(`the nil invariant is not "any"`)
	}
}

// docRow is a row of a table in docs/scenario-language.md whose first
// cell is a backquoted name.
var docRow = regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|")

// TestLanguageDocumentsEveryEntry: docs/scenario-language.md's
// mechanism and invariant tables list exactly the tables' entries, in
// their order, so a new mechanism is documented where learners look.
func TestLanguageDocumentsEveryEntry(t *testing.T) {
	src, err := os.ReadFile("../../docs/scenario-language.md")
	if err != nil {
		t.Fatal(err)
	}
	section := func(title string) []string {
		re := regexp.MustCompile("(?s)\n## " + title + "\n(.*?)\n## ")
		m := re.FindSubmatch(src)
		if m == nil {
			t.Fatalf("no section %q", title)
		}
		var names []string
		for _, r := range docRow.FindAllSubmatch(m[1], -1) {
			names = append(names, string(r[1]))
		}
		return names
	}
	if got, want := section("Breaking the protocol"), MechanismNames(); !slices.Equal(got, want) {
		t.Errorf("the language documents mechanisms %v, the table holds %v", got, want)
	}
	if got, want := section("Invariants"), InvariantNames(); !slices.Equal(got, want) {
		t.Errorf("the language documents invariants %v, the table holds %v", got, want)
	}
}
