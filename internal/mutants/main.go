// Command mutants is txnlab's mutation test (issue 25, §2.4): it plants
// each of a committed set of one-line bugs (table.go) in a temporary copy
// of the tree, one at a time, and asks whether the checks catch it: the
// explorer, a bounded number of runs with nothing broken (under
// transaction version 1, then 2), and then `go test ./core/...`. A bug
// nothing catches survives, and the command fails: the checker exists so
// that no bug can hide its anomaly, and a survivor names one that does.
//
// The working tree is never written: the copy is made from the files git
// lists (tracked and untracked, not ignored), so uncommitted work is
// tested as it stands. Before any mutant, the copy itself must pass
// every check, or a kill would prove nothing.
//
//	go run ./internal/mutants [-runs N] [-only NAME,...] [-v]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("runs", 3000, "explorer runs per mutant and transaction version")
	seed := flag.Uint64("seed", 1, "the explorer's first seed")
	only := flag.String("only", "", "comma-separated mutant names to run (default: all)")
	verbose := flag.Bool("v", false, "print each check's output")
	list := flag.Bool("list", false, "list the mutants and exit")
	flag.Parse()
	if *list {
		for _, m := range Mutants {
			fmt.Printf("%-28s %s\n", m.Name, m.Why)
		}
		return
	}
	chosen, err := choose(Mutants, *only)
	if err != nil {
		fail(2, "%v", err)
	}
	root, err := gitRoot()
	if err != nil {
		fail(2, "%v", err)
	}
	tmp, err := os.MkdirTemp("", "txnlab-mutants-")
	if err != nil {
		fail(2, "%v", err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	if err := copyTree(root, tmp); err != nil {
		fail(2, "copying the tree: %v", err)
	}
	r := &runner{dir: tmp, runs: *runs, seed: *seed, verbose: *verbose}
	fmt.Printf("mutants: %d mutant(s), explorer %d runs under each transaction version, then go test ./core/...\n", len(chosen), *runs)
	if v := r.judge(); v.caught {
		fail(2, "the unmutated tree does not pass (%s): fix it first\n%s", v.by, v.out)
	}
	fmt.Printf("baseline: every check passes (%.0fs)\n", time.Since(start).Seconds())
	killed, survived := 0, []string{}
	for _, m := range chosen {
		t0 := time.Now()
		restore, err := m.apply(tmp)
		if err != nil {
			fail(2, "%s: %v", m.Name, err)
		}
		if out, err := r.build(); err != nil {
			restore()
			fail(2, "%s: the mutant does not build:\n%s", m.Name, out)
		}
		v := r.judge()
		if err := restore(); err != nil {
			fail(2, "%s: restoring %s: %v", m.Name, m.File, err)
		}
		if v.caught {
			killed++
			fmt.Printf("killed   %-28s by %s (%.1fs)\n", m.Name, v.by, time.Since(t0).Seconds())
		} else {
			survived = append(survived, m.Name)
			fmt.Printf("SURVIVED %-28s %s (%.1fs)\n", m.Name, m.Why, time.Since(t0).Seconds())
		}
	}
	fmt.Printf("score: %d of %d killed in %.0fs\n", killed, len(chosen), time.Since(start).Seconds())
	if len(survived) > 0 {
		fail(1, "mutants survived: %s", strings.Join(survived, ", "))
	}
}

func fail(code int, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mutants: "+format+"\n", args...)
	os.Exit(code)
}

// choose picks the mutants named in only (all when empty).
func choose(all []Mutant, only string) ([]Mutant, error) {
	if only == "" {
		return all, nil
	}
	var out []Mutant
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, m := range all {
			if m.Name == name {
				out, found = append(out, m), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no mutant %q (-list lists them)", name)
		}
	}
	return out, nil
}

func gitRoot() (string, error) {
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("not in a git tree: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// copyTree copies the files git lists under root (tracked, and untracked
// but not ignored) to dst.
func copyTree(root, dst string) error {
	cmd := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return err
	}
	for _, f := range strings.Split(string(out), "\x00") {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the working tree, not yet in git
		}
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(f)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// apply plants the mutant in the copy at dir and returns the function
// that takes it out. The old text must occur exactly once, so that a
// change to the code under a mutant is noticed, not silently skipped.
func (m Mutant) apply(dir string) (func() error, error) {
	path := filepath.Join(dir, m.File)
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	mutated, err := m.mutate(src)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		return nil, err
	}
	return func() error { return os.WriteFile(path, src, 0o644) }, nil
}

// mutate replaces the mutant's old text, which must occur exactly once
// in src, by its new text.
func (m Mutant) mutate(src []byte) ([]byte, error) {
	if strings.Contains(m.Old, "\n") || strings.Contains(m.New, "\n") || m.Old == m.New {
		return nil, fmt.Errorf("%s: a mutant changes one line", m.File)
	}
	from := 0
	if m.Near != "" {
		if n := bytes.Count(src, []byte(m.Near)); n != 1 {
			return nil, fmt.Errorf("%s: the text near the mutant occurs %d times, not once: the code changed, update the table\n\t%s", m.File, n, m.Near)
		}
		from = bytes.Index(src, []byte(m.Near))
		if i := bytes.Index(src[from:], []byte(m.Old)); i < 0 {
			return nil, fmt.Errorf("%s: the text to replace is not after the text near it: the code changed, update the table\n\t%s", m.File, m.Old)
		}
	} else if n := bytes.Count(src, []byte(m.Old)); n != 1 {
		return nil, fmt.Errorf("%s: the text to replace occurs %d times, not once: the code changed, update the table\n\t%s", m.File, n, m.Old)
	}
	i := from + bytes.Index(src[from:], []byte(m.Old))
	out := append([]byte(nil), src[:i]...)
	out = append(out, m.New...)
	return append(out, src[i+len(m.Old):]...), nil
}

type runner struct {
	dir     string
	runs    int
	seed    uint64
	verbose bool
}

type verdict struct {
	caught bool
	by     string
	out    string
}

func (r *runner) cmd(name string, args ...string) (string, error) {
	c := exec.Command(name, args...)
	c.Dir = r.dir
	// -trimpath: the copy's packages then build and test as the working
	// tree's do under make (its cli and test-core targets use -trimpath),
	// so go's caches hold every package no mutant touches (the copy lies
	// in another directory, which an untrimmed build writes into every
	// package and every cache key): the unmutated copy's build and tests
	// come from make test's own, and a mutant rebuilds and re-tests only
	// what depends on its file.
	c.Env = append(os.Environ(), "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -trimpath"))
	out, err := c.CombinedOutput()
	if r.verbose {
		fmt.Printf("$ %s %s\n%s", name, strings.Join(args, " "), out)
	}
	return string(out), err
}

func (r *runner) build() (string, error) {
	return r.cmd("go", "build", "-o", "bin/txnlab", "./cmd/txnlab")
}

// judge runs the checks in order of cost and stops at the first that
// fails.
func (r *runner) judge() verdict {
	if out, err := r.build(); err != nil {
		return verdict{true, "the build", out}
	}
	for _, tv := range []string{"1", "2"} {
		out, err := r.cmd("bin/txnlab", "explore", "--runs", fmt.Sprint(r.runs), "--seed", fmt.Sprint(r.seed),
			"--jobs", "2", "--shrink-tries", "200", "--out", filepath.Join(r.dir, "out", "mutants"),
			"--config", "transaction.version="+tv)
		if err != nil {
			return verdict{true, "the explorer (transaction.version=" + tv + "): " + firstViolation(out), out}
		}
	}
	// Not -count=1: go test's cache keys a result on the package's
	// sources and its dependencies' and on the files and variables the
	// test read, so a cached result is one of this very code.
	out, err := r.cmd("go", "test", "./core/...")
	if err != nil {
		return verdict{true, "go test ./core/...: " + failedTests(out), out}
	}
	return verdict{}
}

// firstViolation is the explorer's report of the first violating run:
// its seed and first violation.
func firstViolation(out string) string {
	ls := strings.Split(out, "\n")
	for i, l := range ls {
		if strings.HasPrefix(l, "first at run") && i+1 < len(ls) {
			v := strings.TrimSpace(ls[i+1])
			if len(v) > 160 {
				v = v[:160] + "…"
			}
			return strings.TrimSuffix(l, ":") + ": " + v
		}
	}
	return lastLine(out)
}

// failedTests names the failing tests of a go test run.
func failedTests(out string) string {
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if f, ok := strings.CutPrefix(strings.TrimSpace(l), "--- FAIL: "); ok && !strings.Contains(f, "/") {
			names = append(names, strings.Fields(f)[0])
		}
		if len(names) == 3 {
			names = append(names, "…")
			break
		}
	}
	if len(names) == 0 {
		return lastLine(out)
	}
	return strings.Join(names, ", ")
}

func lastLine(out string) string {
	ls := strings.Split(strings.TrimSpace(out), "\n")
	return ls[len(ls)-1]
}
