package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrippedBinaryRuns builds a small program for js/wasm, strips it and
// runs both under Node: the stripped one must do everything the original
// does (stack growth, collection, recovered panics, the goroutine count)
// and only lose its source positions and its own functions' names. A Go release that changes the PC
// table's layout fails here, or in strip's checks, before make wasm
// ships a binary the runtime misreads.
func TestStrippedBinaryRuns(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is needed to run the wasm (make test-wasm needs it too)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "prog.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "./testdata/prog")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// go env, not runtime.GOROOT: make test-core builds the tests with
	// -trimpath, which leaves the binary no GOROOT to report.
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	run := func() string {
		exe := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "go_js_wasm_exec")
		out, err := exec.Command(exe, bin).CombinedOutput()
		if err != nil {
			t.Fatalf("running %s: %v\n%s", bin, err, out)
		}
		return string(out)
	}
	before := run()
	if !strings.Contains(before, "caller main.go:44\n") {
		t.Fatalf("the unstripped program does not say where it is:\n%s", before)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	size := len(b)
	n, err := strip(b)
	if err != nil {
		t.Fatal(err)
	}
	if n < 1000 || len(b) != size {
		t.Fatalf("strip found %d functions and left %d bytes of %d", n, len(b), size)
	}
	segsBefore, _, _ := sections(b)
	packed, n2, err := pack(b)
	if err != nil {
		t.Fatal(err)
	}
	// The packed binary initialises memory as the stripped one does, in
	// fewer segments.
	if after, _, err := sections(packed); err != nil || len(after) != n2 || n2 >= len(segsBefore) || !bytes.Equal(memory(b, segsBefore), memory(packed, after)) {
		t.Fatalf("packed data section: %d segments of %d (%v), or other memory", n2, len(segsBefore), err)
	}
	b = packed
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	after := run()
	want := strings.Replace(before, "caller main.go:44\n", "caller ?:0\n", 1)
	want = strings.Replace(want, "frame main.main\n", "frame \n", 1)
	if after != want {
		t.Errorf("stripped program's output:\n%s\nwant:\n%s", after, want)
	}
	for _, s := range []string{"deep 20000\n", "recovered assignment to entry in nil map\n", "frame \n",
		"nil receiver value method main.value.N called using nil *value pointer\n", "makefunc 7\n", "goroutines "} {
		if !strings.Contains(after, s) {
			t.Errorf("stripped program's output lacks %q:\n%s", s, after)
		}
	}
	// Stripping twice is harmless (make wasm may run on a stripped file
	// only through a rebuild, but a second run must not break it).
	if _, err := strip(b); err != nil {
		t.Errorf("second strip: %v", err)
	}
	if _, _, err := pack(b); err != nil {
		t.Errorf("second pack: %v", err)
	}
	if !bytes.Equal(b[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		t.Error("the binary's header changed")
	}
}

// Not a wasm binary, or one without Go's PC table, is refused, not
// rewritten.
func TestRefusesOtherBinaries(t *testing.T) {
	for name, b := range map[string][]byte{
		"empty":           nil,
		"text":            []byte("hello, world"),
		"wasm, no data":   []byte("\x00asm\x01\x00\x00\x00"),
		"truncated":       []byte("\x00asm\x01\x00\x00\x00\x0b\x7f"),
		"data, no header": append([]byte("\x00asm\x01\x00\x00\x00\x0b\x08\x01\x00\x41\x00\x0b\x02"), 1, 2),
	} {
		if _, err := strip(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// memory is linear memory as b's data segments initialise it.
func memory(b []byte, segs []segment) []byte {
	var m []byte
	for _, s := range segs {
		if s.addr+s.n > len(m) {
			m = append(m, make([]byte, s.addr+s.n-len(m))...)
		}
		copy(m[s.addr:], b[s.off:s.off+s.n])
	}
	return m
}

// FuzzStrip feeds strip and pack what no linker wrote: they answer an
// error or a binary, never a panic.
func FuzzStrip(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x08\x01\x00\x41\x00\x0b\x02\x01\x02"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x0f\x01\x00\x41\x08\x0b\x08\xf1\xff\xff\xff\x00\x00\x01\x08"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c := bytes.Clone(b)
		if _, err := strip(c); err == nil {
			_, _, _ = pack(c)
		}
		_, _, _ = pack(b)
	})
}
