package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"txnlab/app/server"
	"txnlab/core/scenario"
	"txnlab/kafkalistener"
	"txnlab/lessons"
	"txnlab/scenarios"
)

// growingSession is a Live session of the test's own: a script that grows
// as lines are recorded, which is all Live mode reads of the Kafka
// listener's session; the listener's own test drives real clients.
type growingSession struct {
	mu        sync.Mutex
	script    string
	applied   []string
	followers []chan string
}

func (s *growingSession) Follow() (string, <-chan string, func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan string, 64)
	s.followers = append(s.followers, ch)
	return s.script, ch, func() {}
}

func (s *growingSession) record(lines string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script += lines
	for _, ch := range s.followers {
		ch <- lines
	}
}

func (s *growingSession) Apply(stmt string) error {
	s.mu.Lock()
	s.applied = append(s.applied, stmt)
	s.mu.Unlock()
	s.record(stmt + "\n")
	return nil
}

// TestLiveModeFollowsTheSession: the playground at ?live=1 shows the
// session's script and runs it, follows each line recorded after it to
// the newest step, and a card pressed there is sent to the session,
// which records it; the Chinese page says so in Chinese.
func TestLiveModeFollowsTheSession(t *testing.T) {
	sc, _ := scenarios.Get("happy-path")
	lines := strings.SplitAfter(sc.Script, "\n")
	half := len(lines) / 2
	sess := &growingSession{script: strings.Join(lines[:half], "")}
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{WebDir: filepath.Join(repoRoot, "web"), Lessons: course, Live: sess})
	if err != nil {
		t.Fatal(err)
	}
	site, _ := serve(t, srv)
	b := newBrowser(t)
	b.openURL(site + "/playground?live=1")
	b.waitFor("the session's script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(sess.script))
	b.waitFor("following", `document.querySelector(".live-status")?.dataset.live === "following"`)
	waitIdle(b)
	atEnd := `(() => { const m = (document.querySelector(".status .position") || {}).textContent.match(/^Step (\d+) of (\d+)$/); return !!m && m[1] === m[2] && m[2] !== "0" })()`
	b.waitFor("the newest step", atEnd)
	before := eval[string](b, `document.querySelector(".status .position").textContent`)

	sess.record(strings.Join(lines[half:], ""))
	b.waitFor("the recorded lines", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(sc.Script))
	waitIdle(b)
	b.waitFor("the newest step of the longer script", atEnd+` && document.querySelector(".status .position").textContent !== `+jsString(before))

	b.click(card("broker-0") + ` button[data-stmt="crash broker-0"]`)
	b.waitFor("the card recorded", `document.querySelector(`+jsString(selScript)+`).value.endsWith("crash broker-0\n")`)
	sess.mu.Lock()
	applied := append([]string(nil), sess.applied...)
	sess.mu.Unlock()
	if len(applied) != 1 || applied[0] != "crash broker-0" {
		t.Errorf("the session applied %q", applied)
	}

	zh := newBrowser(t)
	zh.openURL(site + "/zh/playground?live=1")
	zh.waitFor("following", `document.querySelector(".live-status")?.dataset.live === "following"`)
	if got := zh.text(".live-status"); !strings.Contains(got, "实时") || strings.Contains(got, "Live") {
		t.Errorf("the Chinese status reads %q", got)
	}
}

// TestLiveModeWithoutASessionSaysHowToStartOne: the site run without
// --kafka answers Live mode with how to start a session, and the page
// stays usable.
func TestLiveModeWithoutASessionSaysHowToStartOne(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground?live=1")
	b.waitFor("the absent session", `document.querySelector(".live-status")?.dataset.live === "absent"`)
	if got := b.text(".live-status"); !strings.Contains(got, "--kafka") {
		t.Errorf("the status reads %q", got)
	}
	for _, m := range b.takeConsoleErrors() {
		if !strings.Contains(m.Text, "404") && !strings.Contains(m.Text, "EventSource") {
			t.Errorf("console: %s", m.Text)
		}
	}
}

// startListener runs a Kafka listener over src's cluster until the test
// ends.
func startListener(t *testing.T, src string) *kafkalistener.Listener {
	t.Helper()
	var log strings.Builder
	l, err := kafkalistener.FromScript(kafkalistener.Config{Host: "127.0.0.1", Log: &log}, "setup", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("listener: %v", err)
		}
		if t.Failed() {
			t.Logf("listener log:\n%s", log.String())
		}
	})
	return l
}

