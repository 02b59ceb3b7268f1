//go:build !wasm

package kafkalistener

// Record batches (magic v2) on the wire: decoding a producer's batch,
// CRC-32C checked, decompressed within a bound, into the simulation's
// RecordBatch; encoding the log's batches for a Fetch, CRC computed.

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/twmb/franz-go/pkg/kmsg"

	"txnlab/core/protocol"
)

// Bounds on what one batch may make the listener hold.
const (
	// MaxRecordsPerBatch bounds a batch's records, as a recorded line
	// must stay short enough to parse (scenario.MaxLineLength).
	MaxRecordsPerBatch = 100
	// MaxDecompressed bounds a batch's decompressed size: a
	// decompression bomb stops there.
	MaxDecompressed = 16 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// errBatch is a batch the broker cannot take, with the error Kafka
// answers for it.
type errBatch struct {
	code int16
	msg  string
}

func (e *errBatch) Error() string { return e.msg }

func corrupt(format string, args ...any) error {
	return &errBatch{errCorruptMessage, fmt.Sprintf(format, args...)}
}

// DecodeBatch decodes the one v2 record batch of a Produce partition.
func DecodeBatch(raw []byte) (protocol.RecordBatch, error) {
	var out protocol.RecordBatch
	if len(raw) < 61 {
		return out, corrupt("record batch of %d bytes is shorter than its header", len(raw))
	}
	var rb kmsg.RecordBatch
	if err := rb.ReadFrom(raw); err != nil {
		return out, corrupt("record batch: %v", err)
	}
	if rb.Magic != 2 {
		return out, corrupt("record batch magic %d: only v2 batches are taken", rb.Magic)
	}
	if int(rb.Length) != len(raw)-12 {
		return out, corrupt("record batch length %d, but %d bytes follow it (one batch per partition)", rb.Length, len(raw)-12)
	}
	if crc := crc32.Checksum(raw[21:], castagnoli); crc != uint32(rb.CRC) {
		return out, corrupt("record batch CRC-32C is %08x, computed %08x", uint32(rb.CRC), crc)
	}
	if rb.Attributes&0x20 != 0 {
		return out, &errBatch{errInvalidRecord, "a client may not write control batches"}
	}
	if rb.NumRecords < 1 || rb.NumRecords > MaxRecordsPerBatch {
		return out, &errBatch{errRecordListTooLarge, fmt.Sprintf("a batch holds 1 to %d records here, this one %d", MaxRecordsPerBatch, rb.NumRecords)}
	}
	data, err := decompress(rb.Attributes&7, rb.Records)
	if err != nil {
		return out, err
	}
	out = protocol.RecordBatch{ProducerId: rb.ProducerID, ProducerEpoch: rb.ProducerEpoch,
		BaseSequence: rb.FirstSequence, IsTransactional: rb.Attributes&0x10 != 0}
	for i := int32(0); i < rb.NumRecords; i++ {
		var r protocol.Record
		r, data, err = decodeRecord(data, rb.FirstTimestamp)
		var eb *errBatch
		if errors.As(err, &eb) {
			return out, err
		}
		if err != nil {
			return out, corrupt("record %d: %v", i, err)
		}
		out.Records = append(out.Records, r)
	}
	if len(data) != 0 {
		return out, corrupt("%d bytes after the batch's %d records", len(data), rb.NumRecords)
	}
	return out, nil
}

// reader reads Kafka's varint-framed record fields.
type reader struct {
	b   []byte
	err error
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.err = errors.New("bad varint")
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) bytes(n int64) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > int64(len(r.b)) {
		r.err = fmt.Errorf("length %d past the end (%d bytes left)", n, len(r.b))
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

// MaxRecordHeaders bounds one record's headers (a recorded line holds
// them all).
const MaxRecordHeaders = 64

// decodeRecord reads one record and returns the bytes after it: its key
// and value (null kept apart from empty), its timestamp (the batch's
// first timestamp plus its delta: the client's CreateTime) and its
// headers, all of which the recorded line carries.
func decodeRecord(b []byte, firstTimestamp int64) (protocol.Record, []byte, error) {
	r := &reader{b: b}
	n := r.varint()
	body := &reader{b: r.bytes(n)}
	if r.err != nil {
		return protocol.Record{}, nil, r.err
	}
	body.bytes(1) // attributes
	rec := protocol.Record{Timestamp: firstTimestamp + body.varint()}
	body.varint() // offset delta
	if kl := body.varint(); kl >= 0 {
		rec.Key = string(body.bytes(kl))
	} else {
		rec.NullKey = true
	}
	if vl := body.varint(); vl >= 0 {
		rec.Value = string(body.bytes(vl))
	} else {
		rec.Tombstone = true
	}
	h := body.varint()
	if h < 0 {
		return rec, nil, fmt.Errorf("%d headers", h)
	}
	if h > MaxRecordHeaders {
		return rec, nil, &errBatch{errInvalidRecord, fmt.Sprintf("a record holds at most %d headers here, this one %d", MaxRecordHeaders, h)}
	}
	for ; h > 0 && body.err == nil; h-- {
		hd := protocol.RecordHeader{Key: string(body.bytes(body.varint()))}
		if vl := body.varint(); vl >= 0 {
			hd.Value = string(body.bytes(vl))
		} else {
			hd.NullValue = true
		}
		rec.Headers = append(rec.Headers, hd)
	}
	if body.err != nil {
		return rec, nil, body.err
	}
	if len(body.b) != 0 {
		return rec, nil, fmt.Errorf("%d bytes after the record's fields", len(body.b))
	}
	return rec, r.b, nil
}

// decompress undoes a batch's compression (attributes & 7), at most
// MaxDecompressed bytes.
func decompress(codec int16, data []byte) ([]byte, error) {
	switch codec {
	case 0:
		return data, nil
	case 1:
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, corrupt("gzip: %v", err)
		}
		out, err := io.ReadAll(io.LimitReader(zr, MaxDecompressed+1))
		if err != nil {
			return nil, corrupt("gzip: %v", err)
		}
		if len(out) > MaxDecompressed {
			return nil, &errBatch{errMessageTooLarge, fmt.Sprintf("the batch decompresses to more than %d bytes", MaxDecompressed)}
		}
		return out, nil
	case 2:
		return snappyDecode(data)
	case 3:
		return lz4Decode(data)
	case 4:
		return zstdDecode(data)
	}
	return nil, corrupt("unknown compression codec %d", codec)
}

// EncodeBatch encodes a log batch as a Fetch carries it: uncompressed,
// with its CRC. epochMs maps the simulation's virtual append time to
// the wall clock a client expects; a record a client timestamped keeps
// its CreateTime, as Kafka's log does.
func EncodeBatch(b *protocol.RecordBatch, epochMs int64) []byte {
	appended := epochMs + b.Timestamp
	var recs []byte
	n := len(b.Records)
	first, maxTs := appended, appended
	if b.IsControl {
		// The marker: key (version 0, type), value (version 0,
		// coordinator epoch).
		key := binary.BigEndian.AppendUint16(binary.BigEndian.AppendUint16(nil, 0), uint16(b.ControlType))
		val := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint16(nil, 0), uint32(b.CoordinatorEpoch))
		recs = appendRecord(recs, 0, 0, &protocol.Record{Key: string(key), Value: string(val)})
		n = 1
	} else {
		ts := func(r *protocol.Record) int64 {
			if r.Timestamp != 0 {
				return r.Timestamp
			}
			return appended
		}
		if n > 0 {
			first, maxTs = ts(&b.Records[0]), ts(&b.Records[0])
		}
		for i := range b.Records {
			t := ts(&b.Records[i])
			maxTs = max(maxTs, t)
			recs = appendRecord(recs, int64(i), t-first, &b.Records[i])
		}
	}
	var attrs int16
	if b.IsTransactional {
		attrs |= 0x10
	}
	if b.IsControl {
		attrs |= 0x20
	}
	rb := kmsg.RecordBatch{FirstOffset: b.BaseOffset, PartitionLeaderEpoch: b.PartitionLeaderEpoch, Magic: 2,
		Attributes: attrs, LastOffsetDelta: int32(n - 1), FirstTimestamp: first, MaxTimestamp: maxTs,
		ProducerID: b.ProducerId, ProducerEpoch: b.ProducerEpoch, FirstSequence: b.BaseSequence,
		NumRecords: int32(n), Records: recs}
	out := rb.AppendTo(nil)
	binary.BigEndian.PutUint32(out[8:], uint32(len(out)-12))
	binary.BigEndian.PutUint32(out[17:], crc32.Checksum(out[21:], castagnoli))
	return out
}

func appendBytes(dst []byte, s string, null bool) []byte {
	if null {
		return binary.AppendVarint(dst, -1)
	}
	return append(binary.AppendVarint(dst, int64(len(s))), s...)
}

func appendRecord(dst []byte, offsetDelta, tsDelta int64, r *protocol.Record) []byte {
	var body []byte
	body = append(body, 0) // attributes
	body = binary.AppendVarint(body, tsDelta)
	body = binary.AppendVarint(body, offsetDelta)
	body = appendBytes(body, r.Key, r.NullKey)
	body = appendBytes(body, r.Value, r.Tombstone)
	body = binary.AppendVarint(body, int64(len(r.Headers)))
	for _, h := range r.Headers {
		body = appendBytes(body, h.Key, false)
		body = appendBytes(body, h.Value, h.NullValue)
	}
	dst = binary.AppendVarint(dst, int64(len(body)))
	return append(dst, body...)
}

func crc32c(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }
