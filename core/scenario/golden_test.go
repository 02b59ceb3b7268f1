package scenario

import (
	"bufio"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// goldenScenarios have their whole canonical trace (sim.Event.Line, one
// line per event, replication traffic included) committed under
// testdata/golden/<name>.txt. A change in what the simulation does, even
// one no expectation looks at, shows up as a diff; regenerate on purpose
// with
//
//	go test ./core/scenario -run Golden -rewrite
//
// and review the diff as the behaviour change it is.
var goldenScenarios = []string{
	"core/scenario/testdata/golden-commit.scenario",
	"core/scenario/testdata/golden-faults.scenario",
	"scenarios/zombie-fencing-init.scenario",
}

func goldenPath(rel string) string {
	return filepath.Join("testdata", "golden", strings.TrimSuffix(path.Base(rel), ".scenario")+".txt")
}

func TestGolden(t *testing.T) {
	for _, rel := range goldenScenarios {
		t.Run(rel, func(t *testing.T) {
			s, err := runScenario(t, rel)
			if err != nil {
				t.Fatalf("parse error:\n%v", err)
			}
			got := traceLines(s)
			file := goldenPath(rel)
			if *rewrite {
				writeLines(t, file, got)
				return
			}
			want := readLines(t, file)
			if len(want) == 0 {
				t.Fatalf("%s is missing or empty: go test ./core/scenario -run Golden -rewrite", file)
			}
			if d := firstDiff(got, want); d != "" {
				t.Fatalf("the trace of %s differs from %s (if the change is intended: go test ./core/scenario -run Golden -rewrite)\n%s", rel, file, d)
			}
		})
	}
	// Every golden file belongs to a listed scenario: a stale one would
	// only mislead.
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.txt"))
	known := map[string]bool{}
	for _, rel := range goldenScenarios {
		known[filepath.Clean(goldenPath(rel))] = true
	}
	for _, f := range files {
		if !known[filepath.Clean(f)] {
			t.Errorf("%s has no scenario in goldenScenarios: delete it or list its scenario", f)
		}
	}
}

// firstDiff describes where two traces first differ, with context; ""
// when they are equal.
func firstDiff(got, want []string) string {
	n := len(got)
	if len(want) < n {
		n = len(want)
	}
	i := 0
	for i < n && got[i] == want[i] {
		i++
	}
	if i == n && len(got) == len(want) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (got %d lines, want %d)\n", i+1, len(got), len(want))
	from := i - 3
	if from < 0 {
		from = 0
	}
	for j := from; j < i; j++ {
		fmt.Fprintf(&b, "    %s\n", clip(got[j]))
	}
	for j := i; j < i+4; j++ {
		if j < len(want) {
			fmt.Fprintf(&b, "  - %s\n", clip(want[j]))
		}
	}
	for j := i; j < i+4; j++ {
		if j < len(got) {
			fmt.Fprintf(&b, "  + %s\n", clip(got[j]))
		}
	}
	return b.String()
}

// clip keeps a diff readable when a line lists fifty partitions.
func clip(s string) string {
	const max = 240
	if len(s) <= max {
		return s
	}
	return s[:max] + fmt.Sprintf("… (%d more bytes)", len(s)-max)
}

func readLines(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func writeLines(t *testing.T, file string, lines []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s (%d lines)", file, len(lines))
}

// TestTwinDigests runs every Chinese twin of the library
// (scenarios/zh/**) and compares its digest with its English original's:
// a share link made on a Chinese page names the same run.
func TestTwinDigests(t *testing.T) {
	twins, err := filepath.Glob(filepath.Join(repoRoot, "scenarios", "zh", "*.scenario"))
	broken, err2 := filepath.Glob(filepath.Join(repoRoot, "scenarios", "zh", "broken", "*.scenario"))
	if err != nil || err2 != nil || len(twins) == 0 {
		t.Fatalf("listing the twins: %v, %v, %d found", err, err2, len(twins))
	}
	for _, path := range append(twins, broken...) {
		rel, _ := filepath.Rel(repoRoot, path)
		rel = filepath.ToSlash(rel)
		en := "scenarios/" + strings.TrimPrefix(rel, "scenarios/zh/")
		a, errA := runScenario(t, en)
		b, errB := runScenario(t, rel)
		if errA != nil || errB != nil {
			t.Errorf("%s: %v, %v", rel, errA, errB)
			continue
		}
		if da, db := digestOf(a), digestOf(b); da != db {
			t.Errorf("%s: digest %s, its English original %s", rel, db, da)
		}
	}
}

// TestDigests recomputes the digest of every scenario and compares it
// with testdata/digests.txt, written natively by -rewrite. It runs in the
// native and in the WebAssembly test builds
// (GOOS=js GOARCH=wasm go test ./core/...), so both must produce the
// committed value: that is how native == wasm is proven.
func TestDigests(t *testing.T) {
	file := filepath.Join("testdata", "digests.txt")
	files := scenarioFiles(t)
	got := map[string]string{}
	for _, rel := range files {
		s, err := runScenario(t, rel)
		if err != nil {
			got[rel] = "parse-error"
			continue
		}
		got[rel] = digestOf(s)
	}
	if *rewrite {
		var lines []string
		for _, rel := range files {
			lines = append(lines, rel+" "+got[rel])
		}
		writeLines(t, file, lines)
		return
	}
	want := map[string]string{}
	for _, l := range readLines(t, file) {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("%s: bad line %q", file, l)
		}
		want[f[0]] = f[1]
	}
	var problems []string
	for _, rel := range files {
		w, ok := want[rel]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("%s: not in %s (digest now %s)", rel, file, got[rel]))
		case w != got[rel]:
			problems = append(problems, fmt.Sprintf("%s: digest %s, committed %s", rel, got[rel], w))
		}
	}
	for rel := range want {
		if _, ok := got[rel]; !ok {
			problems = append(problems, fmt.Sprintf("%s: in %s but the scenario is gone", rel, file))
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		t.Fatalf("%d digest(s) differ from %s. If the simulation changed on purpose, regenerate natively with\n"+
			"  go test ./core/scenario -run Digests -rewrite\n"+
			"and commit the file; if only the wasm run differs, native and wasm disagree (a determinism bug).\n  %s",
			len(problems), file, strings.Join(problems, "\n  "))
	}
}
