package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataRegions builds a small program for js/wasm and cuts its data
// section: every region the report names is found, inside memory, and
// the type descriptors and strings cost the brotli file something. A Go
// release that moves the module data fails here before make wasm-size
// reports nonsense.
func TestDataRegions(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "prog.wasm")
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, "../wasmstrip/testdata/prog")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	m, err := parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.segs) == 0 {
		t.Fatal("no data segments read")
	}
	var out strings.Builder
	if err := reportData(&out, b, m.segs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 10 {
		t.Fatalf("report has %d lines, want a header, a title and 8 regions:\n%s", len(lines), out.String())
	}
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		if f[0] == "0" {
			t.Errorf("empty region: %s", l)
		}
	}
	if f := strings.Fields(lines[2]); f[2] == "0" || strings.HasPrefix(f[2], "-") {
		t.Errorf("type descriptors cost brotli nothing: %s", lines[2])
	}
}

// FuzzDataRegions feeds parse and the region finder what no linker
// wrote: an error or regions inside memory, never a panic.
func FuzzDataRegions(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x08\x01\x00\x41\x00\x0b\x02\x01\x02"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x0b\x0f\x01\x00\x41\x08\x0b\x08\xf1\xff\xff\xff\x00\x00\x01\x08"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parse(b)
		if err != nil {
			return
		}
		mem, err := memory(b, m.segs)
		if err != nil {
			return
		}
		rs, err := dataRegions(mem)
		for _, r := range rs {
			if err == nil && (r.a < 0 || r.z < r.a || r.z > len(mem)) {
				t.Errorf("region %s [%d, %d) outside memory of %d", r.name, r.a, r.z, len(mem))
			}
		}
	})
}
