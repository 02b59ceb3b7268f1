package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/scenarios"
)

// TestKeysOnAFocusedArrowOpenItAndNeverStopTheApp: a keyboard user tabs
// onto a diagram arrow and presses Enter, then Space, then any other key.
// Each used to panic in the page's shortcut handler (an SVG element has
// no isContentEditable) and stop the whole app. Now Enter and Space open
// the message, and the app goes on working.
func TestKeysOnAFocusedArrowOpenItAndNeverStopTheApp(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	runToEnd(b)
	if findArrow(b, `.arrow[data-api="InitProducerId"][data-kind="request"]`) == 0 {
		t.Fatal("no InitProducerId arrow in the diagram")
	}
	arrow := selDiagram + ` .arrow[data-api="InitProducerId"][data-kind="request"]`
	for _, key := range []string{kb.Enter, " ", "x", kb.ArrowDown} {
		if !eval[bool](b, `(() => { const a = document.querySelector(`+jsString(arrow)+`); a.scrollIntoView({block: "center"}); a.focus(); return document.activeElement === a })()`) {
			t.Fatal("the arrow cannot take the focus")
		}
		b.do(chromedp.KeyEvent(key))
		if key == kb.Enter || key == " " {
			b.waitFor("the message panel after "+strings.TrimSpace(key), `!!document.querySelector("#message-panel")?.textContent.includes("InitProducerId")`)
			// The panel says the key on the wire: Kafka's 22, not the
			// chapter's 18 (lesson 03's first erratum).
			if got := eval[string](b, `[...document.querySelectorAll("#message-panel dt")].find(dt => dt.textContent === "API key")?.nextElementSibling?.textContent ?? ""`); got != "22" {
				t.Errorf("the message panel gives API key %q, want 22", got)
			}
			// The panel may still be drawing its last lines when the
			// close click lands (it failed so once in CI's full run):
			// click again, up to three times, before calling it stuck.
			for try := 1; ; try++ {
				b.click(`#message-panel button.close`)
				ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
				_, err := chromedp.Run(ctx, chromedp.Poll[bool](`!document.querySelector("#message-panel")`, chromedp.WithPollingInterval(25*time.Millisecond)))
				cancel()
				if err == nil {
					break
				}
				if try == 3 {
					t.Fatalf("the message panel did not close after %d clicks on its close button", try)
				}
				t.Logf("the panel stayed open after close click %d; clicking again", try)
			}
		}
	}
	// Still alive: the transport moves.
	b.click(button("Reset"))
	waitPosition(b, 0)
	b.click(button("Step"))
	waitPosition(b, 1)
}

// TestMalformedShareLinkLandsOnAWorkingPage: a damaged #s= link used to
// stop the app at start (a nil URL in go-app's navigation). Now the page
// works and says, in words, what is wrong, without Go's decoder message.
func TestMalformedShareLinkLandsOnAWorkingPage(t *testing.T) {
	for _, frag := range []string{"#s=%%%", "#s=AAAA", "#s=%E0%A4%A"} {
		t.Run(frag, func(t *testing.T) {
			b := newBrowser(t)
			b.open("/playground" + frag)
			waitIdle(b)
			b.waitFor("the notice", `!!document.querySelector(".notice")`)
			notice := b.text(".notice")
			if !strings.Contains(notice, "could not be read") || strings.Contains(notice, "base64") || strings.Contains(notice, "input byte") {
				t.Errorf("notice %q: want a plain explanation", notice)
			}
			b.click(button("Step"))
			waitPosition(b, 1)
		})
	}
}

