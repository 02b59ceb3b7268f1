package deflate

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"strings"
	"testing"

	"txnlab/scenarios"
)

// flateReads is what compress/flate's reader makes of b, read as the
// playground read share links before: at most limit+1 bytes.
func flateReads(b []byte, limit int) ([]byte, error) {
	out, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(b)), int64(limit)+1))
	if err == nil && len(out) > limit {
		err = ErrTooLong
	}
	return out, err
}

// streams are what compress/flate's compressor writes for src at every
// level (stored blocks at NoCompression, fixed and dynamic codes, several
// blocks when flushed midway): the links made before this decoder.
func streams(t testing.TB, src []byte) [][]byte {
	var all [][]byte
	for _, level := range []int{flate.HuffmanOnly, flate.NoCompression, flate.BestSpeed, 5, flate.BestCompression} {
		for _, flush := range []bool{false, true} {
			var b bytes.Buffer
			w, err := flate.NewWriter(&b, level)
			if err != nil {
				t.Fatal(err)
			}
			if flush {
				w.Write(src[:len(src)/2])
				w.Flush() // an empty stored block, then a new block
				w.Write(src[len(src)/2:])
			} else {
				w.Write(src)
			}
			w.Close()
			all = append(all, b.Bytes())
		}
	}
	return append(all, Compress(src))
}

// TestDecompressReadsFlate: every library script, and inputs at the
// coder's limits, compressed by compress/flate at every level or by
// Compress, decompress to the script: every share link ever made opens.
func TestDecompressReadsFlate(t *testing.T) {
	var all []byte
	for i := 0; i < 256; i++ {
		all = append(all, byte(i))
	}
	srcs := []string{"", "a", strings.Repeat("a", 1000), string(all) + string(all),
		"x" + strings.Repeat("abcdefghij", 4000) + "tail", strings.Repeat("kafka ", 20000)}
	for _, sc := range scenarios.All() {
		srcs = append(srcs, sc.Script)
	}
	for _, src := range srcs {
		for i, s := range streams(t, []byte(src)) {
			got, err := Decompress(s, 1<<20)
			if err != nil || string(got) != src {
				t.Fatalf("stream %d of a %d-byte input: %d bytes back, %v", i, len(src), len(got), err)
			}
		}
	}
}

// TestDecompressRefuses: malformed streams are errors, never a panic or
// a wrong script, and a stream past the limit is ErrTooLong.
func TestDecompressRefuses(t *testing.T) {
	good := Compress([]byte("cluster brokers=3\ntopic orders partitions=1\ncluster brokers=3\n"))
	for name, b := range map[string][]byte{
		"empty":                   {},
		"reserved block type":     {0x07},
		"stored, cut short":       {0x01, 0x05, 0x00},
		"stored, LEN/NLEN differ": {0x01, 0x05, 0x00, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'},
		"stored, data cut short":  {0x01, 0x05, 0x00, 0xfa, 0xff, 'h', 'e'},
		"not final, then nothing": {0x00, 0x00, 0x00, 0xff, 0xff},
		// Fixed codes: a match at distance 1 with nothing written yet.
		"distance before start": {0x03, 0x02, 0x00},
		"cut midway":            good[:len(good)/2],
		"all ones":              bytes.Repeat([]byte{0xff}, 64),
	} {
		got, err := Decompress(b, 1<<20)
		if err == nil {
			t.Errorf("%s: %q accepted", name, got)
		}
		if _, ferr := flateReads(b, 1<<20); ferr == nil {
			t.Errorf("%s: compress/flate accepts it: the case tests nothing", name)
		}
	}
	big := Compress(bytes.Repeat([]byte("abc"), 1000))
	if _, err := Decompress(big, 2999); !errors.Is(err, ErrTooLong) {
		t.Errorf("3000 bytes under a 2999-byte limit: %v, want ErrTooLong", err)
	}
	if got, err := Decompress(big, 3000); err != nil || len(got) != 3000 {
		t.Errorf("3000 bytes under a 3000-byte limit: %d bytes, %v", len(got), err)
	}
}

// FuzzDecompress: whatever the bytes, Decompress accepts what
// compress/flate accepts, with the same output, and refuses what it
// refuses; and it reads back whatever Compress and compress/flate wrote.
func FuzzDecompress(f *testing.F) {
	f.Add([]byte{}, false)
	f.Add([]byte{0x03, 0x00}, false)
	f.Add([]byte{0x01, 0x00, 0x00, 0xff, 0xff}, false)
	for _, s := range streams(f, []byte("cluster brokers=3\ntopic orders partitions=1\nproduce orders key=a\n")) {
		f.Add(s, false)
	}
	f.Add([]byte("cluster brokers=3\ntopic orders partitions=1\n"), true)
	f.Fuzz(func(t *testing.T, b []byte, plain bool) {
		const limit = 1 << 16
		if plain {
			for _, s := range streams(t, b) {
				if got, err := Decompress(s, len(b)); err != nil || !bytes.Equal(got, b) {
					t.Fatalf("round trip of %q: %q, %v", b, got, err)
				}
			}
			return
		}
		got, err := Decompress(b, limit)
		want, ferr := flateReads(b, limit)
		if (err == nil) != (ferr == nil) {
			t.Fatalf("%x: Decompress says %v, compress/flate %v", b, err, ferr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%x: Decompress wrote %q, compress/flate %q", b, got, want)
		}
	})
}
