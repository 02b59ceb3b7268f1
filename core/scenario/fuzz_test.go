package scenario

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that the parser never panics, that every error has a
// position, and that an accepted script renders to text that parses back
// to the same statements, line by line as well as whole. The seed corpus
// is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	f.Add(specExample)
	f.Add(everyStatement)
	f.Add("cluster\nproducer p transactional.id=\"a \\\"b\\\" #c\"\np init &\nwait p\n")
	f.Add(newStatements)
	f.Add(externalStatements)
	for _, e := range tableExamples() {
		f.Add(exampleSetup + e[1] + "\n")
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse("fuzz", src)
		if s == nil {
			t.Fatal("nil script")
		}
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T %v is not a non-empty ErrorList", err, err)
			}
			for i, e := range list {
				if e.Pos.Line < 1 || e.Pos.Col < 1 || e.Pos.Line > MaxLines+1 || e.Pos.Col > MaxLineLength+1 {
					t.Fatalf("error without a valid position: %v", e)
				}
				if e.Msg == "" || e.File != "fuzz" {
					t.Fatalf("error without a message or file: %#v", e)
				}
				if i > 0 && posLess(e.Pos, list[i-1].Pos) {
					t.Fatalf("errors not sorted: %v before %v", list[i-1], e)
				}
			}
			return
		}
		for _, st := range s.Statements {
			if p := st.Position(); p.Line < 1 || p.Col < 1 || st.Source() == "" {
				t.Fatalf("statement %q at %v with source %q", st.String(), p, st.Source())
			}
		}
		checkLineByLine(t, src, s)
		for _, st := range s.Statements {
			// Canonical text may be longer than what was written (a|b
			// becomes a | b, k=a=b becomes k="a=b"); past the line limit
			// it cannot be parsed again, by design.
			if utf8.RuneCountInString(st.String()) > MaxLineLength {
				return
			}
		}
		checkRoundTrip(t, s)
	})
}

// newStatements holds the statements of issue 11 §5: requests written by
// hand, a seeded transactional id, message fields, partition and consumer
// facts, internal logs, the producer options and both spellings of none.
const newStatements = `cluster
topic orders partitions=2
txn t1 pid=5000 epoch=32765
producer p1 transactional.id=t1 max.block.ms=5s retry.backoff.ms=250 max.in.flight.requests.per.connection=1
consumer c1 isolation.level=read_committed
request EndTxn from=p1 Committed=false
request Produce from=p1 IsTransactional=false BaseSequence=1 orders/0 k=v &
request AddPartitionsToTxn from=p1 to=broker-1 Partitions=orders/0,orders/1
expect trace WriteTxnMarkers TransactionResult=COMMIT CoordinatorEpoch=0 Partitions=orders/0 count=1
expect trace Produce.response ErrorCode=NONE BaseOffset=7
expect partition orders/0 leader=broker-0 leader-epoch=0 isr=broker-0,broker-1,broker-2
expect c1 position orders/0=3 orders/1=none
expect c1 aborted orders/0 = p1@0
expect c1 records orders/1 = none
expect log __transaction_state/45 = t1:Empty "a:b":Ongoing
expect log __consumer_offsets/1 = g1/orders/0:5 COMMIT(p1)
expect txn t1 partitions= pid=5000
`
