//go:build !wasm

package kafkalistener

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// waitHeld waits until the listener holds a request, and returns it.
func waitHeld(t *testing.T, s *session) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if h := s.l.Held(); h != "" {
			return h
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no request was held")
	return ""
}

// TestBreakpointHoldsEndTxn: with a breakpoint on EndTxn, kgo's commit
// waits at the listener, outside the simulation (nothing of it is in the
// recording), until the learner steps; then it commits, and the session
// replays to its digest with the request at the moment it was let in.
func TestBreakpointHoldsEndTxn(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions)
	if err := s.l.Break("endtxn"); err != nil {
		t.Fatal(err)
	}
	if err := s.l.Break("SaslHandshake"); err == nil || !strings.Contains(err.Error(), "EndTxn") {
		t.Errorf("a breakpoint on an API not served: %v, want the served APIs named", err)
	}
	if err := s.l.Step(); err == nil {
		t.Errorf("Step with nothing held: no error")
	}
	cl := kgoClient(t, s, kgo.ClientID("held"), kgo.TransactionalID("held-txn"))
	done := make(chan error, 1)
	go func() { done <- txn(context.Background(), cl, true, map[int32]string{0: "v0"}) }()
	if h := waitHeld(t, s); !strings.HasPrefix(h, "EndTxn v") || !strings.Contains(h, "from held") {
		t.Fatalf("held %q, want kgo's EndTxn", h)
	}
	select {
	case err := <-done:
		t.Fatalf("the transaction ended while its EndTxn was held: %v", err)
	default:
	}
	if rec := s.l.Recording(); strings.Contains(rec, "request EndTxn") || !strings.Contains(rec, "# breakpoint: holding EndTxn") {
		t.Fatalf("while held, the recording has the EndTxn, or not the hold:\n%s", rec)
	}
	if err := s.l.Step(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("after the step: %v", err)
	}
	if err := s.l.Break(""); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	rec := s.stop()
	hold := strings.Index(rec, "# breakpoint: holding EndTxn")
	if end := strings.Index(rec, "request EndTxn from=held"); end < hold {
		t.Errorf("the EndTxn is not recorded after the hold:\n%s", rec)
	}
}
