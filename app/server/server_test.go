//go:build !wasm

package server

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeWasm is compressible like a real wasm (repetitive code) but small
// enough to compress in milliseconds.
func fakeWasm(n int) []byte {
	var b bytes.Buffer
	b.WriteString("\x00asm\x01\x00\x00\x00")
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "func%d local.get %d i32.add call %d\n", i, i%7, i%13)
	}
	return b.Bytes()[:n]
}

// newWebDir lays out a web directory like the real one, with a file next
// to it that no request may reach.
func newWebDir(t *testing.T, wasm []byte) string {
	t.Helper()
	top := t.TempDir()
	web := filepath.Join(top, "web")
	must(t, os.Mkdir(web, 0o755))
	must(t, os.WriteFile(filepath.Join(top, "secret.txt"), []byte("TOP SECRET"), 0o644))
	must(t, os.WriteFile(filepath.Join(web, "app.wasm"), wasm, 0o644))
	must(t, os.WriteFile(filepath.Join(web, "app.css"), []byte("body { color: black }\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(web, "robots.txt"), []byte("User-agent: *\nAllow: /\n"), 0o644))
	must(t, os.Mkdir(filepath.Join(web, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(web, "sub", "x.txt"), []byte("x"), 0o644))
	if _, err := Precompress(filepath.Join(web, "app.wasm"), 5); err != nil {
		t.Fatal(err)
	}
	return web
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newServer(t *testing.T, cfg Config) (*Server, *bytes.Buffer) {
	t.Helper()
	var log bytes.Buffer
	cfg.Log = &log
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, &log
}

// serve runs s on a loopback port until the test ends.
func serve(t *testing.T, s *Server) (addr string, stop func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln) }()
	stopped := false
	stop = func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		return <-done
	}
	t.Cleanup(func() { stop() })
	return ln.Addr().String(), stop
}

// rawGet sends a request line exactly as written, so no client library
// cleans or re-encodes the path on the way.
func rawGet(t *testing.T, addr, target string, headers ...string) *http.Response {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	req := "GET " + target + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n"
	for _, h := range headers {
		req += h + "\r\n"
	}
	if _, err := io.WriteString(c, req+"\r\n"); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("GET %s: %v", target, err)
	}
	return res
}

func body(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func get(t *testing.T, s *Server, target string, headers ...string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}

func TestPathsOutsideTheWebRootAreRefused(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	addr, _ := serve(t, s)
	for _, target := range []string{
		"/web/../go.mod",
		"/web/../secret.txt",
		"/web/%2e%2e/secret.txt",
		"/web/%2E%2E/%2e%2e/etc/passwd",
		"/web/..%2fsecret.txt",
		"/web/sub/../../secret.txt",
		"/..",
		"/web/app.css/../../secret.txt",
		`/web/..\secret.txt`,
		"/web/x%00.txt",
	} {
		res := rawGet(t, addr, target)
		b := body(t, res)
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("GET %s: %d, want 400", target, res.StatusCode)
		}
		if strings.Contains(b, "SECRET") {
			t.Errorf("GET %s leaked the file outside the web root", target)
		}
		if res.StatusCode == http.StatusBadRequest && !strings.Contains(b, "bad path:") {
			t.Errorf("GET %s: 400 without a reason: %q", target, b)
		}
	}
}

func TestSymlinkOutOfTheWebRootIsNotFollowed(t *testing.T) {
	web := newWebDir(t, fakeWasm(4096))
	must(t, os.Symlink(filepath.Join(web, "..", "secret.txt"), filepath.Join(web, "link.txt")))
	s, _ := newServer(t, Config{WebDir: web})
	rec := get(t, s, "/web/link.txt")
	if rec.Code != http.StatusNotFound || strings.Contains(rec.Body.String(), "SECRET") {
		t.Errorf("symlink out of the web root: %d %q", rec.Code, rec.Body.String())
	}
}

func TestNoDirectoryListing(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	for _, target := range []string{"/web/", "/web/sub", "/web/sub/"} {
		rec := get(t, s, target)
		if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "directory listings are disabled") {
			t.Errorf("GET %s: %d %q", target, rec.Code, rec.Body.String())
		}
		if strings.Contains(rec.Body.String(), "x.txt") {
			t.Errorf("GET %s listed the directory", target)
		}
	}
	if rec := get(t, s, "/web/sub/x.txt"); rec.Code != http.StatusOK {
		t.Errorf("a file in a subdirectory: %d", rec.Code)
	}
	if rec := get(t, s, "/web/nope.css"); rec.Code != http.StatusNotFound {
		t.Errorf("a missing file: %d", rec.Code)
	}
}