// TestEditsSurviveAReloadAndLeavingAsksFirst: a learner edits a library
// scenario, steps into it and reloads. The browser asks before leaving
// the edited script, and the reloaded page has the edited script back at
// the same step; Revert gives the library's script again.
func TestEditsSurviveAReloadAndLeavingAsksFirst(t *testing.T) {
	b := newBrowser(t)
	sc, _ := scenarios.Get("abort")
	openScenario(b, "abort")
	edited := sc.Script + "run\n# my own note\n"
	setScript(b, edited)
	waitIdle(b)
	b.waitFor("the edit to run", `document.querySelector(`+jsString(selScript)+`).value.includes("# my own note")`)
	b.click(button("Reset"))
	for range 3 {
		b.click(button("Step")) // a real click: the page now has the learner's attention, as browsers require for the prompt
	}
	waitPosition(b, 3)

	b.open("/playground?scenario=abort")
	waitIdle(b)
	if d := b.takeDialogs(); len(d) == 0 || d[0] != "beforeunload" {
		t.Errorf("leaving an edited script asked nothing (dialogs %v)", d)
	}
	if got := scriptText(b); got != edited {
		t.Fatalf("after the reload the editor holds:\n%s", got)
	}
	waitPosition(b, 3)
	if !strings.Contains(b.text(".notice"), "edited script from last time") {
		t.Errorf("the page does not say the script is the learner's own")
	}
	b.click(`button[aria-label="Revert script"]`)
	b.waitFor("the library's script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(sc.Script))

	// Another scenario's address starts from that scenario.
	openScenario(b, "happy-path")
	hp, _ := scenarios.Get("happy-path")
	if got := scriptText(b); got != hp.Script {
		t.Errorf("another scenario's address opened the kept script")
	}
}

// TestAPanicIsShownAndTheAppGoesOn: a panic in the page's Go code (here
// the self-test's, standing for any defect) is reported on screen in the
// page's language with a way back, and the page goes on answering; a
// reload brings the edited script back.
func TestAPanicIsShownAndTheAppGoesOn(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "happy-path")
	edited := scriptText(b) + "run\n"
	setScript(b, edited)
	waitIdle(b)
	eval[bool](b, `(window.txnlabSelfTestPanic(), true)`)
	b.waitFor("the notice", `document.getElementById("crash-notice")?.getAttribute("role") === "alert"`)
	if got := b.text("#crash-notice"); !strings.Contains(got, "Something went wrong") || !strings.Contains(got, "self-test") {
		t.Errorf("the notice says %q", got)
	}
	b.click(button("Step"))
	waitPosition(b, 1) // still alive
	before := eval[float64](b, `performance.timeOrigin`)
	b.click("#crash-notice button") // Reload
	// The page goes away (after the browser's "leave the page?", which
	// the harness accepts): poll the new one, through the navigation,
	// until it is parsed (go-app's loader comes last) and its app runs.
	reloaded := fmt.Sprintf(`performance.timeOrigin !== %v && document.readyState !== "loading" && !document.getElementById("crash-notice") && !document.getElementById("app-wasm-loader")`, before)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		done, err := chromedp.Run(ctx, chromedp.Evaluate[bool](reloaded))
		cancel()
		if err == nil && done {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page did not reload: %v", err)
		}
	}
	waitIdle(b)
	if got := scriptText(b); got != edited {
		t.Errorf("the reload lost the edited script: got %d bytes ending %q, want %d ending %q", len(got), got[max(0, len(got)-30):], len(edited), edited[len(edited)-30:])
	}

	zh := newBrowser(t)
	zh.open("/zh/lessons")
	eval[bool](zh, `(window.txnlabSelfTestPanic(), true)`)
	zh.waitFor("the Chinese notice", `document.getElementById("crash-notice")?.textContent.includes("这个页面出错了")`)
}

// TestShareLinkOpensAtItsStep: a link shared at step 5 opens, in another
// browser, with the same script at step 5 (it used to open at step 0).
func TestShareLinkOpensAtItsStep(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "abort")
	for range 5 {
		b.click(button("Step"))
	}
	waitPosition(b, 5)
	script := scriptText(b)
	eval[bool](b, `([...document.querySelectorAll("button.menu-item")].find(x => x.textContent === "Copy a link to this script").click(), true)`)
	b.waitFor("the link in the address bar", `location.hash.startsWith("#s=") && location.hash.includes("&p=5")`)
	link := eval[string](b, `location.href`)

	other := newBrowser(t)
	other.openURL(link)
	waitIdle(other)
	waitPosition(other, 5)
	if got := scriptText(other); got != script {
		t.Errorf("the shared link opened another script")
	}
}

// TestLibraryLinksWorkOffline: after one visit, a library scenario's link
// (/playground?scenario=…) opens with the server gone; it used to fail,
// only /playground itself being cached.
func TestLibraryLinksWorkOffline(t *testing.T) {
	srv, url, stop := startServer(t)
	b := newBrowser(t)
	b.openURL(url + "/scenarios")
	cache := "app-" + srv.Version()
	b.waitFor("the service worker to cache the library", `navigator.serviceWorker.ready
		.then(() => caches.has(`+jsString(cache)+`))
		.then(has => has && caches.open(`+jsString(cache)+`))
		.then(c => c && c.match("/playground?scenario=broken/coordinator-epoch-off"))
		.then(hit => !!hit)`)
	stop()
	sc, _ := scenarios.Get("markers-fail")
	b.openURL(url + "/playground?scenario=markers-fail")
	waitIdle(b)
	if got := scriptText(b); got != sc.Script {
		t.Errorf("offline, the library link opened another script")
	}
	b.click(button("Step"))
	waitPosition(b, 1)
}

