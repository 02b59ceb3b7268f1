package lessons

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// The goldmark configuration every lesson is rendered with, in one place
// so the lesson text and the inline Markdown inside question blocks read
// the same way.
//
//   - Raw HTML is never passed through: goldmark's default, kept (no
//     html.WithUnsafe anywhere; a test checks).
//   - CJK: a soft line break between two East Asian wide characters is
//     dropped, so a Chinese paragraph wrapped in the source reads as one
//     run of text (EastAsianLineBreaksSimple). A break next to Latin text
//     stays a space, the spacing the Chinese source texts use around Kafka
//     identifiers ("Kafka 事务"). The CSS3 draft style would also drop the
//     break after any punctuation, English full stops included. "\ " is an
//     escaped space that renders as nothing, for emphasis next to CJK text.
//   - GFM tables, for the protocol summary tables.
//   - Headings get ids, so lessons link to sections; {#id} after a heading
//     sets one by hand (goldmark's ids drop CJK characters, so a Chinese
//     heading needs one to share its anchor with the English page).
func markdownOptions() []goldmark.Option {
	return []goldmark.Option{
		goldmark.WithExtensions(
			extension.Table,
			extension.NewCJK(
				extension.WithEastAsianLineBreaks(extension.EastAsianLineBreaksSimple),
				extension.WithEscapedSpace(),
			),
		),
		goldmark.WithParserOptions(
			parser.WithAutoHeadingID(),
			parser.WithHeadingAttribute(),
		),
	}
}

// NewMarkdown returns the goldmark instance lessons are rendered with: the
// lesson configuration (no raw HTML, CJK line breaks, tables, heading ids)
// plus the Blocks extension. Give it valid UTF-8: goldmark v1.8.7's CJK
// line breaks panic on a soft break after an invalid byte (Load checks).
func NewMarkdown() goldmark.Markdown {
	return goldmark.New(append(markdownOptions(), goldmark.WithExtensions(Blocks))...)
}

// inlineMarkdown renders the Markdown inside question blocks (prompt,
// choices, hints, explanation): the lesson configuration without Blocks,
// so a question cannot nest live blocks.
var inlineMarkdown = goldmark.New(markdownOptions()...)

// renderInline renders src as Markdown and, when it is a single paragraph,
// drops the <p> around it: a prompt or a choice is a phrase, and the page
// places it in its own element.
func renderInline(src string) string {
	if src == "" {
		return ""
	}
	source := []byte(src)
	root := inlineMarkdown.Parser().Parse(text.NewReader(source))
	var buf bytes.Buffer
	r := inlineMarkdown.Renderer()
	if root.ChildCount() == 1 && root.FirstChild().Kind() == ast.KindParagraph {
		for c := root.FirstChild().FirstChild(); c != nil; c = c.NextSibling() {
			if err := r.Render(&buf, source, c); err != nil {
				return ""
			}
		}
		return buf.String()
	}
	if err := r.Render(&buf, source, root); err != nil {
		return ""
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