func TestEveryResponseCarriesSecurityHeaders(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	for _, target := range []string{"/", "/playground", "/scenarios", "/web/app.wasm", "/web/app.css", "/app.js", "/healthz", "/nope", "/web/../x"} {
		h := get(t, s, target).Header()
		for k, want := range map[string]string{
			"X-Content-Type-Options": "nosniff",
			"X-Frame-Options":        "DENY",
			"Referrer-Policy":        "no-referrer",
		} {
			if got := h.Get(k); got != want {
				t.Errorf("GET %s: %s = %q, want %q", target, k, got, want)
			}
		}
		csp := h.Get("Content-Security-Policy")
		for _, part := range []string{"script-src 'self' 'wasm-unsafe-eval'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, part) {
				t.Errorf("GET %s: CSP %q lacks %q", target, csp, part)
			}
		}
		if strings.Contains(csp, "unsafe-inline") {
			t.Errorf("GET %s: CSP allows inline code: %q", target, csp)
		}
	}
}

// Every page's one inline script (the engine's worker started early) is
// the one the CSP allows by hash: a browser would refuse any other, and
// the playground would then start its worker late.
func TestThePagesInlineScriptIsTheOneTheCSPAllows(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	for _, target := range []string{"/", "/playground", "/zh/playground"} {
		rec := get(t, s, target)
		body := rec.Body.String()
		var inline []string
		for rest := body; ; {
			i := strings.Index(rest, "<script>")
			if i < 0 {
				break
			}
			rest = rest[i+len("<script>"):]
			j := strings.Index(rest, "</script>")
			if j < 0 {
				t.Fatalf("GET %s: an unclosed script", target)
			}
			inline, rest = append(inline, rest[:j]), rest[j:]
		}
		if len(inline) != 2 || !strings.Contains(inline[0], "new Worker(\"/web/engine-worker.js\")") || !strings.Contains(inline[1], "txnlabEarly") {
			t.Fatalf("GET %s: inline scripts %q, want the engine's worker start and the early steps", target, inline)
		}
		var hashes []string
		for _, src := range inline {
			sum := sha256.Sum256([]byte(src))
			hashes = append(hashes, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'")
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval' "+strings.Join(hashes, " ")+";") {
			t.Errorf("GET %s: CSP %q does not allow the inline scripts (%s)", target, csp, hashes)
		}
	}
}

func TestStaticFilesAreServedWithCacheHeaders(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	rec := get(t, s, "/web/app.css")
	if rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/css") {
		t.Fatalf("app.css: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	if cc := rec.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("app.css Cache-Control %q", cc)
	}
	lm := rec.Header().Get("Last-Modified")
	if rec := get(t, s, "/web/app.css", "If-Modified-Since: "+lm); rec.Code != http.StatusNotModified {
		t.Errorf("revalidating app.css: %d, want 304", rec.Code)
	}
}

func TestWasmEncodingIsNegotiated(t *testing.T) {
	raw := fakeWasm(64 << 10)
	s, _ := newServer(t, Config{WebDir: newWebDir(t, raw)})
	for _, tc := range []struct{ accept, want string }{
		{"gzip, deflate, br, zstd", "br"},
		{"br", "br"},
		{"gzip", "gzip"},
		{"x-gzip", "gzip"},
		{"gzip;q=1.0, br;q=0.5", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"br;q=0, gzip;q=0", "identity"},
		{"identity", "identity"},
		{"", "identity"},
		{"*", "br"},
		{"*;q=0.1, gzip;q=0.5", "gzip"},
		{"deflate", "identity"},
	} {
		rec := get(t, s, "/web/app.wasm", "Accept-Encoding: "+tc.accept)
		h := rec.Header()
		got := h.Get("Content-Encoding")
		if got == "" {
			got = "identity"
		}
		if got != tc.want {
			t.Errorf("Accept-Encoding %q: got %s, want %s", tc.accept, got, tc.want)
			continue
		}
		if ct := h.Get("Content-Type"); ct != "application/wasm" {
			t.Errorf("Accept-Encoding %q: Content-Type %q", tc.accept, ct)
		}
		if v := h.Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
			t.Errorf("Accept-Encoding %q: Vary %q", tc.accept, v)
		}
		if cl := h.Get("Content-Length"); cl != fmt.Sprint(rec.Body.Len()) {
			t.Errorf("Accept-Encoding %q: Content-Length %s for %d bytes", tc.accept, cl, rec.Body.Len())
		}
		decoded := rec.Body.Bytes()
		if got != "identity" {
			var err error
			if decoded, err = decompress(got, decoded); err != nil {
				t.Fatalf("Accept-Encoding %q: %v", tc.accept, err)
			}
			if rec.Body.Len() >= len(raw) {
				t.Errorf("Accept-Encoding %q: %d bytes for %d raw", tc.accept, rec.Body.Len(), len(raw))
			}
		}
		if !bytes.Equal(decoded, raw) {
			t.Errorf("Accept-Encoding %q: the body is not the wasm", tc.accept)
		}
		// A revalidation with this coding's tag is a 304; with another
		// coding's tag it must not be.
		etag := h.Get("ETag")
		if rec := get(t, s, "/web/app.wasm", "Accept-Encoding: "+tc.accept, "If-None-Match: "+etag); rec.Code != http.StatusNotModified {
			t.Errorf("Accept-Encoding %q: revalidating %s gave %d", tc.accept, etag, rec.Code)
		}
	}
	br := get(t, s, "/web/app.wasm", "Accept-Encoding: br").Header().Get("ETag")
	if rec := get(t, s, "/web/app.wasm", "Accept-Encoding: gzip", "If-None-Match: "+br); rec.Code != http.StatusOK {
		t.Errorf("a gzip request revalidated with the brotli tag: %d, want 200", rec.Code)
	}
}

