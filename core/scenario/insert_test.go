package scenario

import (
	"os"
	"strings"
	"testing"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

const markersScript = `# the coordinator commits; the learner crashes it mid-markers
cluster brokers=3
topic orders partitions=2
producer app transactional.id=order-txn-1
consumer reader isolation.level=read_committed
reader assign orders/0 orders/1
app init
app begin
app send orders/0 a=1
app send orders/1 b=2
app commit
run
reader poll
`

func run(t *testing.T, src string) *Session {
	t.Helper()
	sc, err := Parse("t", src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("t", sc)
	s.Run()
	if s.Err != nil {
		t.Fatal(s.Err)
	}
	return s
}

// The playground's crash button at the first WriteTxnMarkers must produce
// a script that replays to the very same moment and then crashes there.
func TestInsertNowSplitsAWaitingStatement(t *testing.T) {
	sc, err := Parse("t", markersScript)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("t", sc)
	for !s.Done() {
		s.StepVisible()
		if next, ok := s.Cluster.World.Peek(); ok && next.Env != nil && next.Env.Msg.APIKey().String() == "WriteTxnMarkers" && !next.Env.Msg.IsResponse() {
			break
		}
	}
	if s.Done() {
		t.Fatal("never paused before a WriteTxnMarkers")
	}
	prefix := append([]sim.Event(nil), s.Cluster.World.Trace.Events(0)...)
	out, line, err := s.InsertNow(markersScript, "crash coordinator(order-txn-1)")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(out, "\n")[line-1]; got != "crash coordinator(order-txn-1)" {
		t.Fatalf("line %d is %q\n%s", line, got, out)
	}
	wants := []string{"reader poll"}
	if s.active != nil {
		// paused inside a statement: it is split around the moment
		wants = append(wants, "run until WriteTxnMarkers from=broker-0 to=broker-")
	}
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Fatalf("rewritten script lacks %q:\n%s", want, out)
		}
	}
	replay := run(t, out)
	evs := replay.Cluster.World.Trace.Events(0)
	if len(evs) < len(prefix) || sim.DigestOf(replay.Cluster.World.Names(), evs[:len(prefix)]) != sim.DigestOf(s.Cluster.World.Names(), prefix) {
		t.Fatalf("the rewritten script does not replay the same history up to the pause:\n%s", out)
	}
	names := replay.Cluster.World.Names()
	if evs[len(prefix)].Kind != sim.KindCrash || names.Name(evs[len(prefix)].Node) != "broker-0" {
		t.Fatalf("event after the pause is %s, want the crash", evs[len(prefix)].Line(names))
	}
	var resent bool
	for _, e := range evs[len(prefix):] {
		if e.Kind == sim.KindSend && e.API == protocol.WriteTxnMarkers && !e.Resp && names.Name(e.Node) != "broker-0" {
			resent = true
		}
	}
	if !resent {
		t.Fatal("the new coordinator never resent the markers")
	}
}

// At a statement boundary the action goes before the next statement.
func TestInsertNowAtABoundary(t *testing.T) {
	sc, _ := Parse("t", markersScript)
	s := NewSession("t", sc)
	for s.Line() != 9 { // about to run "app send orders/0 a=1"
		s.StepVisible()
	}
	out, line, err := s.InsertNow(markersScript, "pause app")
	if err != nil {
		t.Fatal(err)
	}
	if line != 9 || strings.Split(out, "\n")[8] != "pause app" || strings.Split(out, "\n")[9] != "app send orders/0 a=1" {
		t.Fatalf("line %d:\n%s", line, out)
	}
}

// Pausing inside a client call sends it to the background and waits for
// it after the inserted line.
func TestInsertNowInsideAClientCall(t *testing.T) {
	src := strings.Replace(markersScript, "app commit\nrun\n", "app commit\n", 1)
	sc, _ := Parse("t", src)
	s := NewSession("t", sc)
	for !s.Done() && !(s.Line() == 11 && s.active != nil) {
		s.StepVisible()
	}
	if s.Done() {
		t.Fatal("never paused inside app commit")
	}
	prefix := s.Cluster.World.Trace.Len()
	digest := sim.DigestOf(s.Cluster.World.Names(), s.Cluster.World.Trace.Events(0))
	out, _, err := s.InsertNow(src, "drop Produce count=1")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"app commit &", "run until", "drop Produce count=1", "wait app"} {
		if !strings.Contains(out, want) {
			t.Fatalf("rewritten script lacks %q:\n%s", want, out)
		}
	}
	replay := run(t, out)
	if sim.DigestOf(replay.Cluster.World.Names(), replay.Cluster.World.Trace.Events(0)[:prefix]) != digest {
		t.Fatalf("the rewritten script does not replay the same history:\n%s", out)
	}
}

// A script that would grow the history without bound stops with an error
// at the line that did it.
func TestHistoryBound(t *testing.T) {
	src := "cluster brokers=1\ntopic t partitions=1\nproducer p transactional.id=x\np init\np begin\ndrop AddPartitionsToTxn.response\np send t/0 k=v &\nrun for=365d\n"
	sc, err := Parse("t", src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession("bound.scenario", sc)
	s.MaxEvents = 20_000
	s.Run()
	if s.Err == nil || s.Err.Pos.Line != 8 || !strings.Contains(s.Err.Error(), "20000 events") {
		t.Fatalf("err = %v", s.Err)
	}
}

// StepVisibleSome, however small its slices, stops where StepVisible
// stops: the same visible steps, the same trace.
func TestStepVisibleSomeEndsWhereStepVisibleEnds(t *testing.T) {
	for _, name := range []string{"happy-path", "zombie-fencing-init"} {
		src, err := os.ReadFile("../../scenarios/" + name + ".scenario")
		if err != nil {
			t.Fatal(err)
		}
		script, err := Parse(name, string(src))
		if err != nil {
			t.Fatal(err)
		}
		whole, sliced := NewSession(name, script), NewSession(name, script)
		for steps := 0; !whole.Done(); steps++ {
			whole.StepVisible()
			for k := 0; !sliced.StepVisibleSome(1 + k%3); k++ {
			}
			if whole.Now() != sliced.Now() || whole.Line() != sliced.Line() || events(whole) != events(sliced) {
				t.Fatalf("%s: step %d differs (line %d at %v, sliced line %d at %v)", name, steps, whole.Line(), whole.Now(), sliced.Line(), sliced.Now())
			}
		}
		if !sliced.Done() || digestOf(whole) != digestOf(sliced) {
			t.Errorf("%s: the sliced session is not done, or not the same, when the whole one is", name)
		}
	}
}

func events(s *Session) int {
	if s.Cluster == nil {
		return 0
	}
	return s.Cluster.World.Trace.Len()
}
