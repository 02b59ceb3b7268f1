//go:build !wasm

package server

import (
	"compress/gzip"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"txnlab/lessons"
	"txnlab/lessons/doc"
)

func newLessonServer(t *testing.T) *Server {
	t.Helper()
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), Lessons: course})
	return s
}

// A lesson is readable without the wasm: its text is in the server's
// HTML, in the right language, with <html lang> set by the server.
func TestLessonTextIsServerRendered(t *testing.T) {
	s := newLessonServer(t)
	for _, tc := range []struct {
		path, lang string
		want       []string
	}{
		{"/lessons/03-transaction-protocols", `lang="en"`, []string{
			"<h1>The transaction protocols</h1>", "InitProducerId", `data-scenario="end-txn"`, `data-question="q-markers-fail"`,
			`aria-label="Language"`}},
		{"/zh/lessons/03-transaction-protocols", `lang="zh-CN"`, []string{
			"<h1>事务协议</h1>", "事务协调器", `data-scenario="end-txn"`, `data-question="q-markers-fail"`,
			`aria-label="语言"`, `href="/lessons/03-transaction-protocols"`}},
		{"/lessons", `lang="en"`, []string{"The transaction protocols", `data-lesson="03-transaction-protocols"`}},
		{"/zh/lessons", `lang="zh-CN"`, []string{"事务协议", `href="/zh/lessons/03-transaction-protocols"`}},
		{"/zh/", `lang="zh-CN"`, []string{"开始学习课程", `href="/zh/lessons"`}},
		{"/", `lang="en"`, []string{"Start the lessons", `href="/lessons"`}},
	} {
		rec := get(t, s, tc.path)
		b := rec.Body.String()
		if rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", tc.path, rec.Code)
		}
		if !strings.Contains(b, "<html "+tc.lang) && !strings.Contains(b, tc.lang) {
			t.Errorf("GET %s: no %s", tc.path, tc.lang)
		}
		for _, w := range tc.want {
			if !strings.Contains(b, w) {
				t.Errorf("GET %s: the page lacks %q", tc.path, w)
			}
		}
	}
}

func TestLessonDataAndUnknownLessons(t *testing.T) {
	s := newLessonServer(t)
	rec := get(t, s, "/lesson-data/zh/03-transaction-protocols.json")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		t.Fatalf("lesson data: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	var d struct {
		Lesson    *doc.Lesson
		Catalogue doc.Catalogue
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil || d.Lesson == nil || d.Lesson.Title != "事务协议" || len(d.Catalogue) == 0 {
		t.Fatalf("lesson data: %v %+v", err, d.Lesson)
	}
	// The browser decides a question from its run: the lesson's marks
	// never reach it, neither in the data nor in the page.
	for _, p := range []string{"/lesson-data/zh/03-transaction-protocols.json", "/zh/lessons/03-transaction-protocols"} {
		if b := get(t, s, p).Body.String(); strings.Contains(b, `"Right"`) {
			t.Errorf("%s carries the questions' answers", p)
		}
	}
	for _, p := range []string{"/lesson-data/en/nope.json", "/lesson-data/fr/03-transaction-protocols.json"} {
		if rec := get(t, s, p); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
	}
	// An unknown lesson is a page with a way back, answered 404.
	for _, p := range []string{"/lessons/99-nope", "/zh/lessons/99-nope"} {
		rec := get(t, s, p)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), `href="`+strings.TrimSuffix(p, "/99-nope")+`"`) {
			t.Errorf("GET %s: %d, want 404 with a link to the catalogue", p, rec.Code)
		}
	}
	// Every lesson page and its data are cached for offline use.
	worker := get(t, s, "/app-worker.js").Body.String()
	for _, p := range []string{"/zh/lessons/03-transaction-protocols", "/lesson-data/zh/03-transaction-protocols.json", "/lesson-data/en/index.json"} {
		if !strings.Contains(worker, `"`+p+`"`) {
			t.Errorf("the service worker does not cache %s", p)
		}
	}
}

var (
	hrefAttr = regexp.MustCompile(`href="([^"]*)"`)
	idAttr   = regexp.MustCompile(`id="([^"]*)"`)
)

