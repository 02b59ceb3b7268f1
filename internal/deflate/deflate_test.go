package deflate

import (
	"bytes"
	"compress/flate"
	"io"
	"strings"
	"testing"

	"txnlab/scenarios"
)

func inflate(t testing.TB, b []byte) []byte {
	t.Helper()
	out, err := io.ReadAll(flate.NewReader(bytes.NewReader(b)))
	if err != nil {
		t.Fatalf("compress/flate cannot read the stream: %v", err)
	}
	return out
}

func bestFlate(src []byte) int {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(src)
	w.Close()
	return b.Len()
}

// TestCompressNearFlate: every library script compresses into a stream
// compress/flate reads back exactly, and the links stay short: all
// together within 5 % of compress/flate's best compression, which
// made the links before (a learner pastes them into chats and issues).
func TestCompressNearFlate(t *testing.T) {
	ours, best := 0, 0
	for _, sc := range scenarios.All() {
		got := Compress([]byte(sc.Script))
		if back := inflate(t, got); string(back) != sc.Script {
			t.Fatalf("%s: the round trip changed the script", sc.Slug)
		}
		ours += len(got)
		best += bestFlate([]byte(sc.Script))
	}
	t.Logf("library: %d bytes deflated, compress/flate's best %d", ours, best)
	if float64(ours) > 1.05*float64(best) {
		t.Errorf("the library deflates to %d bytes, more than 5 %% over compress/flate's %d", ours, best)
	}
}

// TestCompressEdges: inputs at the encoder's limits (empty, one byte,
// runs longer than a match, distances across the whole window, every
// byte value) come back whole.
func TestCompressEdges(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	far := strings.Repeat("x", 1) + strings.Repeat("abcdefghij", 4000) + "tail"
	for _, src := range []string{"", "a", "aa", "aaa", strings.Repeat("a", 1000), strings.Repeat("ab", 300), string(all) + string(all), far, strings.Repeat("kafka ", 20000)} {
		if back := inflate(t, Compress([]byte(src))); string(back) != src {
			t.Fatalf("round trip of %d bytes failed", len(src))
		}
	}
}

// FuzzCompress: whatever the bytes, compress/flate reads back exactly what
// Compress was given.
func FuzzCompress(f *testing.F) {
	f.Add([]byte("cluster brokers=3\ntopic orders partitions=1\n"))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"))
	f.Add([]byte{0, 255, 0, 255, 0, 255})
	f.Fuzz(func(t *testing.T, src []byte) {
		if back := inflate(t, Compress(src)); !bytes.Equal(back, src) {
			t.Fatalf("round trip of %q gave %q", src, back)
		}
	})
}
