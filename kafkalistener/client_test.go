//go:build !wasm

package kafkalistener

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

const twoPartitions = "cluster brokers=3\ntopic orders partitions=2\n"

// producer is a transactional producer written with kmsg: what a client
// library does, one request at a time.
type producer struct {
	*kclient
	txnID    string
	pid      int64
	epoch    int16
	coord    int32
	leaders  map[int32]int32
	seq      map[int32]int32
	lastCode int16
}

func newProducer(t *testing.T, s *session, id, txnID string) *producer {
	p := &producer{kclient: newClient(t, s, id), txnID: txnID, leaders: map[int32]int32{}, seq: map[int32]int32{}}
	av := kmsg.NewPtrApiVersionsRequest()
	av.Version = 3
	av.ClientSoftwareName, av.ClientSoftwareVersion = "kmsg-test", "1"
	if r := p.request(0, av).(*kmsg.ApiVersionsResponse); r.ErrorCode != 0 || len(r.ApiKeys) == 0 {
		t.Fatalf("ApiVersions: error %d, %d keys", r.ErrorCode, len(r.ApiKeys))
	}
	md := kmsg.NewPtrMetadataRequest()
	md.Version = 9
	md.Topics = []kmsg.MetadataRequestTopic{{Topic: kmsg.StringPtr("orders")}}
	mr := p.request(0, md).(*kmsg.MetadataResponse)
	if len(mr.Brokers) != 3 || len(mr.Topics) != 1 || len(mr.Topics[0].Partitions) != 2 {
		t.Fatalf("Metadata: %d brokers, topics %+v", len(mr.Brokers), mr.Topics)
	}
	for _, part := range mr.Topics[0].Partitions {
		p.leaders[part.Partition] = part.Leader
	}
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.Version = 3
	fc.CoordinatorKey, fc.CoordinatorType = txnID, 1
	fr := p.request(0, fc).(*kmsg.FindCoordinatorResponse)
	if fr.ErrorCode != 0 || fr.Port <= 0 {
		t.Fatalf("FindCoordinator: %+v", fr)
	}
	p.coord = fr.NodeID
	return p
}

