//go:build !wasm

package kafkalistener

// Snappy (raw and with the xerial framing the Java client writes) and
// LZ4 (the frame format) decoders, written here rather than imported:
// the listener only ever decodes, each format is a page, and every
// output is bounded by MaxDecompressed. Zstandard is a format of its own
// (entropy coders, dictionaries): klauspost/compress decodes it, already
// in the module through nats-server, bounded the same way.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
)

// zstdDecode decodes a zstd frame, at most MaxDecompressed bytes out and
// at most that much window memory.
func zstdDecode(src []byte) ([]byte, error) {
	d, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(MaxDecompressed), zstd.WithDecoderMaxWindow(MaxDecompressed))
	if err != nil {
		return nil, corrupt("zstd: %v", err)
	}
	defer d.Close()
	out, err := io.ReadAll(io.LimitReader(d, MaxDecompressed+1))
	if err != nil {
		return nil, corrupt("zstd: %v", err)
	}
	if len(out) > MaxDecompressed {
		return nil, tooLarge()
	}
	return out, nil
}

func tooLarge() error {
	return &errBatch{errMessageTooLarge, fmt.Sprintf("the batch decompresses to more than %d bytes", MaxDecompressed)}
}

var xerialMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

// snappyDecode decodes a snappy block, or xerial-framed blocks.
func snappyDecode(src []byte) ([]byte, error) {
	if !bytes.HasPrefix(src, xerialMagic) {
		return snappyBlock(nil, src)
	}
	if len(src) < 16 {
		return nil, corrupt("snappy: short xerial header")
	}
	src = src[16:]
	var out []byte
	for len(src) > 0 {
		if len(src) < 4 {
			return nil, corrupt("snappy: short xerial chunk header")
		}
		n := binary.BigEndian.Uint32(src)
		src = src[4:]
		if uint64(n) > uint64(len(src)) {
			return nil, corrupt("snappy: xerial chunk of %d bytes past the end", n)
		}
		var err error
		if out, err = snappyBlock(out, src[:n]); err != nil {
			return nil, err
		}
		src = src[n:]
	}
	return out, nil
}

// snappyBlock appends the decoding of one snappy block to dst.
func snappyBlock(dst, src []byte) ([]byte, error) {
	want, n := binary.Uvarint(src)
	if n <= 0 {
		return nil, corrupt("snappy: bad length")
	}
	if want > MaxDecompressed || uint64(len(dst))+want > MaxDecompressed {
		return nil, tooLarge()
	}
	start := len(dst)
	src = src[n:]
	for len(src) > 0 {
		tag := src[0]
		var length, offset int
		switch tag & 3 {
		case 0: // literal
			length = int(tag >> 2)
			src = src[1:]
			if length >= 60 {
				nb := length - 59
				if len(src) < nb {
					return nil, corrupt("snappy: short literal length")
				}
				length = 0
				for i := nb - 1; i >= 0; i-- {
					length = length<<8 | int(src[i])
				}
				src = src[nb:]
			}
			length++
			if length > len(src) || uint64(len(dst)-start+length) > want {
				return nil, corrupt("snappy: literal past the end")
			}
			dst = append(dst, src[:length]...)
			src = src[length:]
			continue
		case 1:
			if len(src) < 2 {
				return nil, corrupt("snappy: short copy")
			}
			length = 4 + int(tag>>2)&7
			offset = int(tag&0xe0)<<3 | int(src[1])
			src = src[2:]
		case 2:
			if len(src) < 3 {
				return nil, corrupt("snappy: short copy")
			}
			length = 1 + int(tag>>2)
			offset = int(binary.LittleEndian.Uint16(src[1:]))
			src = src[3:]
		case 3:
			if len(src) < 5 {
				return nil, corrupt("snappy: short copy")
			}
			length = 1 + int(tag>>2)
			offset = int(binary.LittleEndian.Uint32(src[1:]))
			src = src[5:]
		}
		if offset <= 0 || offset > len(dst)-start || uint64(len(dst)-start+length) > want {
			return nil, corrupt("snappy: bad copy")
		}
		for i := 0; i < length; i++ {
			dst = append(dst, dst[len(dst)-offset])
		}
	}
	if uint64(len(dst)-start) != want {
		return nil, corrupt("snappy: %d bytes decoded, %d announced", len(dst)-start, want)
	}
	return dst, nil
}

