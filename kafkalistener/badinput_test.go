//go:build !wasm

package kafkalistener

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// rawFrame sends bytes as they are and reports whether the listener
// closed the connection without answering.
func rawFrame(t *testing.T, addr string, frame []byte) (closed bool) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write(frame)
	nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	var b [1]byte
	_, err = nc.Read(b[:])
	return isClosed(err)
}

// isClosed: the peer closed (EOF, or a reset when it left bytes unread),
// as opposed to a read that timed out.
func isClosed(err error) bool {
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

func header(key, version int16, body []byte) []byte {
	b := binary.BigEndian.AppendUint16(nil, uint16(key))
	b = binary.BigEndian.AppendUint16(b, uint16(version))
	b = binary.BigEndian.AppendUint32(b, 7)
	b = binary.BigEndian.AppendUint16(b, 3)
	b = append(b, "bad"...)
	b = append(b, body...)
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(b))), b...)
}

// produceOne sends a Produce of one raw batch to orders/0's leader and
// returns the partition's error code.
func produceOne(t *testing.T, c *kclient, leader int32, batch []byte) int16 {
	req := kmsg.NewPtrProduceRequest()
	req.Version = 9
	req.Acks, req.TimeoutMillis = -1, 30000
	req.Topics = []kmsg.ProduceRequestTopic{{Topic: "orders", Partitions: []kmsg.ProduceRequestTopicPartition{{Partition: 0, Records: batch}}}}
	return c.request(leader, req).(*kmsg.ProduceResponse).Topics[0].Partitions[0].ErrorCode
}

// batchWith encodes records as a producer would, then lets mutate
// change the batch before its CRC is computed again (or not).
func batchWith(n int, codec int16, payload []byte) []byte {
	b := protocol.RecordBatch{ProducerId: -1, ProducerEpoch: -1, BaseSequence: -1}
	for i := 0; i < n; i++ {
		b.Records = append(b.Records, protocol.Record{Key: "k", Value: "v"})
	}
	raw := EncodeBatch(&b, 0)
	if codec == 0 {
		return raw
	}
	var rb kmsg.RecordBatch
	rb.ReadFrom(raw)
	rb.Attributes |= codec
	rb.Records = payload
	out := rb.AppendTo(nil)
	binary.BigEndian.PutUint32(out[8:], uint32(len(out)-12))
	binary.BigEndian.PutUint32(out[17:], crc32c(out[21:]))
	return out
}

// TestBadInput: each kind of bad input gets a clear answer (an error
// code or a closed connection) and a note, the cluster keeps serving,
// and the session still replays to its digest.
func TestBadInput(t *testing.T) {
	s := startSession(t, twoPartitions)
	addr := s.l.Addrs()[0]
	for _, tc := range []struct {
		name  string
		frame []byte
	}{
		{"a frame shorter than a header", []byte{0, 0, 0, 3, 1, 2, 3}},
		{"a frame over the request bound", binary.BigEndian.AppendUint32(nil, 2<<20)},
		{"an unknown API key (SaslHandshake)", header(17, 1, nil)},
		{"a LeaveGroup without its body", header(13, 0, nil)},
		{"Produce v2, before record batch v2", header(0, 2, nil)},
		{"a truncated body", header(22, 4, []byte{0, 1})},
	} {
		if !rawFrame(t, addr, tc.frame) {
			t.Errorf("%s: the connection stayed open", tc.name)
		}
	}

	c := newClient(t, s, "bad-producer")
	md := kmsg.NewPtrMetadataRequest()
	md.Version = 9
	md.Topics = []kmsg.MetadataRequestTopic{{Topic: kmsg.StringPtr("orders")}}
	leader := c.request(0, md).(*kmsg.MetadataResponse).Topics[0].Partitions[0].Leader

	badCRC := batchWith(1, 0, nil)
	badCRC[len(badCRC)-1] ^= 0xff
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write(make([]byte, MaxDecompressed+1024))
	zw.Close()
	zenc, _ := zstd.NewWriter(nil)
	zstdBomb := zenc.EncodeAll(make([]byte, MaxDecompressed+1024), nil)
	many := protocol.RecordBatch{ProducerId: -1, ProducerEpoch: -1, BaseSequence: -1, Records: []protocol.Record{{Key: "k", Value: "v"}}}
	for i := 0; i <= MaxRecordHeaders; i++ {
		many.Records[0].Headers = append(many.Records[0].Headers, protocol.RecordHeader{Key: "h"})
	}
	manyHeaders := EncodeBatch(&many, 0)
	for _, tc := range []struct {
		name  string
		batch []byte
		want  int16
	}{
		{"a bad CRC", badCRC, errCorruptMessage},
		{"too many records", batchWith(MaxRecordsPerBatch+1, 0, nil), errRecordListTooLarge},
		{"a decompression bomb", batchWith(1, 1, bomb.Bytes()), errMessageTooLarge},
		{"garbage zstd", batchWith(1, 4, []byte{1, 2, 3}), errCorruptMessage},
		{"a zstd bomb", batchWith(1, 4, zstdBomb), errMessageTooLarge},
		{"too many headers", manyHeaders, errInvalidRecord},
		{"garbage snappy", batchWith(1, 2, []byte{0xff, 0xff, 0xff}), errCorruptMessage},
		{"a short batch", []byte{1, 2, 3}, errCorruptMessage},
	} {
		if got := produceOne(t, c, leader, tc.batch); got != tc.want {
			t.Errorf("%s: error %d, want %d", tc.name, got, tc.want)
		}
	}
	if got := produceOne(t, c, leader, batchWith(2, 0, nil)); got != 0 {
		t.Fatalf("a good batch after the bad ones: error %d", got)
	}
	rec := s.stop()
	// What a client was refused is on its lifeline too, as a line the
	// replay writes into the trace.
	for _, want := range []string{"# listener: closed connection", "API key 17", "CRC-32C", "decompresses to more than",
		"\nrefused Produce from=bad to=broker-0 error=UNSUPPORTED_VERSION\n",
		"\nrefused Produce from=bad-producer to=broker-", " error=CORRUPT_MESSAGE\n", " error=MESSAGE_TOO_LARGE\n", " error=INVALID_RECORD\n"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the recording has no note with %q:\n%s", want, rec)
		}
	}
}

// TestConnectionFlood: past MaxConns the listener closes new
// connections at once and says so.
func TestConnectionFlood(t *testing.T) {
	s := startSessionWith(t, twoPartitions, func(c *Config) { c.MaxConns = 3 })
	var held []net.Conn
	defer func() {
		for _, nc := range held {
			nc.Close()
		}
	}()
	for i := 0; i < 3; i++ {
		nc, err := net.Dial("tcp", s.l.Addrs()[0])
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, nc)
	}
	// The listener has its three (accepted in order through the
	// driver's queue): a fourth is closed unanswered.
	nc, err := net.Dial("tcp", s.l.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write(header(18, 0, nil))
	nc.SetReadDeadline(time.Now().Add(30 * time.Second))
	var b [1]byte
	if _, err := nc.Read(b[:]); !isClosed(err) {
		t.Fatalf("a connection past the bound: %v, want it closed", err)
	}
	for _, h := range held {
		h.Close()
	}
	rec := s.stop()
	if !strings.Contains(rec, "connections are open, the bound") {
		t.Errorf("no note of the bound:\n%s", rec)
	}
}
