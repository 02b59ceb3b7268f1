// Package pagetext reads a page's HTML as a reader meets it, for the
// tests of every Chinese page (the playground's, the lessons', the
// library's, the compare view's): the English sentences it shows or says
// outside code, in its text, its tooltips, the names a screen reader says
// and its diagrams' labels. Tests only: the wasm never links it, so it may
// use regexp.
package pagetext

import (
	"html"
	"regexp"
	"strings"

	"txnlab/app/uitext"
	"txnlab/i18n/english"
)

var (
	// Code, and the diagram: its labels are the protocol's identifiers
	// and fields (InitProducerId(txn=order-txn-1)), drawn as the
	// diagram's own text, which diagramEnglish reads apart.
	codeSpans = regexp.MustCompile(`(?s)<(code|pre|kbd|textarea|script|svg)[\s>].*?</(code|pre|kbd|textarea|script|svg)>`)
	// svgBlock is a drawn diagram (or a part of one: the page draws it
	// in chunks, each its own <svg>).
	svgBlock = regexp.MustCompile(`(?s)<svg[\s>].*?</svg>`)
	// svgNames are the attributes of a diagram a user reads or hears.
	svgNames = regexp.MustCompile(`\s(title|aria-label)="([^"]*)"`)
	anyTag   = regexp.MustCompile(`<[^>]*>`)
	// scriptRows are the editor's backdrop rows: the script's text again,
	// in transparent ink behind the textarea, so that wrapped lines keep
	// their numbers (aria-hidden, never seen or heard; the textarea shows
	// the same text as code).
	scriptRows = regexp.MustCompile(`(?s)<div class="bl[^"]*">.*?</div>`)
	// userAttrs are the attributes a user meets as text: a tooltip, a
	// name a screen reader says (an aria-label overridden by
	// aria-labelledby is not said and is checked apart).
	userAttrs = regexp.MustCompile(`\s(title|placeholder|aria-valuetext|label)="([^"]*)"`)
	// stmtTitle is an element whose title is a statement of the script
	// (a card's button says the line it writes): code, not prose.
	stmtTitle = regexp.MustCompile(`<[^>]*data-stmt[^>]*>`)
)

// diagramEnglish lists the English sentences of the diagrams of an HTML
// fragment, in their labels, tooltips and arrow names, their code-like
// words set apart (Prose).
func diagramEnglish(h string) []string {
	var out []string
	for _, block := range svgBlock.FindAllString(h, -1) {
		for _, m := range svgNames.FindAllStringSubmatch(block, -1) {
			out = append(out, Prose(html.UnescapeString(m[2]))...)
		}
		for _, text := range strings.Split(anyTag.ReplaceAllString(block, "\n"), "\n") {
			out = append(out, Prose(html.UnescapeString(text))...)
		}
	}
	return out
}

// EnglishIn lists the English sentences an HTML fragment shows outside
// code, in its text and in the attributes a user reads or hears, the
// diagrams' included.
func EnglishIn(h string) []string {
	out := diagramEnglish(h)
	h = stmtTitle.ReplaceAllStringFunc(h, func(tag string) string {
		return regexp.MustCompile(`\stitle="[^"]*"`).ReplaceAllString(tag, "")
	})
	for _, m := range userAttrs.FindAllStringSubmatch(h, -1) {
		out = append(out, english.Sentences(html.UnescapeString(m[2]))...)
	}
	// aria-labels not overridden by aria-labelledby.
	for _, tag := range regexp.MustCompile(`<[^>]*aria-label="[^"]*"[^>]*>`).FindAllString(h, -1) {
		if strings.Contains(tag, "aria-labelledby=") {
			continue
		}
		v := regexp.MustCompile(`aria-label="([^"]*)"`).FindStringSubmatch(tag)[1]
		out = append(out, english.Sentences(html.UnescapeString(v))...)
	}
	text := html.UnescapeString(anyTag.ReplaceAllString(codeSpans.ReplaceAllString(scriptRows.ReplaceAllString(h, " "), " "), " "))
	return append(out, english.Sentences(text)...)
}

// codeToken is a word of a diagram text that is code rather than prose:
// an identifier (broker-1, PrepareCommit, __transaction_state/20,
// transaction.timeout.ms), a field (a=1, pid=0), a number or a mark.
var codeToken = regexp.MustCompile(`[^\s]*[^A-Za-z'’\s,:;()（）：，][^\s]*`)

// Prose lists the English sentences of a diagram's text by the
// lessons' rule (english.Sentences), after its code-like words
// (uitext.IsIdentifier, or any word holding a digit or a mark) are set apart:
// the diagram writes Kafka's identifiers and the script's statements as
// they are, in both languages.
func Prose(s string) []string {
	var b strings.Builder
	for _, w := range strings.Fields(s) {
		bare := strings.Trim(w, ",:;()[]（）：，。")
		if bare == "" || uitext.IsIdentifier(bare) || codeToken.MatchString(bare) {
			b.WriteString(" | ")
			continue
		}
		b.WriteString(" " + w)
	}
	return english.Sentences(b.String())
}

// Plain is an HTML fragment's text as a reader sees it: its tags gone,
// its entities read.
func Plain(h string) string { return html.UnescapeString(anyTag.ReplaceAllString(h, " ")) }

// WithoutCode is an HTML fragment without its code, preformatted text,
// keys, text areas, scripts and drawings, which hold identifiers and
// statements rather than prose.
func WithoutCode(h string) string { return codeSpans.ReplaceAllString(h, " ") }
