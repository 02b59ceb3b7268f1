// Package lessons is the course: the lesson files of this directory (their
// format is docs/lessons.md), rendered with goldmark on the server and
// checked when they load, so a broken lesson is a test failure naming its
// file and line, never something a learner finds.
//
// The package is server-side only: the browser gets a lesson as data
// (package lessons/doc) and never links goldmark.
//
// Its files:
//
//   - course.go: Load, Course and its lookups; a lesson's body split into
//     segments at its live blocks.
//   - markdown.go: the goldmark configuration (no raw HTML, CJK line
//     breaks, tables, heading ids) and inline rendering.
//   - blocks.go: the Blocks goldmark extension: node kinds, the AST
//     transformer that replaces ```scenario and ```question blocks.
//   - blocks_html.go: their static HTML.
//   - scenario_block.go, question_block.go, evidence.go, attrs.go: reading
//     one block: attributes, body, evidence sentence.
//   - frontmatter.go: the title/summary/order header.
//   - validate.go: the checks across blocks, twins and lessons.
//   - errors.go: Error and ErrorList, "file:line: message".
//   - query.go: the query check (to be wired to the core).
//   - embed.go: Embedded, the lessons built into the binary.
package lessons
