package app

import (
	"errors"
	"testing"
)

func TestFakeEngineStepsAndSeeks(t *testing.T) {
	e := newFakeEngine()
	if err := e.Load("# comment\na -> b: one\n\nnote b: two\nb -> a: → three\n"); err != nil {
		t.Fatal(err)
	}
	if e.Len() != 3 || e.Pos() != 0 || len(e.Events()) != 0 {
		t.Fatalf("after load: len %d pos %d events %d", e.Len(), e.Pos(), len(e.Events()))
	}
	empty := e.Digest()
	for i := 1; i <= 3; i++ {
		if !e.Step() || e.Pos() != i || len(e.Events()) != i {
			t.Fatalf("step %d: pos %d", i, e.Pos())
		}
	}
	if e.Step() {
		t.Error("stepped past the end")
	}
	full := e.Digest()
	e.Seek(-4)
	if e.Pos() != 0 || e.Digest() != empty {
		t.Errorf("Seek(-4): pos %d", e.Pos())
	}
	e.Seek(99)
	if e.Pos() != 3 || e.Digest() != full {
		t.Errorf("Seek(99): pos %d", e.Pos())
	}
	e.StepBack()
	if e.Pos() != 2 {
		t.Errorf("StepBack: pos %d", e.Pos())
	}
}

func TestFakeEngineKeepsItsHistoryOnAnError(t *testing.T) {
	e := newFakeEngine()
	if err := e.Load("a -> b: one"); err != nil {
		t.Fatal(err)
	}
	e.Step()
	err := e.Load("a -> b: one\nnonsense")
	var se *ScriptError
	if !errors.As(err, &se) || se.Line != 2 || se.Col != 1 {
		t.Fatalf("error %v, want a ScriptError at 2:1", err)
	}
	if se.Error() != "2:1: "+se.Msg {
		t.Errorf("Error() = %q", se.Error())
	}
	if e.Len() != 1 || e.Pos() != 1 {
		t.Errorf("a failed load changed the history: len %d pos %d", e.Len(), e.Pos())
	}
}
