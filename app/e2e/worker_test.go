package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// watchWorkers counts, before the app runs, the messages between the
// page and its Web Workers, and the state replies among them (the
// protocol of app/engine/worker.go): what proves the engine answers from
// the worker. With broken set, every worker is started from a script that
// does not exist, as a failed start would be.
func watchWorkers(b *browser, broken bool) {
	b.t.Helper()
	url := "url"
	if broken {
		url = `"/web/no-such-engine-worker.js"`
	}
	script := `(() => {
	const W = window.Worker;
	window.__engine = {workers: 0, sent: 0, states: 0, runs: 0};
	window.Worker = function (url, opts) {
		const w = new W(` + url + `, opts);
		__engine.workers++;
		__engine.w = w;
		// Started by the page's head script, before go-app's loader had
		// compiled the wasm (app/server/engine_start.go)?
		__engine.early = !globalThis.goappWasmModule;
		w.addEventListener("message", e => {
			// The engine's replies come as bytes (engine.ServeWorker).
			const head = typeof e.data === "string" ? e.data
				: e.data instanceof Uint8Array ? new TextDecoder().decode(e.data.subarray(0, 16)) : "";
			if (head.startsWith('{"op":"state"')) __engine.states++;
			if (head.startsWith('{"op":"run"')) __engine.runs++;
		});
		const post = w.postMessage.bind(w);
		w.postMessage = m => {
			if (!__engine.sent) __engine.first = m instanceof WebAssembly.Module ? "module" : typeof m;
			__engine.sent++;
			post(m);
		};
		return w;
	};
})()`
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		b.t.Fatal(err)
	}
}

// clusterText is what the cluster panel shows.
func clusterText(b *browser) string {
	b.t.Helper()
	return eval[string](b, `[...document.querySelectorAll(".node-card")].map(c => c.dataset.node + ": " + c.textContent).join("\n")`)
}

// The playground's engine runs in a Web Worker: the page starts one, the
// script's run and each move's state come back from it, and what the page
// draws is what the engine on the page's own thread (?engine=page) draws
// at the same position. The worker starts with the page, before its wasm
// is compiled, and gets the page's compiled module rather than compiling
// its own.
func TestTheEngineRunsInAWebWorker(t *testing.T) {
	b := newBrowser(t)
	watchWorkers(b, false)
	openScenario(b, "coordinator-crash-during-markers")
	b.waitFor("the engine in the worker", `document.documentElement.dataset.engine === "worker"`)
	if n := eval[int](b, `__engine.workers`); n != 1 {
		t.Fatalf("%d workers started, want 1", n)
	}
	if first, early := eval[string](b, `__engine.first`), eval[bool](b, `__engine.early`); first != "module" || !early {
		t.Errorf("the worker's first message was a %s (want the compiled module); started before the wasm was compiled: %v (want true)", first, early)
	}
	if eval[int](b, `__engine.runs`) < 1 {
		t.Fatalf("the script's history did not come from the worker: %s", eval[string](b, `JSON.stringify(__engine)`))
	}
	states := eval[int](b, `__engine.states`)
	_, n := position(b)
	for i := 1; i <= 5; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
	}
	b.click(button("Run to end"))
	waitPosition(b, n)
	b.waitFor("the state at the end from the worker", `__engine.states > `+strconv.Itoa(states))
	b.waitFor("the crashed coordinator's card", `document.querySelectorAll(".node-card").length > 0`)
	inWorker, d := clusterText(b), digest(b)
	if !strings.Contains(inWorker, "broker-0") {
		t.Fatalf("the cluster panel shows no broker: %q", inWorker)
	}

	p := newBrowser(t)
	p.open("/playground?scenario=coordinator-crash-during-markers&engine=page")
	waitIdle(p)
	p.waitFor("the engine on the page", `document.documentElement.dataset.engine === "page"`)
	p.click(button("Run to end"))
	waitPosition(p, n)
	if got := clusterText(p); got != inWorker {
		t.Errorf("at the end the page's engine draws\n%s\nthe worker's\n%s", got, inWorker)
	}
	if digest(p) != d {
		t.Errorf("digest %s on the page, %s from the worker", digest(p), d)
	}
}

// The lessons' playgrounds share one worker, however many a page has.
func TestALessonsPlaygroundsShareOneWorker(t *testing.T) {
	b := newBrowser(t)
	watchWorkers(b, false)
	b.open("/lessons/03-transaction-protocols")
	b.waitFor("a playground", `document.querySelectorAll(".embedded-playground").length > 1`)
	b.waitFor("the engine in the worker", `document.documentElement.dataset.engine === "worker"`)
	if n := eval[int](b, `__engine.workers`); n != 1 {
		t.Fatalf("%d workers for the lesson's playgrounds, want 1", n)
	}
}

// A page without a playground starts no worker; the playground it leads
// to starts one then, and hands it the compiled module too.
func TestAPlaygroundReachedFromAnotherPageGetsTheModule(t *testing.T) {
	b := newBrowser(t)
	watchWorkers(b, false)
	b.open("/")
	waitIdle(b)
	if n := eval[int](b, `__engine.workers`); n != 0 {
		t.Fatalf("the home page started %d workers, want none", n)
	}
	b.click(`a[href="/playground"]`)
	b.waitFor("the engine in the worker", `document.documentElement.dataset.engine === "worker"`)
	if first, early := eval[string](b, `__engine.first`), eval[bool](b, `__engine.early`); first != "module" || early {
		t.Errorf("the worker's first message was a %s (want the compiled module); started before the wasm was compiled: %v (want false)", first, early)
	}
	b.waitFor("the script's run", `!document.querySelector("[data-running=true]")`)
	b.click(button("Step"))
	waitPosition(b, 1)
}

