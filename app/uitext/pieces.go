package uitext

import (
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/internal/escape"
)

// Piece is a part of a text a page shows: prose, or code (a value, an
// identifier, a statement), which is the same in every language.
type Piece struct {
	Text string
	Code bool
}

func prose(s string) Piece { return Piece{Text: s} }
func code(s string) Piece  { return Piece{Text: s, Code: true} }

// Prose is a text with no code in it, as pieces: none for "" (a
// message cleared).
func Prose(s string) []Piece {
	if s == "" {
		return nil
	}
	return []Piece{prose(s)}
}

// Sentence is format (from Tr) with each %s replaced by the next of
// args' pieces: a sentence of the catalogue around values and other
// sentences.
func Sentence(format string, args ...[]Piece) []Piece {
	var out []Piece
	for i, part := range strings.Split(format, "%s") {
		if i > 0 && i-1 < len(args) {
			out = append(out, args[i-1]...)
		}
		if part != "" {
			out = append(out, prose(part))
		}
	}
	return out
}

// Code is a value as pieces: one piece of code.
func Code(s string) []Piece { return []Piece{code(s)} }

// PlainText is pieces as one text, code unmarked: for a place that
// shows text only (a title, a log line).
func PlainText(ps []Piece) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Text)
	}
	return b.String()
}

// PiecesUI is pieces as go-app elements: code as <code>.
func PiecesUI(ps []Piece) []app.UI {
	out := make([]app.UI, 0, len(ps))
	for _, p := range ps {
		if p.Code {
			out = append(out, app.Code().Text(p.Text))
		} else if p.Text != "" {
			out = append(out, app.Text(p.Text))
		}
	}
	return out
}

// PiecesHTML is pieces as HTML, escaped: code as <code>.
func PiecesHTML(ps []Piece) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Code {
			b.WriteString("<code>")
			escape.WriteHTML(&b, p.Text)
			b.WriteString("</code>")
		} else {
			escape.WriteHTML(&b, p.Text)
		}
	}
	return b.String()
}

// zhPieces is a Chinese text of a table of the core's phrases
// (expectTexts, errorTexts) as pieces: `…` and each value (%s, or %[n]s
// for the nth) as code, the rest prose.
func zhPieces(zh string, vals []string) []Piece {
	var out []Piece
	next := 0
	for i, part := range strings.Split(zh, "`") {
		if i%2 == 1 {
			out = append(out, code(part))
			continue
		}
		for part != "" {
			at := strings.Index(part, "%")
			if at < 0 {
				out = append(out, prose(part))
				break
			}
			if at > 0 {
				out = append(out, prose(part[:at]))
			}
			verb := part[at:]
			n := next
			if len(verb) >= 5 && verb[1] == '[' && verb[3] == ']' {
				n = int(verb[2] - '1')
				verb = verb[4:]
			} else {
				verb = verb[1:]
				next++
			}
			verb = strings.TrimPrefix(verb, "s")
			if n >= 0 && n < len(vals) {
				out = append(out, code(vals[n]))
			}
			part = verb
		}
	}
	return out
}
