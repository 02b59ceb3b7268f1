package lessons

import (
	"bytes"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"txnlab/lessons/doc"
)

// The goldmark configuration every lesson is rendered with, in one place
// so the lesson text and the inline Markdown inside question blocks read
// the same way.
//
//   - Raw HTML is never passed through: goldmark's default, kept (no
//     html.WithUnsafe anywhere; a test checks).
//   - Line breaks: a soft line break between two East Asian wide
//     characters is dropped, and in Chinese one with a wide character on
//     either side (wideBreaks), so a Chinese
//     paragraph wrapped in the source reads as one run of text and a line
//     that ends in Chinese before a Kafka identifier, or starts in
//     Chinese after one, shows no stray space: the course's Chinese
//     writes the spaces it wants on the line. Every other break stays a
//     space, in both languages. (goldmark's own EastAsianLineBreaks
//     options were tried: the simple one also dropped the break before a
//     line starting with a code span, in English too, and the CSS3 draft
//     one the break after any punctuation.) "\ " is an escaped space that
//     renders as nothing, for emphasis next to CJK text.
//   - GFM tables, for the protocol summary tables.
//   - Headings get ids, so lessons link to sections; {#id} after a heading
//     sets one by hand (goldmark's ids drop CJK characters, so a Chinese
//     heading needs one to share its anchor with the English page).
func markdownOptions(lang doc.Lang) []goldmark.Option {
	popts := []parser.Option{parser.WithAutoHeadingID(), parser.WithHeadingAttribute(),
		parser.WithASTTransformers(util.Prioritized(wideBreaks{either: lang == doc.Chinese}, 1000))}
	return []goldmark.Option{
		goldmark.WithExtensions(
			extension.Table,
			extension.NewCJK(extension.WithEscapedSpace()),
		),
		goldmark.WithParserOptions(popts...),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(focusableCode{}, 500))),
	}
}

// focusableCode renders a code block as goldmark does, with its pre in
// the keyboard's tab order: a line wider than the column (a command, a
// Java call on a phone) scrolls, and a learner without a mouse must be
// able to scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
// The lessons' own blocks (scenario, question, …) render elsewhere.
type focusableCode struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (focusableCode) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCode)
	reg.Register(ast.KindCodeBlock, renderCode)
}

func renderCode(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</code></pre>\n")
		return ast.WalkContinue, nil
	}
	_, _ = w.WriteString(`<pre tabindex="0"><code`)
	if f, ok := n.(*ast.FencedCodeBlock); ok && f.Language(src) != nil {
		_, _ = w.WriteString(` class="language-`)
		_, _ = w.Write(util.EscapeHTML(f.Language(src)))
		_, _ = w.WriteString(`"`)
	}
	_ = w.WriteByte('>')
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(src)))
	}
	return ast.WalkContinue, nil
}

// wideBreaks drops the soft line breaks that have an East Asian wide
// character on both sides, or with either on either side (Chinese
// pages; see markdownOptions).
type wideBreaks struct{ either bool }

// Transform implements parser.ASTTransformer.
func (wb wideBreaks) Transform(root *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		t, ok := n.(*ast.Text)
		if !entering || !ok || !t.SoftLineBreak() {
			return ast.WalkContinue, nil
		}
		last, _ := utf8.DecodeLastRune(t.Segment.Value(src))
		before, after := isWide(last), isWide(firstRuneAfter(n, src))
		if before && after || wb.either && (before || after) {
			t.SetSoftLineBreak(false)
		}
		return ast.WalkContinue, nil
	})
}

// isWide reports an East Asian wide character: goldmark's (Han, kana,
// Hangul) plus the CJK punctuation and full-width forms Chinese text
// writes (，。：；（）and the like), which goldmark's test leaves out.
func isWide(r rune) bool {
	return util.IsEastAsianWideRune(r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFF60 || r >= 0xFFE0 && r <= 0xFFE6
}

// firstRuneAfter is the first character of the text that follows n in
// its paragraph (inside a code span or emphasis too), or 0.
func firstRuneAfter(n ast.Node, src []byte) rune {
	for next := n.NextSibling(); next != nil; next = next.NextSibling() {
		for d := next; d != nil; d = d.FirstChild() {
			if t, ok := d.(*ast.Text); ok {
				r, _ := utf8.DecodeRune(t.Segment.Value(src))
				return r
			}
			if d.FirstChild() == nil {
				break
			}
		}
	}
	return 0
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
