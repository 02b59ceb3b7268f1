//go:build !wasm

package server

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordedSession is a Live session of the tests' own: a script that
// grows as lines are recorded, which is all Live mode reads of the Kafka
// listener's.
type recordedSession struct {
	mu        sync.Mutex
	script    string
	followers map[chan string]bool
	refuse    string // Apply's error, when set
}

func newRecordedSession(script string) *recordedSession {
	return &recordedSession{script: script, followers: map[chan string]bool{}}
}

func (s *recordedSession) Follow() (string, <-chan string, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan string, 64)
	s.followers[ch] = true
	var once sync.Once
	return s.script, ch, func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.followers[ch] {
				delete(s.followers, ch)
				close(ch)
			}
		})
	}
}

// record appends lines and sends them to every follower.
func (s *recordedSession) record(lines string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script += lines
	for ch := range s.followers {
		ch <- lines
	}
}

// end ends the session: every follower's channel closes.
func (s *recordedSession) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.followers {
		delete(s.followers, ch)
		close(ch)
	}
}

func (s *recordedSession) Apply(stmt string) error {
	if s.refuse != "" {
		return errors.New(s.refuse)
	}
	s.record(stmt + "\n")
	return nil
}

// readEvent reads one server-sent event: its name and its data decoded.
func readEvent(t *testing.T, r *bufio.Reader) (string, string) {
	t.Helper()
	var event, data string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the stream: %v", err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" && event != "":
			var s string
			if err := json.Unmarshal([]byte(data), &s); err != nil {
				t.Fatalf("event %s: data %q: %v", event, data, err)
			}
			return event, s
		case strings.HasPrefix(line, "event: "):
			event = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data = line[len("data: "):]
		}
	}
}

// TestLiveModeStreamsTheSessionAndAppliesCards: a page following the
// live session gets its script, then each line recorded, then its end;
// a card's statement is applied and comes back with the stream; a
// statement the session refuses is answered with its reason.
func TestLiveModeStreamsTheSessionAndAppliesCards(t *testing.T) {
	sess := newRecordedSession("cluster brokers=1\ntopic orders\n")
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), Live: sess, WriteTimeout: 200 * time.Millisecond, ReadTimeout: 200 * time.Millisecond})
	addr, _ := serve(t, s)
	res, err := http.Get("http://" + addr + "/live/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("GET /live/events: %d %s", res.StatusCode, ct)
	}
	r := bufio.NewReader(res.Body)
	if ev, data := readEvent(t, r); ev != "script" || data != "cluster brokers=1\ntopic orders\n" {
		t.Fatalf("first event %s %q", ev, data)
	}
	// Past the server's read and write timeouts, the stream goes on.
	time.Sleep(300 * time.Millisecond)
	sess.record("client franz\n")
	if ev, data := readEvent(t, r); ev != "append" || data != "client franz\n" {
		t.Fatalf("then %s %q", ev, data)
	}

	post := func(body, lang string) (int, string) {
		res, err := http.Post("http://"+addr+"/live/apply?lang="+lang, "text/plain", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, _ := post("crash broker-0", "en"); code != http.StatusNoContent {
		t.Fatalf("a card's statement: %d", code)
	}
	if ev, data := readEvent(t, r); ev != "append" || data != "crash broker-0\n" {
		t.Fatalf("the card came back as %s %q", ev, data)
	}
	sess.refuse = `unknown node "broker-9"`
	if code, body := post("crash broker-9", "en"); code != http.StatusUnprocessableEntity || !strings.Contains(body, "broker-9") {
		t.Errorf("a refused statement: %d %q", code, body)
	}
	for _, tc := range []struct{ body, lang, want string }{
		{"", "zh", "没有语句"},
		{"run\nrun", "en", "one line only"},
		{strings.Repeat("x", maxStatementBytes+1), "en", "longer than"},
	} {
		if code, body := post(tc.body, tc.lang); code/100 != 4 || !strings.Contains(body, tc.want) {
			t.Errorf("POST %.20q: %d %q, want 4xx with %q", tc.body, code, body, tc.want)
		}
	}
	sess.end()
	if ev, _ := readEvent(t, r); ev != "end" {
		t.Fatalf("the session's end came as %s", ev)
	}
}

// TestLiveModeWithoutASession: a server started without --kafka says how
// to start one, in the page's language, and refuses other methods.
func TestLiveModeWithoutASession(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096))})
	if rec := get(t, s, "/live/events?lang=zh"); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "--kafka") || !strings.Contains(rec.Body.String(), "实时会话") {
		t.Errorf("no session: %d %q", rec.Code, rec.Body.String())
	}
	s2, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(4096)), Live: newRecordedSession("")})
	for _, tc := range []struct{ method, path string }{{http.MethodPost, "/live/events"}, {http.MethodGet, "/live/apply"}} {
		rec := httptest.NewRecorder()
		s2.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: %d", tc.method, tc.path, rec.Code)
		}
	}
}
