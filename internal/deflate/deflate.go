// Package deflate holds the DEFLATE (RFC 1951) coder of share links: an
// encoder and a decoder in a few kilobytes of wasm. compress/flate's
// compressor cost web/app.wasm 17 kB brotli and its decompressor about
// as much more (BENCHMARKS.md, "WebAssembly size"); links need neither
// its levels nor its streaming.
package deflate

import "slices"

// Compress compresses src as one raw DEFLATE block: LZ77 matches found
// through hash chains, then Huffman codes made for the block (or the
// fixed codes, when shorter). compress/flate's compressor (several
// strategies and levels) made the library's links no shorter
// (TestCompressNearFlate). Any DEFLATE decoder reads its output.
func Compress(src []byte) []byte {
	var toks []token
	const (
		window   = 1 << 15
		minMatch = 3
		maxMatch = 258
		hashBits = 14
		maxChain = 256
	)
	head := make([]int32, 1<<hashBits)
	for i := range head {
		head[i] = -1
	}
	prev := make([]int32, len(src))
	hash := func(i int) int {
		return int((uint32(src[i])<<16|uint32(src[i+1])<<8|uint32(src[i+2]))*2654435761) >> (32 - hashBits)
	}
	insert := func(i int) {
		if i+minMatch <= len(src) {
			h := hash(i)
			prev[i] = head[h]
			head[h] = int32(i)
		}
	}
	// longest is the longest earlier match of the bytes at i.
	longest := func(i int) (length, dist int) {
		if i+minMatch > len(src) {
			return 0, 0
		}
		limit := min(maxMatch, len(src)-i)
		for j, n := int(head[hash(i)]), 0; j >= 0 && i-j <= window && n < maxChain; j, n = int(prev[j]), n+1 {
			if src[j+length] != src[i+length] {
				continue
			}
			k := 0
			for k < limit && src[j+k] == src[i+k] {
				k++
			}
			if k > length {
				length, dist = k, i-j
				if k == limit {
					break
				}
			}
		}
		if length < minMatch {
			return 0, 0
		}
		return length, dist
	}
	for i := 0; i < len(src); {
		length, dist := longest(i)
		insert(i)
		// Lazy matching: a longer match one byte on is worth a literal.
		if length > 0 && length < 32 && i+1 < len(src) {
			if l2, d2 := longest(i + 1); l2 > length {
				toks = append(toks, token{sym: uint16(src[i])})
				i++
				length, dist = l2, d2
				insert(i)
			}
		}
		if length == 0 {
			toks = append(toks, token{sym: uint16(src[i])})
			i++
			continue
		}
		toks = append(toks, matchToken(length, dist))
		for k := 1; k < length; k++ {
			insert(i + k)
		}
		i += length
	}
	toks = append(toks, token{sym: 256}) // end of block
	return encodeBlock(toks)
}

// bitWriter packs bits from the least significant, as DEFLATE does.
type bitWriter struct {
	out  []byte
	acc  uint64
	nacc uint
}

// bits writes the n low bits of v, least significant first (header
// fields and extra bits).
func (w *bitWriter) bits(v uint32, n uint) {
	w.acc |= uint64(v) << w.nacc
	w.nacc += n
	for w.nacc >= 8 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.nacc -= 8
	}
}

// code writes a Huffman code of n bits, most significant first.
func (w *bitWriter) code(c uint32, n uint) {
	var r uint32
	for i := uint(0); i < n; i++ {
		r = r<<1 | c>>i&1
	}
	w.bits(r, n)
}

// Lengths 3–258 and distances 1–32768 as base and extra bits (RFC 1951,
// 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
	// The order a dynamic block's header gives the code lengths' code
	// lengths in (RFC 1951, 3.2.7).
	codeLengthOrder = [19]uint8{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}
)

// token is a literal (sym < 256), the end of the block (256) or a
// match: its length symbol and distance code, with their extra bits.
type token struct {
	sym, dist        uint16
	lenExtra, dExtra uint16
	lenNBits, dNBits uint8
	isMatch          bool
}

func matchToken(length, dist int) token {
	l := len(lengthBase) - 1
	for int(lengthBase[l]) > length {
		l--
	}
	d := len(distBase) - 1
	for int(distBase[d]) > dist {
		d--
	}
	return token{sym: uint16(257 + l), lenExtra: uint16(length - int(lengthBase[l])), lenNBits: lengthExtra[l],
		dist: uint16(d), dExtra: uint16(dist - int(distBase[d])), dNBits: distExtra[d], isMatch: true}
}

// encodeBlock writes the tokens as the final block, with the block's own
// codes or the fixed ones, whichever is shorter.
func encodeBlock(toks []token) []byte {
	litFreq := make([]int, 286)
	distFreq := make([]int, 30)
	for _, t := range toks {
		litFreq[t.sym]++
		if t.isMatch {
			distFreq[t.dist]++
		}
	}
	fixedLit := make([]uint8, 288)
	for i := range fixedLit {
		switch {
		case i < 144:
			fixedLit[i] = 8
		case i < 256:
			fixedLit[i] = 9
		case i < 280:
			fixedLit[i] = 7
		default:
			fixedLit[i] = 8
		}
	}
	fixedDist := make([]uint8, 30)
	for i := range fixedDist {
		fixedDist[i] = 5
	}
	litLen, distLen := huffLengths(litFreq, 15), huffLengths(distFreq, 15)
	if !slices.ContainsFunc(distLen, func(l uint8) bool { return l > 0 }) {
		distLen[0] = 1 // no match: one distance code all the same, as decoders expect
	}
	var dyn, fixed bitWriter
	dyn.bits(1, 1)
	dyn.bits(2, 2) // BTYPE 10: the block's own codes
	writeCodeLengths(&dyn, litLen, distLen)
	fixed.bits(1, 1)
	fixed.bits(1, 2) // BTYPE 01: the fixed codes
	for _, w := range []*struct {
		w         *bitWriter
		lit, dist []uint8
	}{{&dyn, litLen, distLen}, {&fixed, fixedLit, fixedDist}} {
		lc, dc := canonical(w.lit), canonical(w.dist)
		for _, t := range toks {
			w.w.code(lc[t.sym], uint(w.lit[t.sym]))
			if t.isMatch {
				w.w.bits(uint32(t.lenExtra), uint(t.lenNBits))
				w.w.code(dc[t.dist], uint(w.dist[t.dist]))
				w.w.bits(uint32(t.dExtra), uint(t.dNBits))
			}
		}
	}
	a, b := dyn.flush(), fixed.flush()
	if len(b) < len(a) {
		return b
	}
	return a
}

