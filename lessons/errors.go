package lessons

import (
	"cmp"
	"slices"
	"strconv"

	"txnlab/core/scenario"
	"txnlab/internal/errlist"
)

// Error is one thing wrong with a lesson file, at a line of that file, so
// an author can jump to it.
type Error struct {
	File string // the lesson file's name, e.g. "03-transaction-protocols.md"
	Line int    // 1-based line in that file
	Msg  string
}

// Error renders "file:line: msg".
func (e *Error) Error() string {
	return e.File + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
}

// ErrorList is every error found in a course, sorted by file, then line.
// Load reports them all at once: fixing a lesson takes one round, not one
// per mistake.
type ErrorList = errlist.List[*Error]

// sorted returns the list sorted, as an error, or nil when it is empty.
func sorted(l ErrorList) error {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if c := cmp.Compare(a.File, b.File); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
	return l.Err()
}

// didYouMean is the scenario language's suggestion for a misspelt word
// (`; did you mean "x"?` or ""), so a lesson's errors read like a
// script's.
func didYouMean(word string, candidates []string) string {
	return scenario.DidYouMean(word, candidates)
}
