// Package errlist holds a list of errors reported together, one a line:
// a script's parse errors and a course's lesson errors are both read by
// an author who fixes them all in one round, not one per mistake.
package errlist

import "strings"

// List is every error found, in the order its owner sorted them.
type List[E error] []E

// Error renders one error per line.
func (l List[E]) Error() string {
	parts := make([]string, len(l))
	for i, e := range l {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// Unwrap lets errors.As find the individual errors.
func (l List[E]) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}

// Err returns the list as an error, or nil when it is empty (a nil List
// in an error interface would not be nil).
func (l List[E]) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}
