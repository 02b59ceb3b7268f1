//go:build !wasm

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"txnlab/lessons"
)

func init() {
	extraCommands["course"] = func(args []string) int { return courseCmd(args, os.Stdout, os.Stderr) }
}

const courseUsage = `usage: txnlab course check DIR

Loads the lesson files of DIR (NN-slug.md and NN-slug.zh.md,
docs/lessons.md) and runs every scenario block (its expect lines), every
question (its marked answer against its run) and every exercise (its
solution passes, each wrong attempt fails), in both languages. Each
problem is printed as DIR/FILE:LINE: what is wrong.

exit status: 0 when everything holds, 1 on any problem, 2 on a usage
mistake.
`

// courseCmd is `txnlab course check DIR`: an instructor's CI for a
// course of their own.
func courseCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprint(stderr, courseUsage)
		return 2
	}
	fset := flag.NewFlagSet("course check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	fset.Usage = func() { fmt.Fprint(stderr, courseUsage) }
	if err := fset.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fset.NArg() != 1 {
		fmt.Fprint(stderr, courseUsage)
		return 2
	}
	dir := fset.Arg(0)
	c, err := loadCourseDir(dir, false)
	var list lessons.ErrorList
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			fmt.Fprintln(stderr, inDir(dir, e))
		}
		fmt.Fprintf(stderr, "txnlab course check: %d problems in %s\n", len(list), dir)
		return 1
	case err != nil:
		fmt.Fprintln(stderr, "txnlab course check:", err)
		return 1
	}
	errs, n := c.Check()
	for _, e := range errs {
		fmt.Fprintln(stderr, inDir(dir, e))
	}
	lessonsN := len(c.Slugs())
	if len(errs) > 0 {
		fmt.Fprintf(stderr, "txnlab course check: %d problems in %s\n", len(errs), dir)
		return 1
	}
	fmt.Fprintf(stdout, "txnlab course check: %s: %d lesson(s) in both languages; %d scenario runs, %d questions, %d exercises: all hold\n",
		dir, lessonsN, n.Scenarios, n.Questions, n.Exercises)
	return 0
}

// loadCourseDir loads the lessons of dir, alone or beside the built-in
// course; its errors name dir's files as dir/FILE:LINE, one a line.
func loadCourseDir(dir string, beside bool) (*lessons.Course, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("the lessons folder: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder of lesson files", dir)
	}
	fsys := os.DirFS(dir)
	if names, _ := fs.Glob(fsys, "*.md"); len(names) == 0 {
		return nil, fmt.Errorf("%s holds no lesson file (NN-slug.md and its Chinese twin NN-slug.zh.md)", dir)
	}
	var c *lessons.Course
	if beside {
		c, err = lessons.LoadBeside(fsys)
	} else {
		c, err = lessons.Load(fsys)
	}
	var list lessons.ErrorList
	if errors.As(err, &list) {
		// Each error at its path in dir, one a line.
		named := make(lessons.ErrorList, len(list))
		for i, e := range list {
			named[i] = &lessons.Error{File: inDirName(dir, e.File), Line: e.Line, Msg: e.Msg}
		}
		return nil, named
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return c, nil
}

// inDir renders a lesson error with its file's path in dir.
func inDir(dir string, e *lessons.Error) string {
	return (&lessons.Error{File: inDirName(dir, e.File), Line: e.Line, Msg: e.Msg}).Error()
}

// inDirName is a lesson file's path when dir holds it; beside the
// built-in course, an error may name a built-in lesson, which keeps its
// name.
func inDirName(dir, file string) string {
	if filepath.IsAbs(file) || strings.HasPrefix(file, dir+string(filepath.Separator)) {
		return file
	}
	if _, err := os.Stat(filepath.Join(dir, file)); err == nil {
		return filepath.Join(dir, file)
	}
	return file
}
