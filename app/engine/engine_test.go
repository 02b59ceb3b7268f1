package engine

import (
	"errors"
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/scenarios"
)

// cliRun runs a script the way `txnlab run` does (parse, NewSession,
// Run), so the tests compare the page against the CLI's own code path.
func cliRun(t *testing.T, src string) *scenario.Session {
	t.Helper()
	script, err := scenario.Parse("cli", src)
	if err != nil {
		t.Fatal(err)
	}
	s := scenario.NewSession("cli", script)
	s.Run()
	return s
}

func mustScenario(t *testing.T, slug string) string {
	t.Helper()
	sc, ok := scenarios.Get(slug)
	if !ok {
		t.Fatalf("no scenario %s", slug)
	}
	return sc.Script
}

// Every library script: the history the page steps through is the CLI's
// trace, prefix by prefix, and its digest at the end is the CLI's digest.
func TestEngineMatchesTheCLIOnEveryLibraryScript(t *testing.T) {
	for _, sc := range scenarios.All() {
		t.Run(sc.Slug, func(t *testing.T) {
			e := newSessionEngine()
			err := e.Load(sc.Script)
			cli := cliRun(t, sc.Script)
			if (err != nil) != (cli.Err != nil) {
				t.Fatalf("engine error %v, CLI error %v", err, cli.Err)
			}
			if e.Len() < 2 {
				t.Fatalf("only %d steps", e.Len())
			}
			if e.Pos() != 0 || len(e.Events()) != 0 {
				t.Fatalf("a fresh load is at %d with %d events", e.Pos(), len(e.Events()))
			}
			want := cli.Cluster.World.Trace.Events(0)
			prev := 0
			for e.Step() {
				got := e.Events()
				if len(got) < prev {
					t.Fatalf("step %d shrank the trace from %d to %d", e.Pos(), prev, len(got))
				}
				prev = len(got)
			}
			if e.Pos() != e.Len() {
				t.Fatalf("stepping stopped at %d of %d", e.Pos(), e.Len())
			}
			if d, w := e.Digest(), sim.DigestOf(e.Names(), want); d != w || d != cli.Cluster.World.Trace.Digest() {
				t.Fatalf("digest at the end %s, the CLI's %s", d, w)
			}
			if e.Line() != 0 {
				t.Errorf("line %d at the end, want 0", e.Line())
			}
			if len(e.Results()) != len(cli.Results) {
				t.Errorf("%d results, the CLI has %d", len(e.Results()), len(cli.Results))
			}
			mid := e.Len() / 2
			e.Seek(mid)
			if d := sim.DigestOf(e.Names(), want[:len(e.Events())]); e.Digest() != d {
				t.Errorf("digest at %d is %s, want %s", mid, e.Digest(), d)
			}
		})
	}
}

func TestEngineSnapshotFollowsThePosition(t *testing.T) {
	e := newSessionEngine()
	if err := e.Load(mustScenario(t, "zombie-fencing-init")); err != nil {
		t.Fatal(err)
	}
	if e.Snapshot().Valid {
		t.Fatal("a snapshot before the cluster statement ran")
	}
	e.Seek(e.Len())
	end := e.Snapshot()
	if !end.Valid || len(end.Brokers) != 3 || len(end.Producers) != 2 {
		t.Fatalf("snapshot at the end: %+v", end)
	}
	if end.Time != e.Now() {
		t.Errorf("snapshot at %v, clock at %v", end.Time, e.Now())
	}
	if end.Events != len(e.Events()) {
		t.Errorf("snapshot after %d events, the trace has %d", end.Events, len(e.Events()))
	}
	// Back to the middle: the cursor is rebuilt, and what it shows is the
	// state at that step, not the end's.
	e.Seek(e.Len() / 2)
	mid := e.Snapshot()
	if mid.Events != len(e.Events()) || mid.Time != e.Now() {
		t.Errorf("snapshot at the middle: %d events at %v, the trace has %d at %v", mid.Events, mid.Time, len(e.Events()), e.Now())
	}
	if len(e.Violations()) != 0 {
		t.Errorf("violations in a correct scenario: %v", e.Violations())
	}
}

