package progress

import "testing"

// Exercises in the progress: kept by id, unknown states read as
// unsolved, and a solved exercise stays solved when a file is merged in.
func TestExerciseProgress(t *testing.T) {
	p, ok := Parse(`{"version":1,"exercises":{"x-a":{"state":"solved","script":"cluster\n","tries":2},"x-b":{"state":"wondering"},"x-c":null}}`)
	if !ok {
		t.Fatal("refused")
	}
	if a := p.Exercises["x-a"]; a == nil || a.State != Solved || a.Script != "cluster\n" || a.Tries != 2 {
		t.Errorf("x-a: %+v", a)
	}
	if b := p.Exercises["x-b"]; b == nil || b.State != Unsolved {
		t.Errorf("x-b: %+v", b)
	}
	if _, ok := p.Exercises["x-c"]; ok {
		t.Error("a null exercise kept")
	}
	in, _ := Parse(`{"version":1,"exercises":{"x-a":{"state":"failed","tries":5},"x-d":{"state":"failed","tries":1}}}`)
	p.Merge(in)
	if p.Exercises["x-a"].State != Solved || p.Exercises["x-d"].State != Failed {
		t.Errorf("merged: %+v %+v", p.Exercises["x-a"], p.Exercises["x-d"])
	}
	if x := (&Record{}).Exercise("x-new"); x.State != Unsolved {
		t.Errorf("a new exercise: %+v", x)
	}
}

func TestProgressFiles(t *testing.T) {
	for _, bad := range []string{"", "{", "[]", `{"version":0}`, `"x"`} {
		if _, ok := Parse(bad); ok {
			t.Errorf("Parse(%q) accepted it", bad)
		}
	}
	// A file from a newer site, with fields this one does not know and a
	// state it does not either, still loads.
	p, ok := Parse(`{"version":3,"future":1,"lessons":{"03-x":{"opened":true}},
		"questions":{"q-a":{"state":"correct","picked":["b"],"tries":2},"q-b":{"state":"pondering"},"q-c":null}}`)
	if !ok {
		t.Fatal("a newer progress file was refused")
	}
	if p.Questions["q-a"].State != Correct || p.Questions["q-b"].State != Unanswered || p.Questions["q-c"] != nil {
		t.Errorf("normalised questions: %+v", p.Questions)
	}
	if !p.Lessons["03-x"].Opened {
		t.Error("the lesson's visit was lost")
	}

	// Importing never takes a correct answer away.
	mine := New(0)
	mine.Question("q-a").State = Correct
	mine.Question("q-b").State = Wrong
	in := New(0)
	in.Question("q-a").State = Wrong
	in.Question("q-b").State = Correct
	in.Lessons["01-y"] = &Lesson{Opened: true}
	mine.Merge(in)
	if mine.Questions["q-a"].State != Correct || mine.Questions["q-b"].State != Correct || !mine.Lessons["01-y"].Opened {
		t.Errorf("merged: %+v %+v", mine.Questions, mine.Lessons)
	}
}
