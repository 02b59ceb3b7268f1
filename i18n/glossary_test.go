package i18n

import "testing"

// TestGlossaryEntries checks that every term has both names and that no
// English term is listed twice (two translations would be ambiguous).
func TestGlossaryEntries(t *testing.T) {
	seen := map[string]bool{}
	for _, term := range Glossary {
		if term.En == "" || term.Zh == "" {
			t.Errorf("incomplete term %+v", term)
		}
		if seen[term.En] {
			t.Errorf("%q is listed twice", term.En)
		}
		seen[term.En] = true
	}
}
