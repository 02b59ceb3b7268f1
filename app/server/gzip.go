//go:build !wasm

package server

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// The pages, the lesson data and go-app's scripts are text the server
// makes per request (or holds in memory): gzip them for a browser that
// accepts it. A lesson page, its text and its embedded data, is ~190 kB
// of HTML and about a fifth of that gzipped. The wasm has its own
// precompressed codings (wasm.go) and is not wrapped.

// gzipPool reuses writers: each holds ~1 MB of state.
var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return w
}}

// compressible are the content types worth compressing.
func compressible(contentType string) bool {
	for _, t := range []string{"text/", "application/json", "application/javascript", "application/manifest+json", "image/svg+xml"} {
		if strings.HasPrefix(contentType, t) {
			return true
		}
	}
	return false
}

// tinyBody is the size under which a body goes out as it is: gzip's
// header and trailer alone are 18 bytes, and robots.txt would grow.
const tinyBody = 512

// tiny reports whether a declared Content-Length is under tinyBody (a
// body of unknown length is not).
func tiny(contentLength string) bool {
	n, err := strconv.Atoi(contentLength)
	return err == nil && n < tinyBody
}

// gzipWriter compresses the body when the response turns out to be
// compressible text, and passes anything else through.
type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	decided bool
}

func (w *gzipWriter) WriteHeader(code int) {
	if !w.decided {
		w.decided = true
		h := w.Header()
		h.Add("Vary", "Accept-Encoding")
		if code == http.StatusOK || code == http.StatusNotFound {
			if compressible(h.Get("Content-Type")) && h.Get("Content-Encoding") == "" && !tiny(h.Get("Content-Length")) {
				h.Del("Content-Length") // the handler counted the raw bytes
				h.Set("Content-Encoding", encGzip)
				w.gz = gzipPool.Get().(*gzip.Writer)
				w.gz.Reset(w.ResponseWriter)
			}
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *gzipWriter) Write(b []byte) (int, error) {
	if !w.decided {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", http.DetectContentType(b))
		}
		w.WriteHeader(http.StatusOK)
	}
	if w.gz != nil {
		return w.gz.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// close ends the compressed stream.
func (w *gzipWriter) close() {
	if w.gz != nil {
		w.gz.Close()
		gzipPool.Put(w.gz)
		w.gz = nil
	}
}

// withGzip runs h with a compressing writer when the request accepts gzip.
func withGzip(w http.ResponseWriter, r *http.Request, h func(http.ResponseWriter)) {
	if r.Method == http.MethodHead || negotiate(r.Header.Get("Accept-Encoding"), map[string][]byte{encGzip: nil}) != encGzip {
		h(w)
		return
	}
	gw := &gzipWriter{ResponseWriter: w}
	defer gw.close()
	h(gw)
}
