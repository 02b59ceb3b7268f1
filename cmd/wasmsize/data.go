package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
)

// segment is one active data segment: where its bytes go in linear
// memory and where they are in the file.
type segment struct{ addr, off, n int }

// region is a stretch of the data section the runtime's module data
// (runtime/symtab.go's moduledata and pcHeader) names.
type region struct {
	name string
	a, z int // linear memory addresses
}

// dataRegions finds the runtime's PC table header (its Go 1.20+ magic, two
// zero pads, instruction size 1, pointer size 8) and the module data
// record that points at it, and cuts linear memory into what they name:
// type descriptors and string literals, the PC table's function names,
// its per-function tables, its function records, the funcdata (stack
// maps, inline trees), and the variables.
func dataRegions(mem []byte) ([]region, error) {
	le := binary.LittleEndian
	h := -1
	for i := 0; i+72 <= len(mem); i += 4 {
		if le.Uint32(mem[i:]) == 0xfffffff1 && mem[i+4] == 0 && mem[i+5] == 0 && mem[i+6] == 1 && mem[i+7] == 8 {
			h = i
			break
		}
	}
	if h < 0 {
		return nil, errors.New("no Go 1.20+ PC table header in the data section")
	}
	word := func(i int) int {
		if i < 0 || i+8 > len(mem) {
			return -1
		}
		return int(le.Uint64(mem[i:]))
	}
	hw := func(i int) int { return h + word(h+8+8*i) }
	md := -1
	for i := 0; i+336 <= len(mem); i += 8 {
		if word(i) == h && word(i+8) == hw(3) && word(i+128) == hw(7) {
			md = i
			break
		}
	}
	if md < 0 {
		return nil, errors.New("no module data record: not the layout this reads")
	}
	f := func(k int) int { return word(md + 176 + 8*k) } // text, etext, noptrdata, ...
	nfunc := word(h + 8)
	rs := []region{
		{"type descriptors and strings", f(15), h},
		{"PC table: function names", hw(3), hw(4)},
		{"PC table: file names", hw(4), hw(6)},
		{"PC table: per-function tables (stack, pcdata)", hw(6), hw(7)},
		{"PC table: function index", hw(7), hw(7) + 8*(nfunc+1)},
		{"PC table: function records", hw(7) + 8*(nfunc+1), f(18)},
		{"funcdata (stack maps, inline trees)", f(18), f(19)},
		{"variables (noptrdata, data)", f(2), f(5)},
	}
	for i, r := range rs {
		// Zeros at a region's end may be left out of the segments.
		rs[i].z = min(r.z, len(mem))
		if r.a < 0 || r.z < r.a || r.a > len(mem) {
			return nil, fmt.Errorf("%s out of bounds: not the layout this reads", r.name)
		}
	}
	return rs, nil
}

// memory is linear memory as segs initialise it, refused past 64 MiB
// (js/wasm's own binaries initialise a few megabytes).
func memory(b []byte, segs []segment) ([]byte, error) {
	hi := 0
	for _, s := range segs {
		if s.off+s.n > len(b) || s.addr > 1<<26 {
			return nil, errors.New("data segment out of the file")
		}
		hi = max(hi, s.addr+s.n)
	}
	if hi > 1<<26 {
		return nil, errors.New("data segments beyond 64 MiB: not a Go binary this reads")
	}
	mem := make([]byte, hi)
	for _, s := range segs {
		copy(mem[s.addr:], b[s.off:s.off+s.n])
	}
	return mem, nil
}

// reportData prints each region's size and what it costs the brotli
// file: the file's brotli size less the same with the region zeroed.
// Quality 5 keeps it to seconds; quality 11 is ~18 % smaller throughout.
func reportData(out io.Writer, b []byte, segs []segment) error {
	mem, err := memory(b, segs)
	if err != nil {
		return err
	}
	rs, err := dataRegions(mem)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	whole := brotliLen(b)
	fmt.Fprintf(w, "file %d bytes, brotli 5 %d bytes; data section regions:\n", len(b), whole)
	fmt.Fprintf(w, "%10s %10s %12s  %s\n", "bytes", "non-zero", "brotli 5 -", "region")
	for _, r := range rs {
		c := bytes.Clone(b)
		nz := 0
		for _, s := range segs {
			for a := max(r.a, s.addr); a < min(r.z, s.addr+s.n); a++ {
				if c[s.off+a-s.addr] != 0 {
					nz++
				}
				c[s.off+a-s.addr] = 0
			}
		}
		fmt.Fprintf(w, "%10d %10d %12d  %s\n", r.z-r.a, nz, whole-brotliLen(c), r.name)
	}
	return nil
}

func brotliLen(b []byte) int {
	var buf bytes.Buffer
	w := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: 5, LGWin: 24})
	w.Write(b)
	w.Close()
	return buf.Len()
}
