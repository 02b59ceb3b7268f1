package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestClientLinksNoServerWeight guards the wasm's size (issue 5): the
// browser build must not import the server's packages, which a new import
// in the UI or a go-app upgrade would quietly bring back (net/http alone
// is 0.42 MB of the gzip download; see BENCHMARKS.md). Packages that are
// imported but left out by the linker (regexp, math/big) need the
// name-section report of `make wasm-size` instead. Package html's
// initialiser builds its entity table, which no dead-code pass removes
// (internal/escape is the escaper the UI uses). compress/flate's
// decompressor is 41 kB of code: internal/deflate reads share links.
func TestClientLinksNoServerWeight(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["txnlab/app/pages"] || !deps["txnlab/core/scenario"] {
		t.Fatal("the list of the wasm's packages is not what it should be: txnlab/app/pages or the core is missing")
	}
	for _, p := range []string{"net/http", "crypto/tls", "crypto/x509",
		"txnlab/app/server", "github.com/andybalholm/brotli", "github.com/yuin/goldmark",
		"html", "compress/flate", "txnlab/kafkalistener", "txnlab/classroom"} {
		if deps[p] {
			t.Errorf("web/app.wasm links %s", p)
		}
	}
	// The Kafka listener's codec and compressors, and NATS, serve the
	// native server only (issues 27 and 29).
	for p := range deps {
		for _, banned := range []string{"github.com/twmb/franz-go", "github.com/klauspost", "github.com/pierrec", "github.com/nats-io/"} {
			if strings.HasPrefix(p, banned) {
				t.Errorf("web/app.wasm links %s", p)
			}
		}
	}
}
