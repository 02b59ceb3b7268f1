//go:build !wasm

package kafkalistener

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNotInWasm: the playground's wasm links neither the listener nor
// franz-go (kmsg, kgo) nor their compression codecs.
func TestNotInWasm(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "txnlab/cmd/wasm")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{"txnlab/kafkalistener", "github.com/twmb/franz-go", "github.com/klauspost", "github.com/pierrec"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("the wasm links %s", pkg)
			}
		}
	}
}