// TestLiveModeFollowsARealClient is issue 27's walk: franz-go's kgo runs
// a transaction against `txnlab serve --kafka`; the playground in Live
// mode shows its requests as they happen; the learner crashes the
// transaction coordinator from its card; the client carries on and
// commits again; and the page's script is the listener's recording,
// whose replay the listener's own tests hold to the live digest.
func TestLiveModeFollowsARealClient(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	l := startListener(t, "cluster brokers=3\ntopic orders partitions=1 rf=3\n")
	course, err := lessons.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{WebDir: filepath.Join(repoRoot, "web"), Lessons: course, Live: l})
	if err != nil {
		t.Fatal(err)
	}
	site, _ := serve(t, srv)
	b := newBrowser(t)
	b.openURL(site + "/playground?live=1")
	b.waitFor("following", `document.querySelector(".live-status")?.dataset.live === "following"`)

	newClient := func() *kgo.Client {
		cl, err := kgo.NewClient(kgo.SeedBrokers(l.Addrs()...), kgo.ClientID("shop"), kgo.TransactionalID("order-txn"),
			kgo.DefaultProduceTopic("orders"), kgo.RecordPartitioner(kgo.ManualPartitioner()))
		if err != nil {
			t.Fatal(err)
		}
		return cl
	}
	cl := newClient()
	defer func() { cl.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	try := func(value string) error {
		if err := cl.BeginTransaction(); err != nil {
			return err
		}
		if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte(value)}).FirstErr(); err != nil {
			return err
		}
		return cl.EndTransaction(ctx, kgo.TryCommit)
	}
	// An application commits again after a failure with a new client:
	// kgo takes an "unknown broker" met while the coordinator moves as
	// fatal for its producer id (kafkalistener's retryTxn says when).
	commit := func(value string) {
		t.Helper()
		err := try(value)
		for n := 1; err != nil && n < 3; n++ {
			t.Logf("commit %s: %v; a new client tries again", value, err)
			cl.Close()
			time.Sleep(500 * time.Millisecond)
			cl = newClient()
			err = try(value)
		}
		if err != nil {
			t.Fatalf("commit %s: %v", value, err)
		}
	}
	commit("first")
	script := func() string { return eval[string](b, `document.querySelector(`+jsString(selScript)+`).value`) }
	b.waitFor("the client's commit in the script", `/request EndTxn from=shop .*Committed=true/.test(document.querySelector(`+jsString(selScript)+`).value)`)
	for _, want := range []string{"client shop", "request InitProducerId from=shop", "request AddPartitionsToTxn from=shop", "request Produce from=shop"} {
		if !strings.Contains(script(), want) {
			t.Errorf("the live script lacks %q", want)
		}
	}
	waitIdle(b)

	// The coordinator's card: crash it. Which broker it is, the
	// recording says (replayed natively, asked as a lesson's facts ask).
	coord := replayQuery(t, l.Recording(), "coordinator order-txn broker")
	if !strings.HasPrefix(coord, "broker-") {
		t.Fatalf("the recording names no coordinator of order-txn (got %q)", coord)
	}
	b.click(card(coord) + ` button[data-stmt="crash ` + coord + `"]`)
	b.waitFor("the crash in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("crash `+coord+`\n")`)

	commit("second")
	b.waitFor("the commit after the crash", `(document.querySelector(`+jsString(selScript)+`).value.match(/request EndTxn from=shop .*Committed=true/g) || []).length >= 2`)
	waitIdle(b)
	if n := count(b, ".lane-head"); n < 4 {
		t.Errorf("%d lifelines: want the brokers and the client", n)
	}

	// What the page replays is the listener's recording.
	rec := l.Recording()
	if got := script(); !strings.HasPrefix(rec, got) {
		t.Errorf("the page's script is not the recording's start:\n%s", got)
	}
}

// replayQuery runs a recorded script natively and answers a query at its
// end.
func replayQuery(t *testing.T, src, query string) string {
	t.Helper()
	script, err := scenario.Parse("recording", src)
	if err != nil {
		t.Fatal(err)
	}
	sess := scenario.NewSession("recording", script)
	sess.Run()
	if sess.Err != nil {
		t.Fatalf("the recording: %v", sess.Err)
	}
	got, err := sess.Query(query)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return got
}