// writeCodeLengths writes a dynamic block's header: the code lengths of
// both alphabets, run-length coded (16, 17, 18) with a code of their own.
func writeCodeLengths(w *bitWriter, lit, dist []uint8) {
	nlit, ndist := 286, 30
	for nlit > 257 && lit[nlit-1] == 0 {
		nlit--
	}
	for ndist > 1 && dist[ndist-1] == 0 {
		ndist--
	}
	lens := append(append([]uint8{}, lit[:nlit]...), dist[:ndist]...)
	type rl struct{ sym, extra, nbits uint8 }
	var runs []rl
	for i := 0; i < len(lens); {
		n := 1
		for i+n < len(lens) && lens[i+n] == lens[i] {
			n++
		}
		v := lens[i]
		switch {
		case v == 0 && n >= 11:
			n = min(n, 138)
			runs = append(runs, rl{18, uint8(n - 11), 7})
		case v == 0 && n >= 3:
			runs = append(runs, rl{17, uint8(n - 3), 3})
		case v != 0 && n >= 4:
			n = min(n, 7)
			runs = append(runs, rl{v, 0, 0}, rl{16, uint8(n - 4), 2})
		default:
			n = 1
			runs = append(runs, rl{v, 0, 0})
		}
		i += n
	}
	freq := make([]int, 19)
	for _, r := range runs {
		freq[r.sym]++
	}
	clen := huffLengths(freq, 7)
	ncl := 19
	for ncl > 4 && clen[codeLengthOrder[ncl-1]] == 0 {
		ncl--
	}
	w.bits(uint32(nlit-257), 5)
	w.bits(uint32(ndist-1), 5)
	w.bits(uint32(ncl-4), 4)
	for _, o := range codeLengthOrder[:ncl] {
		w.bits(uint32(clen[o]), 3)
	}
	cc := canonical(clen)
	for _, r := range runs {
		w.code(cc[r.sym], uint(clen[r.sym]))
		w.bits(uint32(r.extra), uint(r.nbits))
	}
}

// huffLengths are Huffman code lengths for the frequencies, none over
// limit: when the tree is too deep, the frequencies are flattened and it
// is built again.
func huffLengths(freq []int, limit int) []uint8 {
	f := append([]int{}, freq...)
	for {
		lens, deepest := huffTree(f)
		if deepest <= limit {
			return lens
		}
		for i := range f {
			if f[i] > 0 {
				f[i] = f[i]/2 + 1
			}
		}
	}
}

// huffTree builds a Huffman tree (two least frequent first) and returns
// each symbol's depth; a lone symbol gets depth 1.
func huffTree(freq []int) ([]uint8, int) {
	type node struct{ w, left, right, sym int }
	var nodes []node
	var live []int
	for s, w := range freq {
		if w > 0 {
			nodes = append(nodes, node{w, -1, -1, s})
			live = append(live, len(nodes)-1)
		}
	}
	lens := make([]uint8, len(freq))
	if len(live) == 1 {
		lens[nodes[0].sym] = 1
		return lens, 1
	}
	for len(live) > 1 {
		// The two lightest, ties to the earliest: deterministic.
		pick := func() int {
			b := 0
			for i := range live {
				if nodes[live[i]].w < nodes[live[b]].w {
					b = i
				}
			}
			n := live[b]
			live = append(live[:b], live[b+1:]...)
			return n
		}
		a, b := pick(), pick()
		nodes = append(nodes, node{nodes[a].w + nodes[b].w, a, b, -1})
		live = append(live, len(nodes)-1)
	}
	deepest := 0
	var walk func(n, d int)
	walk = func(n, d int) {
		if nodes[n].left < 0 {
			lens[nodes[n].sym] = uint8(d)
			deepest = max(deepest, d)
			return
		}
		walk(nodes[n].left, d+1)
		walk(nodes[n].right, d+1)
	}
	if len(live) == 1 {
		walk(live[0], 0)
	}
	return lens, deepest
}

// canonical is the canonical code of each symbol given the code lengths
// (RFC 1951, 3.2.2).
func canonical(lens []uint8) []uint32 {
	var count [16]uint32
	for _, l := range lens {
		count[l]++
	}
	count[0] = 0
	var next [16]uint32
	code := uint32(0)
	for b := 1; b < 16; b++ {
		code = (code + count[b-1]) << 1
		next[b] = code
	}
	codes := make([]uint32, len(lens))
	for s, l := range lens {
		if l > 0 {
			codes[s] = next[l]
			next[l]++
		}
	}
	return codes
}

// flush ends the stream on a byte boundary.
func (w *bitWriter) flush() []byte {
	if w.nacc > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc, w.nacc = 0, 0
	}
	return w.out
}