// Every link on every lesson page (the text's, the pager's, the language
// control's) leads somewhere: a page the server answers 200 for, or an
// anchor of the same page. External links are not followed here.
func TestEveryLessonLinkResolves(t *testing.T) {
	s := newLessonServer(t)
	course, _ := lessons.Embedded()
	checked := 0
	for _, lang := range doc.Langs {
		pages := []string{lang.Prefix() + "/lessons"}
		for _, m := range course.Catalogue(lang) {
			pages = append(pages, lang.Prefix()+"/lessons/"+m.Slug)
		}
		for _, page := range pages {
			body := get(t, s, page).Body.String()
			if i := strings.Index(body, "<body"); i >= 0 {
				body = body[i:] // the head's links are assets, checked by the asset tests
			}
			ids := map[string]bool{}
			for _, m := range idAttr.FindAllStringSubmatch(body, -1) {
				ids[m[1]] = true
			}
			for _, m := range hrefAttr.FindAllStringSubmatch(body, -1) {
				href := html.UnescapeString(m[1])
				switch {
				case strings.HasPrefix(href, "http://"), strings.HasPrefix(href, "https://"), strings.HasPrefix(href, "mailto:"):
					continue
				case strings.HasPrefix(href, "#step:"):
					// A step link: its playground is on the page (the
					// loader checks the line).
					id, _, _ := strings.Cut(strings.TrimPrefix(href, "#step:"), ":")
					if !strings.Contains(body, `data-scenario="`+id+`"`) {
						t.Errorf("%s: step link %s names no playground of the page", page, href)
					}
				case strings.HasPrefix(href, "#"):
					if !ids[href[1:]] {
						t.Errorf("%s: link %s names no element of the page", page, href)
					}
				case strings.HasPrefix(href, "/"):
					path, frag, _ := strings.Cut(href, "#")
					path, _, _ = strings.Cut(path, "?")
					rec := get(t, s, path)
					if rec.Code != http.StatusOK {
						t.Errorf("%s: link %s answers %d", page, href, rec.Code)
					} else if frag != "" && !strings.HasPrefix(frag, "s=") && !strings.Contains(rec.Body.String(), `id="`+frag+`"`) {
						// A section of another page: its heading must have that id.
						t.Errorf("%s: link %s names no element of %s", page, href, path)
					}
				default:
					t.Errorf("%s: link %q is relative: it breaks under /zh/", page, href)
				}
				checked++
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d links checked: the pattern no longer finds them", checked)
	}
}

// The static export holds every lesson page, pre-rendered with its text,
// and the data the browser fetches when it moves between lessons.
func TestWriteStaticWritesTheLessons(t *testing.T) {
	s := newLessonServer(t)
	out := t.TempDir()
	must(t, s.WriteStatic(out))
	for name, want := range map[string]string{
		"lessons/03-transaction-protocols/index.html":    "InitProducerId",
		"zh/lessons/03-transaction-protocols/index.html": "事务协调器",
		"zh/lessons/index.html":                          "事务协议",
		"lesson-data/zh/03-transaction-protocols.json":   `"Title":"事务协议"`,
		"lesson-data/en/index.json":                      "03-transaction-protocols",
	} {
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("the export lacks %s", name)
			continue
		}
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %q", name, want)
		}
	}
}

// An address with no page is a page all the same, in its language, with
// the way back, answered 404; go-app's own files are not caught by it.
func TestUnknownAddressesGetAPageWithAWayBack(t *testing.T) {
	s := newLessonServer(t)
	for path, want := range map[string]string{
		"/nope":         `href="/lessons"`,
		"/zh/nope/deep": "找不到这个页面",
		"/playground/x": "Page not found",
		"/scenarios/x/": "Page not found",
	} {
		rec := get(t, s, path)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET %s: %d, want 404 with %q", path, rec.Code, want)
		}
	}
	for _, path := range []string{"/app.js", "/app-worker.js", "/manifest.webmanifest", "/wasm_exec.js", "/app.css", "/", "/zh/", "/playground", "/scenarios", "/lessons"} {
		if rec := get(t, s, path); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", path, rec.Code)
		}
	}
}

