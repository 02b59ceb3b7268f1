package uitext

import "testing"

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
