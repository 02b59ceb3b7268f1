//go:build !wasm

// Package server is `txnlab serve`: go-app's handler for the pages, the
// wasm precompressed, the web directory as plain files, and the usual
// hardening (security headers, timeouts, a body limit, graceful shutdown).
// It keeps no per-user state, which is what lets the same site be exported
// as static files.
//
// The build tag keeps it out of web/app.wasm: linking the server into the
// client doubles the download.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/pages"
	"txnlab/app/site"
	"txnlab/classroom"
	"txnlab/lessons/doc"
)

// Config is how the server runs. The zero value of each field means its
// default, so tests set only what they exercise.
type Config struct {
	// WebDir holds app.wasm, its .br/.gz sidecars, app.css and the icons.
	// Default "web".
	WebDir string

	// ReadHeaderTimeout bounds a client sending its headers (a slowloris
	// holds connections open by dribbling them). Default 5s.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request. Default 15s.
	ReadTimeout time.Duration
	// WriteTimeout bounds writing a response; it must cover the wasm on a
	// slow link (1.5 MB brotli at 1 Mbit/s is 12 s). Default 2m.
	WriteTimeout time.Duration
	// IdleTimeout bounds a kept-alive connection between requests.
	// Default 2m.
	IdleTimeout time.Duration
	// MaxBodyBytes is the largest request body accepted; the site takes no
	// uploads, so anything big is a mistake or an attack. Default 1 MiB.
	MaxBodyBytes int64
	// ShutdownTimeout is how long a shutdown waits for requests in flight
	// before cutting them. Default 10s.
	ShutdownTimeout time.Duration
	// MaxConns is the most connections open at once; one more is
	// answered 503 and closed (bounds.go). Default 1024: each costs a
	// goroutine and ~10 KB of buffers, and the site needs a handful per
	// visitor.
	MaxConns int

	// Log receives the server's warnings and errors. Default os.Stderr.
	Log io.Writer

	// Lessons is the course the lesson pages show. Default none: the
	// catalogue is then empty.
	Lessons site.Lessons

	// Live is the session the playground's Live mode follows (live.go):
	// the Kafka listener's, under txnlab serve --kafka. Default none.
	Live Live

	// Classes runs the live classes (class.go). Default nil: the class
	// API answers 404 (a static export has none either).
	Classes *classroom.Hub
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if c.WebDir == "" {
		c.WebDir = "web"
	}
	def(&c.ReadHeaderTimeout, 5*time.Second)
	def(&c.ReadTimeout, 15*time.Second)
	def(&c.WriteTimeout, 2*time.Minute)
	def(&c.IdleTimeout, 2*time.Minute)
	def(&c.ShutdownTimeout, 10*time.Second)
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 1 << 20
	}
	if c.MaxConns == 0 {
		c.MaxConns = 1024
	}
	if c.Log == nil {
		c.Log = os.Stderr
	}
	return c
}

// Server serves the site. Create it with New.
type Server struct {
	cfg     Config
	log     *log.Logger
	root    *os.Root // the web directory; nothing outside it can be opened
	wasm    *wasmAsset
	version string
	pages   *app.Handler
	lessons *lessonData
	cache   pageCache // each page rendered and gzipped once (bounds.go)
	live    *liveServer
	// stopping is closed when Serve shuts down: class streams end then.
	stopping chan struct{}
}

