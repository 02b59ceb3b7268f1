//go:build !wasm

package server

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"txnlab/classroom"
)

// sharedNATS runs a NATS server on a loopback port, standing in for the
// cluster several txnlab servers share (--nats nats://…).
func sharedNATS(t testing.TB) string {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(), NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("NATS did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// classServer is a txnlab server with classes on natsURL ("" embeds one),
// served on a loopback port; it returns its base URL.
func classServer(t testing.TB, natsURL string) string {
	t.Helper()
	hub, err := classroom.Open(classroom.Config{NATSURL: natsURL, Rate: 1000, Burst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{WebDir: newWebDir(t.(*testing.T), fakeWasm(1000)), Classes: hub, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := serve(t.(*testing.T), s)
	t.Cleanup(func() { hub.Close() })
	return "http://" + addr
}

func call(t testing.TB, method, url string, headers map[string]string, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// sse is one event stream read as a browser's EventSource would.
type sse struct {
	res    *http.Response
	events chan classroom.Event
}

func openSSE(t testing.TB, url string) *sse {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("events: %d %s", res.StatusCode, b)
	}
	s := &sse{res: res, events: make(chan classroom.Event, 64)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
		var e classroom.Event
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				e.Name = line[7:]
			case strings.HasPrefix(line, "data: "):
				e.Data = []byte(line[6:])
			case line == "" && e.Name != "":
				s.events <- e
				e = classroom.Event{}
			}
		}
	}()
	t.Cleanup(func() { res.Body.Close() })
	return s
}

func (s *sse) next(t testing.TB, name string) []byte {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-s.events:
			if !ok {
				t.Fatalf("the stream ended before a %s event", name)
			}
			if e.Name == name {
				return e.Data
			}
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

// Two txnlab servers share one NATS: the instructor drives from one,
// students on the other follow, predict, and the instructor sees the
// tally and downloads it.
func TestAClassAcrossTwoServersOverHTTP(t *testing.T) {
	nats := sharedNATS(t)
	a, b := classServer(t, nats), classServer(t, nats)
	st, body := call(t, "POST", a+"/api/class/create", nil, "")
	if st != 200 {
		t.Fatalf("create: %d %s", st, body)
	}
	var c classroom.Created
	json.Unmarshal([]byte(body), &c)
	secret := map[string]string{"X-Class-Secret": c.Secret}
	teacher := openSSE(t, a+"/api/class/events?id="+c.ID+"&t="+c.View)

	var students []string
	var streams []*sse
	for _, name := range []string{"Ann", ""} {
		st, body := call(t, "POST", b+"/api/class/join", nil, `{"code":"`+classroom.FormatCode(c.Code)+`","name":"`+name+`"}`)
		if st != 200 {
			t.Fatalf("join: %d %s", st, body)
		}
		var j classroom.Joined
		json.Unmarshal([]byte(body), &j)
		students = append(students, j.Student)
		streams = append(streams, openSSE(t, b+"/api/class/events?id="+j.ID+"&t="+j.Student))
	}
	if st, body := call(t, "POST", a+"/api/class/state?id="+c.ID, secret, `{"script":"cluster brokers=3","step":5}`); st != 200 {
		t.Fatalf("state: %d %s", st, body)
	}
	for _, s := range streams {
		var got classroom.State
		json.Unmarshal(s.next(t, "state"), &got)
		if got.Step != 5 {
			t.Fatalf("student got %+v", got)
		}
	}
	call(t, "POST", a+"/api/class/question?id="+c.ID, secret, `{"action":"open","text":"Who reads it?","choices":["a","b"]}`)
	for i, s := range students {
		streams[i].next(t, "question")
		st, body := call(t, "POST", b+"/api/class/predict?id="+c.ID, map[string]string{"X-Class-Student": s}, `{"round":1,"choice":1,"sure":2}`)
		if st != 204 {
			t.Fatalf("predict: %d %s", st, body)
		}
	}
	for {
		var tl classroom.Tally
		json.Unmarshal(teacher.next(t, "tally"), &tl)
		if tl.Total == 2 {
			if tl.Counts[1] != 2 {
				t.Fatalf("tally %+v", tl)
			}
			break
		}
	}
	st, csv := call(t, "GET", b+"/api/class/results.csv?id="+c.ID, secret, "")
	if st != 200 || strings.Count(csv, "\n") != 3 || !strings.Contains(csv, "Who reads it?") {
		t.Fatalf("results: %d\n%s", st, csv)
	}
}

// Bad input is refused with a reason in the page's language, and a
// student cannot drive the class.
func TestClassRefusalsSayWhyInTheUsersLanguage(t *testing.T) {
	base := classServer(t, "")
	_, body := call(t, "POST", base+"/api/class/create", nil, "")
	var c classroom.Created
	json.Unmarshal([]byte(body), &c)
	for _, tc := range []struct {
		method, path string
		headers      map[string]string
		body         string
		status       int
		want         string
	}{
		{"POST", "/api/class/join?lang=zh", nil, `{"code":"nope"}`, 400, "加入码由 10 个字母"},
		{"POST", "/api/class/join", nil, `{"code":"0000000000"}`, 404, "No class has this join code"},
		{"POST", "/api/class/join?lang=zh", nil, `{"code":`, 400, "不是单个 JSON 对象"},
		{"POST", "/api/class/state?id=" + c.ID, map[string]string{"X-Class-Secret": c.View}, `{"script":"x","step":1}`, 403, "Only the class's instructor"},
		{"POST", "/api/class/state?lang=zh&id=" + c.ID, map[string]string{"X-Class-Secret": c.Secret}, `{"script":"x","step":-3}`, 400, "步骤超出了范围"},
		{"POST", "/api/class/state?id=" + c.ID, map[string]string{"X-Class-Secret": c.Secret}, `{"script":"` + strings.Repeat("x", classroom.MaxMessage) + `"}`, 413, "over"},
		{"GET", "/api/class/state?id=" + c.ID, nil, ``, 405, "does not take"},
		{"GET", "/api/class/events?id=" + c.ID + "&t=" + c.Secret, nil, ``, 403, "not in this class"},
		{"POST", "/api/class/predict?id=" + c.ID, map[string]string{"X-Class-Student": "0123456789abcdef"}, `{"round":1,"choice":0,"sure":0}`, 403, "not in this class"},
		{"POST", "/api/class/launch", nil, ``, 404, "no such class operation"},
	} {
		st, body := call(t, tc.method, base+tc.path, tc.headers, tc.body)
		if st != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s: %d %q, want %d %q", tc.method, tc.path, st, body, tc.status, tc.want)
		}
	}
	// A server without classes says so.
	s, _ := newServer(t, Config{WebDir: newWebDir(t, fakeWasm(1000))})
	if rec := get(t, s, "/api/class/create"); rec.Code != 404 || !strings.Contains(rec.Body.String(), "runs no classes") {
		t.Fatalf("no classes: %d %s", rec.Code, rec.Body)
	}
}

// A client over its rate is refused 429 with a reason, and the class is
// unchanged by what was refused.
func TestAClientOverItsRateIsRefused(t *testing.T) {
	hub, err := classroom.Open(classroom.Config{Rate: 0.001, Burst: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	s, err := New(Config{WebDir: newWebDir(t, fakeWasm(1000)), Classes: hub, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := serve(t, s)
	base := "http://" + addr
	_, body := call(t, "POST", base+"/api/class/create", nil, "")
	var c classroom.Created
	json.Unmarshal([]byte(body), &c)
	secret := map[string]string{"X-Class-Secret": c.Secret}
	var got []int
	for step := range 3 {
		st, _ := call(t, "POST", base+"/api/class/state?id="+c.ID, secret, `{"script":"x","step":`+string(rune('1'+step))+`}`)
		got = append(got, st)
	}
	if got[0] != 200 || got[1] != 200 || got[2] != 429 {
		t.Fatalf("statuses %v, want 200 200 429", got)
	}
}
