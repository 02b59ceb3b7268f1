//go:build !wasm

package kafkalistener

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKgoTransactionVersion2: on a cluster running transaction.version
// 2, the listener advertises the feature with Produce v12 and EndTxn v5;
// kgo switches to KIP-890's protocol (no AddPartitionsToTxn) after its
// first transaction, and read_committed still sees only what committed.
func TestKgoTransactionVersion2(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions+"config transaction.version=2 transaction.partition.verification.enable=true\n")
	ctx := context.Background()
	// Two Produce v12 to two leaders at once: the second leader's
	// AddPartitionsToTxn meets CONCURRENT_TRANSACTIONS while the first
	// is written, its Produce gets NOT_ENOUGH_REPLICAS, and kgo retries
	// after refreshing metadata, by default no sooner than 5 s.
	p := kgoClient(t, s, kgo.ClientID("tv2"), kgo.TransactionalID("tv2-txn"), kgo.MetadataMinAge(100*time.Millisecond))
	for i, commit := range []bool{true, true, false} {
		v := map[int32]string{0: "t" + string(rune('0'+i)), 1: "u" + string(rune('0'+i))}
		if err := txn(ctx, p, commit, v); err != nil {
			t.Fatalf("transaction %d: %v", i, err)
		}
	}
	p.Close()
	if got := consume(t, s, "rc", kgo.ReadCommitted(), 4); !slices.Equal(got, []string{"t0", "t1", "u0", "u1"}) {
		t.Fatalf("read_committed got %q", got)
	}
	rec := s.stop()
	if testing.Verbose() {
		t.Logf("recording:\n%s", rec)
	}
	if !strings.Contains(rec, "request Produce from=tv2 to=") || !strings.Contains(rec, "Version=12") || !strings.Contains(rec, "request EndTxn from=tv2 to=broker-") {
		t.Errorf("no Produce v12 in the recording:\n%s", rec)
	}
}

// TestKgoGroupTransactSession: consume-transform-produce with kgo's
// GroupTransactSession: a group member (JoinGroup, SyncGroup, OffsetFetch)
// reads orders, writes to out and commits its offsets in the transaction
// (AddOffsetsToTxn, TxnOffsetCommit); a read_committed reader of out sees
// every record once.
func TestKgoGroupTransactSession(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions+"topic out partitions=1\nconfig group.initial.rebalance.delay.ms=0\n")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	src := kgoClient(t, s, kgo.ClientID("src"), kgo.TransactionalID("src-txn"))
	if err := txn(ctx, src, true, map[int32]string{0: "a", 1: "b"}); err != nil {
		t.Fatal(err)
	}
	src.Close()
	sess, err := kgo.NewGroupTransactSession(kgo.SeedBrokers(s.l.Addrs()...), kgo.ClientID("eos"),
		kgo.TransactionalID("eos-txn"), kgo.ConsumerGroup("eos-group"), kgo.ConsumeTopics("orders"),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.FetchMaxWait(200*time.Millisecond),
		kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	moved := 0
	for moved < 2 {
		fs := sess.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("moved %d records before the deadline", moved)
		}
		if err := sess.Begin(); err != nil {
			t.Fatal(err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			sess.Produce(ctx, &kgo.Record{Topic: "out", Partition: 0, Value: append([]byte("out-"), r.Value...)}, nil)
			moved++
		})
		if committed, err := sess.End(ctx, kgo.TryCommit); err != nil || !committed {
			t.Fatalf("End: committed %v, %v", committed, err)
		}
	}
	sess.Close()
	rd := kgoClient(t, s, kgo.ClientID("rd"), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.FetchMaxWait(200*time.Millisecond),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"out": {0: kgo.NewOffset().AtStart()}}))
	var got []string
	for len(got) < 2 {
		fs := rd.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("read %q from out", got)
		}
		fs.EachRecord(func(r *kgo.Record) { got = append(got, string(r.Value)) })
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"out-a", "out-b"}) {
		t.Fatalf("out holds %q", got)
	}
	rd.Close()
	rec := s.stop()
	// Closing the session leaves the group: LeaveGroup goes through the
	// simulated group coordinator, drawn and recorded like Metadata.
	for _, want := range []string{"request JoinGroup from=eos", "request SyncGroup from=eos", "request TxnOffsetCommit from=eos",
		"request LeaveGroup from=eos", "request Metadata from=eos"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording lacks %q", want)
		}
	}
}