// New reads the web directory and prepares the handler. It fails when
// web/app.wasm is missing, because every page would then fail to start in
// the browser with a far less helpful message.
func New(cfg Config) (*Server, error) {
	cfg = cfg.withDefaults()
	s := &Server{cfg: cfg, log: log.New(cfg.Log, "txnlab: ", 0), live: &liveServer{live: cfg.Live}, stopping: make(chan struct{})}
	root, err := os.OpenRoot(cfg.WebDir)
	if err != nil {
		return nil, fmt.Errorf("web directory: %w", err)
	}
	s.root = root
	if s.wasm, err = loadWasm(root, s.log.Printf); err != nil {
		return nil, err
	}
	if s.version, err = siteVersion(root, s.wasm); err != nil {
		return nil, fmt.Errorf("hashing %s: %w", cfg.WebDir, err)
	}
	src := cfg.Lessons
	if src == nil {
		src = noLessons{}
	}
	if s.lessons, err = newLessonData(src); err != nil {
		return nil, err
	}
	site.UseLessons(src)
	pages.Register()
	s.pages = newPagesHandler(s.version, len(s.wasm.raw), s.lessons.cacheable())
	return s, nil
}

// Version is the site version the service worker caches under.
func (s *Server) Version() string { return s.version }

// WasmSizes reports the wasm's size in each coding the server holds, for
// the startup line and BENCHMARKS.md.
func (s *Server) WasmSizes() map[string]int {
	sizes := map[string]int{}
	for enc, b := range s.wasm.byEnc {
		sizes[enc] = len(b)
	}
	return sizes
}

// Close releases the web directory.
func (s *Server) Close() error { return s.root.Close() }

// newPagesHandler configures go-app. Version and WasmContentLength come
// from the wasm actually served: the first keeps the service worker from
// serving a stale wasm, the second makes the loading bar count the
// decompressed bytes it receives against the decompressed size (go-app's
// loader otherwise divides by Content-Length, the compressed size, and
// shows ~400 %).
func newPagesHandler(version string, wasmLen int, lessons []string) *app.Handler {
	return &app.Handler{
		Name:        "txnlab",
		ShortName:   "txnlab",
		Title:       "txnlab — Kafka transactions, step by step",
		Description: pages.Description,
		Lang:        "en",
		Keywords:    []string{"Kafka", "transactions", "exactly-once", "simulation", "playground"},
		Icon: app.Icon{
			Default:  "/web/icon-192.png",
			Large:    "/web/icon-512.png",
			Maskable: "/web/icon-512.png",
			SVG:      "/web/icon.svg",
		},
		BackgroundColor: "#14181f",
		ThemeColor:      "#14181f",
		// In no language: a page's language is not known to go-app's
		// loader script, which writes the label as the wasm arrives.
		LoadingLabel: "{progress}%",
		// One stylesheet, go-app's loader styles in it: a cold load's
		// first paint waits for every stylesheet in the head.
		Styles:          []string{"/web/app.css"},
		NoDefaultStyles: true,
		// go-app's service worker caches "/" and the assets; caching every
		// route and the favicon too is what makes the site work offline.
		CacheableResources: slices.Concat(pages.Paths(), []string{"/web/icon.svg", site.EngineWorkerPath}, pages.LibraryLinks(), lessons),
		Version:            version,
		WasmContentLength:  strconv.Itoa(wasmLen),
		Resources:          webResolver{},
		// The wasm is fetched by go-app's loader, a deferred script that
		// runs only once the whole page is parsed (~0.3 s into a load);
		// the preload starts the download with the head. crossorigin
		// (anonymous) matches the loader's fetch(), so the browser hands
		// it the preloaded response rather than downloading it again.
		RawHeaders: []string{`<link rel="preload" href="/web/` + wasmName + `" as="fetch" type="application/wasm" crossorigin="anonymous" fetchpriority="high">`, engineStartTag, earlyStepsTag},

		// The class API goes past the service worker (class.go).
		ServiceWorkerTemplate: classWorker(app.DefaultAppWorkerJS),
	}
}

// noLessons is an empty course.
type noLessons struct{}

func (noLessons) Catalogue(doc.Lang) doc.Catalogue            { return nil }
func (noLessons) Lesson(doc.Lang, string) (*doc.Lesson, bool) { return nil, false }

// webResolver resolves /web/ paths as go-app's LocalDir("") does, but is
// not an http.Handler: go-app then never serves files itself, and every
// file goes through serveFile, which cannot leave the web directory.
type webResolver struct{}

