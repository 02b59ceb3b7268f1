// Command wasmstrip takes the source positions and most function names out
// of a Go WebAssembly binary, in place: every function's file and line
// tables in the runtime's PC table are zeroed and the function points at
// none, which the runtime reads as "no position" (a traceback or
// runtime.Caller says ?:0). Nothing else reads them: unwinding and the
// collector use the stack-size and pcdata tables, which are kept. The
// names of functions outside the runtime are zeroed too (a traceback, or
// runtime.Frame.Function, then gives ""): the runtime reads a name only
// to print it, except its own and reflect's (a goroutine started in
// package runtime is the runtime's, not the program's, in
// runtime.NumGoroutine and deadlock detection; reflect's call stubs are
// found by name when a stack is scanned) and the wrappers' (a value
// method called through a nil pointer is reported from the wrapper's
// name), which are kept. Every reference to a dropped name, a
// function's or an inlined call's, then points at one empty name, and
// the start lines and the tables a traceback prints arguments from are
// dropped too; the inline trees stay, without their start lines, because
// runtime.Callers counts inlined calls in the frames it skips. `make
// wasm` runs it on web/app.wasm before compressing it.
//
//	wasmstrip app.wasm
//
// Why: Go's linker has no flag to leave the line tables out, and they are
// about a fifth of what the browser downloads (~100 kB brotli of
// web/app.wasm; the names ~21 kB more; BENCHMARKS.md, "WebAssembly
// size"). The zeroed bytes stay
// in place, so no offset moves; brotli makes them nearly free.
//
// The layout read is the runtime's pcHeader and _func of Go 1.20 and later
// (runtime/symtab.go, runtime/runtime2.go). Anything that does not read
// back as that layout (another magic, a table running out of bounds, a
// function count unlike the code section's) stops it with an error rather
// than writing a binary the runtime would misread.
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: wasmstrip app.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(os.Args[1])
	if err == nil {
		var n int
		n, err = strip(b)
		var segs int
		if err == nil {
			b, segs, err = pack(b)
		}
		if err == nil {
			err = os.WriteFile(os.Args[1], b, 0o755)
			fmt.Printf("wasmstrip: %s: line tables of %d functions zeroed, and their names but the runtime's; %d data segments\n", os.Args[1], n, segs)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmstrip:", err)
		os.Exit(1)
	}
}

// segment is one active data segment: where its bytes go in linear memory
// and where they are in the file.
type segment struct {
	addr, off, n int
}

// pcln1_20 is abi.Go120PCLnTabMagic, the PC table's version since Go 1.20.
const pcln1_20 = 0xfffffff1

// The tables dropped besides file and line (internal/abi/symtab.go): the
// inline tree, which only tracebacks and runtime.Callers read to name the
// calls the compiler inlined, and the tables that print a traceback's
// arguments.
//
// The unsafe-point tables say where a signal may preempt a goroutine
// (runtime/preempt.go's isAsyncSafePoint) and a debugger may inject a
// call (debugcall.go, amd64, arm64 and ppc64le only): js/wasm has
// neither (os_wasm.go: preemptMSupported is false).
const (
	pcdataUnsafePoint   = 0
	pcdataInlTreeIndex  = 2
	pcdataArgLiveIndex  = 3
	funcdataInlTree     = 3
	funcdataArgInfo     = 5
	funcdataArgLiveInfo = 6
)

