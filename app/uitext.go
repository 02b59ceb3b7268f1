package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/uitext"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/lessons/doc"
)

// The UI's text lives in app/uitext, the one catalogue every page reads;
// these are its functions by the short names this package's files have
// always used, so a page names the catalogue by tr and not by its path.

func tr[L ~string](lang L, key string) string { return uitext.Tr(lang, key) }

func langOf(path string) doc.Lang { return uitext.LangOf(path) }

func inLang(lang doc.Lang, path string) string { return uitext.InLang(lang, path) }

func localName[L ~string](lang L, name, id string) (string, app.UI) {
	return uitext.LocalName(lang, name, id)
}

func labelledBy[L ~string](lang L, name, id string) string { return uitext.LabelledBy(lang, name, id) }

func noteIn(l string, n *sim.Note) string { return uitext.NoteIn(l, n) }

func eventText(l string, e *sim.Event) string { return uitext.EventText(l, e) }

func diagramWords(l string) *diagram.Words { return uitext.DiagramWords(l) }

func errorIdentifiers(msg string) []string { return uitext.ErrorIdentifiers(msg) }

func coreErrorIn(lang, msg string) string { return uitext.CoreErrorIn(lang, msg) }

func scriptErrorText(lang, kind string, se *ScriptError) []app.UI {
	return uitext.ScriptErrorText(lang, kind, se)
}

func violationText(lang, msg string) app.UI { return uitext.ViolationText(lang, msg) }

func didYouMean(msg string) (string, bool) { return uitext.DidYouMean(msg) }

// metricMeansZh is uitext.MetricMeansZh: the metrics' meanings in Chinese.
var metricMeansZh = uitext.MetricMeansZh
