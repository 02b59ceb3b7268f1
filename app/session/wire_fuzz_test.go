package session

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzNextElement: the event decoder's splitter finds, in any JSON
// array, the elements json.Unmarshal finds, and on any input it stops
// with an answer, never a panic or a loop.
func FuzzNextElement(f *testing.F) {
	for _, s := range []string{`[]`, ` [ {"a":1} , {"b":"}\""} ] `, `[1,"x",[2,{"c":[]}],null,true]`, `[{"a":"\\"}]`, `[`, `[{]`, `]`, `[1,]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		start := bytes.IndexByte(b, '[')
		var got [][]byte
		for at, n := start+1, 0; start >= 0 && n <= len(b); n++ {
			s, e, err := nextElement(b, at)
			if err != nil || s < 0 {
				break
			}
			if e <= at {
				t.Fatalf("no progress at %d in %q", at, b)
			}
			got, at = append(got, b[s:e]), e
		}
		var want []json.RawMessage
		if start < 0 || !json.Valid(b) || json.Unmarshal(b, &want) != nil || len(bytes.TrimSpace(b[:start])) > 0 {
			return
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d elements, json has %d", b, len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(bytes.TrimSpace(got[i]), bytes.TrimSpace(want[i])) {
				t.Fatalf("%q: element %d is %q, json's %q", b, i, got[i], want[i])
			}
		}
	})
}
