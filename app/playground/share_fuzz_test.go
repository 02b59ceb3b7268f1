package playground

import (
	"strings"
	"testing"
)

// FuzzShareLink feeds arbitrary #fragments to the share-link decoder: a
// link someone pasted must never panic the page, and every script the
// page encodes must decode to itself.
func FuzzShareLink(f *testing.F) {
	f.Add("s=" + EncodeScript("cluster brokers=3\ntopic orders partitions=1\n"))
	f.Add("s=")
	f.Add("s=%%%")
	f.Add("s=AAAA")
	f.Add("x=1&s=" + EncodeScript("# only a comment\n"))
	f.Fuzz(func(t *testing.T, fragment string) {
		sharedScript(fragment) // must not panic, whatever it returns
		if src := strings.TrimPrefix(fragment, "s="); !strings.ContainsAny(src, "&=") {
			got, err := decodeScript(EncodeScript(src))
			if err != nil || got != src {
				t.Fatalf("round trip of %q: %q, %v", src, got, err)
			}
		}
	})
}