// Resolve maps a resource path to the URL the page uses.
func (webResolver) Resolve(loc string) string {
	switch {
	case loc == "" || loc == "/":
		return "/"
	case strings.HasPrefix(loc, "http://") || strings.HasPrefix(loc, "https://"):
		return loc
	case loc == "web" || loc == "/web" || strings.HasPrefix(loc, "web/") || strings.HasPrefix(loc, "/web/"):
		return "/" + strings.Trim(loc, "/")
	}
	return loc
}

// ServeHTTP routes a request. The checks run before any routing so no
// handler ever sees an oversized body, an unexpected method or a path
// that tries to climb out.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	tidy := &tidyWriter{ResponseWriter: rw, head: r.Method == http.MethodHead}
	defer tidy.finish()
	var w http.ResponseWriter = tidy
	setSecurityHeaders(w.Header())
	if strings.HasPrefix(r.URL.Path, classPrefix) {
		s.serveClass(w, r) // bounds its own bodies, takes POSTs
		return
	}
	// Live mode reads its own bodies (one statement, bounded there):
	// limitBody drains a body to measure it.
	if s.live.serve(w, r) {
		return
	}
	if !s.limitBody(w, r) {
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		refuse(w, r, http.StatusMethodNotAllowed, refuseMethod)
		return
	}
	if reason := badPath(r.URL.Path); reason != "" {
		refuseBadPath(w, r, reason)
		return
	}
	if s.serveCachedPage(w, r) {
		return
	}
	switch p := r.URL.Path; {
	case p == "/healthz":
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	case p == "/web/"+wasmName:
		s.wasm.ServeHTTP(w, r)
	case strings.HasPrefix(p, "/web/"):
		s.serveFile(w, r, strings.TrimPrefix(p, "/web/"))
	case strings.HasPrefix(p, "/lesson-data/"):
		withGzip(w, r, func(w http.ResponseWriter) { s.lessons.serve(w, r) })
	case p == "/robots.txt" || p == "/sitemap.xml" || p == "/ads.txt":
		// go-app would fetch these from http://<Host header>/web/...,
		// an outgoing request steered by the client whose answer it then
		// caches for everyone. Serve them from the web directory instead.
		s.serveFile(w, r, p[1:])
	case s.isPage(p):
		withGzip(w, r, func(w http.ResponseWriter) { s.pages.ServeHTTP(w, r) })
	case len(p) > 1 && strings.HasSuffix(p, "/") && s.isPage(strings.TrimRight(p, "/")):
		// "/playground/" is how many people type an address: lead them
		// to the page (the query kept, a share link's script with it)
		// rather than to "not found". The target is one of our own
		// routes, never a host.
		redirectKeepingQuery(w, r, strings.TrimRight(p, "/"))
	default:
		if to := s.lessons.byNumber(p); to != "" {
			redirectKeepingQuery(w, r, to) // "/lessons/3": the lesson numbered so
			return
		}
		// go-app's own files (app.js, the worker, the manifest, …) or
		// the not-found page, in the address's language, with a way back.
		withGzip(w, r, func(w http.ResponseWriter) {
			s.pages.ServeHTTP(&statusWriter{ResponseWriter: w, status: http.StatusNotFound}, r)
		})
	}
}

// redirectKeepingQuery answers 301 to our own path to, with the request's
// query (a share link's script, a scenario) kept.
func redirectKeepingQuery(w http.ResponseWriter, r *http.Request, to string) {
	if r.URL.RawQuery != "" {
		to += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, to, http.StatusMovedPermanently)
}

// isPage reports whether p is one of the site's pages (a lesson among
// them), answered 200.
func (s *Server) isPage(p string) bool {
	if pages.Routed(p) {
		return true // the review among them, under the lessons' prefix
	}
	return isLessonPage(p) && s.lessons.knownPage(p)
}

