package site

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/lessons/doc"
)

// Lessons is the course as the server holds it, rendered from Markdown.
// The browser has no renderer (goldmark stays on the server): it reads a
// page's lesson from the page itself on the first load, and fetches
// LessonDataPath when it navigates to another lesson.
type Lessons interface {
	// Catalogue is every lesson in lang, in the course's order.
	Catalogue(lang doc.Lang) doc.Catalogue
	// Lesson is one lesson in lang.
	Lesson(lang doc.Lang, slug string) (*doc.Lesson, bool)
}

// serverLessons is set by the server before it serves (UseLessons); nil
// in the browser.
var serverLessons Lessons

// UseLessons gives the pages the course when they are pre-rendered on
// the server.
func UseLessons(l Lessons) { serverLessons = l }

// ServerLessons is the course UseLessons gave: the server's, while it
// pre-renders a page; nil in the browser, where a page reads its lesson
// from the page's data or fetches it.
func ServerLessons() Lessons { return serverLessons }

// LessonDataPath is where a lesson's data is served as JSON, for the
// browser's navigation between lessons and for the service worker's
// offline cache.
// The slug is escaped: one read from a damaged address ("/lessons/%25%25"
// gives "%%") must still make a path the server can parse.
func LessonDataPath(lang doc.Lang, slug string) string {
	return "/lesson-data/" + string(lang) + "/" + url.PathEscape(slug) + ".json"
}

// CatalogueDataPath is where a language's catalogue is served as JSON.
func CatalogueDataPath(lang doc.Lang) string {
	return "/lesson-data/" + string(lang) + "/index.json"
}

// pageDataID is the id of the element holding a pre-rendered page's
// data, which the browser reads before its first render so the page it
// draws is the one the server sent (no flash of a loading state).
const pageDataID = "page-data"

// PageData is what a lesson or catalogue page carries for the browser.
type PageData struct {
	Path      string        // the page's path, which the data is of
	Lesson    *doc.Lesson   `json:",omitempty"` // a lesson page's lesson
	Catalogue doc.Catalogue `json:",omitempty"` // the lessons page's list
}

// segmentAttr is the attribute that numbers a lesson's runs of text in
// the page (LessonText), for ReadPageData to find them.
const segmentAttr = "data-segment"

// LessonText is the lesson's segment i, a run of text (doc.Segment.IsText)
// whose HTML is html. go-app's Raw needs one root element; the number
// lets the browser read the text back from the page (ReadPageData), which
// then need not carry it twice.
func LessonText(i int, html string) app.UI {
	return app.Raw(`<div class="lesson-text" ` + segmentAttr + `="` + strconv.Itoa(i) + `">` + html + `</div>`)
}

// EmbedPageData renders d into the page, on the server only: the browser
// has already read it by the time it renders. A lesson's runs of text are
// left out: the page shows each (LessonText), and carrying them twice
// made lesson 03's page 326 kB rather than 302, its data 16 ms to decode
// rather than 10 (under Node).
func EmbedPageData(d PageData) app.UI {
	if !app.IsServer {
		return nil
	}
	if d.Lesson != nil {
		les := *d.Lesson
		les.Segments = slices.Clone(les.Segments)
		for i := range les.Segments {
			if les.Segments[i].IsText() {
				les.Segments[i].HTML = ""
			}
		}
		d.Lesson = &les
	}
	b, err := json.Marshal(d) // escapes <, > and &: no </script> can end it early
	if err != nil {
		return nil
	}
	return app.Raw(`<script type="application/json" id="` + pageDataID + `">` + string(b) + `</script>`)
}

// ReadPageData returns the data the server embedded for path, if this
// document was loaded at path.
func ReadPageData(path string) (PageData, bool) {
	var d PageData
	if !app.IsClient {
		return d, false
	}
	document := app.Window().Get("document")
	el := document.Call("getElementById", pageDataID)
	if !el.Truthy() {
		return d, false
	}
	if json.Unmarshal([]byte(el.Get("textContent").String()), &d) != nil || d.Path != path {
		return PageData{}, false
	}
	if d.Lesson != nil && !readLessonText(document, d.Lesson) {
		// A run of text is not in the page (something took it out
		// before the app started): the page fetches the lesson whole.
		return PageData{}, false
	}
	return d, true
}

// readLessonText puts back each run of text EmbedPageData left out of
// les, as the page shows it (LessonText); false if one is missing.
func readLessonText(document app.Value, les *doc.Lesson) bool {
	els := document.Call("querySelectorAll", "article.lesson .lesson-text["+segmentAttr+"]")
	shown := make(map[int]string, els.Length())
	for i := range els.Length() {
		el := els.Index(i)
		if n, err := strconv.Atoi(el.Call("getAttribute", segmentAttr).String()); err == nil {
			shown[n] = el.Get("innerHTML").String()
		}
	}
	for i := range les.Segments {
		s := &les.Segments[i]
		if !s.IsText() || s.HTML != "" {
			continue
		}
		html, ok := shown[i]
		if !ok {
			return false
		}
		s.HTML = html
	}
	return true
}

// FetchOutcome is how a fetchJSON ended: the learner is told "no such
// lesson" for an answer of 404 and "you may be offline" for the rest.
type FetchOutcome int

const (
	Fetched     FetchOutcome = iota // the value decoded
	fetchFailed                     // no answer (offline and not cached), another status, or bad JSON
	NotFound                        // the server answered 404: the address names nothing
)

// FetchJSON fetches url and decodes it into a value of T, then calls done
// on the UI goroutine with how it went.
func FetchJSON[T any](ctx app.Context, url string, done func(ctx app.Context, v T, how FetchOutcome)) {
	var onText, onFail app.Func
	release := func() { onText.Release(); onFail.Release() }
	status := 0
	fail := func() {
		how := fetchFailed
		if status == 404 {
			how = NotFound
		}
		ctx.Dispatch(func(ctx app.Context) {
			var zero T
			done(ctx, zero, how)
		})
	}
	onFail = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		fail()
		return nil
	})
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		release()
		var v T
		if len(args) == 0 || json.Unmarshal([]byte(args[0].String()), &v) != nil {
			fail()
			return nil
		}
		ctx.Dispatch(func(ctx app.Context) { done(ctx, v, Fetched) })
		return nil
	})
	var onResponse app.Func
	onResponse = app.FuncOf(func(this app.Value, args []app.Value) any {
		onResponse.Release()
		r := args[0]
		if !r.Get("ok").Bool() {
			status = r.Get("status").Int()
			return app.Window().Get("Promise").Call("reject", "status "+r.Get("status").String())
		}
		return r.Call("text")
	})
	app.Window().Call("fetch", url).Call("then", onResponse).Call("then", onText).Call("catch", onFail)
}

// LessonSlugOf is the slug in a lesson page's path, "" for none.
func LessonSlugOf(path string) string {
	path = strings.TrimPrefix(path, "/zh")
	slug, ok := strings.CutPrefix(path, PathLessons+"/")
	if !ok || slug == "" || strings.Contains(slug, "/") {
		return ""
	}
	return slug
}