func TestStaleSidecarIsNotServed(t *testing.T) {
	web := newWebDir(t, fakeWasm(8192))
	// A rebuilt wasm next to the old .br/.gz, as after a go build without
	// the precompress step.
	must(t, os.WriteFile(filepath.Join(web, "app.wasm"), fakeWasm(9000), 0o644))
	s, log := newServer(t, Config{WebDir: web})
	if !strings.Contains(log.String(), "app.wasm.br does not hold the current app.wasm") {
		t.Errorf("no warning about the stale sidecar; log:\n%s", log)
	}
	rec := get(t, s, "/web/app.wasm", "Accept-Encoding: br, gzip")
	if enc := rec.Header().Get("Content-Encoding"); enc != "" {
		t.Errorf("served the stale %s sidecar", enc)
	}
	if rec.Body.Len() != 9000 {
		t.Errorf("served %d bytes, want the current 9000", rec.Body.Len())
	}
}

func TestMissingWasmIsAnErrorThatSaysWhatToDo(t *testing.T) {
	web := t.TempDir()
	_, err := New(Config{WebDir: web, Log: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "make wasm") {
		t.Fatalf("New without app.wasm: %v", err)
	}
}

func TestBodiesOverTheLimitGet413(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), MaxBodyBytes: 1 << 20})
	addr, _ := serve(t, s)

	// Declared too big: refused before a byte of body is read.
	c, err := net.Dial("tcp", addr)
	must(t, err)
	defer c.Close()
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: %d\r\n\r\n", 2<<20)
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	must(t, err)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("declared 2 MiB: %d, want 413", res.StatusCode)
	}

	// Streamed too big (chunked, no length): refused once it passes 1 MiB.
	c2, err := net.Dial("tcp", addr)
	must(t, err)
	defer c2.Close()
	fmt.Fprint(c2, "POST /healthz HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n")
	go func() {
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		for range 40 { // 2.5 MiB; stops when the server closes
			if _, err := fmt.Fprintf(c2, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return
			}
		}
		fmt.Fprint(c2, "0\r\n\r\n")
	}()
	res, err = http.ReadResponse(bufio.NewReader(c2), nil)
	must(t, err)
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("streamed 2.5 MiB: %d, want 413", res.StatusCode)
	}

	// Under the limit, the request goes on to the method check.
	hc := &http.Client{Timeout: 5 * time.Second}
	r, err := hc.Post("http://"+addr+"/healthz", "text/plain", strings.NewReader("small"))
	must(t, err)
	r.Body.Close()
	if r.StatusCode != http.StatusMethodNotAllowed || r.Header.Get("Allow") != "GET, HEAD" {
		t.Errorf("small POST: %d Allow=%q, want 405 GET, HEAD", r.StatusCode, r.Header.Get("Allow"))
	}
}