// strip zeroes the file and line tables and the names (keptName says
// which stay) in b, a wasm binary built by Go, and returns how many
// functions it found.
func strip(b []byte) (int, error) {
	segs, funcs, err := sections(b)
	if err != nil {
		return 0, err
	}
	if len(segs) == 0 {
		return 0, errors.New("no data section")
	}
	hi, err := memSize(segs)
	if err != nil {
		return 0, err
	}
	// Linear memory from address 0 as the binary initialises it (the
	// linker leaves runs of zeros out of the segments).
	mem := make([]byte, hi)
	for _, s := range segs {
		copy(mem[s.addr:], b[s.off:s.off+s.n])
	}
	h, err := findHeader(mem)
	if err != nil {
		return 0, err
	}
	le := binary.LittleEndian
	word := func(i int) int { return int(le.Uint64(mem[h+8+8*i:])) }
	nfunc := word(0)
	pctab, ftab := h+word(6), h+word(7)
	if nfunc != funcs {
		return 0, fmt.Errorf("PC table lists %d functions, the code section has %d: not the layout this reads", nfunc, funcs)
	}
	if pctab < h || ftab <= pctab || ftab+8*(nfunc+1) > len(mem) {
		return 0, errors.New("PC table offsets out of bounds")
	}
	u32 := func(i int) uint32 { return le.Uint32(mem[i:]) }

	// The tables every function needs (stack size, pcdata) are kept even
	// where a line table has the same bytes: the linker stores identical
	// tables once.
	gofunc, epclntab, err := funcdataBounds(mem, h, h+word(3), ftab)
	if err != nil {
		return 0, err
	}
	keep := map[uint32]bool{}
	var drop []uint32
	var fields []int     // where each function's pcfile, pcln, CU, start line and dropped pcdata are
	var nofuncdata []int // the dropped funcdata slots, set to ^0 ("none")
	keptData := map[int]bool{}
	type span struct{ a, z int }
	var dataDrop []span // the argument tables
	var refs []nameRef  // every name: the functions' and the inlined calls'
	for k := 0; k < nfunc; k++ {
		f := ftab + int(u32(ftab+8*k+4))
		if f+44 > len(mem) {
			return 0, fmt.Errorf("function %d: record out of bounds", k)
		}
		npcdata, nfuncdata := int(u32(f+28)), int(mem[f+43])
		if f+44+4*(npcdata+nfuncdata) > len(mem) || npcdata > 64 {
			return 0, fmt.Errorf("function %d: %d pcdata tables: not the layout this reads", k, npcdata)
		}
		pcdata, funcdata := f+44, f+44+4*npcdata
		keep[u32(f+16)] = true
		refs = append(refs, nameRef{f + 4, f + 40})
		for i := 0; i < npcdata; i++ {
			if i == pcdataArgLiveIndex || i == pcdataUnsafePoint {
				drop = append(drop, u32(pcdata+4*i))
				fields = append(fields, pcdata+4*i)
				continue
			}
			keep[u32(pcdata+4*i)] = true
		}
		for i := 0; i < nfuncdata; i++ {
			off := u32(funcdata + 4*i)
			if off == ^uint32(0) {
				continue
			}
			at := gofunc + int(off)
			if at < gofunc || at >= epclntab {
				return 0, fmt.Errorf("function %d: funcdata %d out of bounds", k, i)
			}
			switch i {
			case funcdataInlTree:
				// Kept, for the frames it counts (runtime.Callers' skip
				// counts inlined calls: runtime.Callers itself is inlined
				// into its caller), but each inlined call loses its
				// start line and, as a function does, its name.
				keptData[at] = true
				if npcdata <= pcdataInlTreeIndex {
					continue
				}
				n, err := tableMax(mem, pctab+int(u32(pcdata+4*pcdataInlTreeIndex)))
				if err != nil {
					return 0, err
				}
				if at+16*(n+1) > epclntab {
					return 0, fmt.Errorf("function %d: inline tree out of bounds", k)
				}
				for e := at; e < at+16*(n+1); e += 16 {
					refs = append(refs, nameRef{e + 4, e})
					fields = append(fields, e+12)
				}
				continue
			case funcdataArgInfo:
				if n := argInfoLen(mem[at:epclntab]); n > 0 {
					dataDrop = append(dataDrop, span{at, at + n})
				}
			case funcdataArgLiveInfo:
			default:
				keptData[at] = true
				continue
			}
			nofuncdata = append(nofuncdata, funcdata+4*i)
		}
		drop = append(drop, u32(f+20), u32(f+24))
		fields = append(fields, f+20, f+24, f+32, f+36)
	}
	length := func(off uint32) (int, error) {
		i := pctab + int(off)
		for first := true; ; first = false {
			v, n := binary.Uvarint(mem[min(i, len(mem)):])
			if n <= 0 {
				return 0, fmt.Errorf("table at %d runs out of memory", off)
			}
			i += n
			if v == 0 && !first {
				return i - (pctab + int(off)), nil
			}
			_, n = binary.Uvarint(mem[min(i, len(mem)):])
			if n <= 0 {
				return 0, fmt.Errorf("table at %d runs out of memory", off)
			}
			i += n
		}
	}
	var kept []span
	for off := range keep {
		if off == 0 {
			continue
		}
		n, err := length(off)
		if err != nil {
			return 0, err
		}
		kept = append(kept, span{pctab + int(off), pctab + int(off) + n})
	}
	overlaps := func(s span) bool {
		for _, k := range kept {
			if s.a < k.z && k.a < s.z {
				return true
			}
		}
		return false
	}
	zeroed := map[uint32]bool{}
	for _, off := range drop {
		if off == 0 || keep[off] || zeroed[off] {
			continue
		}
		n, err := length(off)
		if err != nil {
			return 0, err
		}
		s := span{pctab + int(off), pctab + int(off) + n}
		if s.z > ftab || overlaps(s) {
			continue
		}
		zeroed[off] = true
		clear(mem[s.a:s.z])
	}
	for _, f := range fields {
		le.PutUint32(mem[f:], 0)
	}
	// The CU and file name tables are read only through a file table,
	// and none is left (runtime/symtab.go's funcline1 returns "?" first).
	if cu, pct := h+word(4), h+word(6); h <= cu && cu <= pct && pct <= pctab {
		clear(mem[cu:pct])
	}
	for _, f := range nofuncdata {
		le.PutUint32(mem[f:], ^uint32(0))
	}
	// A dropped table is zeroed only where no kept funcdata starts in it:
	// the linker stores identical funcdata once, and symbols do not
	// overlap, so one that shares bytes with a kept one starts where it
	// does.
	for _, s := range dataDrop {
		if s.z > epclntab {
			continue
		}
		shared := false
		for i := s.a; i < s.z && !shared; i++ {
			shared = keptData[i]
		}
		if !shared {
			clear(mem[s.a:s.z])
		}
	}
	if err := stripNames(mem, h+word(3), h+word(4), refs); err != nil {
		return 0, err
	}
	for _, s := range segs {
		copy(b[s.off:s.off+s.n], mem[s.addr:])
	}
	return nfunc, nil
}

