// Command wasmsize says which packages the code of a Go WebAssembly binary
// comes from: it sums the size of every function body by package, using the
// binary's name section (so build it without -s). `make wasm-size` runs it
// on the playground; BENCHMARKS.md, "WebAssembly size", has its figures.
//
//	wasmsize [-deps FILE] [-top N] app.wasm
//	wasmsize -data app.wasm
//
// The linker writes function names with every character other than
// letters, digits, '_' and '.' turned into '_' (txnlab_core_sim.__World_.Run
// for txnlab/core/sim.(*World).Run); -deps names a file of import paths, one
// a line (`go list -deps`), to print packages by their import path.
//
// "gzip alone" is each package's function bodies compressed on their own
// (gzip -9): a guide to what a package costs compressed, not a share of
// the whole file, which compresses across packages. The data section
// (strings, type descriptors, the function table the runtime walks stacks
// with) is reported as one figure: wasm does not say which package owns
// which bytes of it. -data cuts it into the regions the runtime's module
// data names, with what each costs the brotli file (a stripped binary
// will do: it reads no names).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

func main() {
	depsFile := flag.String("deps", "", "`file` of import paths, one a line, to name packages by")
	top := flag.Int("top", 40, "print the `n` largest packages")
	funcs := flag.String("funcs", "", "print the largest functions of `package` instead (the top n)")
	data := flag.Bool("data", false, "print the data section's regions and what each costs brotli instead")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-deps FILE] [-top N] app.wasm | wasmsize -data app.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	var deps []string
	if *depsFile != "" {
		d, err := os.ReadFile(*depsFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "wasmsize:", err)
			os.Exit(1)
		}
		deps = strings.Fields(string(d))
	}
	m, err := parse(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmsize:", err)
		os.Exit(1)
	}
	if *data {
		if err := reportData(os.Stdout, b, m.segs); err != nil {
			fmt.Fprintln(os.Stderr, "wasmsize:", err)
			os.Exit(1)
		}
		return
	}
	if len(m.names) == 0 {
		fmt.Fprintln(os.Stderr, "wasmsize: no name section: build without -ldflags=-s")
		os.Exit(1)
	}
	if *funcs != "" {
		reportFuncs(os.Stdout, m, newNamer(deps), *funcs, *top)
		return
	}
	report(os.Stdout, m, newNamer(deps), *top)
}

// reportFuncs prints the n largest functions of one package: where to
// look once report has named the package that grew.
func reportFuncs(out io.Writer, m *module, n *namer, pkg string, top int) {
	type fn struct {
		name string
		size int
	}
	var fns []fn
	total := 0
	for k, body := range m.bodies {
		name := m.names[m.imported+k]
		if n.pkg(name) == pkg {
			fns = append(fns, fn{name, len(body)})
			total += len(body)
		}
	}
	sort.Slice(fns, func(i, j int) bool { return fns[i].size > fns[j].size })
	fmt.Fprintf(out, "%s: %d bytes in %d functions\n", pkg, total, len(fns))
	for i, f := range fns {
		if i == top {
			break
		}
		fmt.Fprintf(out, "%10d  %s\n", f.size, f.name)
	}
}

// module is what wasmsize reads of a wasm binary.
type module struct {
	sections map[byte]int // section id -> size in bytes
	imported int          // imported functions, which come first in the index space
	bodies   [][]byte     // the code section's function bodies, in order
	names    map[int]string
	segs     []segment // the data section's active segments
}

// parse reads the sections of a wasm binary, the function bodies and the
// function names.
func parse(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm binary")
	}
	m := &module{sections: map[byte]int{}, names: map[int]string{}}
	r := &reader{b: b, i: 8}
	for r.i < len(b) && r.err == nil {
		id := r.byte()
		size := int(r.uleb())
		if r.err != nil || size < 0 || size > len(b)-r.i {
			return nil, errors.New("truncated section")
		}
		sec := &reader{b: b[r.i : r.i+size]}
		r.i += size
		m.sections[id] += size
		switch id {
		case 2: // imports
			n := int(sec.uleb())
			for k := 0; k < n && sec.err == nil; k++ {
				sec.skip(int(sec.uleb())) // module
				sec.skip(int(sec.uleb())) // name
				switch sec.byte() {
				case 0: // function
					sec.uleb()
					m.imported++
				case 1: // table
					sec.byte()
					sec.limits()
				case 2: // memory
					sec.limits()
				case 3: // global
					sec.skip(2)
				}
			}
		case 10: // code
			n := int(sec.uleb())
			for k := 0; k < n && sec.err == nil; k++ {
				l := int(sec.uleb())
				m.bodies = append(m.bodies, sec.bytes(l))
			}
		case 11: // data: Go writes active segments of memory 0 at an i32.const offset
			n := int(sec.uleb())
			for k := 0; k < n && sec.err == nil; k++ {
				if sec.byte() != 0 || sec.byte() != 0x41 {
					return nil, fmt.Errorf("data segment %d: not an active segment at a constant offset", k)
				}
				addr := sec.sleb()
				if sec.byte() != 0x0b || addr < 0 {
					return nil, fmt.Errorf("data segment %d: bad offset", k)
				}
				l := int(sec.uleb())
				m.segs = append(m.segs, segment{addr: int(addr), off: r.i - size + sec.i, n: l})
				sec.skip(l)
			}
		case 0: // custom
			if string(sec.bytes(int(sec.uleb()))) != "name" {
				continue
			}
			for sec.i < len(sec.b) && sec.err == nil {
				sub := sec.byte()
				sub2 := &reader{b: sec.bytes(int(sec.uleb()))}
				if sub != 1 { // function names
					continue
				}
				n := int(sub2.uleb())
				for k := 0; k < n && sub2.err == nil; k++ {
					idx := int(sub2.uleb())
					m.names[idx] = string(sub2.bytes(int(sub2.uleb())))
				}
				if sub2.err != nil {
					return nil, sub2.err
				}
			}
		}
		if sec.err != nil {
			return nil, fmt.Errorf("section %d: %w", id, sec.err)
		}
	}
	return m, r.err
}

