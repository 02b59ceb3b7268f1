package class

import (
	"testing"

	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

func TestClassHelpers(t *testing.T) {
	for _, tc := range []struct{ fragment, code string }{
		{"class=ABCDE-FGHJK", "ABCDE-FGHJK"},
		{"s=xyz&class=0123456789", "0123456789"},
		{"s=xyz", ""},
		{"", ""},
	} {
		if got := classJoinCode(tc.fragment); got != tc.code {
			t.Errorf("classJoinCode(%q) = %q, want %q", tc.fragment, got, tc.code)
		}
	}
	// A lesson question's inline HTML goes to the class as text.
	if got := PlainText(`Does <code>read_committed</code> see it &amp; why?`); got != "Does read_committed see it & why?" {
		t.Errorf("plainText = %q", got)
	}
	// The server's reasons come in the page's language, verbs filled.
	if got := uitext.ClassText(doc.Chinese, "class.err.full", 400); got != "课堂已满（400 名学生）。" {
		t.Errorf("uitext.ClassText zh = %q", got)
	}
	if got := uitext.ClassText(doc.English, "class.err.secret"); got != "Only the class's instructor can do that." {
		t.Errorf("uitext.ClassText en = %q", got)
	}
}
