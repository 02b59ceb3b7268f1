package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// exampleDir copies the example course (lessons/testdata/instructor) into
// a folder of the test's own, with edit applied to the English lesson.
func exampleDir(t *testing.T, edit func(string) string) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"01-first-commit.md", "01-first-commit.zh.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "lessons", "testdata", "instructor", name))
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if name == "01-first-commit.md" {
			text = edit(text)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// lineNumber is the 1-based line of text that equals want.
func lineNumber(t *testing.T, text, want string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if l == want {
			return i + 1
		}
	}
	t.Fatalf("no line %q", want)
	return 0
}

// TestCourseCheck is an instructor's CI: `txnlab course check DIR` exits
// 0 on a course that holds, and 1 on one that does not, naming the
// file and line to fix — a run that contradicts the lesson and a lesson
// that does not load alike; a usage mistake exits 2.
func TestCourseCheck(t *testing.T) {
	same := func(s string) string { return s }
	for _, tc := range []struct {
		name     string
		args     func(dir string) []string
		edit     func(string) string
		code     int
		out      string // in stdout
		errLine  string // the lesson's line the error names, in the edited file ("": none)
		errWords string // in stderr
	}{
		{name: "a course that holds", edit: same, code: 0, out: "1 lesson(s) in both languages; 2 scenario runs, 2 questions, 2 exercises: all hold"},
		{name: "an expect that fails",
			edit: func(s string) string {
				return strings.Replace(s, "expect txn t1 state=CompleteCommit", "expect txn t1 state=CompleteAbort", 1)
			},
			code: 1, errLine: "expect txn t1 state=CompleteAbort", errWords: "does not hold (expected state=CompleteAbort, actual state=CompleteCommit)"},
		{name: "a lesson that does not load",
			edit: func(s string) string {
				return strings.Replace(s, "p send orders/0 k=a\np commit", "p send orders/0 k=a\np comit", 1)
			},
			code: 1, errLine: "p comit", errWords: `unknown producer action "comit"`},
		{name: "no such folder", args: func(string) []string { return []string{"check", "/nonexistent/course"} }, edit: same, code: 1, errWords: "no such file or directory"},
		{name: "no command", args: func(string) []string { return nil }, edit: same, code: 2, errWords: "usage: txnlab course check DIR"},
		{name: "two folders", args: func(d string) []string { return []string{"check", d, d} }, edit: same, code: 2, errWords: "usage: txnlab course check DIR"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := exampleDir(t, tc.edit)
			args := []string{"check", dir}
			if tc.args != nil {
				args = tc.args(dir)
			}
			var stdout, stderr bytes.Buffer
			code := courseCmd(args, &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit status %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, stdout.String(), stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.out) {
				t.Errorf("stdout %q does not say %q", stdout.String(), tc.out)
			}
			if !strings.Contains(stderr.String(), tc.errWords) {
				t.Errorf("stderr %q does not say %q", stderr.String(), tc.errWords)
			}
			if tc.errLine != "" {
				data, _ := os.ReadFile(filepath.Join(dir, "01-first-commit.md"))
				where := filepath.Join(dir, "01-first-commit.md") + ":" + strconv.Itoa(lineNumber(t, string(data), tc.errLine)) + ":"
				if !strings.Contains(stderr.String(), where) {
					t.Errorf("stderr does not name %s\n%s", where, stderr.String())
				}
				if strings.Contains(stderr.String(), ".zh.md") {
					t.Errorf("an error in the untouched Chinese twin:\n%s", stderr.String())
				}
			}
		})
	}
}
