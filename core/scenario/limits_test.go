package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runScript parses and runs src with the native bounds, then lets the
// caller lower them before the run through adjust.
func runBounded(t *testing.T, src string, adjust func(*Session)) *Session {
	t.Helper()
	script, err := Parse("limits", src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("limits", script)
	if adjust != nil {
		adjust(s)
	}
	s.Run()
	return s
}

// A legal script whose producer resends with no timeout and no backoff
// filled the event queue (in-flight messages no one waits for) until the
// history bound, a gigabyte natively; the queue bound stops it early.
func TestZeroTimeoutsStopAtTheQueueBound(t *testing.T) {
	s := runBounded(t, `cluster brokers=3
topic t partitions=1
producer p transactional.id=x request.timeout.ms=0 delivery.timeout.ms=0 retry.backoff.ms=0 max.block.ms=0
p init
p begin
p send t/0 k=v
p commit
run
expect p ok
`, nil)
	if s.Err == nil || !strings.Contains(s.Err.Msg, "wait to run") || s.Err.Pos.Line != 8 {
		t.Fatalf("error = %v, want the queue bound on line 8", s.Err)
	}
	if n := s.Cluster.World.Trace.Len(); n > 2*NativeMaxPending {
		t.Errorf("the history reached %d events before the bound tripped", n)
	}
}

// Ten years of virtual time is the most a script may ask: 4,999 lines of
// `advance 365d` would otherwise run for minutes.
func TestClockBound(t *testing.T) {
	src := "cluster brokers=1\n" + strings.Repeat("advance 365d\n", 4999)
	s := runBounded(t, src, nil)
	if s.Err == nil || !strings.Contains(s.Err.Msg, "virtual time") || s.Err.Pos.Line != 11 {
		// The tenth: the cluster's start took the clock a few ms past 0.
		t.Fatalf("error = %v, want the clock bound on line 11 (the tenth advance)", s.Err)
	}
	if now := s.Cluster.World.Now(); now > MaxClock {
		t.Errorf("the clock reached %s, past the bound %s", now.Human(), MaxClock.Human())
	}
}

// The work bound counts events the history does not show (idle timers).
func TestWorkBound(t *testing.T) {
	s := runBounded(t, "cluster brokers=3\ntopic t partitions=1\nadvance 30d\nadvance 30d\n", func(s *Session) { s.MaxWork = 3000 })
	if s.Err == nil || !strings.Contains(s.Err.Msg, "script's work") || s.Err.Pos.Line != 4 {
		t.Fatalf("error = %v, want the work bound on line 4", s.Err)
	}
	if s.work != 3001 {
		t.Errorf("stopped after %d events, want the first past the bound", s.work)
	}
}

// Every scenario of the library runs within the browser's bounds, with a
// wide margin: a share link or the playground opens any of them.
func TestLibraryWithinBrowserBounds(t *testing.T) {
	var files []string
	for _, glob := range []string{"../../scenarios/*.scenario", "../../scenarios/*/*.scenario", "testdata/*.scenario"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 20 {
		t.Fatalf("found %d scenarios, the library has more", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		script, err := Parse(f, string(src))
		if err != nil {
			t.Fatal(err)
		}
		s := NewSession(f, script)
		s.MaxEvents, s.MaxPending, s.MaxWork = BrowserMaxEvents/10, BrowserMaxPending/10, BrowserMaxWork/10
		s.Run()
		if s.Err != nil && strings.Contains(s.Err.Msg, "bound") {
			t.Errorf("%s: %v", f, s.Err)
		}
	}
}
