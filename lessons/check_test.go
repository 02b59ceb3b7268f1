package lessons

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"txnlab/lessons/doc"
)

// exampleCourse is testdata/instructor (the instructor's example course
// docs/lessons.md points to) as a MapFS, with edit applied to each of
// its files.
func exampleCourse(t *testing.T, edit func(name, text string) string) fstest.MapFS {
	t.Helper()
	fsys := fstest.MapFS{}
	names, _ := filepath.Glob("testdata/instructor/*.md")
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		base := path.Base(name)
		fsys[base] = &fstest.MapFile{Data: []byte(edit(base, string(data)))}
	}
	if len(fsys) != 2 {
		t.Fatalf("testdata/instructor has %d lessons files, want an English and a Chinese twin", len(fsys))
	}
	return fsys
}

// lineOf is the 1-based line of the first line of text equal to want
// (trimmed), after the first line that starts with after.
func lineOf(t *testing.T, text, after, want string) int {
	t.Helper()
	seen := after == ""
	for i, l := range strings.Split(text, "\n") {
		if !seen && strings.HasPrefix(l, after) {
			seen = true
		}
		if seen && strings.TrimSpace(l) == want {
			return i + 1
		}
	}
	t.Fatalf("no line %q after %q", want, after)
	return 0
}

// TestCheckNamesTheLineOfWhatIsWrong: the example course runs clean in
// both languages; a lesson that claims what the simulation does not do
// is reported at the file and line an author fixes — the expect that
// fails, the question whose mark is wrong, the exercise whose wrong
// attempt passes — in each twin it is wrong in, and nowhere else.
func TestCheckNamesTheLineOfWhatIsWrong(t *testing.T) {
	c, err := Load(exampleCourse(t, func(_, s string) string { return s }))
	if err != nil {
		t.Fatal(err)
	}
	errs, n := c.Check()
	if len(errs) > 0 {
		t.Fatalf("the example course: %v", errs)
	}
	if n.Scenarios != 2 || n.Questions != 2 || n.Exercises != 2 {
		t.Fatalf("checked %+v, want one scenario, question and exercise in each language", n)
	}

	const en = "01-first-commit.md"
	for _, tc := range []struct {
		name     string
		old, new string // the edit, in the English file only
		after    string // the line the error names is the new text's, after this
		want     string // in the message
	}{
		{"an expect that fails", "expect partition orders/0 lso=2\n```", "expect partition orders/0 lso=1\n```", "```scenario", "expect partition orders/0 lso=1 does not hold"},
		{"a question marked wrong", "  when: expect partition orders/0 lso=2", "  when: expect partition orders/0 lso=3", "", "choice c is marked right=true, but in the run it holds=false"},
		{"a wrong attempt that passes", "  p commit\n  run\n```", "  p abort\n  run\n```", "", "wrong attempt 1 passes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var edited string
			fsys := exampleCourse(t, func(name, s string) string {
				if name != en {
					return s
				}
				if !strings.Contains(s, tc.old) {
					t.Fatalf("%s has no %q", name, tc.old)
				}
				edited = strings.Replace(s, tc.old, tc.new, 1)
				return edited
			})
			c, err := Load(fsys)
			if err != nil {
				t.Fatalf("the edit is a load error, not a run's: %v", err)
			}
			errs, _ := c.Check()
			if len(errs) == 0 {
				t.Fatal("no error reported")
			}
			var line int
			switch tc.name {
			case "an expect that fails":
				line = lineOf(t, edited, tc.after, strings.SplitN(tc.new, "\n", 2)[0])
			case "a question marked wrong":
				line = lineOf(t, edited, "", "```question id=q-first-commit-lso scenario=commit")
			default:
				line = lineOf(t, edited, "", "```exercise id=x-first-abort kind=goal max-added=2 allow=\"abort commit run advance wait\"")
			}
			found := false
			for _, e := range errs {
				if e.File != en {
					t.Errorf("an error in the untouched twin: %v", e)
				}
				if e.Line == line && strings.Contains(e.Msg, tc.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("want %s:%d: …%s…; got\n%v", en, line, tc.want, errs)
			}
		})
	}
}

// TestLoadBeside: an instructor's lessons join the built-in course's
// catalogue in both languages; a file named as a built-in lesson is
// refused at its name rather than replacing that lesson unseen.
func TestLoadBeside(t *testing.T) {
	same := func(_, s string) string { return s }
	c, err := LoadBeside(exampleCourse(t, same))
	if err != nil {
		t.Fatal(err)
	}
	builtin := embedded(t)
	for _, lang := range doc.Langs {
		if got, want := len(c.Catalogue(lang)), len(builtin.Catalogue(lang))+1; got != want {
			t.Errorf("%s: %d lessons beside the built-in ones, want %d", lang, got, want)
		}
		if _, ok := c.Lesson(lang, "01-first-commit"); !ok {
			t.Errorf("%s: the instructor's lesson is not in the course", lang)
		}
	}
	clash := fstest.MapFS{}
	for name, f := range exampleCourse(t, same) {
		clash[strings.Replace(name, "01-first-commit", "01-why-transactions", 1)] = f
	}
	_, err = LoadBeside(clash)
	if err == nil || !strings.Contains(err.Error(), "01-why-transactions.md:1: a built-in lesson has this file name") {
		t.Errorf("a lesson named as a built-in one: %v", err)
	}
}
