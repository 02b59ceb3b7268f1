//go:build !wasm

package kafkalistener

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"reflect"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// FuzzDecodeBatch: a producer's record batch, however malformed or
// compressed, decodes or fails with an error, never a panic and never
// past the bounds; a batch that decodes encodes back to the same records.
func FuzzDecodeBatch(f *testing.F) {
	good := protocol.RecordBatch{ProducerId: 7, ProducerEpoch: 1, BaseSequence: 0, IsTransactional: true,
		Records: []protocol.Record{{Key: "k", Value: "v"}, {Key: "\x00\xff", Value: ""}}}
	f.Add(EncodeBatch(&good, 0))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("\x0c\x00\x00\x00\x02k\x02v\x00"))
	zw.Close()
	f.Add(batchWith(1, 1, gz.Bytes()))
	f.Add(batchWith(1, 2, []byte{10, 36, 0, 0, 0, 2, 'k', 2, 'v', 0, 0}))
	f.Add(batchWith(1, 2, append(append([]byte{}, xerialMagic...), 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2, 1, 0)))
	f.Add(batchWith(1, 3, []byte{0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0x82, 0, 0, 0, 0}))
	zstdGood, _ := zstd.NewWriter(nil)
	f.Add(batchWith(1, 4, zstdGood.EncodeAll([]byte("\x0c\x00\x00\x00\x02k\x02v\x00"), nil)))
	withHeaders := protocol.RecordBatch{ProducerId: -1, ProducerEpoch: -1, BaseSequence: -1, Records: []protocol.Record{
		{NullKey: true, Value: "v", Timestamp: 1_700_000_000_123, Headers: []protocol.RecordHeader{{Key: "h", Value: "x"}, {Key: "n", NullValue: true}}},
		{Key: "k", Tombstone: true}}}
	f.Add(EncodeBatch(&withHeaders, 0))
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := DecodeBatch(raw)
		if err != nil {
			return
		}
		if len(b.Records) == 0 || len(b.Records) > MaxRecordsPerBatch {
			t.Fatalf("%d records decoded", len(b.Records))
		}
		again, err := DecodeBatch(EncodeBatch(&b, 0))
		if err != nil {
			t.Fatalf("a decoded batch does not encode back: %v", err)
		}
		for i := range b.Records {
			if !reflect.DeepEqual(again.Records[i], b.Records[i]) {
				t.Fatalf("record %d: %+v, then %+v", i, b.Records[i], again.Records[i])
			}
		}
	})
}

// FuzzParseRequest: any frame body gives a request or the reason its
// connection closes, never a panic.
func FuzzParseRequest(f *testing.F) {
	v := servedVersions(true)
	fmtr := kmsg.NewRequestFormatter(kmsg.FormatterClientID("fuzz"))
	for _, req := range []kmsg.Request{
		&kmsg.ApiVersionsRequest{Version: 3, ClientSoftwareName: "x", ClientSoftwareVersion: "1"},
		&kmsg.MetadataRequest{Version: 9},
		&kmsg.FindCoordinatorRequest{Version: 3, CoordinatorKey: "t", CoordinatorType: 1},
		&kmsg.ProduceRequest{Version: 9, Acks: -1, Topics: []kmsg.ProduceRequestTopic{{Topic: "o",
			Partitions: []kmsg.ProduceRequestTopicPartition{{Partition: 0, Records: batchWith(1, 0, nil)}}}}},
		&kmsg.FetchRequest{Version: 11, Topics: []kmsg.FetchRequestTopic{{Topic: "o", Partitions: []kmsg.FetchRequestTopicPartition{{}}}}},
		&kmsg.JoinGroupRequest{Version: 9, Group: "g", Protocols: []kmsg.JoinGroupRequestProtocol{{Name: "range", Metadata: []byte{0, 0, 0, 0, 0, 1}}}},
		&kmsg.LeaveGroupRequest{Version: 5, Group: "g", Members: []kmsg.LeaveGroupRequestMember{{MemberID: "m", Reason: kmsg.StringPtr("bye")}}},
		&kmsg.ListOffsetsRequest{Version: 7, Topics: []kmsg.ListOffsetsRequestTopic{{Topic: "o", Partitions: []kmsg.ListOffsetsRequestTopicPartition{{Timestamp: -3}}}}},
		&kmsg.DescribeProducersRequest{Topics: []kmsg.DescribeProducersRequestTopic{{Topic: "o", Partitions: []int32{0}}}},
		&kmsg.DescribeTransactionsRequest{TransactionalIDs: []string{"t"}},
		&kmsg.ListTransactionsRequest{StateFilters: []string{"Ongoing"}, ProducerIDFilters: []int64{1}},
		&kmsg.WriteTxnMarkersRequest{Version: 1, Markers: []kmsg.WriteTxnMarkersRequestMarker{{ProducerID: 1,
			Topics: []kmsg.WriteTxnMarkersRequestMarkerTopic{{Topic: "o", Partitions: []int32{0}}}}}},
	} {
		frame := fmtr.AppendRequest(nil, req, 1)
		f.Add(frame[4:])
	}
	f.Add(binary.BigEndian.AppendUint64(nil, 0))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) < 8 {
			return // the reader refuses frames shorter than a header
		}
		r := parseRequest(body, v)
		if r.closeWhy == "" && r.req == nil {
			t.Fatal("neither a request nor a reason to close")
		}
		if r.req != nil && r.closeWhy == "" {
			resp := r.req.ResponseKind()
			resp.SetVersion(r.version)
			frame(1, resp) // encoding an empty answer at any accepted version must not panic
		}
	})
}
