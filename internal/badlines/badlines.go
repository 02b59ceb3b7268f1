// Package badlines reads the parser's corpus of refused lines
// (core/scenario/testdata/bad-lines.txt): a prelude that declares what
// the lines use, then each line with the error it gets. The parser's
// tests check the errors; the pages' tests check how a page says them.
package badlines

import (
	"fmt"
	"strings"
)

// Case is one refused line and its error, "line:col: message".
type Case struct {
	Line, Want string
}

// Msg is the error's message, without its position.
func (c Case) Msg() string {
	_, msg, _ := strings.Cut(c.Want, ": ")
	return msg
}

// Parse reads a corpus: "-- prelude --", the script the lines follow,
// "-- cases --", then each line followed by "=> " and its error. Blank
// lines and lines starting with "#" between cases are skipped.
func Parse(text string) (prelude string, cases []Case, err error) {
	head, rest, ok := strings.Cut(text, "-- prelude --\n")
	if !ok {
		return "", nil, fmt.Errorf("no -- prelude -- line")
	}
	_ = head // the file's own comment
	prelude, rest, ok = strings.Cut(rest, "-- cases --\n")
	if !ok {
		return "", nil, fmt.Errorf("no -- cases -- line")
	}
	var line string
	for n, l := range strings.Split(rest, "\n") {
		switch {
		case strings.HasPrefix(l, "=> "):
			if line == "" {
				return "", nil, fmt.Errorf("case line %d: an error with no line before it", n+1)
			}
			cases = append(cases, Case{Line: line, Want: l[3:]})
			line = ""
		case l == "" || strings.HasPrefix(l, "#"):
			if line != "" {
				return "", nil, fmt.Errorf("case line %d: %q has no error after it", n, line)
			}
		default:
			if line != "" {
				return "", nil, fmt.Errorf("case line %d: %q has no error after it", n, line)
			}
			line = l
		}
	}
	if line != "" {
		return "", nil, fmt.Errorf("the last line %q has no error after it", line)
	}
	return prelude, cases, nil
}
