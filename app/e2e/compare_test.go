package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"txnlab/core/scenario"
)

// setField types a settings field's text as a learner would.
func setField(b *browser, sel, text string) {
	b.t.Helper()
	eval[bool](b, `(() => { const f = document.querySelector(`+jsString(sel)+`); f.value = `+jsString(text)+`; f.dispatchEvent(new Event("input", {bubbles: true})); return true })()`)
}

// pickSetting chooses a value of a picker (a select), which rewrites its
// settings field and compares again.
func pickSetting(b *browser, sel, value string) {
	b.t.Helper()
	eval[bool](b, `(() => { const s = document.querySelector(`+jsString(sel)+`); s.value = `+jsString(value)+`; s.dispatchEvent(new Event("change", {bubbles: true})); return true })()`)
}

// waitCompared waits until the page shows the comparison of run A's
// settings as the core renders them.
func waitCompared(b *browser, a string) {
	b.t.Helper()
	b.waitFor("the comparison", `document.querySelector(".compare[data-state=done]") !== null &&
		(document.querySelector('.cmp-run-facts[data-run="a"] code') || {}).textContent === `+jsString(a))
}

// The compare view of the Jepsen pack's delayed EndTxn, Kafka 3.5 against
// 4.0: the steps that differ are marked on both sides and the summary
// names the change; both digests are the CLI's; statement N starts at
// the same height in both diagrams; the share link restores the
// comparison; on a phone the diagrams stack; the Chinese page has no
// English sentence.
func TestCompareTwoRuns(t *testing.T) {
	b := newBrowser(t)
	src, err := os.ReadFile(filepath.Join(repoRoot, "scenarios", "jepsen-delayed-endtxn.scenario"))
	if err != nil {
		t.Fatal(err)
	}
	var digests [2]string
	var shown [2]string
	for i, text := range []string{"kafka=3.5", "kafka=4.0"} {
		st, _ := scenario.ParseSettings(text)
		r, err := scenario.RunRecorded("cli", string(src), st)
		if err != nil {
			t.Fatal(err)
		}
		digests[i], shown[i] = r.Digest(), st.String()
	}

	b.open("/compare?scenario=jepsen-delayed-endtxn")
	// Start from settings that differ in nothing, then pick the releases.
	setField(b, "#cmp-settings-a", "seed=1")
	setField(b, "#cmp-settings-b", "seed=1")
	b.click(`button[data-action="compare"]`)
	b.waitFor("the same runs", `document.querySelector("[data-same=all]") !== null`)
	pickSetting(b, `select[data-pick="kafka-a"]`, "3.5")
	pickSetting(b, `select[data-pick="kafka-b"]`, "4.0")
	b.waitFor("the pickers' words", `document.querySelector("#cmp-settings-a").value === "seed=1 kafka=3.5" &&
		document.querySelector("#cmp-settings-b").value === "seed=1 kafka=4.0"`)
	pickSetting(b, `select[data-pick="kafka-a"]`, "-") // "as the script says": the word goes
	b.waitFor("the word removed", `document.querySelector("#cmp-settings-a").value === "seed=1"`)
	setField(b, "#cmp-settings-a", "kafka=3.5")
	setField(b, "#cmp-settings-b", "kafka=4.0")
	b.click(`button[data-action="compare"]`)
	waitCompared(b, shown[0])

	for i, id := range []string{"a", "b"} {
		got := eval[string](b, `document.querySelector('output.digest[data-run="`+id+`"]').dataset.digest`)
		if got != digests[i] {
			t.Errorf("run %s: digest %s on the page, %s from scenario.RunRecorded", id, got, digests[i])
		}
		marked := eval[int](b, `document.querySelectorAll('svg.cmp-sequence[data-run="`+id+`"] .cmp-diff').length`)
		arrows := eval[int](b, `document.querySelectorAll('svg.cmp-sequence[data-run="`+id+`"] .arrow.cmp-differs').length`)
		// The mark is drawn: a band with a box and a fill, and its sign.
		visible := eval[bool](b, `(() => { const g = document.querySelector('svg.cmp-sequence[data-run="`+id+`"] .cmp-diff');
			const r = g.querySelector("rect").getBoundingClientRect();
			return r.width > 100 && r.height > 10 && getComputedStyle(g.querySelector("rect")).fill !== "none" &&
				/[−+]/.test(g.querySelector("text").textContent) && g.querySelector("title").textContent.length > 0 })()`)
		if marked == 0 || arrows == 0 || !visible {
			t.Errorf("run %s: %d marked rows, %d marked arrows, drawn %v", id, marked, arrows, visible)
		}
	}
	summary := b.text(`.cmp-summary[data-line="27"]`)
	for _, want := range []string{"AddPartitionsToTxn v3 app→broker-0", "AddPartitionsToTxn v5 broker-0→broker-0", "Produce v12 app→broker-0"} {
		if !strings.Contains(summary, want) {
			t.Errorf("the summary of line 27 lacks %q: %s", want, summary)
		}
	}
	if v := eval[string](b, `document.querySelector('.cmp-run-facts[data-run="a"] [data-violations]').dataset.violations`); v != "read-committed" {
		t.Errorf("3.5's violations: %q", v)
	}
	// Statement N's band is at the same height on both sides, and the
	// diagrams are side by side.
	aligned := eval[string](b, `(() => {
		const out = [];
		for (const a of document.querySelectorAll('svg.cmp-sequence[data-run="a"] .cmp-stmt')) {
			const b = document.querySelector('svg.cmp-sequence[data-run="b"] .cmp-stmt[data-line="' + a.dataset.line + '"]');
			const ya = a.getBoundingClientRect().top, yb = b ? b.getBoundingClientRect().top : NaN;
			if (Math.abs(ya - yb) > 0.5) out.push(a.dataset.line + ": " + ya + " vs " + yb);
		}
		const sa = document.querySelector('.cmp-side[data-run="a"]').getBoundingClientRect();
		const sb = document.querySelector('.cmp-side[data-run="b"]').getBoundingClientRect();
		if (!(sb.left >= sa.right - 1)) out.push("not side by side");
		return out.join("; ");
	})()`)
	if aligned != "" {
		t.Errorf("the diagrams are not aligned by statement: %s", aligned)
	}
	b.shot("desktop")

	// The share link carries the script and both settings.
	b.click(`button[data-action="share"]`)
	b.waitFor("the link in the address bar", `location.hash.includes("&a=") && location.hash.includes("&b=")`)
	link := eval[string](b, `location.href`)
	b.open("/compare") // another comparison first: the link must restore it, not keep this one
	setField(b, "#cmp-settings-a", "kafka=4.0")
	b.click(`button[data-action="compare"]`)
	waitCompared(b, shown[1])
	b.openURL(link)
	waitCompared(b, shown[0])
	if a, bb := eval[string](b, `document.querySelector("#cmp-settings-a").value`), eval[string](b, `document.querySelector("#cmp-settings-b").value`); a != "kafka=3.5" || bb != "kafka=4.0" {
		t.Errorf("the link restored settings %q and %q", a, bb)
	}
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); got != string(src) {
		t.Errorf("the link restored another script (%d bytes, want %d)", len(got), len(src))
	}
	if got := eval[string](b, `document.querySelector('output.digest[data-run="b"]').dataset.digest`); got != digests[1] {
		t.Errorf("the restored run b: digest %s, want %s", got, digests[1])
	}

	// On a phone the diagrams stack and the page does not scroll sideways.
	b.do(chromedp.EmulateViewport(390, 844))
	b.openURL(link)
	waitCompared(b, shown[0])
	// The page's own content stays within the screen (the site header is
	// the shell's, and is not this page's to fix).
	stacked := eval[string](b, `(() => {
		const sa = document.querySelector('.cmp-side[data-run="a"]').getBoundingClientRect();
		const sb = document.querySelector('.cmp-side[data-run="b"]').getBoundingClientRect();
		// The outermost elements past the right edge, to name the culprit.
		const wide = [...document.querySelectorAll(".compare *")].filter(el => !el.closest(".cmp-scroll") &&
			el.getBoundingClientRect().right > 391 && el.parentElement.getBoundingClientRect().right <= 391)
			.map(el => el.tagName + "." + el.className).slice(0, 5);
		const main = document.querySelector(".compare").getBoundingClientRect();
		return (sb.top >= sa.bottom - 1 ? "" : "not stacked ") + (main.right <= 391 && wide.length === 0 ? "" : "wider than the screen: " + main.right + " (" + wide.join(", ") + ")");
	})()`)
	if stacked != "" {
		t.Errorf("on a phone: %s", stacked)
	}
	b.shot("phone")
	b.do(chromedp.EmulateViewport(1280, 900))

	// The Chinese page: the same comparison, no English sentence.
	b.openURL(strings.Replace(link, "/compare#", "/zh/compare#", 1))
	waitCompared(b, shown[0])
	noEnglish(t, b, "the Chinese compare page")
	if h := b.text(".compare h1"); h != "比较两次运行" {
		t.Errorf("the Chinese heading is %q", h)
	}
}

