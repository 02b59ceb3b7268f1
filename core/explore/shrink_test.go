package explore

import (
	"strings"
	"testing"

	"txnlab/core/safety"
)

// A script shrunk under the final (liveness) check is a body: `txnlab
// explore --check` appends the liveness phase to it, as the shrinker did
// to every candidate. A shrunk file that carried the phase itself ran it
// twice under --check, and the second heal undid what it was shrunk to
// show (seed 1100175977's "never goes quiet" did not reproduce).
func TestAFinalShrinkIsABody(t *testing.T) {
	if testing.Short() {
		t.Skip("shrinking takes a few seconds")
	}
	m := safety.Mechanisms[0]
	rep := Explore(Config{Runs: 200, Seed: 1, Break: m}, nil)
	if rep.First == nil {
		t.Fatalf("no violation in %d runs with %s broken", rep.Runs, m.Name)
	}
	r := rep.First
	inv := Target(r, m)
	sh := Shrink(r.Lines[:r.Body], ShrinkOptions{Invariant: inv, Final: true, MaxTries: 300})
	judged := Replay(sh.Lines, 0)
	if n := strings.Count("\n"+Join(judged.Lines)+"\n", "\nadvance 75s\n"); n != 1 {
		t.Fatalf("--check runs the liveness phase %d times on the shrunk file:\n%s", n, Join(sh.Lines))
	}
	o := ExecFinal(Join(sh.Lines), 0)
	if !has(o.Violations, inv, "") {
		t.Fatalf("the shrunk file does not show %s under --check:\n%s", inv, Join(sh.Lines))
	}

	// Written out, it carries the phase once and says what the liveness
	// checks find: `txnlab run` shows it, and --check judges it as it
	// stands.
	sh.Final = true
	doc := Document(m, inv, sh, "test", len(r.Lines))
	if n := strings.Count(doc, "\nadvance 75s\n"); n != 1 || !strings.HasSuffix(doc, "\nexpect liveness violation "+inv+"\n") {
		t.Fatalf("the document runs the liveness phase %d times, or does not end with its expectation:\n%s", n, doc)
	}
	if o := Exec(doc, 0, false); o.Err != nil || o.Session.Failed() != 0 {
		t.Fatalf("txnlab run does not reproduce the document (err %v, %d failed):\n%s", o.Err, o.Session.Failed(), doc)
	}
	if o := ExecFinal(doc, 0); o.Err != nil || o.Session.Failed() != 0 || !has(o.Violations, inv, "") {
		t.Fatalf("--check does not show %s in the document (err %v, %d failed):\n%s", inv, o.Err, o.Session.Failed(), doc)
	}
}
