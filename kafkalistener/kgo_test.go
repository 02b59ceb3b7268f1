//go:build !wasm

package kafkalistener

// franz-go's kgo (v1.22.3, a test-only dependency) against the listener:
// a real client library's transactional producer and read_committed
// consumer, its fencing, and its recovery from a coordinator crash.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

func kgoClient(t *testing.T, s *session, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	base := []kgo.Opt{kgo.SeedBrokers(s.l.Addrs()...), kgo.DefaultProduceTopic("orders"),
		kgo.RecordPartitioner(kgo.ManualPartitioner())}
	cl, err := kgo.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// txn runs one transaction writing value to each partition named.
func txn(ctx context.Context, cl *kgo.Client, commit bool, values map[int32]string) error {
	if err := cl.BeginTransaction(); err != nil {
		return err
	}
	var recs []*kgo.Record
	for p, v := range values {
		recs = append(recs, &kgo.Record{Partition: p, Key: []byte("k"), Value: []byte(v)})
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		cl.EndTransaction(ctx, kgo.TryAbort)
		return err
	}
	return cl.EndTransaction(ctx, kgo.TransactionEndTry(commit))
}

// retryTxn commits a transaction as an application does while the
// coordinator moves. kgo may meet the old coordinator's id in its answer
// to FindCoordinator just after the controller has fenced that broker out
// of Metadata ("unknown broker", about one run in ten here; Kafka's own
// metadata has the same window), which kgo takes as fatal for the
// producer id: an application then closes the client and makes a new one
// with the same transactional.id, as it does for any fatal error.
func retryTxn(t *testing.T, ctx context.Context, newClient func() *kgo.Client, cl *kgo.Client, values map[int32]string) (*kgo.Client, error) {
	t.Helper()
	var err error
	for try := 1; try <= 3; try++ {
		if err = txn(ctx, cl, true, values); err == nil {
			return cl, nil
		}
		t.Logf("transaction, try %d: %v; a new client tries again", try, err)
		cl.Close()
		time.Sleep(500 * time.Millisecond)
		cl = newClient()
	}
	return cl, err
}

// consume reads orders from the start at an isolation level until it
// has want records.
func consume(t *testing.T, s *session, id string, level kgo.IsolationLevel, want int) []string {
	t.Helper()
	cl := kgoClient(t, s, kgo.ClientID(id), kgo.FetchIsolationLevel(level), kgo.FetchMaxWait(200*time.Millisecond),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"orders": {0: kgo.NewOffset().AtStart(), 1: kgo.NewOffset().AtStart()}}))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var got []string
	for len(got) < want {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("%s: read %q, waited for %d records", id, got, want)
		}
		fs.EachRecord(func(r *kgo.Record) { got = append(got, string(r.Value)) })
	}
	slices.Sort(got)
	return got
}

// TestKgo: kgo's transactional producer commits to two partitions and
// aborts; a read_committed consumer sees the committed records only, a
// read_uncommitted one all; a second instance fences the first. The
// session replays to its digest.
func TestKgo(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions)
	ctx := context.Background()
	zombie := kgoClient(t, s, kgo.ClientID("zombie"), kgo.TransactionalID("order-txn"))
	if err := txn(ctx, zombie, true, map[int32]string{0: "c0", 1: "c1"}); err != nil {
		t.Fatalf("the committed transaction: %v", err)
	}
	if err := txn(ctx, zombie, false, map[int32]string{0: "a0"}); err != nil {
		t.Fatalf("the aborted transaction: %v", err)
	}
	if got := consume(t, s, "rc", kgo.ReadCommitted(), 2); !slices.Equal(got, []string{"c0", "c1"}) {
		t.Fatalf("read_committed got %q", got)
	}
	if got := consume(t, s, "ru", kgo.ReadUncommitted(), 3); !slices.Equal(got, []string{"a0", "c0", "c1"}) {
		t.Fatalf("read_uncommitted got %q", got)
	}
	successor := kgoClient(t, s, kgo.ClientID("successor"), kgo.TransactionalID("order-txn"))
	if err := txn(ctx, successor, true, map[int32]string{1: "s1"}); err != nil {
		t.Fatalf("the successor: %v", err)
	}
	err := txn(ctx, zombie, true, map[int32]string{0: "z0"})
	if !errors.Is(err, kerr.ProducerFenced) && !errors.Is(err, kerr.InvalidProducerEpoch) {
		t.Fatalf("the zombie's transaction: %v, want PRODUCER_FENCED", err)
	}
	zombie.Close()
	successor.Close()
	rec := s.stop()
	if !strings.Contains(rec, `client zombie software="kgo`) {
		t.Errorf("the recording does not name kgo on zombie's lifeline:\n%s", rec)
	}
	// Metadata and ListOffsets are answered by the simulated brokers, so
	// they are drawn and recorded too.
	for _, want := range []string{"\nrequest Metadata from=zombie ", "\nrequest ListOffsets from=rc "} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording lacks %q", want)
		}
	}
}

// TestKgoCoordinatorCrash: the transaction coordinator crashes between
// two of kgo's transactions; the controller moves its partitions after
// broker.session.timeout.ms and kgo carries on. The crash is typed as
// at the console, and is in the recording at its moment.
func TestKgoCoordinatorCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions+"config broker.session.timeout.ms=2s\n")
	ctx := context.Background()
	p := kgoClient(t, s, kgo.ClientID("p"), kgo.TransactionalID("crash-txn"))
	if err := txn(ctx, p, true, map[int32]string{0: "before-0", 1: "before-1"}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	var coord int32
	s.l.run(func() { coord, _ = s.l.c.CoordinatorOf("crash-txn"); close(done) })
	<-done
	crash := "crash broker-" + string(rune('0'+coord))
	if err := s.l.Statement(crash); err != nil {
		t.Fatal(err)
	}
	p, err := retryTxn(t, ctx, func() *kgo.Client { return kgoClient(t, s, kgo.ClientID("p"), kgo.TransactionalID("crash-txn")) },
		p, map[int32]string{0: "after-0", 1: "after-1"})
	if err != nil {
		t.Fatalf("after the crash: %v", err)
	}
	p.Close()
	if got := consume(t, s, "rc", kgo.ReadCommitted(), 4); !slices.Equal(got, []string{"after-0", "after-1", "before-0", "before-1"}) {
		t.Fatalf("read_committed got %q", got)
	}
	rec := s.stop()
	if !strings.Contains(rec, "\n"+crash+"\n") {
		t.Errorf("the recording lacks %q", crash)
	}
}
