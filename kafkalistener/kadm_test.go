//go:build !wasm

package kafkalistener

// franz-go's kadm (v1.20.0, a test-only dependency) against the
// listener: the operator's APIs of KIP-664 find a hanging transaction and
// abort it, as kafka-transactions.sh does. The cases mirror Kafka's
// TransactionsCommandTest (testDescribeProducersLeader,
// testListTransactions, testDescribeTransaction and
// testNewBrokerAbortTransaction: abort by start offset, the producer's
// epoch and coordinator epoch taken from DescribeProducers) on the
// hanging transaction of scenarios/find-and-abort-hanging.scenario.

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// hangingSetup leaves orders/0 with a hanging transaction, as the
// library's hanging-transaction scenario does (Kafka 3.5, before
// KIP-890): app's second batch is delayed on the wire past
// delivery.timeout.ms; app aborts; then the batch lands with app's
// epoch and opens a transaction at offset 2 that no coordinator knows
// of. Every read_committed reader of orders/0 is stuck at offset 2.
const hangingSetup = `cluster brokers=3
topic orders partitions=2
producer app transactional.id=order-txn-1 transaction.timeout.ms=5m
app init
app begin
app send orders/0 a=1
delay Produce by=3m from=app
app send orders/0 b=2
expect app error TimeoutException
heal
app abort
run
expect partition orders/0 lso=2
`

// TestKadmAbortsHangingTransaction: kadm lists and describes the
// transactions, finds the producer whose transaction is open on
// orders/0 though its coordinator holds none, and aborts it with
// WriteTxnMarkers; a kgo producer's commit behind it then reaches a
// read_committed kgo consumer. The session replays to its digest.
func TestKadmAbortsHangingTransaction(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, hangingSetup)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	shop := kgoClient(t, s, kgo.ClientID("shop"), kgo.TransactionalID("shop-txn"))
	if err := txn(ctx, shop, true, map[int32]string{0: "s1"}); err != nil {
		t.Fatalf("kgo's transaction behind the hanging one: %v", err)
	}
	shop.Close()

	adm := kadm.NewClient(kgoClient(t, s, kgo.ClientID("ops")))
	lso := func() int64 {
		t.Helper()
		offs, err := adm.ListCommittedOffsets(ctx, "orders")
		if err != nil {
			t.Fatal(err)
		}
		o, ok := offs.Lookup("orders", 0)
		if !ok || o.Err != nil {
			t.Fatalf("ListOffsets read_committed orders/0: %+v", o)
		}
		return o.Offset
	}
	if got := lso(); got != 2 {
		t.Fatalf("before the abort the LSO of orders/0 is %d, want 2 (stuck at the hanging batch)", got)
	}

	// kafka-transactions.sh list: both ids; app's holds no transaction
	// (its client re-initialised after the timeout, as in the library
	// scenario), so nothing names the open one.
	listed, err := adm.ListTransactions(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, tx := range listed.Sorted() {
		states[tx.TxnID] = tx.State
	}
	if states["order-txn-1"] != "Empty" || states["shop-txn"] != "CompleteCommit" {
		t.Fatalf("ListTransactions: %v, want order-txn-1 Empty and shop-txn CompleteCommit", states)
	}

	// kafka-transactions.sh list --state: the coordinators filter.
	committed, err := adm.ListTransactions(ctx, nil, []string{"CompleteCommit"})
	if err != nil {
		t.Fatal(err)
	}
	if ids := committed.TransactionalIDs(); !slices.Equal(ids, []string{"shop-txn"}) {
		t.Fatalf("ListTransactions StateFilters=CompleteCommit: %q, want shop-txn", ids)
	}

	// kafka-transactions.sh describe: the coordinator counts no
	// partition in order-txn-1.
	described, err := adm.DescribeTransactions(ctx, "order-txn-1")
	if err != nil {
		t.Fatal(err)
	}
	d, ok := described["order-txn-1"]
	if !ok || d.Err != nil || len(d.Topics) != 0 {
		t.Fatalf("DescribeTransactions order-txn-1: %+v, want no partitions", d)
	}

	// kafka-transactions.sh describe-producers: the leader of orders/0
	// holds app's producer with a transaction open at offset 2.
	producers, err := adm.DescribeProducers(ctx, kadm.TopicsSet{"orders": {0: {}}})
	if err != nil {
		t.Fatal(err)
	}
	var hanging *kadm.DescribedProducer
	var open []int64
	producers.EachProducer(func(p kadm.DescribedProducer) {
		if p.CurrentTxnStartOffset >= 0 {
			open = append(open, p.CurrentTxnStartOffset)
			if p.ProducerID == d.ProducerID {
				p := p
				hanging = &p
			}
		}
	})
	if hanging == nil || hanging.CurrentTxnStartOffset != 2 || !slices.Equal(open, []int64{2}) {
		t.Fatalf("DescribeProducers orders/0: open transactions at %v, want app's (producer id %d) at 2", open, d.ProducerID)
	}
	if time.Since(time.UnixMilli(hanging.LastTimestamp)) > time.Hour || hanging.LastTimestamp > time.Now().UnixMilli()+1000 {
		t.Errorf("LastTimestamp %d is not on the wall clock", hanging.LastTimestamp)
	}

	// kafka-transactions.sh abort --start-offset 2: an ABORT marker with
	// the producer's epoch and coordinator epoch, to the leader.
	resps, err := adm.WriteTxnMarkers(ctx, kadm.TxnMarkers{ProducerID: hanging.ProducerID, ProducerEpoch: hanging.ProducerEpoch,
		CoordinatorEpoch: hanging.CoordinatorEpoch, Topics: kadm.TopicsSet{"orders": {0: {}}}})
	if err != nil {
		t.Fatal(err)
	}
	written := resps.SortedPartitions()
	if len(written) != 1 || written[0].Err != nil {
		t.Fatalf("WriteTxnMarkers orders/0: %+v, want one partition written", written)
	}
	if got := lso(); got != 6 {
		t.Fatalf("after the abort the LSO of orders/0 is %d, want 6 (past the ABORT marker)", got)
	}
	if got := consume(t, s, "reader", kgo.ReadCommitted(), 1); !slices.Equal(got, []string{"s1"}) {
		t.Fatalf("read_committed got %q, want kgo's committed s1", got)
	}
	rec := s.stop()
	if testing.Verbose() {
		t.Logf("recording:\n%s", rec)
	}
	for _, api := range []string{"ListTransactions", "DescribeTransactions", "DescribeProducers", "WriteTxnMarkers", "ListOffsets", "Metadata"} {
		if !strings.Contains(rec, "\nrequest "+api+" from=ops ") {
			t.Errorf("the recording lacks kadm's %s", api)
		}
	}
}
