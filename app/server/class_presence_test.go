//go:build !wasm

package server

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"txnlab/classroom"
)

// presenceServer is classServer with a short presence TTL.
func presenceServer(t *testing.T, natsURL string, ttl time.Duration) string {
	t.Helper()
	hub, err := classroom.Open(classroom.Config{NATSURL: natsURL, Rate: 1000, Burst: 1000, PresenceTTL: ttl})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{WebDir: newWebDir(t, fakeWasm(1000)), Classes: hub, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := serve(t, s)
	t.Cleanup(func() { hub.Close() })
	return "http://" + addr
}

// A student's page that answers its stream's beats stays in the
// instructor's count; one that goes silent leaves it; one that closes
// its stream leaves it too. Instructor and students are on two servers
// sharing one NATS.
func TestTheCountKeepsWhoAnswersTheBeat(t *testing.T) {
	nats := sharedNATS(t)
	a, b := presenceServer(t, nats, 3*time.Second), presenceServer(t, nats, 3*time.Second)
	_, body := call(t, "POST", a+"/api/class/create", nil, "")
	var c classroom.Created
	json.Unmarshal([]byte(body), &c)
	teacher := openSSE(t, a+"/api/class/events?id="+c.ID+"&t="+c.View)
	count := func(n int) []string {
		t.Helper()
		for {
			var who struct {
				Count int
				Names []string
			}
			json.Unmarshal(teacher.next(t, "students"), &who)
			if who.Count == n {
				return who.Names
			}
		}
	}
	var streams []*sse
	var tokens []string
	for _, name := range []string{"Ann", "Bo"} {
		st, body := call(t, "POST", b+"/api/class/join", nil, `{"code":"`+c.Code+`","name":"`+name+`"}`)
		if st != 200 {
			t.Fatalf("join: %d %s", st, body)
		}
		var j classroom.Joined
		json.Unmarshal([]byte(body), &j)
		tokens = append(tokens, j.Student)
		streams = append(streams, openSSE(t, b+"/api/class/events?id="+j.ID+"&t="+j.Student))
	}
	count(2)
	// Ann's page answers each beat, as the browser does; Bo's is silent.
	stop := make(chan struct{})
	answered := make(chan int, 1)
	go func() {
		n := 0
		for e := range streams[0].events {
			if e.Name != "beat" {
				continue
			}
			select {
			case <-stop:
				return
			default:
			}
			st, _ := call(t, "POST", b+"/api/class/here?id="+c.ID, map[string]string{"X-Class-Student": tokens[0]}, "")
			if st == 204 {
				n++
				select {
				case answered <- n:
				default:
				}
			}
		}
	}()
	if names := count(1); fmt.Sprint(names) != "[Ann]" {
		t.Fatalf("after Bo went silent: %v", names)
	}
	<-answered
	close(stop)
	streams[0].res.Body.Close()
	count(0)
	// A beat answered with a token of no student is refused.
	if st, body := call(t, "POST", b+"/api/class/here?lang=zh&id="+c.ID, map[string]string{"X-Class-Student": "0123456789abcdef"}, ""); st != 403 || !strings.Contains(body, "你") {
		t.Fatalf("a stranger's beat: %d %s", st, body)
	}
}

// The join link's QR code is served as SVG for a class's code, and
// refused with a reason in the page's language for a code that is
// malformed or no class's.
func TestTheJoinLinksQRCode(t *testing.T) {
	base := classServer(t, "")
	_, body := call(t, "POST", base+"/api/class/create", nil, "")
	var c classroom.Created
	json.Unmarshal([]byte(body), &c)
	for _, tc := range []struct {
		query  string
		status int
		want   string
	}{
		{"code=" + c.Code, 200, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 `},
		{"lang=zh&code=" + strings.ToLower(classroom.FormatCode(c.Code)), 200, `<path fill="#000" d="M`},
		{"lang=zh&code=nope", 400, "加入码由 10 个字母"},
		{"code=", 400, "A join code has 10"},
		{"code=0000000000", 404, "No class has this join code"},
		{"lang=zh&code=0000000000", 404, "没有课堂使用这个加入码"},
	} {
		st, body := call(t, "GET", base+"/api/class/qr.svg?"+tc.query, nil, "")
		if st != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s: %d %.120q, want %d %q", tc.query, st, body, tc.status, tc.want)
		}
	}
	if st, _ := call(t, "POST", base+"/api/class/qr.svg?code="+c.Code, nil, ""); st != 405 {
		t.Errorf("POST qr.svg: %d", st)
	}
}

// The service worker leaves the class API to the network: a class's
// event stream fetched by the worker outlived the page that closed it,
// and the student stayed in the count.
func TestTheWorkerLeavesTheClassAPIAlone(t *testing.T) {
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(1000))})
	rec := get(t, s, "/app-worker.js")
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), `pathname.startsWith("/api/")`) {
		t.Fatalf("app-worker.js (%d) does not leave /api/ to the network:\n%.400s", rec.Code, rec.Body)
	}
}
