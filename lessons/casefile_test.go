package lessons

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

// The case files in testdata/*.txt are goldmark's own test format
// (extension/_test/*.txt): a case is a title line, the Markdown and the
// HTML it renders to, between separators. -update rewrites each case's
// HTML from what the code renders now, to be reviewed as a diff.

var update = flag.Bool("update", false, "rewrite the HTML of the testdata case files")

const (
	attributeSeparator = "//- - - - - - - - -//"
	caseSeparator      = "//= = = = = = = = = = = = = = = = = = = = = = = =//"
)

// markdownCase is one case of a case file.
type markdownCase struct {
	title    string
	markdown string
	html     string
}

// readCases parses a case file.
func readCases(t *testing.T, path string) []markdownCase {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []markdownCase
	for chunk := range strings.SplitSeq(string(data), caseSeparator+"\n") {
		if strings.TrimSpace(chunk) == "" {
			continue
		}
		parts := strings.Split(chunk, attributeSeparator+"\n")
		if len(parts) != 3 {
			t.Fatalf("%s: a case needs a title, Markdown and HTML between %q lines:\n%s", path, attributeSeparator, chunk)
		}
		cases = append(cases, markdownCase{
			title:    strings.TrimSpace(parts[0]),
			markdown: parts[1],
			html:     parts[2],
		})
	}
	return cases
}

// writeCases writes a case file back.
func writeCases(t *testing.T, path string, cases []markdownCase) {
	t.Helper()
	var b strings.Builder
	for i, c := range cases {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(c.title + "\n" + attributeSeparator + "\n" + c.markdown + attributeSeparator + "\n" + c.html + caseSeparator + "\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBlocksCases renders testdata/blocks.txt with the lesson
// configuration.
func TestBlocksCases(t *testing.T) {
	const path = "testdata/blocks.txt"
	cases := readCases(t, path)
	md := NewMarkdown()
	for i := range cases {
		c := &cases[i]
		var buf bytes.Buffer
		if err := md.Convert([]byte(c.markdown), &buf); err != nil {
			t.Fatalf("%s: %v", c.title, err)
		}
		got := buf.String()
		if *update {
			c.html = got
			continue
		}
		if got != c.html {
			t.Errorf("case %s:\n--- markdown\n%s--- got\n%s--- want\n%s", c.title, c.markdown, got, c.html)
		}
	}
	if *update {
		writeCases(t, path, cases)
	}
}
