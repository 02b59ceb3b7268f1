package e2e

import (
	"strings"
	"testing"
)

// inView is a JavaScript test that element sel is drawn inside the
// diagram's scrolling box (when it is in it) and inside the window.
func inView(sel string) string {
	return `(() => {
		const e = document.querySelector(` + jsString(sel) + `);
		if (!e) return false;
		const r = e.getBoundingClientRect();
		if (r.width === 0 && r.height === 0) return false;
		const box = e.closest(` + jsString(selScroll) + `);
		if (box) {
			const b = box.getBoundingClientRect();
			if (r.bottom < b.top || r.top > b.bottom) return false;
		}
		return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
	})()`
}

// TestRedInvariantLeadsToTheEvidence: in broken/aborted-filter a
// read_committed consumer receives an aborted record. The invariants tab
// says which invariant is violated (in words and in data-status), and the
// red read-committed invariant links to the Fetch answer that leaked the
// record. Following the link — with Fetch polling hidden by the filter —
// goes to that step, selects the arrow, scrolls it into view and opens the
// message panel on it.
func TestRedInvariantLeadsToTheEvidence(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "broken/aborted-filter")
	n := runToEnd(b)
	// Hide Fetch polling: the link must show its Fetch answer anyway.
	eval[bool](b, `(() => { const i = [...document.querySelectorAll(".diagram-tools label")].find(l => l.textContent.includes("Hide Fetch")).querySelector("input"); i.click(); return true })()`)
	b.click(`#tab-invariants`)
	rc := `.invariant[data-invariant="read-committed"]`
	b.waitFor("the read-committed row", `!!document.querySelector(`+jsString(rc)+`)`)
	if got := eval[string](b, `document.querySelector(`+jsString(rc)+`).dataset.status`); got != "violated" {
		t.Errorf("read-committed has data-status=%q, want violated", got)
	}
	if got := eval[string](b, `document.querySelector('.invariant[data-invariant="atomicity"]')?.dataset.status ?? "missing"`); got != "ok" {
		t.Errorf("atomicity has data-status=%q, want ok", got)
	}
	// The status in words, not only the aria-hidden mark.
	words := eval[string](b, `[...document.querySelector(`+jsString(rc)+`).childNodes].filter(c => !(c.getAttribute && c.getAttribute("aria-hidden") === "true")).map(c => c.textContent).join("")`)
	if !strings.Contains(words, "violated") {
		t.Errorf("the read-committed row does not say it is violated in words: %q", words)
	}
	if got := eval[int](b, `document.querySelectorAll('.invariant[data-status]').length`); got < 9 {
		t.Errorf("%d invariant rows carry data-status, want all 9", got)
	}
	link := rc + ` .event-link`
	links := eval[string](b, `[...document.querySelectorAll(`+jsString(link)+`)].map(a => a.textContent).join(" | ")`)
	if !strings.Contains(links, "Fetch response broker-0 → c1") || !strings.Contains(links, "Produce p1 → broker-0") {
		t.Fatalf("read-committed links %q: want the Produce that wrote the record and the Fetch answer that leaked it", links)
	}
	fetch := eval[string](b, `[...document.querySelectorAll(`+jsString(link)+`)].find(a => a.textContent.startsWith("Fetch response")).dataset.msg`)
	// Scroll the diagram away from the evidence, and follow the link
	// before the frame: the scroll's event comes after the link's
	// render, and the page must not take it for a scroll of the
	// learner's made after the link.
	eval[bool](b, `(document.querySelector(`+jsString(selScroll)+`).scrollTop = 0, window.scrollTo(0, document.body.scrollHeight),
		[...document.querySelectorAll(`+jsString(link)+`)].find(a => a.textContent.startsWith("Fetch response")).click(), true)`)
	b.waitFor("the message panel on the Fetch answer", `document.querySelector("#message-panel")?.dataset.msg === `+jsString(fetch))
	if got := b.text("#message-panel h2"); got != "Fetch response" {
		t.Errorf("the message panel is on %q, want Fetch response", got)
	}
	if i, _ := position(b); i >= n {
		t.Errorf("still at step %d of %d: the link did not go to the step of the Fetch answer", i, n)
	}
	arrow := selDiagram + ` .arrow.selected[data-msg="` + fetch + `"]`
	b.waitFor("the selected Fetch arrow in view", inView(arrow))
	b.waitFor("the message panel in view", inView("#message-panel"))
	b.shot("evidence")
}

// TestIdleBreakSwitchSaysSo: the happy path never sends offsets, so
// breaking add-offsets there cannot show anything; its switch says so,
// while add-partitions, which the happy path uses, says nothing of the
// kind.
func TestIdleBreakSwitchSaysSo(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	runToEnd(b)
	b.click(`#tab-break`)
	row := `.switch-row[data-mechanism="add-offsets"]`
	b.waitFor("the add-offsets switch", `!!document.querySelector(`+jsString(row)+`)`)
	if text := b.text(row); !strings.Contains(text, "never exercises add-offsets") || !strings.Contains(text, "send-offsets") {
		t.Errorf("the add-offsets switch reads %q: want it to say the scenario never exercises it", text)
	}
	if text := b.text(`.switch-row[data-mechanism="add-partitions"]`); strings.Contains(text, "never exercises") {
		t.Errorf("the add-partitions switch reads %q, but the happy path uses AddPartitionsToTxn", text)
	}
	// In a scenario that sends offsets, add-offsets is not idle.
	openScenario(b, "add-offsets")
	runToEnd(b)
	b.click(`#tab-break`)
	b.waitFor("the add-offsets switch", `!!document.querySelector(`+jsString(row)+`)`)
	if text := b.text(row); strings.Contains(text, "never exercises") {
		t.Errorf("the add-offsets switch reads %q in the add-offsets scenario", text)
	}
}
