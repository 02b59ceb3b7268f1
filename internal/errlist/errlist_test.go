package errlist

import (
	"errors"
	"testing"
)

type lineErr struct{ msg string }

func (e *lineErr) Error() string { return e.msg }

func TestList(t *testing.T) {
	var empty List[*lineErr]
	if empty.Err() != nil {
		t.Fatal("an empty list is an error")
	}
	l := List[*lineErr]{{"a.md:3: one"}, {"a.md:9: two"}}
	if got, want := l.Err().Error(), "a.md:3: one\na.md:9: two"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
	var e *lineErr
	if !errors.As(l.Err(), &e) || e.msg != "a.md:3: one" {
		t.Fatalf("errors.As found %v", e)
	}
}
