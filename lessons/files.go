package lessons

import "embed"

// files are the course's lesson files, built into the binary.
//
//go:embed [0-9][0-9]-*.md
var files embed.FS

func init() { embeddedFiles = files }
