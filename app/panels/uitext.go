package panels

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/uitext"
	"txnlab/core/sim"
)

// app/uitext's functions by the short names the panels' files use.

func tr[L ~string](lang L, key string) string { return uitext.Tr(lang, key) }

func labelledBy[L ~string](lang L, name, id string) string { return uitext.LabelledBy(lang, name, id) }

func violationText(lang, msg string) app.UI { return uitext.ViolationText(lang, msg) }

func errorIdentifiers(msg string) []string { return uitext.ErrorIdentifiers(msg) }

func eventText(l string, e *sim.Event) string { return uitext.EventText(l, e) }
