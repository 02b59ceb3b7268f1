//go:build !wasm

package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"txnlab/app/site"
	"txnlab/lessons/doc"
)

// lessonData holds the JSON the browser fetches for lesson pages,
// encoded once at start-up: the course is fixed for the server's life.
type lessonData struct {
	src   site.Lessons
	files map[string][]byte // by path (site.LessonDataPath, CatalogueDataPath)
	pages []string          // every lesson page's path, both languages
}

func newLessonData(src site.Lessons) (*lessonData, error) {
	d := &lessonData{src: src, files: map[string][]byte{}}
	put := func(path string, v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encoding %s: %w", path, err)
		}
		d.files[path] = b
		return nil
	}
	for _, lang := range doc.Langs {
		cat := src.Catalogue(lang)
		if err := put(site.CatalogueDataPath(lang), cat); err != nil {
			return nil, err
		}
		for _, m := range cat {
			l, ok := src.Lesson(lang, m.Slug)
			if !ok {
				return nil, fmt.Errorf("the catalogue lists %s but it does not load", m.Slug)
			}
			path := site.LessonDataPath(lang, m.Slug)
			if err := put(path, struct {
				Lesson    *doc.Lesson
				Catalogue doc.Catalogue
			}{l, cat}); err != nil {
				return nil, err
			}
			d.pages = append(d.pages, lang.Prefix()+site.PathLessons+"/"+m.Slug)
		}
	}
	return d, nil
}

// cacheable lists what the service worker must cache for every lesson to
// work offline after a first visit: each page and its data.
func (d *lessonData) cacheable() []string {
	out := append([]string(nil), d.pages...)
	for path := range d.files {
		out = append(out, path)
	}
	return out
}

// serve answers /lesson-data/ paths.
func (d *lessonData) serve(w http.ResponseWriter, r *http.Request) {
	b, ok := d.files[r.URL.Path]
	if !ok {
		http.Error(w, "404 not found: no lesson data at this path", http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(b)
}

// knownPage reports whether a /lessons/… or /zh/lessons/… path names a
// lesson; the page of an unknown one is still rendered (with a way back)
// but answered 404.
func (d *lessonData) knownPage(path string) bool {
	for _, p := range d.pages {
		if p == path {
			return true
		}
	}
	return false
}

// byNumber is the page of the lesson whose number is path's last
// segment ("/zh/lessons/3", "/lessons/03"), as a learner types a lesson
// they know by its number; "" if path is not such an address or no
// lesson has that number. The answer is one of the course's own pages.
func (d *lessonData) byNumber(path string) string {
	cut := strings.LastIndexByte(path, '/') + 1
	dir, num := path[:cut], path[cut:]
	if dir != site.PathLessons+"/" && dir != "/zh"+site.PathLessons+"/" || len(num) == 0 || len(num) > 2 {
		return ""
	}
	for _, c := range num {
		if c < '0' || c > '9' {
			return ""
		}
	}
	if len(num) == 1 {
		num = "0" + num
	}
	for _, p := range d.pages {
		if strings.HasPrefix(p, dir+num+"-") {
			return p
		}
	}
	return ""
}

// isLessonPage tells whether path is under a lesson prefix.
func isLessonPage(path string) bool {
	return strings.HasPrefix(path, site.PathLessons+"/") || strings.HasPrefix(path, "/zh"+site.PathLessons+"/")
}

// writeStatic writes the lesson data files under dir.
func (d *lessonData) writeStatic(dir string) error {
	for path, b := range d.files {
		out := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(path, "/")))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// statusWriter gives a page go-app renders a status of its own choosing
// (go-app renders every routed page with 200), and leaves everything else
// go-app serves (its scripts, the worker, the manifest: not text/html) as
// it is.
type statusWriter struct {
	http.ResponseWriter
	status  int
	written bool
}

func (w *statusWriter) WriteHeader(code int) {
	if w.written {
		return
	}
	w.written = true
	if code == http.StatusOK && strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		code = w.status
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.ResponseWriter.Write(b)
}
