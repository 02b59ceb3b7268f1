package lessons

import (
	"io/fs"
	"slices"
	"strings"
)

// An instructor's own course is a folder of lesson files in the same
// format (docs/lessons.md), served beside the built-in lessons or
// instead of them (`txnlab serve --lessons DIR`).

// LoadBeside loads the built-in course and the lesson files of extra as
// one course, checked as one: an extra lesson's ids must not clash with
// a built-in one's, and a file named as a built-in one is refused (it
// would silently replace it). Errors name extra's files as extra names
// them.
func LoadBeside(extra fs.FS) (*Course, error) {
	if embeddedFiles == nil {
		return Load(extra)
	}
	// Glob, which Load lists the files with, ignores a listing's error:
	// the clash is found here.
	names, err := fs.Glob(extra, "*.md")
	if err != nil {
		return nil, err
	}
	var errs ErrorList
	for _, name := range names {
		if _, err := fs.Stat(embeddedFiles, name); err == nil {
			errs = append(errs, &Error{File: name, Line: 1,
				Msg: "a built-in lesson has this file name: give the lesson another slug, or serve the folder instead of the built-in course"})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return Load(unionFS{base: embeddedFiles, extra: extra})
}

// unionFS is two folders of lesson files seen as one, for Load (which
// reads the root's directory and its files only).
type unionFS struct{ base, extra fs.FS }

// Open opens a file of extra, or of base.
func (u unionFS) Open(name string) (fs.File, error) {
	if f, err := u.extra.Open(name); err == nil {
		return f, nil
	}
	return u.base.Open(name)
}

// ReadDir lists both folders (LoadBeside refused a name both hold).
func (u unionFS) ReadDir(name string) ([]fs.DirEntry, error) {
	base, err := fs.ReadDir(u.base, name)
	if err != nil {
		return nil, err
	}
	extra, err := fs.ReadDir(u.extra, name)
	if err != nil {
		return nil, err
	}
	out := append(slices.Clone(base), extra...)
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return out, nil
}
