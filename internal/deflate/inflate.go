package deflate

import "errors"

var (
	// ErrCorrupt is returned for a stream that is not DEFLATE: cut short,
	// a reserved block type or symbol, a code that is not a complete
	// prefix code, a distance before the start of the output.
	ErrCorrupt = errors.New("deflate: corrupt or truncated stream")
	// ErrTooLong is returned for a stream that decodes to more than the
	// limit given to Decompress.
	ErrTooLong = errors.New("deflate: stream decodes past the limit")
)

// Decompress decodes a raw DEFLATE stream (RFC 1951) of any block types,
// up to its final block (bytes after it are ignored, as compress/flate
// ignores them), into at most limit bytes. It accepts exactly the
// streams compress/flate's reader accepts and writes the same bytes
// (FuzzDecompress holds it to that), so every share link made with
// compress/flate's compressor opens as it did. Huffman codes are decoded
// a bit at a time (RFC 1951's canonical codes, counted by length, as
// zlib's puff does): slower than table lookups, but a link is a few
// kilobytes and the code stays small.
func Decompress(src []byte, limit int) ([]byte, error) {
	f := &inflater{src: src, limit: limit}
	for f.err == nil {
		final := f.bits(1)
		switch f.bits(2) {
		case 0:
			f.stored()
		case 1:
			var lit, dist huffman
			lit.build(fixedLengths(288, func(s int) uint8 {
				switch {
				case s < 144:
					return 8
				case s < 256:
					return 9
				case s < 280:
					return 7
				}
				return 8
			}))
			// All 32 five-bit codes, as compress/flate reads them: 30 and
			// 31 are then refused as distances.
			dist.build(fixedLengths(32, func(int) uint8 { return 5 }))
			f.codes(&lit, &dist)
		case 2:
			f.dynamic()
		default:
			f.fail(ErrCorrupt)
		}
		if final == 1 && f.err == nil {
			return f.out, nil
		}
	}
	return nil, f.err
}

func fixedLengths(n int, length func(int) uint8) []uint8 {
	l := make([]uint8, n)
	for s := range l {
		l[s] = length(s)
	}
	return l
}

// inflater reads the stream's bits from the least significant of each
// byte; its first error sticks, and every read after it yields zeros, so
// the loops need only check it once a symbol.
type inflater struct {
	src   []byte
	pos   int
	acc   uint32
	nacc  uint
	out   []byte
	limit int
	err   error
}

func (f *inflater) fail(err error) {
	if f.err == nil {
		f.err = err
	}
}

// bits reads n (at most 16) bits; fewer than 8 stay buffered after it,
// so a stored block starts at the next byte.
func (f *inflater) bits(n uint) int {
	for f.nacc < n {
		if f.pos >= len(f.src) {
			f.fail(ErrCorrupt)
			return 0
		}
		f.acc |= uint32(f.src[f.pos]) << f.nacc
		f.pos++
		f.nacc += 8
	}
	v := f.acc & (1<<n - 1)
	f.acc >>= n
	f.nacc -= n
	return int(v)
}

// stored copies a block of uncompressed bytes (BTYPE 00).
func (f *inflater) stored() {
	f.acc, f.nacc = 0, 0
	if f.pos+4 > len(f.src) {
		f.fail(ErrCorrupt)
		return
	}
	b := f.src[f.pos:]
	n := int(b[0]) | int(b[1])<<8
	if n != ^(int(b[2])|int(b[3])<<8)&0xffff || f.pos+4+n > len(f.src) {
		f.fail(ErrCorrupt)
		return
	}
	f.pos += 4
	f.put(f.src[f.pos : f.pos+n])
	f.pos += n
}

func (f *inflater) put(b []byte) {
	if len(f.out)+len(b) > f.limit {
		f.fail(ErrTooLong)
		return
	}
	f.out = append(f.out, b...)
}

// huffman is a canonical prefix code: how many codes have each length,
// and the symbols in code order.
type huffman struct {
	count  [16]int
	symbol []uint16
}

