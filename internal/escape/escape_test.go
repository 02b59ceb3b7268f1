package escape

import (
	"html"
	"strings"
	"testing"
)

// The markup the page builds must not change when the escaper does: a
// missed character would let a script's text break the editor or the
// diagram's SVG.
func TestHTMLMatchesStandardLibrary(t *testing.T) {
	for _, s := range []string{
		"", "plain", `<script>alert("x")</script>`, "a & b", "it's", `"quoted"`,
		"&amp; already", "中文 <b>粗</b>", "tab\tand\nnewline", "\x00\xff",
	} {
		if got, want := HTML(s), html.EscapeString(s); got != want {
			t.Errorf("HTML(%q) = %q, want %q", s, got, want)
		}
		var b strings.Builder
		if WriteHTML(&b, s); b.String() != html.EscapeString(s) {
			t.Errorf("WriteHTML(%q) wrote %q, want %q", s, b.String(), html.EscapeString(s))
		}
	}
}

func FuzzHTML(f *testing.F) {
	f.Add(`<a href="x">'&'</a>`)
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := HTML(s), html.EscapeString(s); got != want {
			t.Fatalf("HTML(%q) = %q, want %q", s, got, want)
		}
		var b strings.Builder
		if WriteHTML(&b, s); b.String() != html.EscapeString(s) {
			t.Fatalf("WriteHTML(%q) wrote %q, want %q", s, b.String(), html.EscapeString(s))
		}
	})
}