func TestSlowHeadersAreCut(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), ReadHeaderTimeout: 300 * time.Millisecond})
	addr, _ := serve(t, s)
	c, err := net.Dial("tcp", addr)
	must(t, err)
	defer c.Close()
	fmt.Fprint(c, "GET /healthz HTTP/1.1\r\nHost: test\r\n")
	start := time.Now()
	// Dribble one header byte every 50 ms: each write alone would reset a
	// per-read idle timer, but not a deadline on the whole header.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for _, b := range []byte("X-Slow: " + strings.Repeat("z", 100)) {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := c.Write([]byte{b}); err != nil {
				return
			}
		}
	}()
	must(t, c.SetReadDeadline(time.Now().Add(5*time.Second)))
	got, err := io.ReadAll(c) // returns when the server closes the connection
	elapsed := time.Since(start)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server still held the connection after %v", elapsed)
	}
	if elapsed > 2*time.Second {
		t.Errorf("connection cut after %v, want about 300ms", elapsed)
	}
	if strings.Contains(string(got), "200 OK") {
		t.Errorf("a request whose headers never ended was answered: %q", got)
	}
}

func TestGracefulShutdownFinishesRequestsInFlight(t *testing.T) {
	// Far bigger than loopback socket buffers, so the handler is still
	// writing when the shutdown starts.
	raw := make([]byte, 48<<20)
	rand.Read(raw)
	top := t.TempDir()
	must(t, os.WriteFile(filepath.Join(top, "app.wasm"), raw, 0o644))
	s, _ := newServer(t, Config{WebDir: top})
	addr, stop := serve(t, s)

	c, err := net.Dial("tcp", addr)
	must(t, err)
	defer c.Close()
	fmt.Fprint(c, "GET /web/app.wasm HTTP/1.1\r\nHost: test\r\n\r\n")
	br := bufio.NewReader(c)
	res, err := http.ReadResponse(br, nil)
	must(t, err)
	first := make([]byte, 1<<16)
	_, err = io.ReadFull(res.Body, first)
	must(t, err)

	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) with a response half sent", err)
	case <-time.After(300 * time.Millisecond):
	}
	// A new connection is refused once shutdown has begun.
	if c2, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		c2.Close()
		t.Errorf("a new connection was accepted during shutdown")
	}

	rest, err := io.ReadAll(res.Body)
	must(t, err)
	if got := append(first, rest...); !bytes.Equal(got, raw) {
		t.Errorf("got %d bytes of %d, or different ones, after shutdown began", len(got), len(raw))
	}
	select {
	case err := <-stopped:
		if err != nil {
			t.Errorf("Serve after a graceful shutdown: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the last response finished")
	}
}

func TestHealthz(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	rec := get(t, s, "/healthz")
	if rec.Code != http.StatusOK || rec.Body.String() != "ok\n" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Errorf("/healthz: %d %q %q", rec.Code, rec.Body.String(), rec.Header().Get("Cache-Control"))
	}
}

