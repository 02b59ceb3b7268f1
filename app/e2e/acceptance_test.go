package e2e

import (
	"strings"
	"testing"
	"time"

	"txnlab/scenarios"
)

// TestAcceptanceCoordinatorCrashesDuringMarkers is the acceptance,
// as a learner does it: from the library, open "the coordinator crashes
// during markers", press Play, crash the coordinator from its card when the
// first WriteTxnMarkers is on the wire, watch the new coordinator resend
// the markers, step back and forth — with no console error (the harness
// fails the test on any) and nothing lost.
func TestAcceptanceCoordinatorCrashesDuringMarkers(t *testing.T) {
	b := newBrowser(t)
	sc, _ := scenarios.Get("coordinator-crash-during-markers")

	b.open("/scenarios")
	b.click(`li.scenario[data-slug="coordinator-crash-during-markers"] h3 a`)
	b.waitFor("the playground", `location.pathname === "/playground"`)
	waitIdle(b)
	b.waitFor("the scenario's script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(sc.Script))

	// Play at 2× until the first WriteTxnMarkers request is drawn, then
	// pause: where exactly playing stops is up to the timing, and the rest
	// of the test works from wherever it is.
	setSpeed(b, 3)
	b.click(button("Play"))
	b.waitFor("the first WriteTxnMarkers on screen", `!!document.querySelector(`+jsString(selDiagram+` .arrow[data-api="WriteTxnMarkers"][data-kind="request"]`)+`)`)
	b.click(button("Pause"))
	b.waitFor("play to stop", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "true"`)
	paused, _ := position(b)
	b.shot("1-paused-at-markers")

	if !strings.Contains(b.text(card("broker-0")), "order-txn-1") {
		t.Fatal("broker-0's card does not show it coordinates order-txn-1")
	}
	b.click(card("broker-0") + ` button[data-stmt="crash broker-0"]`)
	b.waitFor("the crash in the script", `document.querySelector(`+jsString(selScript)+`).value.includes("\ncrash broker-0\n")`)
	waitIdle(b)
	b.waitFor("broker-0 crashed", `document.querySelector(`+jsString(card("broker-0")+" .badge")+`)?.textContent === "crashed"`)
	if at, _ := position(b); at <= paused {
		t.Errorf("at step %d after the crash, paused at %d", at, paused)
	}
	script := scriptText(b)
	// Nothing lost: every line of the library script is still there, in
	// order (the playground splits a waiting statement, never drops one).
	rest := script
	for _, line := range strings.Split(strings.TrimSpace(sc.Script), "\n") {
		code := strings.TrimSpace(strings.SplitN(line, "#", 2)[0])
		if code == "" {
			continue
		}
		if strings.HasPrefix(code, "app commit") {
			code = "app commit" // it may now run in the background (&)
		}
		i := strings.Index(rest, code)
		if i < 0 {
			t.Errorf("line %q of the scenario is missing or out of order:\n%s", code, script)
			break
		}
		rest = rest[i+len(code):]
	}
	b.shot("2-crashed")

	// Watch the failover at 8×.
	setSpeed(b, 5)
	b.click(button("Play"))
	_, n := position(b)
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if i, _ := position(b); i == n {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	waitPosition(b, n)
	b.waitFor("play to stop at the end", `document.querySelector(`+jsString(button("Pause"))+`).getAttribute("aria-disabled") === "true"`)
	b.shot("3-at-the-end")
	if findArrow(b, `.arrow[data-api="WriteTxnMarkers"][data-kind="request"][data-from="broker-1"]`) == 0 {
		t.Fatal("the new coordinator (broker-1) never sent WriteTxnMarkers")
	}
	b.shot("4-markers-resent")
	b.click(`#tab-transactions`)
	if txt := b.text(`.txn[data-txn="order-txn-1"]`); !strings.Contains(txt, "broker-1") || !strings.Contains(txt, "CompleteCommit") {
		t.Errorf("the coordinator's metadata at the end: %s", txt)
	}
	end, arrows := digest(b), eval[int](b, `+document.querySelector(`+jsString(selDiagram)+`).dataset.arrows`)
	if want := cliDigest(t, script); end != want {
		t.Errorf("page digest %s at the end, the CLI prints %s for the same script", end, want)
	}

	// Step back and forth: instant, and the same history every time.
	for i := 1; i <= 5; i++ {
		b.click(button("Step back"))
		waitPosition(b, n-i)
	}
	mid := digest(b)
	b.click(button("Reset"))
	waitPosition(b, 0)
	b.click(button("Run to end"))
	waitPosition(b, n)
	for i := 1; i <= 5; i++ {
		b.click(button("Step back"))
		waitPosition(b, n-i)
	}
	if d := digest(b); d != mid {
		t.Errorf("digest %s five steps before the end, %s the first time", d, mid)
	}
	for i := 4; i >= 0; i-- {
		b.click(button("Step"))
		waitPosition(b, n-i)
	}
	if d, a := digest(b), eval[int](b, `+document.querySelector(`+jsString(selDiagram)+`).dataset.arrows`); d != end || a != arrows {
		t.Errorf("after stepping back and forth: digest %s with %d arrows, want %s with %d", d, a, end, arrows)
	}
	if got := scriptText(b); got != script {
		t.Errorf("stepping changed the script:\n%s", got)
	}
	b.shot("5-back-and-forth")
}
