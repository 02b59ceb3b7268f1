package lessons

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"txnlab/lessons/doc"
)

// The goldmark configuration every lesson is rendered with, in one place
// so the lesson text and the inline Markdown inside question blocks read
// the same way.
//
//   - Raw HTML is never passed through: goldmark's default, kept (no
//     html.WithUnsafe anywhere; a test checks).
//   - CJK: in English, a soft line break between two East Asian wide
//     characters is dropped (EastAsianLineBreaksSimple) and every other
//     stays a space. In Chinese, a break with a wide character on either
//     side is dropped too (EastAsianLineBreaksCSS3Draft), so a line that
//     ends in Chinese before a Kafka identifier, or starts in Chinese
//     after one, shows no stray space: the course's Chinese writes the
//     spaces it wants on the line. The CSS3 draft style also drops the
//     break after a full stop, which English cannot afford. "\ " is an
//     escaped space that renders as nothing, for emphasis next to CJK
//     text.
//   - GFM tables, for the protocol summary tables.
//   - Headings get ids, so lessons link to sections; {#id} after a heading
//     sets one by hand (goldmark's ids drop CJK characters, so a Chinese
//     heading needs one to share its anchor with the English page).
func markdownOptions(lang doc.Lang) []goldmark.Option {
	breaks := extension.EastAsianLineBreaksSimple
	if lang == doc.Chinese {
		breaks = extension.EastAsianLineBreaksCSS3Draft
	}
	return []goldmark.Option{
		goldmark.WithExtensions(
			extension.Table,
			extension.NewCJK(
				extension.WithEastAsianLineBreaks(breaks),
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
func NewMarkdown() goldmark.Markdown { return newMarkdown(doc.English) }

// newMarkdown is NewMarkdown for a page in lang, whose line breaks follow
// its script.
func newMarkdown(lang doc.Lang) goldmark.Markdown {
	return goldmark.New(append(markdownOptions(lang), goldmark.WithExtensions(Blocks))...)
}

// inlineMarkdown renders the Markdown inside question blocks (prompt,
// choices, hints, explanation): the lesson configuration without Blocks,
// so a question cannot nest live blocks.
var inlineMarkdown = map[doc.Lang]goldmark.Markdown{
	doc.English: goldmark.New(markdownOptions(doc.English)...),
	doc.Chinese: goldmark.New(markdownOptions(doc.Chinese)...),
}

// renderInline renders src as Markdown and, when it is a single paragraph,
// drops the <p> around it: a prompt or a choice is a phrase, and the page
// places it in its own element.
func renderInline(lang doc.Lang, src string) string {
	if src == "" {
		return ""
	}
	md := inlineMarkdown[lang]
	source := []byte(src)
	root := md.Parser().Parse(text.NewReader(source))
	var buf bytes.Buffer
	r := md.Renderer()
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