// TestKgoAutoCreate: a topic a client names before it exists is created
// as Kafka's auto.create.topics.enable does, by a recorded topic
// statement, and an idempotent producer writes to it.
func TestKgoAutoCreate(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, "cluster brokers=1\n")
	cl := kgoClient(t, s, kgo.ClientID("auto"), kgo.AllowAutoTopicCreation())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := cl.ProduceSync(ctx, &kgo.Record{Topic: "fresh", Value: []byte("v")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	if rec := s.stop(); !strings.Contains(rec, "\ntopic fresh partitions=1\n") {
		t.Fatalf("no topic statement in the recording:\n%s", rec)
	}
}

// TestKgoRecordsAsSent: what kgo puts in a record, through each codec
// (zstd included), comes back to a consumer as it was sent: headers, a
// null key, a null value, the client's timestamp. The recording carries
// them, so the replay gives the same trace.
func TestKgoRecordsAsSent(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	when := time.UnixMilli(1_700_000_000_123)
	codecs := map[string]kgo.CompressionCodec{"none": kgo.NoCompression(), "gzip": kgo.GzipCompression(),
		"snappy": kgo.SnappyCompression(), "lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression()}
	for name, codec := range codecs {
		p := kgoClient(t, s, kgo.ClientID("p-"+name), kgo.ProducerBatchCompression(codec))
		recs := []*kgo.Record{
			{Partition: 0, Key: []byte(name), Value: []byte("with-headers"), Timestamp: when,
				Headers: []kgo.RecordHeader{{Key: "trace", Value: []byte("a b")}, {Key: "bin", Value: []byte{0, 0xff}}}},
			{Partition: 0, Key: nil, Value: []byte(name + "-null-key"), Timestamp: when},
			{Partition: 0, Key: []byte(name + "-null-value"), Value: nil, Timestamp: when},
		}
		if err := p.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p.Close()
	}
	c := kgoClient(t, s, kgo.ClientID("reader"), kgo.FetchMaxWait(200*time.Millisecond),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{"orders": {0: kgo.NewOffset().AtStart()}}))
	var got []*kgo.Record
	for len(got) < 3*len(codecs) && ctx.Err() == nil {
		c.PollFetches(ctx).EachRecord(func(r *kgo.Record) { got = append(got, r) })
	}
	if len(got) != 3*len(codecs) {
		t.Fatalf("read %d records, want %d", len(got), 3*len(codecs))
	}
	for _, r := range got {
		if !r.Timestamp.Equal(when) {
			t.Errorf("%q: timestamp %v, want the client's %v", r.Value, r.Timestamp, when)
		}
		switch v := string(r.Value); {
		case strings.HasSuffix(v, "-null-key"):
			if r.Key != nil {
				t.Errorf("%s: key %q, want null", v, r.Key)
			}
		case r.Value == nil:
			if !strings.HasSuffix(string(r.Key), "-null-value") {
				t.Errorf("a null value on record %q", r.Key)
			}
		case v == "with-headers":
			if len(r.Headers) != 2 || r.Headers[0].Key != "trace" || string(r.Headers[0].Value) != "a b" ||
				r.Headers[1].Key != "bin" || string(r.Headers[1].Value) != "\x00\xff" {
				t.Errorf("%s's headers: %+v", r.Key, r.Headers)
			}
		default:
			t.Errorf("a record %q=%q", r.Key, r.Value)
		}
	}
	rec := s.stop()
	for _, want := range []string{`^h=trace:"a b"`, "^nullkey", "^nullvalue", "^ts=1700000000123", "from=p-zstd"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording lacks %q", want)
		}
	}
}

// TestKgoSetupDeclaresTheClient: a setup script may declare the client a
// real program will be (client NAME, its client.id) to put a rule on it
// before it connects; the program's requests then come from that node,
// under the rule, instead of a second node named ext-NAME.
func TestKgoSetupDeclaresTheClient(t *testing.T) {
	if testing.Short() {
		t.Skip("a real client's session takes seconds")
	}
	s := startSession(t, twoPartitions+"client shop\ndrop EndTxn from=shop count=1\n")
	cl := kgoClient(t, s, kgo.ClientID("shop"), kgo.TransactionalID("shop-txn"), kgo.RequestTimeoutOverhead(2*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := txn(ctx, cl, true, map[int32]string{0: "v"}); err != nil {
		t.Fatal(err)
	}
	cl.Close()
	rec := s.stop()
	if strings.Count(rec, "\nclient ") != 1 || !strings.Contains(rec, "\nrequest EndTxn from=shop ") {
		t.Errorf("the client's requests are not shop's:\n%s", rec)
	}
	if strings.Count(rec, "\nrequest EndTxn from=shop ") < 2 {
		t.Errorf("the rule did not drop shop's first EndTxn (kgo would have sent it again):\n%s", rec)
	}
}
