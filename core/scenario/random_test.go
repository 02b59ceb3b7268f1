package scenario

import (
	"reflect"
	"strings"
	"testing"
)

// TestRandomLines builds lines from pools of the language's own words and
// awkward values, and checks on each that the parser does not panic, that
// an error has a position, and that an accepted line round-trips through
// its canonical text. It complements FuzzParse, whose byte mutations
// rarely reach deep into a statement.
func TestRandomLines(t *testing.T) {
	heads := []string{"p1", "p2", "ip", "c1", "c2", "expect", "expect p1", "expect c1", "expect txn",
		"expect partition", "expect log", "expect offsets", "expect trace", "expect coordinator",
		"expect violation", "crash", "restart", "pause", "resume", "isolate", "partition", "heal",
		"drop", "delay", "run", "run until", "advance", "break", "restore", "wait", "topic",
		"producer", "consumer", "config", "cluster"}
	words := []string{"init", "begin", "send", "send-offsets", "commit", "abort", "close", "assign",
		"poll", "seek", "ok", "error", "pending", "state", "records", "absent", "=", "&", "|", ",",
		"orders/0", "orders/1", "orders/2", "payments/0", "__consumer_offsets/3", "__transaction_state/49",
		"k=v", "k=a=b", `"a b"="c#d"`, `k="x\"y\\z"`, `""=""`, "k=", "=v", `k="a"b`, "k=値", "g1",
		`"my group"`, "orders/0=1", "orders/1=none", "orders/0=unstable", "p1:v", `p2:"a b"`,
		"COMMIT(p1)", "ABORT(p2)", "COMMIT(c1)", "broker-0", "broker-2", "broker-3", "coordinator(x)",
		`coordinator("a,b|c)")`, "group-coordinator(g1)", "leader(orders/1)", "leader(orders/9)",
		"broker-0,p1", "broker-1|broker-2", "Produce", "EndTxn.response", "WriteTxnMarkers",
		"Fetch.request", "from=p1", "to=broker-1", "from=coordinator(x)", "count=0", "count=3",
		"by=2s", "for=1m", "for=0", "10s", "7d", "366d", "1500", "epoch=1", "epoch=-1", "state=Ongoing",
		"state=Empty", "partitions=orders/0,orders/1", "partitions=none", "hw=1", "lso=0", "log-end=2",
		"partition=3", "broker=broker-1", "error=NONE", "error=PRODUCER_FENCED", "PRODUCER_FENCED",
		"READY", "IN_TRANSACTION", "lso", "atomicity", "epoch-fencing", "lso-bound", "t9", "p9",
		"partitions=2", "rf=2", "acks=1", "acks=all", "enable.idempotence=false", "transactional.id=x",
		`transactional.id="a \"b\""`, "transaction.timeout.ms=5s", "isolation.level=read_committed",
		"group.id=g", "min.insync.replicas=2", "request.timeout.ms=1s", "0", "42", "-1", `"quoted"`,
		"#", "# comment"}
	var state uint64 = 1
	next := func(n int) int {
		state = state*6364136223846793005 + 1442695040888963407
		return int((state >> 33) % uint64(n))
	}
	base, err := Parse("", prelude())
	if err != nil {
		t.Fatal(err)
	}
	accepted := 0
	for i := 0; i < 30000; i++ {
		parts := []string{heads[next(len(heads))]}
		for n := next(5); n > 0; n-- {
			parts = append(parts, words[next(len(words))])
		}
		line := strings.Join(parts, " ")
		d := base.Decls.Clone()
		st, err := ParseLine(line, testLine, d)
		if err != nil {
			var e *Error
			if list, ok := err.(ErrorList); !ok || len(list) != 1 {
				t.Fatalf("%q: error %T", line, err)
			} else {
				e = list[0]
			}
			if e.Pos.Line != testLine || e.Pos.Col < 1 || e.Pos.Col > len([]rune(line))+2 || e.Msg == "" {
				t.Fatalf("%q: bad error %v", line, e)
			}
			continue
		}
		if st == nil {
			continue // a comment
		}
		accepted++
		again, err := ParseLine(st.String(), testLine, base.Decls.Clone())
		if err != nil {
			t.Fatalf("%q renders as %q, which fails: %v", line, st.String(), err)
		}
		if !reflect.DeepEqual(stripBase(cloneStmt(again)), stripBase(cloneStmt(st))) {
			t.Fatalf("%q renders as %q, which parses differently", line, st.String())
		}
	}
	if accepted < 1000 {
		t.Errorf("only %d lines accepted: the pools are too hostile to test round trips", accepted)
	}
	t.Logf("%d of 30000 random lines accepted", accepted)
}
