package uitext

import (
	"strings"
	"testing"

	"txnlab/core/sim"
)

// The playground's catalogue adds keys; it redefines none of the main
// one's (init would silently keep the first).
func TestPlaygroundMessagesAreNew(t *testing.T) {
	n := 0
	for k, v := range playgroundMessages {
		if Messages[k] != v {
			t.Errorf("%s is in both catalogues, differently", k)
		}
		n++
	}
	if n < 100 {
		t.Fatalf("only %d playground messages", n)
	}
}

// Every reason the core gives for a lost message is said in both
// languages; before, a Chinese page read "destination down" as a
// rejected statement ("模拟器不接受这条语句").
func TestEveryDropReasonIsTranslated(t *testing.T) {
	for _, r := range sim.DropReasons {
		if got := DropReasonIn("en", r); got != r {
			t.Errorf("%q in English is %q", r, got)
		}
		zh := DropReasonIn("zh", r)
		if zh == r || zh == Tr("zh", "err.lead") || !strings.ContainsFunc(zh, func(c rune) bool { return c > 0x2000 }) {
			t.Errorf("%q in Chinese is %q", r, zh)
		}
	}
}
