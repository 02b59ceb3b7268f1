package scenario

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"txnlab/core/protocol"
)

// specExample is the example of the design's scenario-language chapter,
// verbatim.
const specExample = `# Zombie fencing: a stalled producer comes back after its successor took over.
cluster brokers=3
topic orders partitions=2
producer p1 transactional.id=order-txn-1
consumer c1 isolation.level=read_committed
c1 assign orders/0

p1 init
p1 begin
p1 send orders/0 k1=v1
pause p1                      # a long GC pause
producer p2 transactional.id=order-txn-1
p2 init                       # bumps the epoch and aborts p1's open transaction
expect txn order-txn-1 state=Empty epoch=2   # +1 to fence and abort p1's txn, +1 for p2
resume p1
p1 commit                     # EndTxn with the old epoch
expect p1 error PRODUCER_FENCED
p2 begin
p2 send orders/0 k3=v3
p2 commit
run
c1 poll
expect c1 records orders/0 = v3
expect invariants
`

// everyStatement uses every statement type and most options; the
// mechanisms and invariants it breaks and expects are read from
// core/safety's tables, so a new entry needs no line here.
var everyStatement = everyStatementSetup + breakEveryMechanism() + everyExpectation + expectEveryViolation()

// everyStatementSetup is everyStatement up to its break statements.
const everyStatementSetup = `# every statement of the language
cluster brokers=4 rf=3 txn-partitions=10 offsets-partitions=5 seed=42 latency=2ms..20ms
config transaction.max.timeout.ms=15m transactional.id.expiration.ms=7d min.insync.replicas=2
config transaction.abort.timed.out.transaction.cleanup.interval.ms=10s transaction.remove.expired.transaction.cleanup.interval.ms=1h
config broker.session.timeout.ms=9s request.timeout.ms=30s producer.id.expiration.ms=1d transaction.state.log.min.isr=2
config transaction.partition.verification.enable=true transaction.version=2
config group.initial.rebalance.delay.ms=0ms group.min.session.timeout.ms=6s group.max.session.timeout.ms=30m
topic orders partitions=3 rf=2
topic payments
producer p1 transactional.id=order-txn-1 transaction.timeout.ms=60s enable.idempotence=true acks=all request.timeout.ms=30s delivery.timeout.ms=120s
producer p2 transactional.id="order txn #2"
producer ip acks=1
txn seeded-txn pid=42 epoch=32766
client kgo software="franz-go 1.22.3"
consumer c1 isolation.level=read_committed group.id=g1
consumer c2 isolation.level=read_uncommitted partition.assignment.strategy=roundrobin,range fetch.max.wait.ms=500ms fetch.min.bytes=10
consumer c3 group.id=g2 session.timeout.ms=10s heartbeat.interval.ms=1s max.poll.interval.ms=1m group.instance.id=i3
c1 assign orders/0 orders/1
c3 subscribe orders payments
c3 unsubscribe
c2 assign payments/0
p1 init
p1 begin &
wait p1
p1 send orders/0 k1=v1 "k 2"="v #2" &
p1 send-offsets g1 orders/0=1 orders/1=0
p1 send-offsets consumer=c3 orders/2=4
p1 commit
p1 abort
request EndTxn from=p1 Committed=false
request InitProducerId from=kgo to=broker-0 conn=1 Version=4 TransactionalId=t1 TransactionTimeoutMs=60000 ProducerId=-1 ProducerEpoch=-1
refused Produce from=kgo to=broker-0 error=CORRUPT_MESSAGE
request Produce from=p1 to=broker-0 IsTransactional=false BaseSequence=1 orders/0 k=plain &
p1 close
ip send payments/0 k=v
c1 poll &
c1 seek orders/0 0
c1 commit
crash broker-3
restart broker-3
crash coordinator(order-txn-1)
restart coordinator("order txn #2")
crash group-coordinator(g1)
isolate leader(orders/2)
pause p2
resume p2
partition broker-0,broker-1 | broker-2,p1,c1 | coordinator(x)
heal
drop WriteTxnMarkers
drop EndTxn.response from=broker-0 to=p1 count=2
delay Produce by=250ms
delay TxnOffsetCommit.response by=1s from=group-coordinator(g1) to=p1
run
run for=10s
run until AddPartitionsToTxn
run until InitProducerId.response from=coordinator(order-txn-1) to=p1 for=1m
advance 7d
admin list-transactions state=Ongoing,PrepareCommit pid=42
admin find-hanging topic=orders max-transaction-timeout=15m
expect admin ok
expect admin found = orders/0@2
admin abort orders/0 start-offset=2
`

