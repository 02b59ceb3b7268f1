//go:build !wasm

package server

import (
	"bufio"
	"compress/gzip"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// Past MaxConns open connections, one more is answered 503 with a body
// and a type, at once, on real loopback connections; when one closes, a
// request gets through again.
func TestConnectionsPastTheCapGet503(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4000)), MaxConns: 3})
	addr, _ := serve(t, s)
	var held []net.Conn
	for range 3 {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
		t.Cleanup(func() { c.Close() })
	}
	// The three are accepted in turn; give the accept loop a moment.
	get := func() (*http.Response, string) {
		t.Helper()
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		b, _ := io.ReadAll(res.Body)
		return res, string(b)
	}
	deadline := time.Now().Add(5 * time.Second)
	res, b := get()
	for res.StatusCode != http.StatusServiceUnavailable && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		res, b = get()
	}
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(b, "too many connections") ||
		res.Header.Get("Content-Type") != "text/plain; charset=utf-8" || res.Header.Get("Retry-After") == "" {
		t.Fatalf("past the cap: %d %q %v", res.StatusCode, b, res.Header)
	}
	held[0].Close()
	deadline = time.Now().Add(5 * time.Second)
	res, b = get()
	for res.StatusCode != http.StatusOK && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		res, b = get()
	}
	if res.StatusCode != http.StatusOK || b != "ok\n" {
		t.Fatalf("after one closed: %d %q", res.StatusCode, b)
	}
}

// A page is rendered and gzipped once: later requests cost a copy, not a
// render and a compression (go-app's render alone is thousands of
// allocations), and what they get is the page a client without gzip gets.
func TestPagesAreGzippedOnce(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4000))})
	plain := get(t, s, "/")
	first := get(t, s, "/", "Accept-Encoding: gzip")
	if first.Code != http.StatusOK || first.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("GET / with gzip: %d %v", first.Code, first.Header())
	}
	zr, err := gzip.NewReader(first.Body)
	if err != nil {
		t.Fatal(err)
	}
	unzipped, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	// go-app writes a tag's attributes in map order, different at each
	// render: compare what the pages hold, not its order.
	if sortedBytes(unzipped) != sortedBytes(plain.Body.Bytes()) {
		t.Fatalf("the cached page differs from the page itself:\n%.300s\nwant\n%.300s", unzipped, plain.Body.String())
	}
	if cl := first.Header().Get("Content-Length"); cl == "" {
		t.Errorf("no Content-Length on a cached page")
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options"} {
		if first.Header().Get(h) == "" {
			t.Errorf("the cached page lacks %s", h)
		}
	}
	allocs := testing.AllocsPerRun(20, func() { get(t, s, "/", "Accept-Encoding: gzip") })
	if allocs > 200 {
		t.Errorf("a cached page costs %.0f allocations a request; a render is thousands", allocs)
	}
	// A share link's query is served live, not cached under the path.
	if rec := get(t, s, "/playground?s=abc", "Accept-Encoding: gzip"); rec.Code != http.StatusOK {
		t.Errorf("a page with a query: %d", rec.Code)
	}
	if n := len(s.cache.pages); n != 1 {
		t.Errorf("%d pages cached, want 1", n)
	}
}

// Every answer has a type, an error a body, and HTML its charset.
func TestAnswersHaveATypeAndABody(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4000))})
	rec := get(t, s, "/app.wasm")
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" || !strings.Contains(rec.Body.String(), "404") {
		t.Errorf("/app.wasm: %d %q %q", rec.Code, rec.Header().Get("Content-Type"), rec.Body.String())
	}
	req, _ := http.NewRequest(http.MethodHead, "/app.wasm", nil)
	head := &recorder{header: http.Header{}}
	s.ServeHTTP(head, req)
	if head.body.Len() != 0 {
		t.Errorf("HEAD /app.wasm has a body: %q", head.body.String())
	}
	for _, p := range []string{"/", "/playground", "/no-such-page"} {
		for _, enc := range []string{"", "Accept-Encoding: gzip"} {
			if ct := get(t, s, p, enc).Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
				t.Errorf("%s (%s): Content-Type %q", p, enc, ct)
			}
		}
	}
}

// sortedBytes is b's bytes in order: two renders of a page that differ
// only in the order of attributes give the same.
func sortedBytes(b []byte) string {
	c := slices.Clone(b)
	slices.Sort(c)
	return string(c)
}
