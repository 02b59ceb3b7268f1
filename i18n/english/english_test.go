package english

import (
	"slices"
	"strings"
	"testing"
)

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"协调器写入 PrepareCommit 并应答", nil},
		{"用 transactional.id=etl-1 和 read_committed 读取", nil},
		{"三个词 one two three 不算", nil},
		{"提交之前 nothing is visible before the commit", []string{"nothing is visible before the commit"}},
		{"a, b, c, d", []string{"a, b, c, d"}},
	} {
		if got := Sentences(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("Sentences(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

func TestWordPairs(t *testing.T) {
	// isCode stands for uitext.IsIdentifier: capitals, digits or marks.
	isCode := func(w string) bool { return strings.ToLower(w) != w }
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"no violation", []string{"no violation"}},
		{"预期 a violation of any invariant", []string{"a violation", "violation of", "of any", "any invariant"}},
		{"`commit` 返回了 `NONE`", nil},
		{"commit returned NONE", []string{"commit returned"}},
		{"网络上还有 cut、drop 或 delay 规则（先 heal）", nil},
		{"p1:v1 COMMIT(p1) state=Ongoing epoch=0", nil},
		{"(run first)", []string{"run first"}},
	} {
		if got := WordPairs(tc.text, isCode); !slices.Equal(got, tc.want) {
			t.Errorf("WordPairs(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}
