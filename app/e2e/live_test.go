package e2e

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"txnlab/app/server"
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
