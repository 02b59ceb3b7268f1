//go:build !wasm

package server

import (
	"encoding/json"
	"net/http"
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