// nameRef is where a name is referred to: a function's or an inlined
// call's name offset, and its funcID.
type nameRef struct{ off, funcID int }

// stripNames zeroes the names keptName does not keep in the function name
// table [names, end) and points every reference to one at the same empty
// name, which leaves the table's references a run brotli stores for
// almost nothing. A name is a NUL-terminated string at its name offset;
// one that shares a byte with a kept name is left whole.
func stripNames(mem []byte, names, end int, refs []nameRef) error {
	le := binary.LittleEndian
	if names < 0 || names > end || end > len(mem) {
		return errors.New("function name table out of bounds")
	}
	type span struct{ a, z int }
	var drop []span
	var dropped []int                 // the references to dropped names
	kept := make([]bool, end-names+1) // the table's bytes a kept name covers
	for _, r := range refs {
		a := names + int(int32(le.Uint32(mem[r.off:])))
		if a < names || a >= end {
			return fmt.Errorf("name at %d out of bounds", r.off)
		}
		z := bytes.IndexByte(mem[a:end], 0)
		if z < 0 {
			return fmt.Errorf("name at %d runs out of the table", r.off)
		}
		if keptName(string(mem[a:a+z]), mem[r.funcID]) {
			for i := a; i <= a+z; i++ {
				kept[i-names] = true
			}
		} else {
			drop = append(drop, span{a, a + z})
			dropped = append(dropped, r.off)
		}
	}
	empty := -1 // a NUL no kept name ends with
	for _, n := range drop {
		if !slices.Contains(kept[n.a-names:n.z-names+1], true) {
			clear(mem[n.a:n.z])
			empty = n.a
		}
	}
	if empty < 0 {
		return nil
	}
	for _, off := range dropped {
		le.PutUint32(mem[off:], uint32(empty-names))
	}
	return nil
}

// keptName reports whether the runtime may read a function's name for
// more than printing it (runtime/traceback.go's isSystemGoroutine,
// stkframe.go's argMapInternal, error.go's panicwrap, proc.go's sigprof):
// the runtime's and reflect's functions, and the wrappers (funcID not
// abi.FuncIDNormal, which is 0: wrappers and the runtime's special
// functions).
func keptName(name string, funcID byte) bool {
	return funcID != 0 || strings.HasPrefix(name, "runtime.") || strings.HasPrefix(name, "reflect.") ||
		strings.HasPrefix(name, "internal/runtime/")
}

// funcName is the NUL-terminated name at off in the function name table
// at names, or "" if it runs out of memory.
func funcName(mem []byte, names, off int) string {
	a := names + off
	if off < 0 || a >= len(mem) {
		return ""
	}
	z := bytes.IndexByte(mem[a:], 0)
	if z < 0 {
		return ""
	}
	return string(mem[a : a+z])
}