// Pages, lesson data and go-app's scripts go out gzipped to a browser
// that accepts it, and decompress to what an identity request gets.
func TestTextIsGzipped(t *testing.T) {
	s := newLessonServer(t)
	for _, path := range []string{"/zh/lessons/03-transaction-protocols", "/lesson-data/en/03-transaction-protocols.json", "/app.js", "/nope"} {
		plain := get(t, s, path)
		zipped := get(t, s, path, "Accept-Encoding: gzip, deflate, br")
		if zipped.Header().Get("Content-Encoding") != "gzip" || zipped.Code != plain.Code {
			t.Errorf("%s: %d %q, want gzip and %d", path, zipped.Code, zipped.Header().Get("Content-Encoding"), plain.Code)
			continue
		}
		n := zipped.Body.Len()
		r, err := gzip.NewReader(zipped.Body)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(r)
		// Same length, not same bytes: go-app writes a tag's attributes
		// in no fixed order.
		if err != nil || len(body) != plain.Body.Len() || n >= len(body) {
			t.Errorf("%s: %d bytes gzipped to %d, plain %d (%v)", path, len(body), n, plain.Body.Len(), err)
		}
		t.Logf("%s: %d bytes, %d gzipped", path, len(body), n)
	}
	if rec := get(t, s, "/web/app.wasm", "Accept-Encoding: gzip"); rec.Header().Get("Content-Encoding") != "gzip" {
		t.Errorf("the wasm lost its own coding: %q", rec.Header().Get("Content-Encoding"))
	}
}

// The review lives under the lessons' prefix but is no lesson: it is a
// page in both languages, cached for offline use like the lessons.
func TestTheReviewIsAPage(t *testing.T) {
	s := newLessonServer(t)
	worker := get(t, s, "/app-worker.js").Body.String()
	for _, p := range []string{"/lessons/review", "/zh/lessons/review"} {
		if rec := get(t, s, p); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "<h1") {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
		if !strings.Contains(worker, `"`+p+`"`) {
			t.Errorf("the service worker does not cache %s", p)
		}
	}
	if body := get(t, s, "/zh/lessons/review").Body.String(); !strings.Contains(body, "复习") {
		t.Error("the Chinese review is not in Chinese")
	}
}

// TestTheReviewSaysItsRoundComes: the review's round is drawn from the
// progress in the learner's browser, which the server never sees; the
// server's page said nothing where the round would be. It now says the
// round is being drawn, in the page's language.
func TestTheReviewSaysItsRoundComes(t *testing.T) {
	s := newLessonServer(t)
	for path, want := range map[string]string{
		"/lessons/review":    "Drawing your round from your progress in this browser",
		"/zh/lessons/review": "正在根据你在这个浏览器里的学习进度抽题",
	} {
		rec := get(t, s, path)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d, without %q", path, rec.Code, want)
		}
	}
}

// A lesson page carries each run of the lesson's text once: in the page,
// numbered for the browser to read back, and not again in the page data
// (which keeps every other segment whole: the answers' folded parts, the
// blocks mounted in place).
func TestLessonPageCarriesItsTextOnce(t *testing.T) {
	s := newLessonServer(t)
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []doc.Lang{doc.English, doc.Chinese} {
		les, ok := course.Lesson(lang, "03-transaction-protocols")
		if !ok {
			t.Fatalf("no lesson 03 in %s", lang)
		}
		path := "/lessons/03-transaction-protocols"
		if lang == doc.Chinese {
			path = "/zh" + path
		}
		page := get(t, s, path).Body.String()
		m := regexp.MustCompile(`(?s)<script type="application/json" id="page-data">(.*?)</script>`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("GET %s: no page data", path)
		}
		var data struct{ Lesson *doc.Lesson }
		if err := json.Unmarshal([]byte(m[1]), &data); err != nil || data.Lesson == nil {
			t.Fatalf("GET %s: the page data does not decode to a lesson: %v", path, err)
		}
		if len(data.Lesson.Segments) != len(les.Segments) {
			t.Fatalf("GET %s: %d segments in the page data, the lesson has %d", path, len(data.Lesson.Segments), len(les.Segments))
		}
		texts, afters := 0, 0
		for i, seg := range les.Segments {
			got := data.Lesson.Segments[i]
			switch {
			case seg.IsText():
				texts++
				if got.HTML != "" {
					t.Errorf("GET %s: segment %d's text is in the page data again", path, i)
				}
				if div := `<div class="lesson-text" data-segment="` + strconv.Itoa(i) + `">` + seg.HTML + `</div>`; !strings.Contains(page, div) {
					t.Errorf("GET %s: segment %d's text is not in the page as %.80q…", path, i, div)
				}
			case got != seg:
				t.Errorf("GET %s: segment %d in the page data is %+v, want %+v", path, i, got, seg)
			case seg.After != "":
				afters++
			}
		}
		if texts == 0 || afters == 0 {
			t.Errorf("GET %s: %d runs of text and %d folded answers: the test checks neither kind", path, texts, afters)
		}
	}
}
