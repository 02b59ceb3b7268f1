//go:build !wasm

package server

// What keeps the server's cost per visitor bounded and its answers
// well-formed: a cap on open connections (a clear 503 past it), each
// page rendered and gzipped once rather than per request, and a type and
// a body on every answer (an error with no body, an HTML page with no
// charset).

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ---- connections --------------------------------------------------------

// busyBody is what a connection past the cap reads.
const busyBody = "503 service unavailable: too many connections at once; try again in a moment\n"

// maxRefusing bounds the connections being answered 503 at once: past it
// an extra connection is closed without a word, so a flood costs at most
// this many goroutines beyond the cap.
const maxRefusing = 64

// capListener accepts at most max connections open at once. One past the
// cap is answered 503 (after reading its request head, so the client sees
// the answer rather than a reset) and closed, on its own goroutine with a
// deadline, so a slow client cannot hold the accept loop.
type capListener struct {
	net.Listener
	max      int64
	open     atomic.Int64
	refusing atomic.Int64
	refused  atomic.Int64 // connections answered 503, for tests and logs
}

func newCapListener(ln net.Listener, max int) *capListener {
	return &capListener{Listener: ln, max: int64(max)}
}

// Accept returns the next connection within the cap, answering those
// past it.
func (l *capListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.open.Add(1) <= l.max {
			return &cappedConn{Conn: c, l: l}, nil
		}
		l.open.Add(-1)
		if l.refusing.Add(1) > maxRefusing {
			l.refusing.Add(-1)
			c.Close()
			continue
		}
		go l.refuse(c)
	}
}

// refuse answers one connection 503 and closes it.
func (l *capListener) refuse(c net.Conn) {
	defer l.refusing.Add(-1)
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	// Read the request head (bounded) so that closing does not reset the
	// connection under an answer the client has not read yet.
	if req, err := http.ReadRequest(bufio.NewReaderSize(&limitedConn{c, 16 << 10}, 4096)); err == nil {
		req.Body.Close()
	}
	head := "HTTP/1.1 503 Service Unavailable\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\n" +
		"Content-Length: " + strconv.Itoa(len(busyBody)) + "\r\n" +
		"Retry-After: 1\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
	c.Write([]byte(head + busyBody))
	l.refused.Add(1)
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
}

// limitedConn reads at most n bytes of a connection.
type limitedConn struct {
	c net.Conn
	n int
}

func (r *limitedConn) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, net.ErrClosed
	}
	if len(p) > r.n {
		p = p[:r.n]
	}
	n, err := r.c.Read(p)
	r.n -= n
	return n, err
}

// cappedConn gives its place back when closed (once: http.Server may
// close a connection more than once), and answers in the reader's
// language what net/http refuses by itself (translateGoRefusal).
type cappedConn struct {
	net.Conn
	l      *capListener
	once   sync.Once
	target string // the address of the last request line read
}

func (c *cappedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if t := requestTarget(p[:n]); t != "" {
		c.target = t
	}
	return n, err
}

func (c *cappedConn) Write(p []byte) (int, error) {
	if own := translateGoRefusal(p, c.target); own != nil {
		if _, err := c.Conn.Write(own); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return c.Conn.Write(p)
}

func (c *cappedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.l.open.Add(-1) })
	return err
}

// ---- pages ---------------------------------------------------------------

// cachedPage is one page as rendered and gzipped once: a page depends on
// its path alone (the course and the site version are fixed for the
// server's life), so the 200 KB lesson page is not compressed again for
// every visitor.
type cachedPage struct {
	once   sync.Once
	ok     bool // a 200 was rendered; anything else is served live
	header http.Header
	gz     []byte
}

// pageCache holds the pages by path; its keys are the site's own page
// paths (isPage), a fixed set, so it cannot grow with requests.
type pageCache struct {
	mu    sync.Mutex
	pages map[string]*cachedPage
}

// serveCachedPage answers a GET of a page with no query from the cache
// when the client takes gzip, and reports whether it did. A query (a
// share link's script), HEAD, or a client without gzip goes the usual
// way.
func (s *Server) serveCachedPage(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	if r.Method != http.MethodGet || r.URL.RawQuery != "" || !s.isPage(p) ||
		negotiate(r.Header.Get("Accept-Encoding"), map[string][]byte{encGzip: nil}) != encGzip {
		return false
	}
	c := &s.cache
	c.mu.Lock()
	if c.pages == nil {
		c.pages = map[string]*cachedPage{}
	}
	e := c.pages[p]
	if e == nil {
		e = &cachedPage{}
		c.pages[p] = e
	}
	c.mu.Unlock()
	e.once.Do(func() { e.render(s.pages, r) })
	if !e.ok {
		return false
	}
	h := w.Header()
	for k, v := range e.header {
		h[k] = v
	}
	w.WriteHeader(http.StatusOK)
	w.Write(e.gz)
	return true
}

// render runs the page handler once into memory and gzips what it wrote.
func (e *cachedPage) render(h http.Handler, r *http.Request) {
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	plain := r.Clone(r.Context())
	plain.Header = r.Header.Clone()
	plain.Header.Del("Accept-Encoding")
	plain.Header.Del("If-None-Match")
	plain.Header.Del("If-Modified-Since")
	h.ServeHTTP(rec, plain)
	if rec.status != http.StatusOK || rec.header.Get("Content-Encoding") != "" {
		return
	}
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	gz.Write(rec.body.Bytes())
	gz.Close()
	e.gz = buf.Bytes()
	e.header = rec.header.Clone()
	if ct := e.header.Get("Content-Type"); ct == "" {
		e.header.Set("Content-Type", http.DetectContentType(rec.body.Bytes()))
	}
	e.header.Set("Content-Type", withCharset(e.header.Get("Content-Type")))
	e.header.Set("Content-Encoding", encGzip)
	e.header.Set("Content-Length", strconv.Itoa(len(e.gz)))
	e.header.Add("Vary", "Accept-Encoding")
	e.ok = true
}

// recorder keeps what a handler writes.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.wrote, r.status = true, code
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// ---- well-formed answers -------------------------------------------------

// withCharset adds charset=utf-8 to a text/html type that has none: the
// pages are UTF-8 (the Chinese lessons), and a browser left to guess may
// not guess it before the meta tag.
func withCharset(ct string) string {
	if strings.HasPrefix(ct, "text/html") && !strings.Contains(strings.ToLower(ct), "charset") {
		return "text/html; charset=utf-8"
	}
	return ct
}

// tidyWriter gives every answer a type and an error a body: go-app
// answers /app.wasm (and other paths it owns) 404 with neither, and its
// pages text/html without a charset.
type tidyWriter struct {
	http.ResponseWriter
	head    bool // a HEAD request: no body
	status  int
	written bool // a body byte went out
}

func (w *tidyWriter) WriteHeader(code int) {
	if w.status != 0 {
		return
	}
	w.status = code
	h := w.Header()
	if ct := h.Get("Content-Type"); ct != "" {
		h.Set("Content-Type", withCharset(ct))
	} else if code >= 400 {
		h.Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *tidyWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", http.DetectContentType(b))
		}
		w.WriteHeader(http.StatusOK)
	}
	if len(b) > 0 {
		w.written = true
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *tidyWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// finish writes a body for an error answered with none.
func (w *tidyWriter) finish() {
	if w.status >= 400 && !w.written && !w.head && w.Header().Get("Content-Length") == "" {
		w.ResponseWriter.Write([]byte(strconv.Itoa(w.status) + " " + strings.ToLower(http.StatusText(w.status)) + "\n"))
	}
}