// lz4Decode decodes an LZ4 frame.
func lz4Decode(src []byte) ([]byte, error) {
	if len(src) < 7 || binary.LittleEndian.Uint32(src) != 0x184D2204 {
		return nil, corrupt("lz4: not an LZ4 frame")
	}
	flg := src[4]
	if flg>>6 != 1 {
		return nil, corrupt("lz4: frame version %d", flg>>6)
	}
	hdr := 7 // magic, FLG, BD, header checksum
	if flg&0x08 != 0 {
		hdr += 8 // content size
	}
	if flg&0x01 != 0 {
		hdr += 4 // dictionary id
	}
	if len(src) < hdr {
		return nil, corrupt("lz4: short frame header")
	}
	blockSum := flg&0x10 != 0
	src = src[hdr:]
	var out []byte
	for {
		if len(src) < 4 {
			return nil, corrupt("lz4: frame ends without an end mark")
		}
		n := binary.LittleEndian.Uint32(src)
		src = src[4:]
		if n == 0 {
			return out, nil
		}
		raw := n&0x80000000 != 0
		n &= 0x7fffffff
		if uint64(n) > uint64(len(src)) {
			return nil, corrupt("lz4: block past the end")
		}
		var err error
		if raw {
			if len(out)+int(n) > MaxDecompressed {
				return nil, tooLarge()
			}
			out = append(out, src[:n]...)
		} else if out, err = lz4Block(out, src[:n]); err != nil {
			return nil, err
		}
		src = src[n:]
		if blockSum {
			if len(src) < 4 {
				return nil, corrupt("lz4: short block checksum")
			}
			src = src[4:]
		}
	}
}

// lz4Block appends the decoding of one LZ4 block to dst.
func lz4Block(dst, src []byte) ([]byte, error) {
	start := len(dst)
	for len(src) > 0 {
		tok := src[0]
		src = src[1:]
		lit := int(tok >> 4)
		if lit == 15 {
			for {
				if len(src) == 0 {
					return nil, corrupt("lz4: short literal length")
				}
				b := src[0]
				src = src[1:]
				lit += int(b)
				if lit > MaxDecompressed {
					return nil, tooLarge()
				}
				if b != 255 {
					break
				}
			}
		}
		if lit > len(src) {
			return nil, corrupt("lz4: literal past the end")
		}
		if len(dst)+lit > MaxDecompressed {
			return nil, tooLarge()
		}
		dst = append(dst, src[:lit]...)
		src = src[lit:]
		if len(src) == 0 {
			break // the last sequence has no match
		}
		if len(src) < 2 {
			return nil, corrupt("lz4: short match offset")
		}
		off := int(binary.LittleEndian.Uint16(src))
		src = src[2:]
		ml := int(tok&15) + 4
		if tok&15 == 15 {
			for {
				if len(src) == 0 {
					return nil, corrupt("lz4: short match length")
				}
				b := src[0]
				src = src[1:]
				ml += int(b)
				if ml > MaxDecompressed {
					return nil, tooLarge()
				}
				if b != 255 {
					break
				}
			}
		}
		if off == 0 || off > len(dst)-start {
			return nil, corrupt("lz4: bad match offset")
		}
		if len(dst)+ml > MaxDecompressed {
			return nil, tooLarge()
		}
		for i := 0; i < ml; i++ {
			dst = append(dst, dst[len(dst)-off])
		}
	}
	return dst, nil
}
