package lessons

import "io/fs"

// embeddedFiles holds the lesson files built into the binary. It is set by
// files.go, which is added together with the first lesson: a //go:embed
// pattern that matches no file does not compile, so it cannot be here
// while the package has no lesson. files.go is:
//
//	package lessons
//
//	import "embed"
//
//	//go:embed [0-9][0-9]-*.md
//	var files embed.FS
//
//	func init() { embeddedFiles = files }
var embeddedFiles fs.FS

// Embedded loads the course built into the binary: the NN-slug.md and
// NN-slug.zh.md files of this package's directory. With no lesson files
// yet it is an empty course.
func Embedded() (*Course, error) {
	if embeddedFiles == nil {
		return &Course{pages: map[pageKey]*page{}}, nil
	}
	return Load(embeddedFiles)
}
