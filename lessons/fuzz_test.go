package lessons

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// FuzzLoad feeds one lesson file's bytes to the loader, as both twins of
// a lesson and as a lesson without its twin: whatever the bytes, Load
// returns a course or errors, never panics.
//
//	go test ./lessons -run '^$' -fuzz FuzzLoad -fuzztime 30s
func FuzzLoad(f *testing.F) {
	names, _ := filepath.Glob("testdata/course/*.md")
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("---\ntitle: t\nsummary: s\norder: 1\n---\n```question id=q-x scenario=s stop=1\n- [x]\nwhen:\nevidence: {`}\n```\n"))
	f.Add([]byte("---\n---\n```scenario id=s title=\"\\\"\n\x00\xff\n~~~scenario\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Load(fstest.MapFS{
			"01-a.md":    {Data: data},
			"01-a.zh.md": {Data: data},
			"02-b.md":    {Data: data},
		})
		if (c == nil) == (err == nil) {
			t.Fatalf("Load returned course %v and error %v", c, err)
		}
		if err != nil {
			for _, e := range err.(ErrorList) {
				if e.File == "" || e.Line < 1 {
					t.Fatalf("error without a file:line: %v", e)
				}
			}
		}
	})
}
