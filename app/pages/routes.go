package pages

import (
	"slices"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/lesson"
	"txnlab/app/playground"
	"txnlab/app/site"
	"txnlab/lessons/doc"
)

// Register installs the route table. Both hosts call it: the wasm entry
// before app.RunWhenOnBrowser, and the server before it serves, because
// go-app pre-renders a page on the server with the same components.
func Register() { registerOnce() }

var registerOnce = sync.OnceFunc(func() {
	app.Route(site.PathHome, func() app.Composer { return newHomePage() })
	app.Route("/zh", func() app.Composer { return newHomePage() })
	app.Route("/zh/", func() app.Composer { return newHomePage() })
	for _, prefix := range []string{"", "/zh"} {
		app.Route(prefix+site.PathLessons, func() app.Composer { return lesson.NewLessonsPage() })
		app.Route(prefix+site.PathReview, func() app.Composer { return lesson.NewReviewPage() })
		app.RouteMatching(pathPrefix(prefix+site.PathLessons+"/"), func() app.Composer { return lesson.NewLessonPage() })
	}
	for _, prefix := range []string{"", "/zh"} {
		app.Route(prefix+site.PathPlayground, func() app.Composer { return playground.NewPlayground() })
		app.Route(prefix+site.PathScenarios, func() app.Composer { return &scenariosPage{} })
		app.Route(prefix+site.PathCompare, func() app.Composer { return playground.NewComparePage() })
	}
	// Last: every other address (exact routes are matched first, then
	// matchers in this order).
	app.RouteMatching(pathPrefix("/"), func() app.Composer { return newNotFoundPage() })
})

// Routed reports whether path is a page of the site, as opposed to one the
// not-found page answers; lesson pages are the server's to judge (it knows
// the course).
func Routed(path string) bool { return path == "/zh" || slices.Contains(Paths(), path) }

// pathPrefix matches the paths under a prefix (go-app's RouteMatching).
type pathPrefix string

// MatchString reports whether path is under the prefix ("/" matches
// every path).
func (p pathPrefix) MatchString(path string) bool {
	return len(path) >= len(p) && path[:len(p)] == string(p) && (len(path) > len(p) || p == "/")
}

// Paths lists every route but the lessons, for the static export and the
// offline cache; the server adds each lesson's page and data.
func Paths() []string {
	return []string{site.PathHome, "/zh/", site.PathLessons, "/zh" + site.PathLessons, site.PathReview, "/zh" + site.PathReview, site.PathPlayground, "/zh" + site.PathPlayground, site.PathScenarios, "/zh" + site.PathScenarios, site.PathCompare, "/zh" + site.PathCompare}
}

// LibraryLinks are the playground's address for every library scenario
// in both languages (/playground?scenario=…, /zh/playground?scenario=…):
// the service worker caches them too, so a
// library link works offline after one visit, as /playground does (its
// cache is keyed by the whole address, query included).
func LibraryLinks() []string {
	var out []string
	for _, sc := range playground.Library() {
		out = append(out, site.PlaygroundLink(sc.Slug), site.PlaygroundLinkIn(doc.Chinese, sc.Slug))
	}
	return out
}