// everyExpectation is everyStatement's expectations, but for the
// violation of each invariant.
const everyExpectation = `expect p1 ok
expect p1 error INVALID_TXN_STATE
expect c1 pending
expect p1 state IN_TRANSACTION epoch=0
expect txn order-txn-1 state=CompleteCommit epoch=1 partitions=__consumer_offsets/1,orders/0
expect txn order-txn-1 partitions=none
expect txn "order txn #2" absent
expect c1 records orders/0 = v1 "v #2"
expect c2 records payments/0 =
expect c1 position orders/0=4 orders/1=none
expect c1 aborted orders/0 = p1@0
expect partition orders/0 hw=2 lso=2 log-end=2
expect log orders/0 = p1:v1 COMMIT(p1) p2:x ABORT(p2)
expect log orders/2 =
expect offsets g1 orders/0=1 orders/1=none orders/2=unstable
expect trace WriteTxnMarkers.response from=leader(orders/0) error=NONE count=2
expect trace EndTxn
expect coordinator order-txn-1 partition=3 broker=broker-1 epoch=0
expect group g2 state=Stable generation=2 members=c1,c3 leader=c3
expect group g2 members=none
expect invariants
expect liveness
expect liveness violation
expect liveness violation offsets-atomicity
expect violation
`

// breakEveryMechanism breaks each mechanism of the table and restores
// the first.
func breakEveryMechanism() string {
	var b strings.Builder
	for i, m := range Mechanisms {
		b.WriteString("break " + m.Name + "\n")
		if i == 0 {
			b.WriteString("restore " + m.Name + "\n")
		}
	}
	return b.String()
}

// expectEveryViolation expects a violation of each invariant of the
// table.
func expectEveryViolation() string {
	var b strings.Builder
	for _, i := range Invariants {
		b.WriteString("expect violation " + i.Name + "\n")
	}
	return b.String()
}

func TestSpecExample(t *testing.T) {
	s, err := Parse("zombie.scenario", specExample)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Statements) != 22 {
		t.Fatalf("%d statements, want 22", len(s.Statements))
	}
	pause, ok := s.Statements[8].(*PauseStmt)
	if !ok || pause.Node != (NodeRef{Kind: NodeClient, Name: "p1"}) {
		t.Errorf("statement 9 = %#v", s.Statements[8])
	}
	if pause.Position() != (Pos{11, 1}) || pause.Source() != "pause p1" {
		t.Errorf("pause at %v %q", pause.Position(), pause.Source())
	}
	txn, ok := s.Statements[11].(*ExpectTxnStmt)
	if !ok || txn.State != protocol.Empty || txn.Epoch != 2 || txn.TransactionalID != "order-txn-1" {
		t.Errorf("statement 12 = %#v", s.Statements[11])
	}
	if txn.Source() != "expect txn order-txn-1 state=Empty epoch=2" {
		t.Errorf("source %q", txn.Source())
	}
	if c, ok := s.Statements[13].(*ProducerActionStmt); !ok || c.Op != ProducerCommit || c.Client != "p1" {
		t.Errorf("statement 14 = %#v", s.Statements[13])
	}
	if c, ok := s.Statements[21].(*ExpectInvariantsStmt); !ok || c.Position() != (Pos{24, 1}) {
		t.Errorf("last statement = %#v", s.Statements[21])
	}
	if p, ok := s.Decls.Client("p2"); !ok || p.TransactionalID != "order-txn-1" || p.Line != 12 {
		t.Errorf("p2 = %+v", p)
	}
}

// TestRoundTrip renders every statement canonically and parses the result:
// the statements must come back equal, and the rendering is a fixed point.
func TestRoundTrip(t *testing.T) {
	for name, src := range map[string]string{"spec": specExample, "every": everyStatement} {
		t.Run(name, func(t *testing.T) {
			s, err := Parse("", src)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, s)
		})
	}
}