// The playground's Compare control opens the compare page with the
// editor's script.
func TestPlaygroundOpensCompare(t *testing.T) {
	b := newBrowser(t)
	b.open("/playground?scenario=happy-path")
	b.waitFor("the script", `document.querySelector('textarea[aria-label="Scenario script"]').value.includes("cluster")`)
	script := eval[string](b, `document.querySelector('textarea[aria-label="Scenario script"]').value`)
	b.click(`.pg-compare button[data-action="compare"]`)
	b.waitFor("the compare page", `location.pathname === "/compare"`)
	b.waitFor("the comparison", `document.querySelector(".compare[data-state=done]") !== null`)
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); got != script {
		t.Errorf("the compare page got another script:\n%s\nwant\n%s", got, script)
	}
	if n := eval[int](b, `document.querySelectorAll(".cmp-summary").length`); n == 0 {
		t.Error("the happy path shows no difference between Kafka 3.5 and 4.0 (AddPartitionsToTxn moves to the leader)")
	}
}

// TestCompareKeepsWhatTheLearnerWroteAcrossAReload: a script edited and
// settings changed on the compare page come back after a reload (the page
// showed its default again, the learner's work gone), by the address,
// which now says what is on screen; the page opened afresh shows its
// default, with an address that carries nothing.
func TestCompareKeepsWhatTheLearnerWroteAcrossAReload(t *testing.T) {
	b := newBrowser(t)
	b.open("/compare")
	waitIdle(b)
	if h := eval[string](b, `location.hash`); h != "" {
		t.Errorf("the untouched page's address carries %q", h)
	}
	original := eval[string](b, `document.querySelector("#cmp-script").value`)
	setField(b, "#cmp-script", original+"\n# my own line\n")
	setField(b, "#cmp-settings-b", "kafka=3.8")
	b.waitFor("the address to carry the edits", `location.hash.includes("s=") && location.hash.includes("3.8")`)
	b.openURL(eval[string](b, `location.href`)) // a reload
	waitIdle(b)
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); !strings.Contains(got, "# my own line") {
		t.Errorf("after a reload the script lost the learner's line (%d bytes)", len(got))
	}
	if got := eval[string](b, `document.querySelector("#cmp-settings-b").value`); got != "kafka=3.8" {
		t.Errorf("after a reload settings B are %q, want kafka=3.8", got)
	}
	// Revert brings the page's own script back and keeps the settings.
	b.click(`[data-action="revert"]`)
	waitIdle(b)
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); got != original {
		t.Errorf("after Revert the script is not the page's own (%d bytes, want %d)", len(got), len(original))
	}
	if got := eval[string](b, `document.querySelector("#cmp-settings-b").value`); got != "kafka=3.8" {
		t.Errorf("Revert changed settings B to %q", got)
	}
	if eval[bool](b, `!!document.querySelector('[data-action="revert"]')`) {
		t.Error("Revert still offered for the page's own script")
	}
	b.openURL(eval[string](b, `location.href`)) // the address kept the revert too
	waitIdle(b)
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); got != original {
		t.Errorf("after Revert and a reload the learner's line is back")
	}
	b.open("/compare")
	waitIdle(b)
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); got != original {
		t.Errorf("the page opened afresh shows another script than its default")
	}
	if eval[bool](b, `!!document.querySelector('[data-action="revert"]')`) {
		t.Error("a fresh page offers Revert")
	}
	setField(b, "#cmp-script", original+"\n# typed\n")
	b.waitFor("Revert once the script is edited", `!!document.querySelector('[data-action="revert"]')`)
	// Drawing Revert redraws the form: what the learner typed stays.
	if got := eval[string](b, `document.querySelector("#cmp-script").value`); !strings.HasSuffix(got, "# typed\n") {
		t.Errorf("the edit that brought Revert was lost (%d bytes)", len(got))
	}
}