// funcdataBounds finds the runtime's moduledata (runtime/symtab.go), the
// one word in memory holding the PC table header's address followed by
// the function name table's and, 128 bytes on, the function table's, and
// returns its gofunc and epclntab: where the funcdata lie.
func funcdataBounds(mem []byte, h, names, ftab int) (gofunc, end int, err error) {
	le := binary.LittleEndian
	md := -1
	for i := 0; i+336 <= len(mem); i += 8 {
		if int(le.Uint64(mem[i:])) == h && int(le.Uint64(mem[i+8:])) == names && int(le.Uint64(mem[i+128:])) == ftab {
			if md >= 0 {
				return 0, 0, errors.New("two module data records")
			}
			md = i
		}
	}
	if md < 0 {
		return 0, 0, errors.New("no module data record: not the layout this reads")
	}
	gofunc, end = int(le.Uint64(mem[md+320:])), int(le.Uint64(mem[md+328:]))
	if gofunc <= ftab || end < gofunc || end > len(mem) {
		return 0, 0, errors.New("funcdata out of bounds: not the layout this reads")
	}
	return gofunc, end, nil
}

// tableMax reads the PC-value table at i (runtime/symtab.go's step: a
// zig-zag value delta, then a PC delta, until a zero value delta) and
// returns its largest value.
func tableMax(mem []byte, i int) (int, error) {
	val, hi := -1, -1
	for first := true; ; first = false {
		uv, n := binary.Uvarint(mem[min(i, len(mem)):])
		if n <= 0 {
			return 0, errors.New("inline tree index table runs out of memory")
		}
		i += n
		if uv == 0 && !first {
			return hi, nil
		}
		val += int(-(uv & 1) ^ (uv >> 1))
		hi = max(hi, val)
		if _, n = binary.Uvarint(mem[min(i, len(mem)):]); n <= 0 {
			return 0, errors.New("inline tree index table runs out of memory")
		}
		i += n
	}
}

// argInfoLen is the length of the traceback argument table at the start
// of b (runtime/traceback.go's printArgs: one byte for an aggregate's
// start or end, "...", or an offset too large, an offset and a size
// otherwise, to 0xff), or 0 if b holds none whole.
func argInfoLen(b []byte) int {
	for i := 0; i < len(b) && i < 256; {
		switch b[i] {
		case 0xff:
			return i + 1
		case 0xfe, 0xfd, 0xfc, 0xfb:
			i++
		default:
			i += 2
		}
	}
	return 0
}

// memSize is the linear memory the segments initialise, refused past
// 64 MiB (js/wasm's own binaries initialise a few megabytes).
func memSize(segs []segment) (int, error) {
	hi := 0
	for _, s := range segs {
		if s.addr > 1<<26 {
			return 0, errors.New("data segment beyond 64 MiB: not a Go binary this reads")
		}
		hi = max(hi, s.addr+s.n)
	}
	if hi > 1<<26 {
		return 0, errors.New("data segments beyond 64 MiB: not a Go binary this reads")
	}
	return hi, nil
}

// packGap is the shortest run of zeros pack leaves out of the data
// section: shorter runs cost brotli less as zeros than as a segment's
// header (address and length, which differ from segment to segment).
// Measured on web/app.wasm at brotli 11: cutting at runs of 64 zeros,
// 1,684,664 B; 256, 1,693,388; 1,024, 1,680,789; never (one segment),
// 1,679,626, which the zeros' raw megabyte does not slow (memory is
// initialised by one copy either way).
const packGap = 1 << 20