// limitBody answers 413 to a body over the limit, declared or streamed, and
// reports whether the request may go on.
func (s *Server) limitBody(w http.ResponseWriter, r *http.Request) bool {
	tooBig := func() bool {
		w.Header().Set("Connection", "close")
		refuse(w, r, http.StatusRequestEntityTooLarge, refuseBodyFmt, s.cfg.MaxBodyBytes)
		return false
	}
	if r.ContentLength > s.cfg.MaxBodyBytes {
		return tooBig()
	}
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	// A chunked body declares no length: read it (bounded) to find out.
	_, err := io.Copy(io.Discard, http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) {
		return tooBig()
	}
	return true
}

// badPath explains why a path is refused, or returns "". Go's ServeMux
// would clean ".." away with a redirect; this server refuses it outright,
// so no later code has to be right about it.
func badPath(p string) string {
	switch {
	case !strings.HasPrefix(p, "/"):
		return "must start with /"
	case strings.ContainsAny(p, "\\\x00"):
		return "backslashes and NUL bytes are not allowed"
	}
	for seg := range strings.SplitSeq(p, "/") {
		if seg == ".." {
			return `".." segments are not allowed`
		}
	}
	return ""
}

// serveFile serves one regular file of the web directory. os.Root refuses
// any name that resolves outside it, symlinks included.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	if name == "" || strings.HasSuffix(name, "/") {
		http.Error(w, "404 not found: directory listings are disabled", http.StatusNotFound)
		return
	}
	f, err := s.root.Open(name)
	if err != nil {
		http.Error(w, "404 not found", http.StatusNotFound)
		return
	}
	defer f.Close()
	fi, err := f.Stat()
	switch {
	case err != nil:
		http.Error(w, "404 not found", http.StatusNotFound)
	case fi.IsDir():
		http.Error(w, "404 not found: directory listings are disabled", http.StatusNotFound)
	case !fi.Mode().IsRegular():
		http.Error(w, "404 not found", http.StatusNotFound)
	default:
		// no-cache revalidates on every use (cheap: 304 on Last-Modified);
		// the service worker is what makes repeat visits fast and offline.
		w.Header().Set("Cache-Control", "no-cache")
		// Text goes out gzipped (the style sheet, which every page waits
		// for before its first paint, is 58 kB raw, 14 kB gzipped);
		// gzipWriter passes a 206 or a 304 through as it is.
		withGzip(w, r, func(w http.ResponseWriter) { http.ServeContent(w, r, fi.Name(), fi.ModTime(), f) })
	}
}

// contentSecurityPolicy allows what go-app needs and nothing else:
// scripts only from this origin ('wasm-unsafe-eval' lets them compile
// WebAssembly; 'unsafe-eval' is not needed — no string becomes code),
// no inline script but the one that starts the engine's worker, allowed
// by its hash (engine_start.go), no inline style (go-app emits none
// unless a component uses .Style(), which this UI avoids for that
// reason), the service worker and the manifest from this origin, and no
// framing.
var contentSecurityPolicy = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval' " + engineStartHash + " " + earlyStepsHash + "; " +
	"style-src 'self'; " +
	"img-src 'self' data:; " +
	"font-src 'self'; " +
	"connect-src 'self'; " +
	"worker-src 'self'; " +
	"manifest-src 'self'; " +
	"object-src 'none'; " +
	"base-uri 'none'; " +
	"form-action 'self'; " +
	"frame-ancestors 'none'"

func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(), usb=()")
}

// Serve serves on ln until ctx ends, then shuts down gracefully: it stops
// accepting, lets requests in flight finish (up to ShutdownTimeout), and
// returns nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.WriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          s.log,
	}
	srv.RegisterOnShutdown(sync.OnceFunc(func() { close(s.stopping) }))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(newCapListener(ln, s.cfg.MaxConns)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		srv.Close()
		return fmt.Errorf("shutdown cut requests still running after %v: %w", s.cfg.ShutdownTimeout, err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