// TestArrowingThroughTheScenarioListOpensOnlyTheLastOne: ArrowDown on
// the closed library list used to open every scenario passed on the way
// (Chrome fires change at each key); now only the one the learner stops
// on opens.
func TestArrowingThroughTheScenarioListOpensOnlyTheLastOne(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "abort")
	sel := `select[aria-label="Load a library scenario"]`
	b.waitFor("the whole list", `document.querySelector(`+jsString(sel)+`).options.length > 5`)
	before := eval[int](b, `history.length`)
	want := eval[string](b, `(() => { const s = document.querySelector(`+jsString(sel)+`); return s.options[s.selectedIndex + 3].value })()`)
	b.do(chromedp.Focus(chromedp.CSS(sel)))
	for range 3 {
		b.do(chromedp.KeyEvent(kb.ArrowDown))
	}
	b.waitFor("the chosen scenario", `new URLSearchParams(location.search).get("scenario") === `+jsString(want))
	time.Sleep(time.Second)
	if n := eval[int](b, `history.length`) - before; n != 1 {
		t.Errorf("arrowing three scenarios down opened %d pages, want 1", n)
	}
}

// TestOpenAndDropAScenarioFile: a .scenario file opens in the playground
// from the Open file button or dropped on the script; Undo brings the
// previous script back.
func TestOpenAndDropAScenarioFile(t *testing.T) {
	b := newBrowser(t)
	openScenario(b, "abort")
	before := scriptText(b)
	hp, _ := scenarios.Get("happy-path")
	file := filepath.Join(t.TempDir(), "mine.scenario")
	if err := os.WriteFile(file, []byte(hp.Script), 0o644); err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.SetUploadFiles(chromedp.CSS(`input[data-action="open-file"]`), []string{file}))
	b.waitFor("the file's script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(hp.Script))
	waitIdle(b)
	if !strings.Contains(b.text(".action-msg"), "Opened mine.scenario") {
		t.Errorf("the page does not say it opened the file")
	}
	b.click(button("Undo script change"))
	b.waitFor("the script before", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(before))

	dropped := "cluster brokers=1\ntopic t partitions=1\nproducer p\np send t/0 k=v\n"
	eval[bool](b, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+jsString(dropped)+`], "dropped.scenario", {type: "text/plain"}));
		document.querySelector(".code").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true;
	})()`)
	b.waitFor("the dropped script", `document.querySelector(`+jsString(selScript)+`).value === `+jsString(dropped))
	waitIdle(b)
	b.click(button("Run to end"))
	if _, n := position(b); n == 0 {
		t.Error("the dropped script did not run")
	}
}

// TestAMalformedAddressIsRefusedInTheReadersLanguage: /zh/lessons/%%
// typed into the address bar got Go's bare English "400 Bad Request"; a
// Chinese reader now reads why in Chinese, an English one in English.
func TestAMalformedAddressIsRefusedInTheReadersLanguage(t *testing.T) {
	b := newBrowser(t)
	for _, tc := range []struct{ path, want, not string }{
		{"/zh/lessons/%%", "400 错误的请求", "Bad Request"},
		{"/lessons/%%", "the address is not one a browser can send", "请求"},
	} {
		b.open(tc.path)
		b.waitFor("the refusal", `document.body && document.body.innerText.length > 0`)
		got := eval[string](b, `document.body.innerText`)
		if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
			t.Errorf("%s reads %q, want %q", tc.path, got, tc.want)
		}
	}
	// The refusal and the missing favicon are what the browser logs for
	// such a page; anything else is a fault. A page of the app loaded
	// afterwards lets the favicon's answer arrive first.
	b.open("/playground")
	for _, m := range b.takeConsoleErrors() {
		if !strings.Contains(m.Text, "status of 400") && !strings.Contains(m.URL, "favicon") {
			t.Errorf("console: %s", m.Text)
		}
	}
}

// TestANoticeNeverPushesThePlaygroundDown: a notice the app shows once it
// runs (here, a damaged share link's) used to be inserted above the
// playground after the server's page had been laid out, moving the
// buttons under the learner's pointer. It now floats over the page's
// foot, the playground stays where the page first drew it, and the
// learner can dismiss it.
func TestANoticeNeverPushesThePlaygroundDown(t *testing.T) {
	b := newBrowser(t)
	top := `Math.round(document.querySelector(".playground").getBoundingClientRect().top)`
	b.open("/playground")
	waitIdle(b)
	plain := eval[int](b, top)
	for _, tc := range []struct{ path, dismiss string }{
		{"/playground#s=%%%", "Dismiss this notice"},
		{"/zh/playground#s=%%%", "关闭这条提示"},
	} {
		b.open(tc.path)
		waitIdle(b)
		b.waitFor("the notice", `!!document.querySelector(".notices .notice")`)
		if got := eval[int](b, top); got != plain {
			t.Errorf("%s: the playground starts at %d px with the notice, %d px without", tc.path, got, plain)
		}
		b.click(`.notices .notice button[aria-label="` + tc.dismiss + `"]`)
		b.waitFor("the notice to go", `!document.querySelector(".notices .notice")`)
	}
}
