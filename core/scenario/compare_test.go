package scenario

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseSettings(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"", "(script as written)", ""},
		{"transaction.version=2", "transaction.version=2", ""},
		{"kafka=4.0", "transaction.partition.verification.enable=true transaction.version=2 leader.epoch.bump.on.isr.shrink=false coordinator.reload.on.partition.change=false", ""},
		{"kafka=3.6,seed=7", "transaction.partition.verification.enable=true transaction.version=0 leader.epoch.bump.on.isr.shrink=false coordinator.reload.on.partition.change=true seed=7", ""},
		{"kafka=4.0 transaction.version=0", "transaction.partition.verification.enable=true transaction.version=0 leader.epoch.bump.on.isr.shrink=false coordinator.reload.on.partition.change=false", ""}, // the later word wins
		{"break=epoch-bump break=lso-bound request.timeout.ms=5s", "request.timeout.ms=5s break=epoch-bump break=lso-bound", ""},
		{"transaction.version=3", "", "transaction.version must be between 0 and 2"},
		{"transaction.partition.verification.enable=yes", "", "must be true or false"},
		{"transaction.versoin=2", "", `unknown option "transaction.versoin"`},
		{"kafka=3.9", "", "kafka=3.9: one of 3.5, 3.6, 3.8, 4.0"},
		{"break=nothing", "", "break=nothing: unknown mechanism"},
		{"seed=0", "", "a positive integer"},
		{"verbose", "", "settings are KEY=VALUE"},
	}
	for _, tc := range tests {
		st, err := ParseSettings(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err == "" && st.String() != tc.want:
			t.Errorf("%q: %q, want %q", tc.in, st.String(), tc.want)
		}
	}
}

// The settings go right after the cluster statement; the script's own
// statements keep their lines.
func TestSettingsApply(t *testing.T) {
	st, _ := ParseSettings("kafka=4.0 break=epoch-bump")
	for _, src := range []string{"cluster brokers=1\ntopic t\n"} {
		s, err := Parse("x", src)
		if err != nil {
			t.Fatal(err)
		}
		out := st.Apply(s)
		var got []string
		for _, x := range out.Statements {
			got = append(got, x.String())
		}
		want := []string{"config transaction.partition.verification.enable=true transaction.version=2 leader.epoch.bump.on.isr.shrink=false coordinator.reload.on.partition.change=false", "break epoch-bump", "topic t"}
		if strings.HasPrefix(src, "cluster") {
			want = append([]string{"cluster brokers=1"}, want...)
		}
		if strings.Join(got, "|") != strings.Join(want, "|") || len(s.Statements) != len(want)-2 {
			t.Errorf("%q: %q", src, got)
		}
	}
}

const compareScript = `cluster brokers=1
topic orders
producer app transactional.id=t1
app init
app begin
app send orders/0 a=1
app commit
run
expect app state READY
`