func TestPagesArePreRendered(t *testing.T) {
	raw := fakeWasm(4096)
	s, _ := newServer(t, Config{WebDir: newWebDir(t, raw)})
	for path, want := range map[string]string{
		"/":           "Kafka transactions, step by step",
		"/playground": `aria-label="Scenario script"`,
		"/scenarios":  "Open in the playground",
	} {
		rec := get(t, s, path)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("GET %s: %d, body lacks %q", path, rec.Code, want)
		}
		if b := rec.Body.String(); strings.Contains(b, "raw.githubusercontent.com") {
			t.Errorf("GET %s refers to go-app's remote icon", path)
		}
		// A link preview reads these: the server knows no domain, so a
		// URL without a host ("https:///playground") must not be written.
		if b := rec.Body.String(); strings.Contains(b, `"https:///`) || strings.Contains(b, `"https://"`) {
			t.Errorf("GET %s: a URL with no host in the head: %s", path, b[:min(len(b), 1500)])
		}
	}
	if rec := get(t, s, "/nope"); rec.Code != http.StatusNotFound {
		t.Errorf("GET /nope: %d", rec.Code)
	}
	js := get(t, s, "/app.js").Body.String()
	if want := fmt.Sprintf(`goappWasmContentLength = "%d"`, len(raw)); !strings.Contains(js, want) {
		t.Errorf("app.js does not announce the raw wasm size: no %q", want)
	}
	worker := get(t, s, "/app-worker.js").Body.String()
	if !strings.Contains(worker, s.Version()) {
		t.Errorf("app-worker.js does not cache under version %s", s.Version())
	}
	manifest := get(t, s, "/manifest.webmanifest").Body.String()
	if !strings.Contains(manifest, "/web/icon-512.png") || strings.Contains(manifest, "https://") {
		t.Errorf("manifest icons are not local: %s", manifest)
	}
}

func TestRobotsTxtIsNotProxiedThroughTheHostHeader(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	// go-app's own handler would fetch http://<Host>/web/robots.txt.
	req := httptest.NewRequest(http.MethodGet, "/robots.txt", nil)
	req.Host = "127.0.0.1:1"
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "User-agent") {
		t.Errorf("/robots.txt: %d %q", rec.Code, rec.Body.String())
	}
	if rec := get(t, s, "/sitemap.xml"); rec.Code != http.StatusNotFound {
		t.Errorf("/sitemap.xml without a file: %d", rec.Code)
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	for _, m := range []string{http.MethodPut, http.MethodDelete, http.MethodOptions, http.MethodPatch} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(m, "/", nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s /: %d", m, rec.Code)
		}
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/web/app.wasm", nil))
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 {
		t.Errorf("HEAD /web/app.wasm: %d with %d body bytes", rec.Code, rec.Body.Len())
	}
}

func TestVersionFollowsTheContent(t *testing.T) {
	web := newWebDir(t, fakeWasm(4096))
	version := func() string {
		s, _ := newServer(t, Config{WebDir: web})
		return s.Version()
	}
	v1 := version()
	if v2 := version(); v2 != v1 {
		t.Fatalf("restarting changed the version: %s then %s", v1, v2)
	}
	must(t, os.WriteFile(filepath.Join(web, "app.css"), []byte("body { color: red }\n"), 0o644))
	v3 := version()
	if v3 == v1 {
		t.Errorf("a new stylesheet kept version %s", v1)
	}
	must(t, os.WriteFile(filepath.Join(web, "app.wasm"), fakeWasm(5000), 0o644))
	if v4 := version(); v4 == v3 {
		t.Errorf("a new wasm kept version %s", v3)
	}
}

func TestPrecompressSkipsUpToDateFiles(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "app.wasm")
	must(t, os.WriteFile(name, fakeWasm(20000), 0o644))
	w1, err := Precompress(name, 5)
	must(t, err)
	if len(w1) != 2 {
		t.Fatalf("first run wrote %v", w1)
	}
	w2, err := Precompress(name, 5)
	must(t, err)
	if len(w2) != 0 {
		t.Errorf("second run rewrote %v", w2)
	}
	must(t, os.WriteFile(name, fakeWasm(20001), 0o644))
	w3, err := Precompress(name, 5)
	must(t, err)
	if len(w3) != 2 {
		t.Errorf("after a change, wrote %v", w3)
	}
}

