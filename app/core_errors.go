package app

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// The core's error texts (a script that does not parse, a statement that
// cannot apply) are English: they are the CLI's too, and the core holds no
// UI text. A Chinese page does not show them as they are: it says in
// Chinese what kind of error it is, then lists the identifiers the
// English names (the misspelt word, the client, the partition, Kafka's
// error code), which are the same in both languages. The line and column
// stay.

var (
	// quoted is a quoted word of an error text: "bgin", `app`.
	quoted = regexp.MustCompile("\"[^\"]*\"|`[^`]*`")
	// identifierish is a bare word that is an identifier: it holds a
	// digit, '_', '.', '/', '=', '-', '@' or an inner capital
	// (broker-3, __transaction_state/39, read_committed, InitProducerId,
	// PRODUCER_FENCED, transaction.timeout.ms).
	identifierish = regexp.MustCompile(`^[A-Za-z_][\w.\-/=@]*$`)
	innerCapital  = regexp.MustCompile(`^[A-Za-z][a-z0-9]*[A-Z]`)
	didYouMean    = regexp.MustCompile(`did you mean ("[^"]*"|` + "`[^`]*`" + `)\?`)
)

// errorIdentifiers lists the identifiers an English error text names, in
// order, each once.
func errorIdentifiers(msg string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, q := range quoted.FindAllString(msg, -1) {
		add(strings.Trim(q, "\"`"))
	}
	rest := quoted.ReplaceAllString(msg, " ")
	for _, w := range strings.Fields(rest) {
		w = strings.Trim(w, ",;:()[]?!")
		w = strings.TrimSuffix(w, ".")
		if !identifierish.MatchString(w) {
			continue
		}
		if strings.ContainsAny(w, "0123456789_./=@-") || innerCapital.MatchString(w) || (len(w) > 1 && strings.ToUpper(w) == w) {
			add(w)
		}
	}
	return out
}

// coreErrorIn is an error text of the core for a page in lang: itself in
// English; in Chinese, a Chinese sentence and the identifiers it names.
func coreErrorIn(lang, msg string) string {
	if doc.Lang(lang) != doc.Chinese {
		return msg
	}
	var b strings.Builder
	b.WriteString(tr(lang, "err.lead"))
	if ids := errorIdentifiers(msg); len(ids) > 0 {
		b.WriteString(fmt.Sprintf(tr(lang, "err.names"), strings.Join(ids, "、")))
	}
	if m := didYouMean.FindStringSubmatch(msg); m != nil {
		b.WriteString(fmt.Sprintf(tr(lang, "err.didyoumean"), strings.Trim(m[1], "\"`")))
	}
	return b.String()
}

// scriptErrorText is the editor's error line: kind is its format ("Line
// %d, column %d: %s" or the runtime one). On a Chinese page the
// identifiers are in monospace, as everywhere else.
func scriptErrorText(lang, kind string, se *ScriptError) []app.UI {
	if doc.Lang(lang) != doc.Chinese {
		return []app.UI{app.Text(fmt.Sprintf(tr(lang, kind), se.Line, se.Col, se.Msg))}
	}
	lead := tr(lang, "err.parse")
	if se.Runtime {
		lead = tr(lang, "err.runtime")
	}
	head := fmt.Sprintf(tr(lang, kind), se.Line, se.Col, lead)
	out := []app.UI{app.Text(head)}
	if ids := errorIdentifiers(se.Msg); len(ids) > 0 {
		out = append(out, app.Text(tr(lang, "err.names.lead")))
		for i, id := range ids {
			if i > 0 {
				out = append(out, app.Text("、"))
			}
			out = append(out, app.Code().Text(id))
		}
		out = append(out, app.Text("。"))
	}
	if m := didYouMean.FindStringSubmatch(se.Msg); m != nil {
		out = append(out, app.Text(tr(lang, "err.didyoumean.lead")), app.Code().Text(strings.Trim(m[1], "\"`")), app.Text("？"))
	}
	return out
}

// violationText is a checker's violation message for a page in lang. The
// checker writes English (the CLI's `txnlab check` prints it too); a
// Chinese page says what it is in Chinese, with the identifiers and
// values the message names in monospace. The invariant's own Chinese
// description is next to it (invariantsPanel).
func violationText(lang, msg string) app.UI {
	if doc.Lang(lang) != doc.Chinese {
		return app.Text(msg)
	}
	kids := []app.UI{app.Text(tr(lang, "err.violation"))}
	if ids := errorIdentifiers(msg); len(ids) > 0 {
		kids = append(kids, app.Text(tr(lang, "err.names.lead")))
		for i, id := range ids {
			if i > 0 {
				kids = append(kids, app.Text("、"))
			}
			kids = append(kids, app.Code().Text(id))
		}
		kids = append(kids, app.Text("。"))
	}
	return app.Span().Class("violation-text").Body(kids...)
}
