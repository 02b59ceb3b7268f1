package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"txnlab/core/scenario"
)

// endless is a reader that never ends, counting what it gave.
type endless struct {
	b    byte
	read int
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = e.b
	}
	e.read += len(p)
	return len(p), nil
}

// An endless input is read only as far as the limits: one line of
// maxLineBytes+1 bytes without a newline, or MaxLines+1 lines of them.
func TestReadStopsAtTheLimits(t *testing.T) {
	for _, b := range []byte{0, 'a', '\n'} {
		r := &endless{b: b}
		src, err := readBounded(r)
		if err != nil {
			t.Fatal(err)
		}
		max := (scenario.MaxLines + 1) * (maxLineBytes + 2)
		if len(src) > max || r.read > max+128<<10 {
			t.Errorf("byte %q: kept %d bytes, read %d; at most %d", b, len(src), r.read, max)
		}
		_, err = scenario.Parse("endless", src)
		if err == nil {
			t.Errorf("byte %q: the parser accepted what was read", b)
		}
	}
	src, _ := readBounded(&endless{b: 'a'})
	if _, err := scenario.Parse("x", src); err == nil || !strings.Contains(err.Error(), "x:1:1001: line too long") {
		t.Errorf("an endless line: %v, want a line too long at 1:1001", err)
	}
	src, _ = readBounded(&endless{b: '\n'})
	if _, err := scenario.Parse("x", src); err == nil || !strings.Contains(err.Error(), "x:5001:1: script too long") {
		t.Errorf("endless lines: %v, want a script too long at 5001:1", err)
	}
}

// A script at the limits is read whole, byte for byte.
func TestReadKeepsAScriptAtTheLimits(t *testing.T) {
	var b strings.Builder
	long := strings.Repeat("😀", scenario.MaxLineLength-2)
	for i := range scenario.MaxLines {
		if i%2 == 0 {
			b.WriteString("# " + long + "\r\n")
		} else {
			b.WriteString("\n")
		}
	}
	want := b.String()
	got, err := readBounded(strings.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("read %d bytes of %d", len(got), len(want))
	}
	if _, err := scenario.Parse("limits", got); err != nil {
		t.Fatal(err)
	}
	// Without its last newline too.
	want = strings.TrimSuffix(want, "\n") + "# end"
	if got, _ := readBounded(strings.NewReader(want)); got != want {
		t.Fatalf("read %d bytes of %d", len(got), len(want))
	}
}

// `txnlab run /dev/zero` used to read until memory ran out; run, diff
// and explore --check now answer at once with the parser's error.
func TestHostileFilesAnswerAtOnce(t *testing.T) {
	dir := t.TempDir()
	long := filepath.Join(dir, "long.scenario")
	if err := os.WriteFile(long, bytes.Repeat([]byte("# c\n"), 3*scenario.MaxLines), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"/dev/zero"}, "/dev/zero:1:1: unexpected control character"},
		{[]string{long}, "long.scenario:5001:1: script too long"},
	} {
		var stdout, stderr bytes.Buffer
		if code := runCmd(c.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("run %v: exit %d, %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
		stderr.Reset()
		if code := diffCmd(append(c.args, "--a", "kafka=3.5", "--b", "kafka=4.0"), &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("diff %v: exit %d, %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
		stderr.Reset()
		if code := exploreCheck(c.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("explore --check %v: exit %d, %q; want 2 and %q", c.args, code, stderr.String(), c.want)
		}
	}
}
