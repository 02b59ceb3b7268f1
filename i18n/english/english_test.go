package english

import (
	"slices"
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
