package main

import (
	"bytes"
	"strings"
	"testing"
)

// section is a wasm section: its id, its size and its content.
func section(id byte, content []byte) []byte {
	return append([]byte{id, byte(len(content))}, content...)
}

func name(s string) []byte { return append([]byte{byte(len(s))}, s...) }

// tiny is a module with one imported function and two defined ones, named
// as the Go linker names them.
func tiny() []byte {
	b := []byte("\x00asm\x01\x00\x00\x00")
	imports := append([]byte{1}, name("go")...)
	imports = append(imports, name("debug")...)
	imports = append(imports, 0, 0) // function of type 0
	b = append(b, section(2, imports)...)
	code := []byte{2, 3, 0, 0x01, 0x0b, 2, 0, 0x0b}
	b = append(b, section(10, code)...)
	names := []byte{3, 0}
	names = append(names, name("debug")...)
	names = append(names, 1)
	names = append(names, name("txnlab_core_sim.__World_.Run")...)
	names = append(names, 2)
	names = append(names, name("type_.eq.txnlab_core_sim.Event")...)
	custom := append(name("name"), 1, byte(len(names)))
	custom = append(custom, names...)
	return append(b, section(0, custom)...)
}

func TestParse(t *testing.T) {
	m, err := parse(tiny())
	if err != nil {
		t.Fatal(err)
	}
	if m.imported != 1 || len(m.bodies) != 2 || len(m.bodies[0]) != 3 || len(m.bodies[1]) != 2 {
		t.Fatalf("imported %d, bodies %q", m.imported, m.bodies)
	}
	if m.names[1] != "txnlab_core_sim.__World_.Run" {
		t.Errorf("names: %v", m.names)
	}
	if _, err := parse([]byte("\x00asm\x01\x00\x00\x00\x0a\x09\x01")); err == nil {
		t.Error("a truncated section parsed")
	}
	if _, err := parse([]byte("not wasm")); err == nil {
		t.Error("not wasm parsed")
	}
}

func TestPackageOfAFunction(t *testing.T) {
	n := newNamer([]string{"txnlab/core/sim", "encoding/json", "github.com/maxence-charriere/go-app/v10/pkg/app"})
	for fn, want := range map[string]string{
		"txnlab_core_sim.__World_.Run": "txnlab/core/sim",
		"encoding_json.Marshal":        "encoding/json",
		"github.com_maxence_charriere_go_app_v10_pkg_app.__engineX_.Navigate": "github.com/maxence-charriere/go-app/v10/pkg/app",
		"runtime.mallocgc":               "runtime",
		"github.com_google_uuid.New":     "github.com_google_uuid",
		"type_.eq.txnlab_core_sim.Event": "type:* (generated equality and hash functions)",
		"slices.pdqsortCmpFunc_go.shape.struct___encoding_json.name_string": "slices",
	} {
		if got := n.pkg(fn); got != want {
			t.Errorf("pkg(%s) = %s, want %s", fn, got, want)
		}
	}
}

func TestReport(t *testing.T) {
	m, err := parse(tiny())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report(&out, m, newNamer([]string{"txnlab/core/sim"}), 1)
	for _, want := range []string{"(2 functions)", "txnlab/core/sim", "(1 more packages)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, out.String())
		}
	}
}