func TestEngineParseErrorKeepsThePreviousHistory(t *testing.T) {
	e := newSessionEngine()
	good := mustScenario(t, "happy-path")
	if err := e.Load(good); err != nil {
		t.Fatal(err)
	}
	n := e.Len()
	err := e.Load("cluster brokers=3\ntopic orders partitions=1\nproducer app transactional.id=x\napp sned orders/0 a=1\n")
	var se *ScriptError
	if !errors.As(err, &se) || se.Line != 4 || se.Col == 0 || se.Runtime {
		t.Fatalf("error %#v, want a parse error on line 4", err)
	}
	if e.Len() != n || e.Script() != good {
		t.Errorf("a parse error replaced the history")
	}
}

func TestEngineRuntimeErrorKeepsTheHistoryUpToIt(t *testing.T) {
	e := newSessionEngine()
	src := "cluster brokers=3\ntopic orders partitions=1\nproducer app transactional.id=x\napp init\nresume app\napp begin\n"
	err := e.Load(src)
	var se *ScriptError
	if !errors.As(err, &se) || se.Line != 5 || !se.Runtime {
		t.Fatalf("error %#v, want a runtime error on line 5", err)
	}
	if e.Script() != src || e.Len() < 2 || e.Err() == nil {
		t.Fatalf("the history up to the error is not loaded: %d steps", e.Len())
	}
	e.Seek(e.Len())
	if len(e.Events()) == 0 {
		t.Error("no events before the error")
	}
	if err := e.Act("crash broker-0"); err == nil {
		t.Error("acting after the error was accepted")
	}
}

// The playground's acceptance path: pause at the first WriteTxnMarkers of
// coordinator-crash-during-markers, crash broker-0 there, and the new
// history has the new coordinator resending the markers.
func TestEngineActCrashesTheCoordinatorMidMarkers(t *testing.T) {
	e := newSessionEngine()
	if err := e.Load(mustScenario(t, "coordinator-crash-during-markers")); err != nil {
		t.Fatal(err)
	}
	at := firstSend(e, protocol.WriteTxnMarkers)
	if at < 0 {
		t.Fatal("no WriteTxnMarkers in the history")
	}
	e.Seek(at)
	prefix := append([]sim.Event(nil), e.Events()...)
	oldScript := e.Script()

	if err := e.Act("crash broker-0"); err != nil {
		t.Fatal(err)
	}
	if e.Script() == oldScript || !strings.Contains(e.Script(), "\ncrash broker-0\n") {
		t.Fatalf("the script did not get the crash:\n%s", e.Script())
	}
	evs := e.History()
	if len(evs) < len(prefix) || sim.DigestOf(e.Names(), evs[:len(prefix)]) != sim.DigestOf(e.Names(), prefix) {
		t.Fatal("the new history does not start with the old one")
	}
	got := e.Events()
	if len(got) <= len(prefix) {
		t.Fatalf("Act left the position before the crash (%d events, %d before)", len(got), len(prefix))
	}
	var crashed bool
	for _, ev := range got[len(prefix):] {
		if ev.Kind == sim.KindCrash && e.Names().Name(ev.Node) == "broker-0" {
			crashed = true
		}
	}
	if !crashed {
		t.Error("the position after Act does not include the crash")
	}
	var resent bool
	for _, ev := range evs[len(prefix):] {
		if ev.Kind == sim.KindSend && ev.API == protocol.WriteTxnMarkers && !ev.Resp && e.Names().Name(ev.Node) != "broker-0" {
			resent = true
		}
	}
	if !resent {
		t.Error("no WriteTxnMarkers from another broker after the crash")
	}
	// The CLI gives the same digest for the new script.
	e.Seek(e.Len())
	if cli := cliRun(t, e.Script()); e.Digest() != cli.Cluster.World.Trace.Digest() {
		t.Errorf("digest %s, the CLI's %s", e.Digest(), cli.Cluster.World.Trace.Digest())
	}
}