func checkRoundTrip(t testing.TB, s *Script) {
	t.Helper()
	text := s.String()
	again, err := Parse("", text)
	if err != nil {
		t.Fatalf("re-parse failed: %v\n%s", err, text)
	}
	if len(again.Statements) != len(s.Statements) {
		t.Fatalf("re-parse: %d statements, want %d", len(again.Statements), len(s.Statements))
	}
	for i := range s.Statements {
		a, b := s.Statements[i], again.Statements[i]
		if b.Source() != a.String() || b.Position() != (Pos{i + 1, 1}) {
			t.Errorf("statement %d: source %q at %v", i, b.Source(), b.Position())
		}
		ca, cb := cloneStmt(a), cloneStmt(b)
		setBase(ca, Base{})
		setBase(cb, Base{})
		if !reflect.DeepEqual(ca, cb) {
			t.Errorf("statement %d changed:\n was %#v\n now %#v", i, ca, cb)
		}
	}
	if again.String() != text {
		t.Errorf("rendering is not a fixed point")
	}
}

// cloneStmt copies a statement shallowly so its Base can be cleared
// without touching the original.
func cloneStmt(st Stmt) Stmt {
	v := reflect.New(reflect.TypeOf(st).Elem())
	v.Elem().Set(reflect.ValueOf(st).Elem())
	return v.Interface().(Stmt)
}

// TestEveryStatementType checks that everyStatement covers every type the
// parser can produce and every enumeration value.
func TestEveryStatementType(t *testing.T) {
	s, err := Parse("", everyStatement)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, st := range s.Statements {
		seen[fmt.Sprintf("%T", st)] = true
		switch x := st.(type) {
		case *ProducerActionStmt:
			seen["op "+x.Op.String()] = true
		case *ConsumerActionStmt:
			seen["cop "+x.Op.String()] = true
		case *ExpectOutcomeStmt:
			seen["outcome "+x.Outcome.String()] = true
		case *BreakStmt:
			seen["mech "+x.Mechanism.String()] = true
		case *ExpectViolationStmt:
			seen["inv "+x.Invariant.String()] = true
		case *CrashStmt, *RestartStmt, *IsolateStmt:
			seen["node "+strings.SplitN(fmt.Sprint(reflect.ValueOf(x).Elem().FieldByName("Node").Interface()), "(", 2)[0]] = true
		}
	}
	// The statement types themselves are found in the source by
	// TestEveryStatementTypeIsExercised; these are the values inside them.
	want := []string{"node broker-3", "node coordinator", "node leader"}
	for _, o := range outcomeNames[1:] {
		want = append(want, "outcome "+o)
	}
	for _, op := range producerOpNames[1:] {
		want = append(want, "op "+op)
	}
	for _, op := range consumerOpNames[1:] {
		want = append(want, "cop "+op)
	}
	for _, m := range Mechanisms {
		want = append(want, "mech "+m.String())
	}
	want = append(want, "inv any")
	for _, i := range Invariants {
		want = append(want, "inv "+i.String())
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("everyStatement lacks %s", w)
		}
	}
}

// TestParseLineAgreesWithParse feeds a script line by line and expects the
// statements Parse gives.
func TestParseLineAgreesWithParse(t *testing.T) {
	s, err := Parse("", everyStatement)
	if err != nil {
		t.Fatal(err)
	}
	checkLineByLine(t, everyStatement, s)
}

func checkLineByLine(t testing.TB, src string, s *Script) {
	t.Helper()
	d := NewDecls()
	var got []Stmt
	lines := strings.Split(strings.TrimPrefix(src, "\uFEFF"), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // a final newline ends the last line
	}
	for i, line := range lines {
		st, err := ParseLine(line, i+1, d)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if st != nil {
			got = append(got, st)
		}
	}
	if !reflect.DeepEqual(got, s.Statements) {
		t.Errorf("ParseLine and Parse disagree")
	}
	if !reflect.DeepEqual(d.Clients(), s.Decls.Clients()) || !reflect.DeepEqual(d.Topics(), s.Decls.Topics()) {
		t.Errorf("ParseLine and Parse built different tables")
	}
}

// TestCanonicalMayGrow documents the one case where String() does not
// parse back: the canonical text of a line near the length limit can pass
// the limit.
func TestCanonicalMayGrow(t *testing.T) {
	line := "p send t/0" + strings.Repeat(" k=a=b", 160)
	s, err := Parse("", "cluster\ntopic t\nproducer p\n"+line+"\n")
	if err != nil {
		t.Fatal(err)
	}
	out := s.Statements[len(s.Statements)-1].String()
	if len(line) > MaxLineLength || len(out) <= MaxLineLength {
		t.Fatalf("source %d, canonical %d characters", len(line), len(out))
	}
	if _, err := ParseLine(out, 5, s.Decls); err == nil || !strings.Contains(err.Error(), "line too long") {
		t.Errorf("re-parse: %v", err)
	}
}
