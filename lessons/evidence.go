package lessons

import (
	"strings"
	"unicode/utf8"

	"txnlab/lessons/doc"
)

// An evidence sentence (docs/lessons.md, "Evidence") is text with
// backtick code spans and {query} slots the browser fills in from the run.
// It is not Markdown: its parts are data, so a slot cannot end up inside
// markup and the browser can draw each part its own way.

// evidenceLine is one source line of an evidence sentence.
type evidenceLine struct {
	text string
	line int
}

// parseEvidence splits the sentence's lines into parts, with the file line
// of each query part (checked against the scenario's script by
// checkLesson), and joins the lines as a rendered paragraph would: with a
// space, or with nothing where either side is an East Asian wide
// character (Chinese text wraps without spaces, also next to Latin).
func parseEvidence(lines []evidenceLine) ([]doc.EvidencePart, []int, []*Error) {
	var parts []doc.EvidencePart
	var queryLines []int
	var errs []*Error
	addText := func(s string) {
		if s == "" {
			return
		}
		if n := len(parts); n > 0 && parts[n-1].Text != "" {
			parts[n-1].Text += s
			return
		}
		parts = append(parts, doc.EvidencePart{Text: s})
	}
	prevLast := rune(0)
	for i, l := range lines {
		text := strings.TrimSpace(l.text)
		if text == "" {
			continue
		}
		if i > 0 && prevLast != 0 {
			first, _ := utf8.DecodeRuneInString(text)
			if !isWide(prevLast) && !isWide(first) {
				addText(" ")
			}
		}
		prevLast, _ = utf8.DecodeLastRuneInString(text)
		for text != "" {
			j := strings.IndexAny(text, "`{}")
			if j < 0 {
				addText(text)
				break
			}
			addText(text[:j])
			text = text[j:]
			switch text[0] {
			case '`':
				n := len(text) - len(strings.TrimLeft(text, "`"))
				fence := text[:n]
				end := strings.Index(text[n:], fence)
				if end < 0 {
					errs = append(errs, &Error{Line: l.line, Msg: "evidence: a code span opened with " + fence + " is not closed on its line"})
					addText(text)
					text = ""
					continue
				}
				code := strings.TrimSpace(text[n : n+end])
				if q, ok := strings.CutPrefix(code, "{"); ok && strings.HasSuffix(q, "}") && !isVariantName(code) {
					// `{query}`: a slot written as code, as values are shown anyway.
					parts = append(parts, doc.EvidencePart{Query: strings.Join(strings.Fields(strings.TrimSuffix(q, "}")), " ")})
					queryLines = append(queryLines, l.line)
				} else {
					parts = append(parts, doc.EvidencePart{Code: code})
				}
				text = text[n+end+n:]
			case '{':
				if strings.HasPrefix(text, "{{") {
					// A variant's {{NAME}} (docs/lessons.md, "Variants"):
					// text the page fills in, not a slot.
					if end := strings.Index(text, "}}"); end > 0 {
						addText(text[:end+2])
						text = text[end+2:]
						continue
					}
				}
				end := slotEnd(text)
				if end < 0 {
					errs = append(errs, &Error{Line: l.line, Msg: "evidence: a { slot is not closed on its line"})
					addText(text)
					text = ""
					continue
				}
				q := strings.Join(strings.Fields(text[1:end]), " ")
				text = text[end+1:]
				if q == "" {
					errs = append(errs, &Error{Line: l.line, Msg: "evidence: an empty {} slot"})
					continue
				}
				parts = append(parts, doc.EvidencePart{Query: q})
				queryLines = append(queryLines, l.line)
			case '}':
				errs = append(errs, &Error{Line: l.line, Msg: "evidence: a } without its {"})
				addText("}")
				text = text[1:]
			}
		}
	}
	return parts, queryLines, errs
}

// isVariantName reports whether code is a variant's {{NAME}} alone,
// which the page fills in, rather than a {query} slot.
func isVariantName(code string) bool {
	return strings.HasPrefix(code, "{{") && strings.HasSuffix(code, "}}") && strings.Count(code, "{{") == 1
}

// slotEnd is the index of the } that closes the slot text opens, passing
// over the {{NAME}}s of a variant inside it, or -1.
func slotEnd(text string) int {
	for j := 1; j < len(text); j++ {
		if strings.HasPrefix(text[j:], "{{") {
			k := strings.Index(text[j:], "}}")
			if k < 0 {
				return -1
			}
			j += k + 1
			continue
		}
		if text[j] == '}' {
			return j
		}
	}
	return -1
}

// hasQuery reports whether the sentence has a slot.
func hasQuery(parts []doc.EvidencePart) bool {
	for _, p := range parts {
		if p.Query != "" {
			return true
		}
	}
	return false
}
