package scenario

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that the parser never panics, that every error has a
// position, and that an accepted script renders to text that parses back
// to the same statements, line by line as well as whole. The seed corpus
// is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add(specExample)
	f.Add(everyStatement)
	f.Add("cluster\nproducer p transactional.id=\"a \\\"b\\\" #c\"\np init &\nwait p\n")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("fuzz", src)
		if s == nil {
			t.Fatal("nil script")
		}
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for i, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Line > MaxLines+1 || e.Pos.Col > MaxLineLength+1 {
					t.Fatalf("error without a valid position: %v", e)
				}
				if e.Msg == "" || e.File != "fuzz" {
					t.Fatalf("error without a message or file: %#v", e)
				}
				if i > 0 && posLess(e.Pos, list[i-1].Pos) {
					t.Fatalf("errors not sorted: %v before %v", list[i-1], e)
				}
			}
			return
		}
		for _, st := range s.Statements {
			if p := st.Position(); p.Line < 1 || p.Col < 1 || st.Source() == "" {
				t.Fatalf("statement %q at %v with source %q", st.String(), p, st.Source())
			}
		}
		checkLineByLine(t, src, s)
		for _, st := range s.Statements {
			// Canonical text may be longer than what was written (a|b
			// becomes a | b, k=a=b becomes k="a=b"); past the line limit
			// it cannot be parsed again, by design.
			if utf8.RuneCountInString(st.String()) > MaxLineLength {
				return
			}
		}
		checkRoundTrip(t, s)
	})
}