func TestWriteStaticWritesTheWholeSite(t *testing.T) {
	raw := fakeWasm(30000)
	web := newWebDir(t, raw)
	os.Remove(filepath.Join(web, "app.wasm.gz")) // the export must make it anyway
	s, _ := newServer(t, Config{WebDir: web})
	out := t.TempDir()
	must(t, s.WriteStatic(out))
	for _, name := range []string{
		"index.html", "playground/index.html", "scenarios/index.html", "zh/index.html",
		"app.js", "app-worker.js", "manifest.webmanifest", "wasm_exec.js", "app.css", "_headers",
		"web/app.wasm", "web/app.wasm.br", "web/app.wasm.gz", "web/app.css", "web/robots.txt", "web/sub/x.txt",
	} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("missing %s", name)
		}
	}
	for _, sc := range sidecars {
		data, err := os.ReadFile(filepath.Join(out, "web", "app.wasm"+sc.suffix))
		must(t, err)
		if !matches(sc.enc, data, raw) {
			t.Errorf("web/app.wasm%s does not decompress to the wasm", sc.suffix)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "playground", "index.html"))
	must(t, err)
	if !strings.Contains(string(page), `aria-label="Sequence diagram"`) {
		t.Errorf("playground/index.html is not pre-rendered")
	}
	// The worker caches pages at the addresses a static host answers
	// without a redirect, and answers /page from /page/.
	worker, err := os.ReadFile(filepath.Join(out, "app-worker.js"))
	must(t, err)
	for _, want := range []string{`"/playground/"`, `"/playground/?scenario=abort"`, `"/scenarios/"`, `url.pathname += "/"`} {
		if !strings.Contains(string(worker), want) {
			t.Errorf("the exported service worker lacks %s", want)
		}
	}
	if strings.Contains(string(worker), `"/playground"`) {
		t.Errorf("the exported service worker caches /playground, which a static host answers with a redirect")
	}
}

// TestWasmExecJSMatchesGoroot catches go-app's embedded wasm_exec.js
// drifting from the Go toolchain that builds app.wasm: the two must agree
// on the ABI, or the page fails in the browser with an obscure error.
func TestWasmExecJSMatchesGoroot(t *testing.T) {
	goroot := runtime.GOROOT()
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		goroot = strings.TrimSpace(string(out))
	}
	want, err := os.ReadFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatalf("reading the toolchain's wasm_exec.js: %v", err)
	}
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	if got := get(t, s, "/wasm_exec.js").Body.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("go-app serves a wasm_exec.js (%d bytes) that differs from %s (%d bytes): upgrade go-app or pin the toolchain",
			len(got), filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), len(want))
	}
}

func TestNegotiate(t *testing.T) {
	all := map[string][]byte{encIdentity: nil, encBrotli: nil, encGzip: nil}
	gzOnly := map[string][]byte{encIdentity: nil, encGzip: nil}
	for _, tc := range []struct {
		header string
		avail  map[string][]byte
		want   string
	}{
		{"br, gzip", all, "br"},
		{"br, gzip", gzOnly, "gzip"},
		{"BR;Q=0.9, GZIP;q=0.8", all, "br"},
		{"gzip;q=0.9, br;q=0.8", all, "gzip"},
		{"br;q=bogus", all, "identity"},
		{"gzip ; q=0.5", all, "gzip"},
		{"*;q=0", all, "identity"},
		{",,", all, "identity"},
	} {
		if got := negotiate(tc.header, tc.avail); got != tc.want {
			t.Errorf("negotiate(%q) = %s, want %s", tc.header, got, tc.want)
		}
	}
}

// TestATrailingSlashLeadsToThePage: "/playground/" (as people type it)
// lands on the playground with the share link's query kept, "/lessons/3"
// on lesson 03; a slash after something that is not a page, or a number
// no lesson has, stays "not found", and no address can make the redirect
// leave the site.
func TestATrailingSlashLeadsToThePage(t *testing.T) {
	s := newLessonServer(t)
	for path, want := range map[string]string{
		"/playground/":                       "/playground",
		"/zh/playground//":                   "/zh/playground",
		"/lessons/?x=1":                      "/lessons?x=1",
		"/playground/?scenario=happy-path":   "/playground?scenario=happy-path",
		"/lessons/03-transaction-protocols/": "/lessons/03-transaction-protocols",
		// A lesson by its number, as a learner types it.
		"/lessons/3":        "/lessons/03-transaction-protocols",
		"/zh/lessons/03":    "/zh/lessons/03-transaction-protocols",
		"/zh/lessons/0?x=1": "/zh/lessons/00-scenario-language?x=1",
		"/lessons/9":        "/lessons/09-chapter-companion",
	} {
		rec := get(t, s, path)
		if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != want {
			t.Errorf("GET %s: %d to %q, want 301 to %q", path, rec.Code, rec.Header().Get("Location"), want)
		}
	}
	for _, path := range []string{"/nope/", "//evil.example/", "/lessons/99-nope/", "/web/",
		"/lessons/99", "/lessons/003", "/lessons/+3", "/lessons/-3", "/zh/zh/lessons/3", "/playground/3"} {
		if rec := get(t, s, path); rec.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d (Location %q), want 404", path, rec.Code, rec.Header().Get("Location"))
		}
	}
}