// A worker that cannot start sends the engine back to the page: the page
// says so, and the learner steps through the scenario as before.
func TestTheEngineFallsBackToThePageWhenTheWorkerFails(t *testing.T) {
	b := newBrowser(t)
	watchWorkers(b, true)
	openScenario(b, "happy-path")
	b.waitFor("the fallback", `document.documentElement.dataset.engine === "page-fallback"`)
	b.waitFor("the script's run", `!document.querySelector("[data-running=true]")`)
	if !eval[bool](b, `!!document.querySelector("[data-engine-fault]")`) {
		t.Fatalf("no notice that the engine runs on the page: %s", eval[string](b, `document.querySelector("main")?.innerHTML.slice(0, 600)`))
	}
	d0 := digest(b)
	for i := 1; i <= 3; i++ {
		b.click(button("Step"))
		waitPosition(b, i)
	}
	if digest(b) == d0 {
		t.Error("stepping on the page's engine did not move the digest")
	}
	b.waitFor("the cards", `document.querySelectorAll(".node-card").length > 0`)
	errs := b.takeConsoleErrors()
	for _, m := range errs {
		if !strings.Contains(m.Text, "worker") && !strings.Contains(m.URL, "no-such-engine-worker") {
			t.Errorf("console: %s", m.Text)
		}
	}
}

// A worker that stops after it started — it reports its engine's panic,
// or dies without a word — sends the engines to the page at the same
// script and position: what the learner typed and where they were is
// kept, the page says the simulation stopped in the background, and
// stepping goes on.
func TestAWorkerThatStopsLosesNothing(t *testing.T) {
	for _, how := range []struct {
		name, js string
		// said: the page knows at once, and its notice, above the
		// playground, moves the buttons down a frame later; a click
		// aimed before that lands beside Step, so the learner (and the
		// test) press it once the notice is shown.
		said bool
	}{
		// What app/engine/worker_js.go posts when the engine panics.
		{"reports a panic", `__engine.w.dispatchEvent(new MessageEvent("message", {data: '{"op":"fail","msg":"the engine stopped: test"}'}))`, true},
		// Killed: no message ever again (the page's watchdog, after the
		// press below is due).
		{"dies silently", `__engine.w.terminate()`, false},
	} {
		t.Run(how.name, func(t *testing.T) {
			b := newBrowser(t)
			watchWorkers(b, false)
			openScenario(b, "happy-path")
			b.waitFor("the engine in the worker", `document.documentElement.dataset.engine === "worker"`)
			// An edit of the learner's (a step more), run, and a position.
			_, n := position(b)
			src := scriptText(b) + "\n# my note about the run\nreader poll\n"
			setScript(b, src)
			b.waitFor("the edit's run", fmt.Sprintf(`/^Step \d+ of \d+$/.test((document.querySelector(".status .position")||{}).textContent) && !(document.querySelector(".status .position")||{}).textContent.endsWith(" of %d")`, n))
			waitIdle(b)
			for i := 1; i <= 3; i++ {
				b.click(button("Step"))
				waitPosition(b, i)
			}
			d3 := digest(b)
			eval[bool](b, `(`+how.js+`, true)`)
			if how.said {
				b.waitFor("the notice", `!!document.querySelector("[data-engine-fault]")`)
			}
			b.click(button("Step"))
			ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
			defer cancel()
			if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.documentElement.dataset.engine === "page-fallback"`, chromedp.WithPollingInterval(100*time.Millisecond))); err != nil {
				t.Fatalf("the page did not leave the stopped worker: %v", err)
			}
			waitPosition(b, 4)
			if got := scriptText(b); got != src {
				t.Errorf("the script after the fallback:\n%s\nwant the learner's:\n%s", got, src)
			}
			if notice := b.text("[data-engine-fault]"); !strings.Contains(notice, "stopped") || !strings.Contains(notice, "nothing is lost") {
				t.Errorf("the notice reads %q: want it to say the background simulation stopped", notice)
			}
			b.click(button("Step back"))
			waitPosition(b, 3)
			if digest(b) != d3 {
				t.Errorf("step 3 on the page's engine has digest %s, the worker's had %s", digest(b), d3)
			}
			b.click(button("Step"))
			waitPosition(b, 4)
			b.waitFor("the cards", `document.querySelectorAll(".node-card").length > 0`)
		})
	}
}

// On a first visit the service worker, whose install fetches every page
// the site caches, is registered only once the page has loaded and had
// two seconds to start: registered first, it cost a cold load 0.5–1 s
// before the first step. The offline tests check that it still comes.
func TestAFirstVisitRegistersTheServiceWorkerLater(t *testing.T) {
	b := newBrowser(t)
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
	const sw = navigator.serviceWorker, reg = sw.register.bind(sw);
	window.__sw = {};
	addEventListener("load", () => { __sw.load = performance.now(); });
	sw.register = (...a) => { __sw.registered = performance.now(); __sw.controlled = !!sw.controller; return reg(...a); };
})()`}); err != nil {
		t.Fatal(err)
	}
	b.open("/playground")
	waitIdle(b)
	b.waitFor("the service worker's registration", `window.__sw.registered > 0`)
	load, registered := eval[float64](b, `__sw.load`), eval[float64](b, `__sw.registered`)
	if eval[bool](b, `__sw.controlled`) || load <= 0 || registered-load < 2000 {
		t.Errorf("the service worker was registered %.0f ms after the page's load (want ≥ 2000 on a first visit; controlled already: %v)", registered-load, eval[bool](b, `__sw.controlled`))
	}
}