// build makes the code of the given code lengths (0: symbol unused) and
// reports whether compress/flate would accept it: a complete code, or
// none (an error only if a symbol is read), or a lone code of one bit,
// which zlib writes and compress/flate accepts.
func (h *huffman) build(lengths []uint8) bool {
	for _, l := range lengths {
		h.count[l]++
	}
	h.count[0] = 0
	left, used := 1, 0
	var offs [16]int
	for l := 1; l < 16; l++ {
		left = left<<1 - h.count[l]
		used += h.count[l]
		offs[l] = offs[l-1] + h.count[l-1]
	}
	h.symbol = make([]uint16, used)
	for s, l := range lengths {
		if l > 0 {
			h.symbol[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	return left == 0 || used == 0 || used == 1 && h.count[1] == 1
}

// decode reads one symbol: the code's bits come most significant first.
func (f *inflater) decode(h *huffman) int {
	code, first, index := 0, 0, 0
	for l := 1; l < 16; l++ {
		code |= f.bits(1)
		if code-first < h.count[l] {
			return int(h.symbol[index+code-first])
		}
		index += h.count[l]
		first = (first + h.count[l]) << 1
		code <<= 1
	}
	f.fail(ErrCorrupt)
	return 0
}

// dynamic reads a block's own codes (BTYPE 10), then its data.
func (f *inflater) dynamic() {
	nlit, ndist, nclen := f.bits(5)+257, f.bits(5)+1, f.bits(4)+4
	if nlit > 286 || ndist > 30 {
		f.fail(ErrCorrupt)
		return
	}
	var clen [19]uint8
	for _, o := range codeLengthOrder[:nclen] {
		clen[o] = uint8(f.bits(3))
	}
	var lc huffman
	if !lc.build(clen[:]) {
		f.fail(ErrCorrupt)
	}
	lens := make([]uint8, nlit+ndist)
	for i := 0; i < len(lens) && f.err == nil; {
		sym := f.decode(&lc)
		if sym < 16 {
			lens[i] = uint8(sym)
			i++
			continue
		}
		var v uint8
		var rep int
		switch sym {
		case 16:
			if i == 0 {
				f.fail(ErrCorrupt)
				return
			}
			v, rep = lens[i-1], 3+f.bits(2)
		case 17:
			rep = 3 + f.bits(3)
		default:
			rep = 11 + f.bits(7)
		}
		if i+rep > len(lens) {
			f.fail(ErrCorrupt)
			return
		}
		for ; rep > 0; rep-- {
			lens[i] = v
			i++
		}
	}
	var lit, dist huffman
	if !lit.build(lens[:nlit]) || !dist.build(lens[nlit:]) {
		f.fail(ErrCorrupt)
	}
	if f.err == nil {
		f.codes(&lit, &dist)
	}
}

// codes reads literals and matches up to the end of the block.
func (f *inflater) codes(lit, dist *huffman) {
	for f.err == nil {
		sym := f.decode(lit)
		switch {
		case f.err != nil || sym == 256:
			return
		case sym < 256:
			if len(f.out) >= f.limit {
				f.fail(ErrTooLong)
				return
			}
			f.out = append(f.out, byte(sym))
			continue
		case sym-257 >= len(lengthBase):
			f.fail(ErrCorrupt)
			return
		}
		n := int(lengthBase[sym-257]) + f.bits(uint(lengthExtra[sym-257]))
		d := f.decode(dist)
		if d >= len(distBase) {
			f.fail(ErrCorrupt)
			return
		}
		back := int(distBase[d]) + f.bits(uint(distExtra[d]))
		if f.err != nil || back > len(f.out) {
			f.fail(ErrCorrupt)
			return
		}
		if len(f.out)+n > f.limit {
			f.fail(ErrTooLong)
			return
		}
		// Byte by byte: a match may overlap the bytes it writes.
		for ; n > 0; n-- {
			f.out = append(f.out, f.out[len(f.out)-back])
		}
	}
}
