package uitext

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/lessons/doc"
)

// The core's error texts (a script that does not parse, a statement that
// cannot apply) are English: they are the CLI's too, and the core holds no
// UI text. A Chinese page does not show them as they are: it says in
// Chinese what kind of error it is, then lists the identifiers the
// English names (the misspelt word, the client, the partition, Kafka's
// error code), which are the same in both languages. The line and column
// stay.

// The texts are read with the strings package, not regexp: regexp and
// its Unicode tables would add some 350 kB to the wasm, which links them
// for nothing else.

// splitQuoted separates an error text's quoted words ("bgin", `app`) from
// the rest of it.
func SplitQuoted(msg string) (quoted []string, rest string) {
	var b strings.Builder
	for i := 0; i < len(msg); i++ {
		c := msg[i]
		if c == '"' || c == '`' {
			if j := strings.IndexByte(msg[i+1:], c); j >= 0 {
				quoted = append(quoted, msg[i+1:i+1+j])
				b.WriteByte(' ')
				i += j + 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return quoted, b.String()
}

// isIdentifier reports whether a bare word of an error text is an
// identifier: Latin letters, digits and _ . - / = @ only, starting with a
// letter or _, and holding a digit or one of those marks, an inner
// capital, or only capitals (broker-3, __transaction_state/39,
// read_committed, InitProducerId, PRODUCER_FENCED, transaction.timeout.ms).
func IsIdentifier(w string) bool {
	if w == "" || !(w[0] == '_' || isLetter(w[0])) {
		return false
	}
	marked, inner, lower := false, false, false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			if i > 0 {
				inner = true
			}
		case c >= '0' && c <= '9', strings.IndexByte("_.-/=@", c) >= 0:
			marked = true
		default:
			return false
		}
	}
	return marked || (inner && lower) || (!lower && len(w) > 1)
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// didYouMean is the suggestion of an error text ("…; did you mean
// \"begin\"?"), if it has one.
func DidYouMean(msg string) (string, bool) {
	_, after, ok := strings.Cut(msg, "did you mean ")
	if !ok {
		return "", false
	}
	q, _ := SplitQuoted(after)
	if len(q) == 0 {
		return "", false
	}
	return q[0], true
}

// errorIdentifiers lists the identifiers an English error text names, in
// order, each once.
func ErrorIdentifiers(msg string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	quoted, rest := SplitQuoted(msg)
	for _, q := range quoted {
		add(q)
	}
	for _, w := range strings.Fields(rest) {
		w = strings.Trim(w, ",;:()[]?!")
		w = strings.TrimSuffix(w, ".")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s") // p1's: p1
		if IsIdentifier(w) {
			add(w)
		}
	}
	return out
}

// CoreErrorIn is an error text of the core for a page in lang: itself in
// English; in Chinese, its sentence in Chinese (CoreErrorPieces) as
// plain text.
func CoreErrorIn(lang, msg string) string { return PlainText(CoreErrorPieces(lang, msg)) }

// CoreErrorPieces is an error text of the core for a page in lang:
// itself in English; in Chinese, the Chinese of its form (errorTexts)
// with its values as code or, for a form the table lacks, a general lead
// and the identifiers it names.
func CoreErrorPieces(lang, msg string) []Piece { return errorIn(lang, msg, Tr(lang, "err.lead")+"。") }

// ScriptErrorPieces is CoreErrorPieces for a script's error, whose
// general lead says whether the line could not be read or could not
// apply when it ran.
func ScriptErrorPieces(lang, msg string, runtime bool) []Piece {
	lead := Tr(lang, "err.parse")
	if runtime {
		lead = Tr(lang, "err.runtime")
	}
	return errorIn(lang, msg, lead)
}

// ErrorSentence is an error's Chinese when a form of errorTexts matches
// it: for a page that says more around an error than CoreErrorPieces.
func ErrorSentence(msg string) ([]Piece, bool) { return errorPieces(msg) }

// errorIn is a core error for a page in lang, with lead before the
// identifiers of an error no form matches.
func errorIn(lang, msg, lead string) []Piece {
	if doc.Lang(lang) != doc.Chinese {
		return Prose(msg)
	}
	if out, ok := errorPieces(msg); ok {
		return out
	}
	out := append([]Piece{prose(lead)}, identifierPieces(lang, msg)...)
	if s, ok := DidYouMean(msg); ok {
		out = append(out, prose(Tr(lang, "err.didyoumean.lead")), code(s), prose("？"))
	}
	return out
}

// ScriptErrorText is the editor's error line: kind is its format ("Line
// %d, column %d: %s" or the runtime one), the error said in the page's
// language (ScriptErrorPieces), its values in monospace.
func ScriptErrorText(lang, kind string, se *engine.ScriptError) []app.UI {
	if doc.Lang(lang) != doc.Chinese {
		return []app.UI{app.Text(fmt.Sprintf(Tr(lang, kind), se.Line, se.Col, se.Msg))}
	}
	head := app.Text(fmt.Sprintf(Tr(lang, kind), se.Line, se.Col, ""))
	return append([]app.UI{head}, PiecesUI(ScriptErrorPieces(lang, se.Msg, se.Runtime))...)
}

// identifierPieces is, after a lead in lang, the identifiers and values
// an English message names, each as code, so that a Chinese sentence
// about the message still shows them; nothing when it names none.
func identifierPieces(lang, msg string) []Piece {
	ids := ErrorIdentifiers(msg)
	if len(ids) == 0 {
		return nil
	}
	out := []Piece{prose(Tr(lang, "err.names.lead"))}
	for i, id := range ids {
		if i > 0 {
			out = append(out, prose("、"))
		}
		out = append(out, code(id))
	}
	return append(out, prose("。"))
}