// retry repeats a call while it meets CONCURRENT_TRANSACTIONS (the
// markers of the previous transaction still out), as clients do.
func (p *producer) retry(call func() int16) int16 {
	for i := 0; ; i++ {
		code := call()
		if code != int16(protocol.CONCURRENT_TRANSACTIONS) || i == 50 {
			return code
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *producer) init() int16 {
	return p.retry(func() int16 {
		req := kmsg.NewPtrInitProducerIDRequest()
		req.Version = 4
		req.TransactionalID = kmsg.StringPtr(p.txnID)
		req.TransactionTimeoutMillis = 60000
		r := p.request(p.coord, req).(*kmsg.InitProducerIDResponse)
		p.pid, p.epoch = r.ProducerID, r.ProducerEpoch
		p.seq = map[int32]int32{}
		return r.ErrorCode
	})
}

func (p *producer) addPartitions(parts ...int32) int16 {
	return p.retry(func() int16 {
		req := kmsg.NewPtrAddPartitionsToTxnRequest()
		req.Version = 3
		req.TransactionalID, req.ProducerID, req.ProducerEpoch = p.txnID, p.pid, p.epoch
		req.Topics = []kmsg.AddPartitionsToTxnRequestTopic{{Topic: "orders", Partitions: parts}}
		r := p.request(p.coord, req).(*kmsg.AddPartitionsToTxnResponse)
		for _, t := range r.Topics {
			for _, pr := range t.Partitions {
				if pr.ErrorCode != 0 {
					return pr.ErrorCode
				}
			}
		}
		return 0
	})
}

func (p *producer) produce(part int32, values ...string) int16 {
	b := protocol.RecordBatch{ProducerId: p.pid, ProducerEpoch: p.epoch, BaseSequence: p.seq[part], IsTransactional: true}
	for _, v := range values {
		b.Records = append(b.Records, protocol.Record{Key: "k", Value: v})
	}
	req := kmsg.NewPtrProduceRequest()
	req.Version = 9
	req.TransactionID, req.Acks, req.TimeoutMillis = kmsg.StringPtr(p.txnID), -1, 30000
	req.Topics = []kmsg.ProduceRequestTopic{{Topic: "orders", Partitions: []kmsg.ProduceRequestTopicPartition{{Partition: part, Records: EncodeBatch(&b, 0)}}}}
	r := p.request(p.leaders[part], req).(*kmsg.ProduceResponse)
	code := r.Topics[0].Partitions[0].ErrorCode
	if code == 0 {
		p.seq[part] += int32(len(values))
	}
	return code
}

func (p *producer) end(commit bool) int16 {
	return p.retry(func() int16 {
		req := kmsg.NewPtrEndTxnRequest()
		req.Version = 3
		req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Commit = p.txnID, p.pid, p.epoch, commit
		return p.request(p.coord, req).(*kmsg.EndTxnResponse).ErrorCode
	})
}

// readCommitted fetches a partition from offset 0 at read_committed and
// keeps what a client keeps: data records outside aborted transactions.
func readCommitted(c *kclient, leader, part int32) (values []string, hw int64) {
	req := kmsg.NewPtrFetchRequest()
	req.Version = 11
	req.ReplicaID, req.MaxWaitMillis, req.MinBytes, req.MaxBytes, req.IsolationLevel = -1, 100, 1, 1<<20, 1
	req.SessionEpoch = -1
	req.Topics = []kmsg.FetchRequestTopic{{Topic: "orders", Partitions: []kmsg.FetchRequestTopicPartition{{Partition: part, FetchOffset: 0, PartitionMaxBytes: 1 << 20}}}}
	r := c.request(leader, req).(*kmsg.FetchResponse)
	rp := r.Topics[0].Partitions[0]
	if rp.ErrorCode != 0 {
		c.t.Fatalf("Fetch orders/%d: error %d", part, rp.ErrorCode)
	}
	aborted := map[int64]int64{} // producer id → first aborted offset
	for _, a := range rp.AbortedTransactions {
		aborted[a.ProducerID] = a.FirstOffset
	}
	raw := rp.RecordBatches
	for len(raw) > 0 {
		var rb kmsg.RecordBatch
		if err := rb.ReadFrom(raw); err != nil {
			c.t.Fatal(err)
		}
		n := int(rb.Length) + 12
		batch := raw[:n]
		raw = raw[n:]
		if rb.Attributes&0x20 != 0 { // an abort marker ends its transaction's window
			if first, ok := aborted[rb.ProducerID]; ok && rb.FirstOffset > first {
				delete(aborted, rb.ProducerID)
			}
			continue
		}
		if first, ok := aborted[rb.ProducerID]; ok && rb.FirstOffset >= first {
			continue
		}
		// Re-read the batch as a producer's, to reuse the decoder.
		b, err := DecodeBatch(batch)
		if err != nil {
			c.t.Fatalf("fetched batch: %v", err)
		}
		for _, rec := range b.Records {
			values = append(values, rec.Value)
		}
	}
	return values, rp.HighWatermark
}

// TestKmsgClient runs a transactional producer written with kmsg alone
// against the listener: it commits to two partitions, aborts, reads
// committed data only, and is fenced as a zombie by a second instance;
// the session's recording replays to the live digest.
func TestKmsgClient(t *testing.T) {
	s := startSession(t, twoPartitions)
	p := newProducer(t, s, "zombie", "order-txn")
	if code := p.init(); code != 0 || p.pid < 0 {
		t.Fatalf("InitProducerId: error %d pid %d", code, p.pid)
	}
	if code := p.addPartitions(0, 1); code != 0 {
		t.Fatalf("AddPartitionsToTxn: %d", code)
	}
	for part, v := range []string{"committed-0", "committed-1"} {
		if code := p.produce(int32(part), v); code != 0 {
			t.Fatalf("Produce orders/%d: %d", part, code)
		}
	}
	if code := p.end(true); code != 0 {
		t.Fatalf("EndTxn commit: %d", code)
	}
	if code := p.addPartitions(0); code != 0 {
		t.Fatalf("AddPartitionsToTxn (second): %d", code)
	}
	if code := p.produce(0, "aborted"); code != 0 {
		t.Fatalf("Produce aborted: %d", code)
	}
	if code := p.end(false); code != 0 {
		t.Fatalf("EndTxn abort: %d", code)
	}

	reader := newClient(t, s, "reader")
	var got []string
	for i := 0; i < 100; i++ { // until the abort marker is in
		var hw int64
		got, hw = readCommitted(reader, p.leaders[0], 0)
		if hw >= 4 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !slices.Equal(got, []string{"committed-0"}) {
		t.Fatalf("read_committed orders/0 = %q, want only the committed record", got)
	}

	// A second instance with the same transactional.id fences the first.
	succ := newProducer(t, s, "successor", "order-txn")
	if code := succ.init(); code != 0 || succ.epoch <= p.epoch {
		t.Fatalf("successor InitProducerId: error %d epoch %d (zombie's %d)", code, succ.epoch, p.epoch)
	}
	code := p.addPartitions(1)
	if code != int16(protocol.PRODUCER_FENCED) && code != int16(protocol.INVALID_PRODUCER_EPOCH) {
		t.Fatalf("zombie AddPartitionsToTxn: error %d, want PRODUCER_FENCED", code)
	}
	rec := s.stop()
	if testing.Verbose() {
		t.Logf("recording:\n%s", rec)
	}
	for _, want := range []string{`client zombie software="kmsg-test 1"`, "client successor", "request Produce from=zombie", "request EndTxn from=zombie"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording lacks %q:\n%s", want, rec)
		}
	}
}
