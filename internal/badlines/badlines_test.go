package badlines

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	const good = "# about\n-- prelude --\ncluster\n-- cases --\n# a group\nfoo\n=> 2:1: unknown statement \"foo\"\n\nbar x\n=> 2:5: no\n"
	prelude, cases, err := Parse(good)
	if err != nil || prelude != "cluster\n" || len(cases) != 2 {
		t.Fatalf("Parse = %q, %v, %v", prelude, cases, err)
	}
	if c := cases[1]; c.Line != "bar x" || c.Want != "2:5: no" || c.Msg() != "no" {
		t.Errorf("case %+v, message %q", c, c.Msg())
	}
	for _, bad := range []string{
		"no sections",
		"-- prelude --\ncluster\n",
		"-- prelude --\n-- cases --\n=> 1:1: an error alone\n",
		"-- prelude --\n-- cases --\nfoo\nbar\n=> 1:1: x\n",
		"-- prelude --\n-- cases --\nfoo\n\n=> 1:1: x\n",
		"-- prelude --\n-- cases --\nfoo",
	} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
}

// FuzzParse: no text makes Parse panic, and every case it accepts has a
// line and an error.
func FuzzParse(f *testing.F) {
	f.Add("-- prelude --\ncluster\n-- cases --\nfoo\n=> 2:1: x\n")
	f.Fuzz(func(t *testing.T, text string) {
		_, cases, err := Parse(text)
		for _, c := range cases {
			if err == nil && (c.Line == "" || strings.HasPrefix(c.Line, "=> ")) {
				t.Errorf("case %+v", c)
			}
		}
	})
}
