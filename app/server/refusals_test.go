//go:build !wasm

package server

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRefusalsSpeakTheReadersLanguage: an address net/http cannot parse
// (typed or pasted, like /zh/lessons/%%) was answered with Go's bare
// English "400 Bad Request"; a Chinese page's reader now reads why in
// Chinese, an English one in English, and a keep-alive client still gets
// a well-formed answer.
func TestRefusalsSpeakTheReadersLanguage(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	addr, _ := serve(t, s)
	for _, tc := range []struct {
		target, want, not string
	}{
		{"/zh/lessons/%%", "400 错误的请求", "Bad Request\n"},
		{"/zh/%zz", "十六进制", "hexadecimal"},
		{"/lessons/%%", "400 bad request: the address is not one a browser can send", "请求"},
	} {
		res := rawGet(t, addr, tc.target)
		got := body(t, res)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("GET %s: %d %q; want 400 with %q", tc.target, res.StatusCode, got, tc.want)
		}
		if res.ContentLength != int64(len(got)) || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("GET %s: length %d for %d bytes, type %q", tc.target, res.ContentLength, len(got), res.Header.Get("Content-Type"))
		}
	}
	// A well-formed address is untouched by the translation.
	if res := rawGet(t, addr, "/healthz"); body(t, res) != "ok\n" {
		t.Error("/healthz changed")
	}

	// The handler's own refusals, by the path's language.
	for _, tc := range []struct {
		method, target, want string
	}{
		{http.MethodPut, "/zh/playground", "405 不允许的方法"},
		{http.MethodPut, "/playground", "405 method not allowed"},
		{http.MethodGet, "/zh/a/../b", "400 错误的路径"},
		{http.MethodGet, "/a/../b", "400 bad path"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(tc.method, "/", nil)
		req.URL.Path = tc.target
		s.ServeHTTP(rec, req)
		if !strings.HasPrefix(rec.Body.String(), tc.want) {
			t.Errorf("%s %s: %q, want %q…", tc.method, tc.target, rec.Body.String(), tc.want)
		}
	}
}

func TestTranslateGoRefusalLeavesHandlersAlone(t *testing.T) {
	handler := "HTTP/1.1 400 Bad Request\r\nContent-Security-Policy: x\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n400 bad path"
	if translateGoRefusal([]byte(handler), "/zh/") != nil {
		t.Error("a handler's answer was rewritten")
	}
	if translateGoRefusal([]byte("HTTP/1.1 200 OK"+goRefusalTail), "/") != nil {
		t.Error("a 200 was rewritten")
	}
	for _, p := range []string{"", "GET", "get / HTTP/1.1", "GETTINGLONG / x"} {
		if requestTarget([]byte(p)) != "" {
			t.Errorf("requestTarget(%q) found a target", p)
		}
	}
}
