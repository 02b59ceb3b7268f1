package site

import (
	"net/url"
	"strings"

	"txnlab/app/uitext"
	"txnlab/lessons/doc"
)

// Paths of the pages, shared by the route table, the links and the tests.
const (
	PathHome       = "/"
	PathPlayground = "/playground"
	PathScenarios  = "/scenarios"
)

// EngineWorkerPath is the engine worker's script (web/engine-worker.js),
// which starts the page's own app.wasm in the engine's role: the page's
// Go starts it (remote_engine.go), so does the head's script on a page
// with a playground (app/server), and the service worker caches it.
const EngineWorkerPath = "/web/engine-worker.js"

// PathLessons is the lesson catalogue; a lesson is PathLessons/SLUG. In
// Chinese both are under /zh.
const PathLessons = "/lessons"

// PathReview is the review: a round of questions drawn from every
// lesson. In Chinese it is under /zh.
const PathReview = PathLessons + "/review"

// PathCompare is the compare page's path.
const PathCompare = "/compare"

// LessonPath is a lesson's address in lang.
func LessonPath(lang doc.Lang, slug string) string {
	return uitext.InLang(lang, PathLessons+"/"+slug)
}

// PlaygroundLink opens a library scenario in the playground. A query
// parameter rather than a path keeps one playground route, which the static
// export needs (one HTML file per route). The slash of "broken/…" stays
// readable: it is legal in a query.
func PlaygroundLink(slug string) string { return PlaygroundLinkIn(doc.English, slug) }

// PlaygroundLinkIn is playgroundLink on the playground in lang.
func PlaygroundLinkIn[L ~string](lang L, slug string) string {
	return uitext.InLang(doc.Lang(lang), PathPlayground) + "?scenario=" + strings.ReplaceAll(url.QueryEscape(slug), "%2F", "/")
}
