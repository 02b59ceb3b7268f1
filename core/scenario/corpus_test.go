package scenario

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// rewrite regenerates the committed expectations of this package's tests
// (golden traces, digests.txt) from the current code, on purpose:
//
//	go test ./core/scenario -run 'Golden|Digests' -rewrite
//
// Review the diff before committing it: it is the behaviour change.
var rewrite = flag.Bool("rewrite", false, "regenerate testdata/golden/*.txt and testdata/digests.txt")

// repoRoot is the repository root seen from this package's directory,
// which is the working directory of `go test`, natively and under Node.
const repoRoot = "../.."

// scenarioFiles lists every scenario the tests run, as slash paths
// relative to the repository root, sorted: scenarios/**/*.scenario and
// core/**/testdata/**/*.scenario.
func scenarioFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	add := func(dir string, keep func(rel string) bool) {
		root := filepath.Join(repoRoot, dir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".scenario") {
				return nil
			}
			rel, err := filepath.Rel(repoRoot, path)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if keep(rel) {
				out = append(out, rel)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatalf("listing %s: %v", dir, err)
		}
	}
	// scenarios/zh holds the Chinese twins: the same statements as the
	// English scripts, so running them again proves nothing new;
	// TestTwinDigests checks they give the same digests.
	add("scenarios", func(rel string) bool { return !strings.HasPrefix(rel, "scenarios/zh/") })
	// testdata/fuzz holds Go fuzz corpora (whose entries may be named
	// *.scenario but are in the fuzz encoding), not scripts.
	add("core", func(rel string) bool {
		return strings.Contains(rel, "/testdata/") && !strings.Contains(rel, "/testdata/fuzz/")
	})
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("no scenario found: is the working directory the package directory?")
	}
	return out
}

// runScenario parses and runs one scenario file (a path relative to the
// repository root), as `txnlab run` does. It returns the session, or an
// error for a parse error.
func runScenario(t testing.TB, rel string) (*Session, error) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("reading %s: %v", rel, err)
	}
	script, err := Parse(rel, string(src))
	if err != nil {
		return nil, err
	}
	s := NewSession(rel, script)
	s.Run()
	return s, nil
}

// traceLines is the canonical trace of a session, one line per event.
func traceLines(s *Session) []string {
	if s.Cluster == nil {
		return nil
	}
	evs := s.Cluster.World.Trace.Events(0)
	out := make([]string, len(evs))
	for i := range evs {
		out[i] = evs[i].Line(s.Cluster.World.Names())
	}
	return out
}

func digestOf(s *Session) string {
	if s.Cluster == nil {
		return "no-cluster"
	}
	return s.Cluster.World.Trace.Digest()
}
