package e2e

import "testing"

// ariaProblems lists what a screen reader's user would meet on the page:
// a control with no name (a button, link, field, list or summary that
// says nothing), an image without alt text, an ARIA reference
// (aria-labelledby, aria-describedby, aria-controls) to an element the
// page lacks, two elements with one id (a reference then reaches the
// first), a page without one h1 or without its main landmark.
const ariaProblems = `(() => {
	const out = [];
	const name = e => {
		const by = e.getAttribute("aria-labelledby");
		if (by) return by.split(/\s+/).map(id => document.getElementById(id)?.textContent || "").join(" ").trim();
		if (e.getAttribute("aria-label")) return e.getAttribute("aria-label");
		if (e.id && document.querySelector('label[for="' + CSS.escape(e.id) + '"]')) return document.querySelector('label[for="' + CSS.escape(e.id) + '"]').textContent.trim();
		if (e.closest("label")) return e.closest("label").textContent.trim();
		if (["INPUT", "TEXTAREA", "SELECT"].includes(e.tagName)) return e.getAttribute("title") || "";
		return (e.textContent || "").trim() || e.getAttribute("title") || (e.querySelector("img[alt]")?.alt ?? "");
	};
	for (const e of document.querySelectorAll("button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [role=slider]")) {
		if (e.closest("[aria-hidden=true], [hidden]")) continue;
		if (!name(e)) out.push("a control with no name: " + e.outerHTML.slice(0, 120));
	}
	for (const e of document.querySelectorAll("img:not([alt])")) out.push("an image without alt text: " + e.outerHTML.slice(0, 100));
	for (const a of ["aria-labelledby", "aria-describedby", "aria-controls"]) {
		for (const e of document.querySelectorAll("[" + a + "]")) {
			for (const id of e.getAttribute(a).split(/\s+/).filter(Boolean)) {
				if (!document.getElementById(id)) out.push(a + " names #" + id + ", which the page lacks: " + e.outerHTML.slice(0, 100));
			}
		}
	}
	const ids = {};
	for (const e of document.querySelectorAll("[id]")) ids[e.id] = (ids[e.id] || 0) + 1;
	for (const [id, n] of Object.entries(ids)) if (n > 1) out.push(n + " elements with id " + id);
	if (document.querySelectorAll("h1").length !== 1) out.push(document.querySelectorAll("h1").length + " h1 elements");
	if (!document.querySelector("main")) out.push("no main landmark");
	return out;
})()`

// TestWhatAScreenReaderMeets: on every kind of page, in both languages,
// on a lesson with every playground run, and on the playground with each
// of the inspector's tabs open, every control has a name, every ARIA
// reference leads to an element and no two elements share an id (the
// inspector's tabs named, in aria-controls, the panels of the tabs not
// shown, which the page does not draw; each diagram of a lesson or of
// the compare page defined the same arrowheads' ids).
func TestWhatAScreenReaderMeets(t *testing.T) {
	b := newBrowser(t)
	check := func(where string) {
		t.Helper()
		for _, s := range eval[[]string](b, ariaProblems) {
			t.Errorf("%s: %s", where, s)
		}
	}
	for _, u := range []string{"/", "/zh/", "/lessons", "/zh/lessons", "/lessons/03-transaction-protocols",
		"/zh/lessons/05-transaction-log", "/lessons/review", "/zh/playground", "/compare", "/zh/compare", "/scenarios"} {
		b.open(u)
		if u == "/zh/playground" {
			waitIdle(b)
		}
		check(u)
	}
	b.open("/lessons/03-transaction-protocols")
	for _, id := range eval[[]string](b, `[...document.querySelectorAll(".embedded-playground")].map(p => p.dataset.scenario)`) {
		sel := `[data-scenario="` + id + `"]`
		if eval[string](b, `document.querySelector(`+jsString(sel)+`).dataset.state`) != "ready" {
			b.click(sel + ` button[data-action="run"]`)
			b.waitFor(id+" to run", `document.querySelector(`+jsString(sel)+`).dataset.state === "ready"`)
		}
	}
	if n := count(b, `.embedded-playground svg.sequence`); n < 2 {
		t.Fatalf("lesson 03 draws %d diagrams after every playground ran", n)
	}
	check("/lessons/03-transaction-protocols, every playground run")
	b.open("/playground")
	waitIdle(b)
	runToEnd(b)
	for _, tab := range []string{"partitions", "consumers", "groups", "invariants", "break", "transactions"} {
		b.click("#tab-" + tab)
		b.waitFor("tab "+tab, `document.querySelector("#tab-`+tab+`").getAttribute("aria-selected") === "true"`)
		check("/playground, tab " + tab)
	}
}
