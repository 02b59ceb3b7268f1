//go:build !wasm

package classroom

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

func openHub(t testing.TB, cfg Config) *Hub {
	t.Helper()
	h, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// next waits for f's next event named name, skipping others; a class test
// waits for what a page would show, however long the machine takes.
func next(t testing.TB, f *Follower, name string) []byte {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case e, ok := <-f.Events:
			if !ok {
				t.Fatalf("the stream closed before a %s event", name)
			}
			if e.Name == name {
				return e.Data
			}
		case <-deadline:
			t.Fatalf("no %s event", name)
		}
	}
}

// nextTally waits for a tally with total votes.
func nextTally(t testing.TB, f *Follower, total int) Tally {
	t.Helper()
	for {
		var tl Tally
		json.Unmarshal(next(t, f, "tally"), &tl)
		if tl.Total == total {
			return tl
		}
	}
}

func refusedWith(t *testing.T, err error, status int, key string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Status != status || e.Key != key {
		t.Fatalf("got %v, want %d %s", err, status, key)
	}
}

func TestAClassFollowsItsInstructorAndTalliesPredictions(t *testing.T) {
	h := openHub(t, Config{})
	c, err := h.Create("test")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := h.Follow(c.ID, c.View)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Close()
	var students []*Follower
	var tokens []string
	for i, name := range []string{"Ann", ""} {
		j, err := h.Join(JoinIn{Code: strings.ToLower(FormatCode(c.Code)), Name: name})
		if err != nil {
			t.Fatal(i, err)
		}
		f, err := h.Follow(j.ID, j.Student)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		students = append(students, f)
		tokens = append(tokens, j.Student)
	}
	if _, err := h.SetState(c.ID, c.Secret, StateIn{Script: "cluster brokers=3\n", Step: 4}); err != nil {
		t.Fatal(err)
	}
	for _, f := range students {
		var s State
		json.Unmarshal(next(t, f, "state"), &s)
		if s.Step != 4 || s.Script != "cluster brokers=3\n" {
			t.Fatalf("a student follows %+v", s)
		}
	}
	q, err := h.Ask(c.ID, c.Secret, QuestionIn{Action: "open", ID: "q-markers-fail", Text: "Who sees the records?", Choices: []string{"nobody", "read_uncommitted", "everyone"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range students {
		next(t, f, "question")
	}
	for i, tok := range tokens {
		if err := h.Predict(c.ID, tok, PredictIn{Round: q.Round, Choice: i, Sure: 2}); err != nil {
			t.Fatal(err)
		}
	}
	tl := nextTally(t, teacher, 2)
	if fmt.Sprint(tl.Counts) != "[1 1 0]" || tl.Sure[0][2] != 1 {
		t.Fatalf("tally %+v", tl)
	}
	// The second round: both now pick choice 1; the tally shows the first
	// round beside it.
	q2, err := h.Ask(c.ID, c.Secret, QuestionIn{Action: "again"})
	if err != nil || q2.Of != q.Round || q2.Round != q.Round+1 {
		t.Fatalf("again: %+v %v", q2, err)
	}
	for _, tok := range tokens {
		if err := h.Predict(c.ID, tok, PredictIn{Round: q2.Round, Choice: 1, Sure: 1}); err != nil {
			t.Fatal(err)
		}
	}
	tl = nextTally(t, teacher, 2)
	if fmt.Sprint(tl.Counts) != "[0 2 0]" || tl.Prev == nil || fmt.Sprint(tl.Prev.Counts) != "[1 1 0]" {
		t.Fatalf("second tally %+v prev %+v", tl, tl.Prev)
	}
	if _, err := h.Ask(c.ID, c.Secret, QuestionIn{Action: "close"}); err != nil {
		t.Fatal(err)
	}
	refusedWith(t, h.Predict(c.ID, tokens[0], PredictIn{Round: q2.Round, Choice: 0}), 409, "class.err.closed")

	rows, err := h.Results(c.ID, c.Secret)
	if err != nil || len(rows) != 4 {
		t.Fatalf("results %+v %v", rows, err)
	}
	var csv bytes.Buffer
	WriteCSV(&csv, rows)
	if !strings.Contains(csv.String(), "2,1,Who sees the records?,1,1,read_uncommitted,fairly sure") || strings.Contains(csv.String(), "Ann") {
		t.Fatalf("CSV:\n%s", csv.String())
	}
	// The instructor sees who is in: one name, two students.
	var who struct {
		Count int
		Names []string
	}
	late, _ := h.Follow(c.ID, c.View)
	defer late.Close()
	json.Unmarshal(next(t, late, "students"), &who)
	if who.Count != 2 || fmt.Sprint(who.Names) != "[Ann]" {
		t.Fatalf("students %+v", who)
	}
	// Ending the class ends every stream and frees the code.
	if err := h.End(c.ID, c.Secret); err != nil {
		t.Fatal(err)
	}
	next(t, students[0], "ended")
	_, err = h.Join(JoinIn{Code: c.Code})
	refusedWith(t, err, 404, "class.err.nocode")
}

func TestALateJoinerGetsTheCurrentState(t *testing.T) {
	h := openHub(t, Config{})
	c, _ := h.Create("test")
	for step := range 3 {
		if _, err := h.SetState(c.ID, c.Secret, StateIn{Script: "x", Step: step}); err != nil {
			t.Fatal(err)
		}
	}
	h.Ask(c.ID, c.Secret, QuestionIn{Action: "open", Text: "?", Choices: []string{"a", "b"}})
	j, err := h.Join(JoinIn{Code: c.Code})
	if err != nil {
		t.Fatal(err)
	}
	f, err := h.Follow(j.ID, j.Student)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var s State
	json.Unmarshal(next(t, f, "state"), &s)
	var q Question
	json.Unmarshal(next(t, f, "question"), &q)
	if s.Step != 2 || !q.Open || q.Round != 1 {
		t.Fatalf("late joiner got %+v %+v", s, q)
	}
}

// Only the secret drives a class; a student's token, the view token, the
// join code or another class's secret are refused and change nothing.
func TestOnlyTheSecretDrivesAndClassesAreApart(t *testing.T) {
	h := openHub(t, Config{MaxStudents: 1})
	a, _ := h.Create("test")
	b, _ := h.Create("test")
	ja, err := h.Join(JoinIn{Code: a.Code})
	if err != nil {
		t.Fatal(err)
	}
	h.SetState(a.ID, a.Secret, StateIn{Script: "a", Step: 1})
	for _, tc := range []struct {
		name, id, secret string
	}{
		{"the view token", a.ID, a.View},
		{"the join code", a.ID, a.Code},
		{"a student's token", a.ID, ja.Student},
		{"another class's secret", a.ID, b.Secret},
		{"no secret", a.ID, ""},
	} {
		_, err := h.SetState(tc.id, tc.secret, StateIn{Script: "evil", Step: 9})
		refusedWith(t, err, 403, "class.err.secret")
		_, err = h.Ask(tc.id, tc.secret, QuestionIn{Action: "open", Text: "?", Choices: []string{"a", "b"}})
		refusedWith(t, err, 403, "class.err.secret")
		_, err = h.Results(tc.id, tc.secret)
		refusedWith(t, err, 403, "class.err.secret")
	}
	// A's student cannot follow B; B's follower never sees A's state.
	_, err = h.Follow(b.ID, ja.Student)
	refusedWith(t, err, 403, "class.err.student")
	fb, _ := h.Follow(b.ID, b.View)
	defer fb.Close()
	h.SetState(b.ID, b.Secret, StateIn{Script: "b", Step: 7})
	var s State
	json.Unmarshal(next(t, fb, "state"), &s)
	if s.Script != "b" {
		t.Fatalf("class B follows %+v", s)
	}
	fa, _ := h.Follow(a.ID, ja.Student)
	defer fa.Close()
	json.Unmarshal(next(t, fa, "state"), &s)
	if s.Script != "a" || s.Step != 1 {
		t.Fatalf("a refused message changed class A: %+v", s)
	}
	// The bound on students; codes that are wrong, typed oddly, absent.
	_, err = h.Join(JoinIn{Code: a.Code})
	refusedWith(t, err, 409, "class.err.full")
	for _, code := range []string{"", "short", strings.Repeat("Z", 11), "UUUUUUUUUU"} {
		_, err = h.Join(JoinIn{Code: code})
		refusedWith(t, err, 400, "class.err.code")
	}
	_, err = h.Join(JoinIn{Code: "0000000000"})
	refusedWith(t, err, 404, "class.err.nocode")
	_, err = h.Follow("../../etc", a.View)
	refusedWith(t, err, 404, "class.err.noclass")
}

func TestTheClassesBoundAndExpiry(t *testing.T) {
	h := openHub(t, Config{MaxClasses: 1, ClassTTL: time.Second})
	c, err := h.Create("test")
	if err != nil {
		t.Fatal(err)
	}
	_, err = h.Create("test")
	refusedWith(t, err, 503, "class.err.classes")
	// One address cannot take every class.
	h2 := openHub(t, Config{MaxClassesPerOwner: 1})
	if _, err := h2.Create("10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	_, err = h2.Create("10.0.0.1")
	refusedWith(t, err, 429, "class.err.yours")
	if _, err := h2.Create("10.0.0.2"); err != nil {
		t.Fatalf("another address: %v", err)
	}
	// Past its end the class refuses everything (the bucket's TTL then
	// forgets it).
	for time.Now().Unix() < c.Expires {
		time.Sleep(100 * time.Millisecond)
	}
	_, err = h.SetState(c.ID, c.Secret, StateIn{})
	if err == nil {
		t.Fatal("an expired class took a state")
	}
	if _, err := h.Create("test"); err != nil {
		t.Fatalf("an expired class still counts against the bound: %v", err)
	}
}

func TestMalformedMessagesAreRefusedWithAReason(t *testing.T) {
	for _, tc := range []struct {
		body string
		into any
		key  string
	}{
		{`{"script":"x","step":-1}`, &StateIn{}, "class.err.step"},
		{`{"script":"x","step":"one"}`, &StateIn{}, "class.err.type"},
		{`{"script":"x","extra":1}`, &StateIn{}, "class.err.field"},
		{`{"script":"x"} {}`, &StateIn{}, "class.err.json"},
		{`not json`, &StateIn{}, "class.err.json"},
		{`{"script":"x","lesson":"../x"}`, &StateIn{}, "class.err.lesson"},
		{`{"script":"x","lesson":"03-x","block":"a b"}`, &StateIn{}, "class.err.block"},
		{`{"script":"x","block":"overview"}`, &StateIn{}, "class.err.block"},
		{`{"script":"` + strings.Repeat("a", MaxScript+1) + `"}`, &StateIn{}, "class.err.script"},
		{`{"script":"` + strings.Repeat("a", MaxMessage) + `"}`, &StateIn{}, "class.err.toobig"},
		{`{"action":"shout"}`, &QuestionIn{}, "class.err.action"},
		{`{"action":"open","text":"?","choices":["a"]}`, &QuestionIn{}, "class.err.choices"},
		{`{"action":"open","text":" ","choices":["a","b"]}`, &QuestionIn{}, "class.err.question"},
		{`{"code":"ABCDE-FGHJK","name":"` + strings.Repeat("名", MaxName+1) + `"}`, &JoinIn{}, "class.err.name"},
		{`{"code":"ABCDE-FGHJK","name":"a\u0007"}`, &JoinIn{}, "class.err.name"},
		{`{"round":1,"choice":99,"sure":0}`, &PredictIn{}, "class.err.choice"},
		{`{"round":1,"choice":0,"sure":3}`, &PredictIn{}, "class.err.sure"},
		{`{"round":0,"choice":0,"sure":0}`, &PredictIn{}, "class.err.round"},
	} {
		err := Decode(strings.NewReader(tc.body), tc.into)
		var e *Error
		if !errors.As(err, &e) || e.Key != tc.key || e.Status < 400 || e.Status > 499 {
			t.Errorf("%.60s: got %v, want %s", tc.body, err, tc.key)
		}
	}
	var j JoinIn
	if err := Decode(strings.NewReader(`{"code":"abcde-fghjk","name":" Ann "}`), &j); err != nil || j.Code != "ABCDEFGHJK" || j.Name != "Ann" {
		t.Fatalf("a good join: %+v %v", j, err)
	}
}

// startNATS runs a NATS server on a loopback port with file storage in dir,
// standing in for the operator's cluster; port 0 picks one.
func startNATS(t testing.TB, dir string, port int) *server.Server {
	t.Helper()
	if port == 0 {
		port = -1
	}
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: port, JetStream: true, StoreDir: dir, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		t.Fatal("NATS did not start")
	}
	return ns
}

// Two txnlab hubs share one external NATS: a class made on one is joined,
// driven and tallied through the other. Then NATS goes away: the
// instructor's stream says so, votes are refused (not lost), and when
// NATS is back the class resumes with every acknowledged vote.
func TestTwoHubsShareANATSThatGoesAwayAndComesBack(t *testing.T) {
	dir := t.TempDir()
	ns := startNATS(t, dir, 0)
	url := ns.ClientURL()
	a := openHub(t, Config{NATSURL: url})
	b := openHub(t, Config{NATSURL: url})
	c, err := a.Create("test")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := a.Follow(c.ID, c.View)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Close()
	j, err := b.Join(JoinIn{Code: c.Code})
	if err != nil {
		t.Fatal(err)
	}
	student, err := b.Follow(j.ID, j.Student)
	if err != nil {
		t.Fatal(err)
	}
	defer student.Close()
	a.SetState(c.ID, c.Secret, StateIn{Script: "s", Step: 3})
	var s State
	json.Unmarshal(next(t, student, "state"), &s)
	if s.Step != 3 {
		t.Fatalf("student on the other server follows %+v", s)
	}
	q, _ := a.Ask(c.ID, c.Secret, QuestionIn{Action: "open", Text: "?", Choices: []string{"a", "b"}})
	next(t, student, "question")
	if err := b.Predict(c.ID, j.Student, PredictIn{Round: q.Round, Choice: 1, Sure: 2}); err != nil {
		t.Fatal(err)
	}
	nextTally(t, teacher, 1)

	natsPort := ns.Addr().(*net.TCPAddr).Port
	ns.Shutdown()
	ns.WaitForShutdown()
	if up := next(t, teacher, "nats"); string(up) != `{"up":false}` {
		t.Fatalf("nats event %s", up)
	}
	refusedWith(t, b.Predict(c.ID, j.Student, PredictIn{Round: q.Round, Choice: 0, Sure: 0}), 503, "class.err.nats")

	ns = startNATS(t, dir, natsPort)
	defer ns.Shutdown()
	if up := next(t, teacher, "nats"); string(up) != `{"up":true}` {
		t.Fatalf("nats event %s", up)
	}
	rows, err := a.Results(c.ID, c.Secret)
	if err != nil || len(rows) != 1 || rows[0].Choice != 1 {
		t.Fatalf("after the restart: %+v %v", rows, err)
	}
	// The class goes on: a new step reaches the student on the other
	// server.
	for {
		if _, err := a.SetState(c.ID, c.Secret, StateIn{Script: "s", Step: 4}); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for {
		json.Unmarshal(next(t, student, "state"), &s)
		if s.Step == 4 {
			break
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"script":"x","step":2}`, `{"script":"","lesson":"03-x","block":"overview","step":1}`, `{"action":"open","text":"?","choices":["a","b"]}`, `{"code":"ABCDE-FGHJK","name":"Ann"}`, `{"round":1,"choice":0,"sure":2}`, `{"a":`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, v := range []any{&StateIn{}, &QuestionIn{}, &JoinIn{}, &PredictIn{}} {
			err := Decode(bytes.NewReader(b), v)
			if err == nil {
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Status < 400 || e.Status > 499 || e.Key == "" {
				t.Fatalf("refusal without a 4xx reason: %v", err)
			}
		}
	})
}

// Students joining at once through two hubs all get seats, and the
// count of seats is exact: the compare-and-set retries a lost race.
func TestConcurrentJoinsCountEverySeat(t *testing.T) {
	url := startNATS(t, t.TempDir(), 0).ClientURL()
	a := openHub(t, Config{NATSURL: url, MaxStudents: 40})
	b := openHub(t, Config{NATSURL: url, MaxStudents: 40})
	c, _ := a.Create("test")
	errs := make(chan error, 50)
	for i := range 50 {
		h := a
		if i%2 == 1 {
			h = b
		}
		go func() { _, err := h.Join(JoinIn{Code: c.Code}); errs <- err }()
	}
	ok, full := 0, 0
	for range 50 {
		var e *Error
		switch err := <-errs; {
		case err == nil:
			ok++
		case errors.As(err, &e) && e.Key == "class.err.full":
			full++
		default:
			t.Fatal(err)
		}
	}
	// The count is shared: exactly 40 seats, whichever hub admitted.
	if ok != 40 || full != 10 {
		t.Fatalf("%d joined, %d refused", ok, full)
	}
}

// nextStudents waits for the instructor's "who is in" to count n.
func nextStudents(t testing.TB, f *Follower, n int) []string {
	t.Helper()
	for {
		var who struct {
			Count int
			Names []string
		}
		json.Unmarshal(next(t, f, "students"), &who)
		if who.Count == n {
			return who.Names
		}
	}
}

// A student who closes the tab leaves the instructor's count at once,
// though the instructor is on another server: the sign of presence lasts
// 30 s, longer than next waits, so only the stream's end can have done it.
func TestAStudentWhoClosesTheTabLeavesTheCount(t *testing.T) {
	ns := startNATS(t, t.TempDir(), 0)
	defer ns.Shutdown()
	a := openHub(t, Config{NATSURL: ns.ClientURL()})
	b := openHub(t, Config{NATSURL: ns.ClientURL()})
	c, err := a.Create("test")
	if err != nil {
		t.Fatal(err)
	}
	teacher, err := a.Follow(c.ID, c.View)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Close()
	var students []*Follower
	for _, name := range []string{"Ann", "Bo"} {
		j, err := b.Join(JoinIn{Code: c.Code, Name: name})
		if err != nil {
			t.Fatal(err)
		}
		f, err := b.Follow(j.ID, j.Student)
		if err != nil {
			t.Fatal(err)
		}
		students = append(students, f)
	}
	if names := nextStudents(t, teacher, 2); fmt.Sprint(names) != "[Ann Bo]" {
		t.Fatalf("two in: %v", names)
	}
	students[0].Close()
	if names := nextStudents(t, teacher, 1); fmt.Sprint(names) != "[Bo]" {
		t.Fatalf("after Ann left: %v", names)
	}
	students[1].Close()
	nextStudents(t, teacher, 0)
	// A late instructor's page counts who is in, not who ever joined.
	late, _ := a.Follow(c.ID, c.View)
	defer late.Close()
	nextStudents(t, late, 0)
}

// A student whose page goes silent (a phone out of reach: its stream
// still open on the server, no answer to the beats) leaves the count once
// the last sign is older than the TTL; an answer brings them back. The
// student is on one server, the instructor on another.
func TestASilentStudentExpiresFromTheCount(t *testing.T) {
	ns := startNATS(t, t.TempDir(), 0)
	defer ns.Shutdown()
	cfg := Config{NATSURL: ns.ClientURL(), PresenceTTL: 600 * time.Millisecond}
	a, b := openHub(t, cfg), openHub(t, cfg)
	if b.Beat() != 200*time.Millisecond {
		t.Fatalf("beat %v for a TTL of %v", b.Beat(), cfg.PresenceTTL)
	}
	c, _ := a.Create("test")
	teacher, err := a.Follow(c.ID, c.View)
	if err != nil {
		t.Fatal(err)
	}
	defer teacher.Close()
	j, err := b.Join(JoinIn{Code: c.Code})
	if err != nil {
		t.Fatal(err)
	}
	f, err := b.Follow(j.ID, j.Student)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	nextStudents(t, teacher, 1)
	nextStudents(t, teacher, 0) // no answer to the beats
	if err := b.Here(j.ID, j.Student); err != nil {
		t.Fatal(err)
	}
	nextStudents(t, teacher, 1)
	// Only a student of the class can give a sign.
	refusedWith(t, b.Here(j.ID, "0123456789abcdef"), 403, "class.err.student")
	refusedWith(t, b.Here(j.ID, "../x"), 403, "class.err.student")
	refusedWith(t, b.Here("nope", j.Student), 404, "class.err.noclass")
}

// With a store directory the embedded NATS keeps its classes on disk: the
// process restarts, and the class goes on with the same code, secret and
// students. Without one, a restart loses it (the default).
func TestAClassOutlivesARestartWithAStore(t *testing.T) {
	dir := t.TempDir()
	h, err := Open(Config{Store: dir})
	if err != nil {
		t.Fatal(err)
	}
	c, err := h.Create("test")
	if err != nil {
		t.Fatal(err)
	}
	j, err := h.Join(JoinIn{Code: c.Code, Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.SetState(c.ID, c.Secret, StateIn{Script: "s", Step: 2}); err != nil {
		t.Fatal(err)
	}
	h.Close()

	h = openHub(t, Config{Store: dir})
	if _, err := h.SetState(c.ID, c.Secret, StateIn{Script: "s", Step: 3}); err != nil {
		t.Fatalf("the instructor after the restart: %v", err)
	}
	f, err := h.Follow(j.ID, j.Student)
	if err != nil {
		t.Fatalf("the student after the restart: %v", err)
	}
	defer f.Close()
	var s State
	json.Unmarshal(next(t, f, "state"), &s)
	if s.Step != 3 {
		t.Fatalf("after the restart the student follows %+v", s)
	}
	if _, err := h.Join(JoinIn{Code: c.Code}); err != nil {
		t.Fatalf("the code after the restart: %v", err)
	}

	mem := openHub(t, Config{})
	c2, _ := mem.Create("test")
	mem.Close()
	mem = openHub(t, Config{})
	_, err = mem.Join(JoinIn{Code: c2.Code})
	refusedWith(t, err, 404, "class.err.nocode")
}

// Closing the hub closes its own NATS connection: that is a shutdown,
// not NATS lost, and the operator's log must not say "NATS lost (<nil>)"
// at every stop of txnlab serve.
func TestClosingIsNotLosingNATS(t *testing.T) {
	var mu sync.Mutex
	var said []string
	h, err := Open(Config{Log: func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		said = append(said, fmt.Sprintf(format, args...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the client's disconnect callback runs on its own goroutine
	mu.Lock()
	defer mu.Unlock()
	for _, s := range said {
		if strings.Contains(s, "NATS lost") {
			t.Errorf("closing logged %q", s)
		}
	}
}