// A cold load paints once every stylesheet in the head has come: a page
// links the site's one stylesheet, which carries go-app's loader styles,
// and not go-app's own (still served, for a service worker of an older
// version that lists it).
func TestAPageWaitsForOneStylesheet(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	link := regexp.MustCompile(`<link[^>]*rel="stylesheet"[^>]*>`)
	for _, target := range []string{"/", "/zh/playground", "/scenarios"} {
		links := link.FindAllString(get(t, s, target).Body.String(), -1)
		if len(links) != 1 || !strings.Contains(links[0], `href="/web/app.css"`) {
			t.Errorf("GET %s: stylesheets %q, want /web/app.css alone", target, links)
		}
	}
	if rec := get(t, s, "/app.css"); rec.Code != http.StatusOK {
		t.Errorf("go-app's /app.css: %d, want it still served", rec.Code)
	}
}

// The web directory's text goes out gzipped to a browser that takes it:
// the style sheet, which every page waits for before its first paint,
// was sent raw (58 kB). A tiny file, a range and a revalidation go out as
// they are.
func TestWebTextIsGzipped(t *testing.T) {
	web := newWebDir(t, fakeWasm(4096))
	css, err := os.ReadFile(filepath.Join("..", "..", "web", "app.css"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(web, "app.css"), css, 0o644))
	s, _ := newServer(t, Config{WebDir: web})

	rec := get(t, s, "/web/app.css", "Accept-Encoding: gzip, deflate, br")
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("/web/app.css: %d %q, want 200 gzip", rec.Code, rec.Header().Get("Content-Encoding"))
	}
	if cl := rec.Header().Get("Content-Length"); cl == strconv.Itoa(len(css)) {
		t.Errorf("/web/app.css: Content-Length %s is the raw size", cl)
	}
	if v := rec.Header().Get("Vary"); !strings.Contains(v, "Accept-Encoding") {
		t.Errorf("/web/app.css: Vary %q", v)
	}
	n := rec.Body.Len()
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	if err != nil || !bytes.Equal(body, css) {
		t.Fatalf("/web/app.css gunzipped is not the file (%d bytes, %v)", len(body), err)
	}
	if n*3 > len(css) {
		t.Errorf("/web/app.css: %d bytes gzipped from %d", n, len(css))
	}
	t.Logf("/web/app.css: %d bytes, %d gzipped", len(css), n)

	if rec := get(t, s, "/web/app.css"); rec.Header().Get("Content-Encoding") != "" || rec.Body.Len() != len(css) {
		t.Errorf("without Accept-Encoding: %q, %d bytes", rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
	if rec := get(t, s, "/robots.txt", "Accept-Encoding: gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "User-agent: *\nAllow: /\n" {
		t.Errorf("robots.txt (tiny): %q, %q", rec.Header().Get("Content-Encoding"), rec.Body.String())
	}
	if rec := get(t, s, "/web/app.css", "Accept-Encoding: gzip", "Range: bytes=0-9"); rec.Code != http.StatusPartialContent || rec.Body.String() != string(css[:10]) {
		t.Errorf("a range: %d %q, want 206 %q", rec.Code, rec.Body.String(), css[:10])
	}
	lm := rec.Header().Get("Last-Modified")
	if rec := get(t, s, "/web/app.css", "Accept-Encoding: gzip", "If-Modified-Since: "+lm); rec.Code != http.StatusNotModified || rec.Body.Len() != 0 {
		t.Errorf("revalidating: %d with %d bytes, want 304 and none", rec.Code, rec.Body.Len())
	}
}
