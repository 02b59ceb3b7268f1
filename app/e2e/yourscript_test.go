package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestTheLearnersOwnScriptIsNamedSo (issue 26, a defect a new user met):
// once the learner has changed the library's script, the library menu
// names it their script (and where it came from), not the library
// scenario it no longer is, and its exports are named for it; in Chinese
// too. Revert brings the library's script back, and the menu names the
// scenario again.
func TestTheLearnersOwnScriptIsNamedSo(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	selected := func() string {
		return eval[string](b, `(() => { const s = document.querySelector(".scenario-select"); return s.options[s.selectedIndex].textContent })()`)
	}
	if got := selected(); !strings.Contains(got, "happy path") && !strings.Contains(got, "Happy path") && !strings.Contains(got, "happy") {
		t.Fatalf("before any edit the menu shows %q, want the library scenario", got)
	}
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); t.setSelectionRange(t.value.length, t.value.length); return true })()`)
	b.do(chromedp.KeyEvent("\nrun"))
	b.waitFor("the menu to name the learner's script", `document.querySelector(".scenario-select").selectedIndex === 0 && document.querySelector(".scenario-select").options[0].textContent.startsWith("Your script")`)
	if got := selected(); !strings.Contains(got, "(from “") {
		t.Errorf("the menu shows %q, want it to say which scenario the script came from", got)
	}
	waitIdle(b)
	eval[bool](b, `(() => { window.__names = []; const c = HTMLAnchorElement.prototype.click; HTMLAnchorElement.prototype.click = function () { if (this.download) { window.__names.push(this.download); return } return c.call(this) }; return true })()`)
	eval[bool](b, `(() => { document.querySelector("details.export").open = true; [...document.querySelectorAll("details.export .menu-item")].find(m => m.textContent === "Diagram (SVG)").click(); return true })()`)
	b.waitFor("the export", `window.__names.length === 1`)
	if name := eval[string](b, `window.__names[0]`); name != "your-script.svg" {
		t.Errorf("the learner's script exports as %q, want your-script.svg", name)
	}
	b.click(`button[aria-label="Revert script"]`)
	b.waitFor("the menu to name the scenario again", `document.querySelector(".scenario-select").selectedIndex > 0`)

	b.open("/zh/playground?scenario=happy-path")
	waitIdle(b)
	eval[bool](b, `(() => { const t = document.querySelector(`+jsString(selScript)+`); t.focus(); t.setSelectionRange(t.value.length, t.value.length); return true })()`)
	b.do(chromedp.KeyEvent("\nrun"))
	b.waitFor("the Chinese menu to name the learner's script", `document.querySelector(".scenario-select").options[0].textContent.startsWith("你的脚本")`)
}