// The same settings twice: nothing differs, and the run is the script's
// own (its digest is the plain session's). Kafka 3.5 against 4.0: the
// setup statements are the same, the send and the commit differ, and
// their summaries name the request versions that changed.
func TestAlign(t *testing.T) {
	plain := NewSession("x", mustParse(t, compareScript))
	plain.Run()
	classic, _ := ParseSettings("kafka=3.5")
	a, err := RunRecorded("x", compareScript, classic)
	if err != nil {
		t.Fatal(err)
	}
	if a.Digest() != plain.Cluster.World.Trace.Digest() {
		t.Fatalf("kafka=3.5 digest %s, the script's %s", a.Digest(), plain.Cluster.World.Trace.Digest())
	}
	a2, _ := RunRecorded("x", compareScript, classic)
	for _, d := range Align(a, a2) {
		if d.Differs() || d.Summary != "" {
			t.Fatalf("line %d differs from itself: %s", d.Line, d.Summary)
		}
	}
	tv2, _ := ParseSettings("kafka=4.0")
	b, err := RunRecorded("x", compareScript, tv2)
	if err != nil {
		t.Fatal(err)
	}
	diffs := Align(a, b)
	if len(diffs) != 9 {
		t.Fatalf("%d statements aligned, want 9", len(diffs))
	}
	differs := map[int]string{}
	for _, d := range diffs {
		if d.Differs() {
			differs[d.Line] = d.Summary
		}
		if d.Text == "" {
			t.Errorf("line %d has no text", d.Line)
		}
	}
	for _, line := range []int{1, 2, 3, 4, 5, 9} {
		if s, ok := differs[line]; ok {
			t.Errorf("line %d differs: %s", line, s)
		}
	}
	send := differs[6]
	for _, want := range []string{"a: AddPartitionsToTxn v3 app→broker-0", "Produce v9", "b: Produce v12", "AddPartitionsToTxn v5 broker-0→broker-0"} {
		if !strings.Contains(send, want) {
			t.Errorf("send summary %q lacks %q", send, want)
		}
	}
	if !strings.Contains(differs[7], "EndTxn v3") || !strings.Contains(differs[7], "EndTxn v5") {
		t.Errorf("commit summary %q", differs[7])
	}
	// Every event of each run appears exactly once in the alignment
	// (replication aside), in trace order.
	for side, r := range []*RecordedRun{a, b} {
		last, n := -1, 0
		for _, d := range diffs {
			for _, op := range d.Ops {
				i := op.A
				if side == 1 {
					i = op.B
				}
				if i < 0 {
					continue
				}
				if i <= last {
					t.Fatalf("run %d: event %d after %d", side, i, last)
				}
				last = i
				n++
			}
		}
		want := 0
		for _, e := range r.Session.Cluster.World.Trace.All() {
			if !e.Internal {
				want++
			}
		}
		if n != want {
			t.Errorf("run %d: %d events aligned, the trace has %d visible", side, n, want)
		}
	}
}

func mustParse(t *testing.T, src string) *Script {
	t.Helper()
	s, err := Parse("x", src)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLCS(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"abc", "abc", "==="},
		{"abc", "", "---"},
		{"", "ab", "++"},
		{"abcd", "acd", "=-=="},
		{"ab", "ba", "-=+"},
		{"xaby", "zabw", "-+==-+"},
	}
	for _, tc := range tests {
		x, y := strings.Split(tc.a, ""), strings.Split(tc.b, "")
		if tc.a == "" {
			x = nil
		}
		if tc.b == "" {
			y = nil
		}
		ix, iy := make([]int, len(x)), make([]int, len(y))
		for i := range ix {
			ix[i] = i
		}
		for i := range iy {
			iy[i] = i
		}
		var got strings.Builder
		for _, op := range lcs(x, y, ix, iy) {
			got.WriteByte(op.Op)
		}
		if got.String() != tc.want {
			t.Errorf("lcs(%q, %q) = %q, want %q", tc.a, tc.b, got.String(), tc.want)
		}
	}
}

// A run cut into single steps (the compare page's slices) is RunRecorded's
// run: the same digest and the same statement spans.
func TestRecorderInSlices(t *testing.T) {
	tv2, _ := ParseSettings("kafka=4.0 seed=7")
	whole, err := RunRecorded("x", compareScript, tv2)
	if err != nil {
		t.Fatal(err)
	}
	r, err := StartRecorded("x", compareScript, tv2)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for !r.Work(1) {
		calls++
	}
	if calls < 10 {
		t.Fatalf("the run finished in %d slices of one step", calls)
	}
	sliced := r.Run()
	if sliced.Digest() != whole.Digest() {
		t.Fatalf("sliced digest %s, whole %s", sliced.Digest(), whole.Digest())
	}
	if fmt.Sprint(sliced.Spans) != fmt.Sprint(whole.Spans) {
		t.Fatalf("spans differ:\n%v\n%v", sliced.Spans, whole.Spans)
	}
	if r.Begun() != len(whole.Spans) {
		t.Fatalf("Begun %d, %d statements", r.Begun(), len(whole.Spans))
	}
	if _, err := StartRecorded("x", "cluster\nbogus\n", tv2); err == nil {
		t.Fatal("a script that does not parse started")
	}
}