func TestEngineActThatCannotRunKeepsTheScript(t *testing.T) {
	e := newSessionEngine()
	src := mustScenario(t, "happy-path")
	if err := e.Load(src); err != nil {
		t.Fatal(err)
	}
	e.Seek(e.Len() / 2)
	pos := e.Pos()
	if err := e.Act("resume app"); err == nil {
		t.Fatal("resuming a running client was accepted")
	}
	if err := e.Act("app sned"); err == nil {
		t.Fatal("a statement that does not parse was accepted")
	}
	if e.Script() != src || e.Pos() != pos {
		t.Errorf("a refused action changed the script or moved to %d", e.Pos())
	}
	if err := e.Act("pause app"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(e.Script(), "pause app") {
		t.Error("the action is not in the script")
	}
}

func TestEngineActAtTheEndAppends(t *testing.T) {
	e := newSessionEngine()
	src := mustScenario(t, "happy-path")
	if err := e.Load(src); err != nil {
		t.Fatal(err)
	}
	e.Seek(e.Len())
	if err := e.Act("reader poll"); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(e.Script(), "reader poll\n") {
		t.Errorf("script does not end with the action:\n%s", e.Script())
	}
	if e.Pos() != e.Len() {
		t.Errorf("at %d of %d after an appended action", e.Pos(), e.Len())
	}
}

// firstSend is the first step whose new events include a send of api, as
// the page's "run until" finds it.
func firstSend(e Engine, api protocol.APIKey) int {
	evs := e.History()
	for i := 1; i <= e.Len(); i++ {
		for _, ev := range evs[e.EventsAt(i-1):e.EventsAt(i)] {
			if ev.Kind == sim.KindSend && ev.API == api && !ev.Internal {
				return i
			}
		}
	}
	return -1
}

// Query evaluates on the session stopped at the position, whichever way
// the engine got there, and keeps the answer with the position's state.
func TestEngineQueryAtThePosition(t *testing.T) {
	e := newSessionEngine()
	if _, err := e.Query("clock"); err == nil {
		t.Error("a query with nothing loaded did not fail")
	}
	if err := e.Load(mustScenario(t, "happy-path")); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{e.Len(), 3, e.Len() / 2, 1} {
		e.Seek(i)
		got, err := e.Query("clock")
		if want := scenario.FormatClock(int64(e.Now())); err != nil || got != want {
			t.Errorf("at %d: %q, %v; want %q", i, got, err, want)
		}
	}
	e.Seek(e.Len())
	if got, err := e.Query("txn checkout-1 state"); err != nil || got != "CompleteCommit" {
		t.Errorf("at the end of the happy path: %q, %v", got, err)
	}
	if _, err := e.Query("txn checkout-1 stat"); err == nil {
		t.Error("a query that does not parse was answered")
	}
}

// StepAfterLine stops right after a line's statement ran.
func TestEngineStepAfterLine(t *testing.T) {
	e := newSessionEngine()
	if err := e.Load("cluster brokers=1\nproducer app transactional.id=t1\napp init\n"); err != nil {
		t.Fatal(err)
	}
	i := e.StepAfterLine(2)
	e.Seek(i)
	if e.Line() == 2 || e.Line() == 1 {
		t.Errorf("after line 2, at step %d the engine is on line %d", i, e.Line())
	}
	if e.Seek(i - 1); e.Line() != 2 {
		t.Errorf("the step before is on line %d, want 2", e.Line())
	}
	if got := e.StepAfterLine(99); got != e.Len() {
		t.Errorf("a line past the end: step %d, want the end %d", got, e.Len())
	}
}