type reader struct {
	b   []byte
	i   int
	err error
}

func (r *reader) byte() byte {
	if r.i >= len(r.b) {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.i++
	return r.b[r.i-1]
}

func (r *reader) uleb() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 {
		r.err = io.ErrUnexpectedEOF
		return 0
	}
	r.i += n
	return v
}

func (r *reader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.i {
		r.err = io.ErrUnexpectedEOF
		return nil
	}
	r.i += n
	return r.b[r.i-n : r.i]
}

func (r *reader) skip(n int) { r.bytes(n) }

// sleb reads a signed LEB128 number (an i32.const's operand).
func (r *reader) sleb() int64 {
	var v int64
	var s uint
	for r.err == nil {
		c := r.byte()
		v |= int64(c&0x7f) << s
		s += 7
		if c < 0x80 {
			if c&0x40 != 0 && s < 64 {
				v -= 1 << s
			}
			return v
		}
		if s >= 64 {
			r.err = errors.New("signed number too long")
		}
	}
	return 0
}

func (r *reader) limits() {
	if r.byte()&1 != 0 {
		r.uleb()
	}
	r.uleb()
}

// namer maps a function's name in the name section to its package.
type namer struct {
	byMangled map[string]string // mangled import path -> import path
}

var unsafeChars = regexp.MustCompile(`[^\w.]`)

func newNamer(deps []string) *namer {
	n := &namer{byMangled: map[string]string{}}
	for _, p := range deps {
		n.byMangled[unsafeChars.ReplaceAllString(p, "_")] = p
	}
	return n
}

// pkg is the package of a function: the longest known import path the name
// starts with, followed by '.'; else the name up to the first '.' after its
// last '_'-separated path element (which cannot tell a '/' from a '_').
func (n *namer) pkg(fn string) string {
	if strings.HasPrefix(fn, "type_.") {
		return "type:* (generated equality and hash functions)"
	}
	best := ""
	for i := 0; i < len(fn); i++ {
		if fn[i] == '.' {
			if p, ok := n.byMangled[fn[:i]]; ok && len(p) >= len(best) {
				best = p
			}
		}
	}
	if best != "" {
		return best
	}
	rest := fn
	prefix := ""
	if strings.HasPrefix(fn, "github.com_") || strings.HasPrefix(fn, "golang.org_") {
		i := strings.Index(fn, "_")
		prefix, rest = fn[:i+1], fn[i+1:]
	}
	if i := strings.Index(rest, "."); i >= 0 {
		return prefix + rest[:i]
	}
	return fn
}

func gzipLen(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

func report(out io.Writer, m *module, n *namer, top int) {
	w := bufio.NewWriter(out)
	defer w.Flush()
	type pkgSize struct {
		name   string
		bytes  int
		funcs  int
		bodies []byte
	}
	byPkg := map[string]*pkgSize{}
	total := 0
	for k, body := range m.bodies {
		p := n.pkg(m.names[m.imported+k])
		s := byPkg[p]
		if s == nil {
			s = &pkgSize{name: p}
			byPkg[p] = s
		}
		s.bytes += len(body)
		s.funcs++
		s.bodies = append(s.bodies, body...)
		total += len(body)
	}
	var pkgs []*pkgSize
	for _, s := range byPkg {
		pkgs = append(pkgs, s)
	}
	sort.Slice(pkgs, func(i, j int) bool {
		if pkgs[i].bytes != pkgs[j].bytes {
			return pkgs[i].bytes > pkgs[j].bytes
		}
		return pkgs[i].name < pkgs[j].name
	})
	fmt.Fprintf(w, "code section %d bytes (%d functions), data section %d bytes, custom sections (names) %d bytes\n",
		m.sections[10], len(m.bodies), m.sections[11], m.sections[0])
	fmt.Fprintf(w, "%10s %6s %10s  %s\n", "code", "%", "gzip alone", "package")
	for i, s := range pkgs {
		if i == top {
			rest := 0
			for _, s := range pkgs[i:] {
				rest += s.bytes
			}
			fmt.Fprintf(w, "%10d %5.1f%% %10s  (%d more packages)\n", rest, 100*float64(rest)/float64(total), "", len(pkgs)-i)
			break
		}
		fmt.Fprintf(w, "%10d %5.1f%% %10d  %s\n", s.bytes, 100*float64(s.bytes)/float64(total), gzipLen(s.bodies), s.name)
	}
}
