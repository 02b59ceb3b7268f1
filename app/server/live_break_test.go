//go:build !wasm

package server

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"txnlab/kafkalistener"
)

// TestLiveBreakpoint: the page sets the Kafka listener's breakpoint and
// steps through the live endpoints; what the listener refuses is a 422
// with its reason, and a live session that cannot hold requests answers
// 404 in the page's language.
func TestLiveBreakpoint(t *testing.T) {
	l, err := kafkalistener.FromScript(kafkalistener.Config{Host: "127.0.0.1"}, "setup", "cluster brokers=1\ntopic orders\n")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), Live: l})
	addr, _ := serve(t, s)
	post := func(path, body, lang string) (int, string) {
		t.Helper()
		res, err := http.Post("http://"+addr+path+"?lang="+lang, "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for _, tc := range []struct {
		path, body, lang string
		code             int
		want             string
	}{
		{"/live/break", "EndTxn", "en", http.StatusNoContent, ""},
		{"/live/break", "Nope", "en", http.StatusUnprocessableEntity, `no API named "Nope" can be held`},
		{"/live/break", "Nope", "zh", http.StatusUnprocessableEntity, `没有名为 "Nope" 的可暂停 API`},
		{"/live/step", "", "zh", http.StatusUnprocessableEntity, "没有被暂停的请求"},
		{"/live/step", "", "en", http.StatusUnprocessableEntity, "no request is held"},
		{"/live/break", "", "en", http.StatusNoContent, ""},
		{"/live/break", strings.Repeat("x", maxStatementBytes+1), "en", http.StatusRequestEntityTooLarge, "longer than"},
	} {
		code, body := post(tc.path, tc.body, tc.lang)
		if code != tc.code || !strings.Contains(body, tc.want) {
			t.Errorf("POST %s %.20q: %d %q, want %d %q", tc.path, tc.body, code, body, tc.code, tc.want)
		}
	}
	if rec := l.Recording(); !strings.Contains(rec, "# breakpoint: the next EndTxn request is held") || !strings.Contains(rec, "# breakpoint: cleared") {
		t.Errorf("the recording lacks the breakpoint's comments:\n%s", rec)
	}
	res, err := http.Get("http://" + addr + "/live/step")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET /live/step: %d, want 405", res.StatusCode)
	}

	s2, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), Live: newRecordedSession("")})
	addr2, _ := serve(t, s2)
	res, err = http.Post("http://"+addr2+"/live/break?lang=zh", "text/plain", strings.NewReader("EndTxn"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound || !strings.Contains(string(b), "不能暂停请求") {
		t.Errorf("a session without breakpoints: %d %q", res.StatusCode, b)
	}
}