// pack rewrites b's data section as few segments as the zeros allow:
// linear memory as the segments initialise it, cut only where packGap or
// more zeros run. Go's linker cuts at much shorter runs, up to the
// engines' limit of 100,000 segments, and strip's zeroing makes more
// runs; the 100,000 headers were ~100 kB of the brotli file. Memory
// starts zeroed, so the zeros left out read the same.
func pack(b []byte) ([]byte, int, error) {
	segs, _, err := sections(b)
	if err != nil {
		return nil, 0, err
	}
	if len(segs) == 0 {
		return nil, 0, errors.New("no data section")
	}
	hi, err := memSize(segs)
	if err != nil {
		return nil, 0, err
	}
	mem := make([]byte, hi)
	for _, s := range segs {
		copy(mem[s.addr:], b[s.off:s.off+s.n])
	}
	var body []byte
	n := 0
	for i := 0; i < hi; {
		for i < hi && mem[i] == 0 {
			i++
		}
		if i == hi {
			break
		}
		a, z := i, i
		for i < hi {
			j := i
			for j < hi && mem[j] == 0 {
				j++
			}
			if j > i && (j-i >= packGap || j == hi) {
				i = j
				break
			}
			for j < hi && mem[j] != 0 {
				j++
			}
			i, z = j, j
		}
		// An active segment of memory 0 at an i32.const offset.
		body = append(body, 0, 0x41)
		body = appendSleb(body, int64(a))
		body = append(body, 0x0b)
		body = binary.AppendUvarint(body, uint64(z-a))
		body = append(body, mem[a:z]...)
		n++
	}
	sec := append(binary.AppendUvarint(nil, uint64(n)), body...)
	for i := 8; i < len(b); {
		id := b[i]
		size, k := binary.Uvarint(b[i+1:])
		end := i + 1 + k + int(size)
		if k <= 0 || int(size) < 0 || end > len(b) {
			return nil, 0, errors.New("truncated section")
		}
		switch id {
		case 12:
			return nil, 0, errors.New("a data count section: not the layout this writes")
		case 11:
			out := append(b[:i:i], 11)
			out = binary.AppendUvarint(out, uint64(len(sec)))
			out = append(out, sec...)
			return append(out, b[end:]...), n, nil
		}
		i = end
	}
	return nil, 0, errors.New("no data section")
}

// appendSleb appends v as a signed LEB128 number.
func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// findHeader finds the runtime's pcHeader in linear memory: its magic,
// two zero pads, wasm's instruction size (1) and pointer size (8), once.
func findHeader(mem []byte) (int, error) {
	at := -1
	for i := 0; i+72 <= len(mem); i += 4 {
		if binary.LittleEndian.Uint32(mem[i:]) == pcln1_20 && mem[i+4] == 0 && mem[i+5] == 0 && mem[i+6] == 1 && mem[i+7] == 8 {
			if at >= 0 {
				return 0, errors.New("two PC table headers")
			}
			at = i
		}
	}
	if at < 0 {
		return 0, errors.New("no Go 1.20+ PC table header in the data section")
	}
	return at, nil
}

// sections reads b's active data segments and counts its code section's
// functions.
func sections(b []byte) (segs []segment, funcs int, err error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, 0, errors.New("not a wasm binary")
	}
	i := 8
	uleb := func() int {
		v, n := binary.Uvarint(b[min(i, len(b)):])
		if n <= 0 {
			err = errors.New("truncated wasm binary")
			i = len(b)
			return 0
		}
		i += n
		return int(v)
	}
	for i < len(b) && err == nil {
		id := b[i]
		i++
		size := uleb()
		end := i + size
		if err != nil || size < 0 || end > len(b) {
			return nil, 0, errors.New("truncated section")
		}
		switch id {
		case 10: // code
			funcs = uleb()
		case 11: // data
			n := uleb()
			for k := 0; k < n && err == nil; k++ {
				// Go writes active segments of memory 0 whose offset is
				// one i32.const.
				if i+2 > end || b[i] != 0 || b[i+1] != 0x41 {
					return nil, 0, fmt.Errorf("data segment %d: not an active segment at a constant offset", k)
				}
				i += 2
				addr, n := sleb(b[i:end])
				if n <= 0 || i+n >= end || b[i+n] != 0x0b {
					return nil, 0, fmt.Errorf("data segment %d: bad offset", k)
				}
				i += n + 1
				l := uleb()
				if l < 0 || i+l > end || addr < 0 {
					return nil, 0, fmt.Errorf("data segment %d: out of bounds", k)
				}
				segs = append(segs, segment{addr: int(addr), off: i, n: l})
				i += l
			}
		}
		i = end
	}
	return segs, funcs, err
}

// sleb reads a signed LEB128 number (an i32.const's operand).
func sleb(b []byte) (int64, int) {
	var v int64
	var s uint
	for i, c := range b {
		v |= int64(c&0x7f) << s
		s += 7
		if c < 0x80 {
			if c&0x40 != 0 && s < 64 {
				v -= 1 << s
			}
			return v, i + 1
		}
		if s >= 64 {
			break
		}
	}
	return 0, 0
}
