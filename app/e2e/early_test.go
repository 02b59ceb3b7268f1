package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"
)

// holdWasm holds the page's app.wasm until release is called: the page
// is the server's, with no app, for as long as the test needs.
func holdWasm(b *browser) (release func()) {
	b.t.Helper()
	held := make(chan struct{})
	if err := chromedp.Listen(b.ctx, func(ev any) {
		if ev, ok := ev.(*fetch.EventRequestPaused); ok {
			go func() {
				<-held
				chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			}()
		}
	}); err != nil {
		b.t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*app.wasm*"}}}); err != nil {
		b.t.Fatal(err)
	}
	return func() { close(held) }
}

// TestTheServersPageShowsWhileTheWasmLoads: go-app's loader covered the
// whole page with a screen that said, in English on the Chinese pages
// too, "Loading the simulator… 0%", so the lesson's text the server sent
// could not be read (nor the playground pressed) until the wasm ran. It
// is a badge in a corner now, which lets clicks through and says only
// the progress.
func TestTheServersPageShowsWhileTheWasmLoads(t *testing.T) {
	b := newBrowser(t)
	release := holdWasm(b)
	defer release()
	b.do(chromedp.Navigate(baseURL + "/zh/lessons/03-transaction-protocols"))
	b.waitFor("the server's page and go-app's loader", `!!document.querySelector("article.lesson h1") && !!document.getElementById("app-wasm-loader")`)
	type seen struct {
		Heading, Button bool
		Loader          string
	}
	got := eval[seen](b, `(() => {
		const at = (el) => { const r = el.getBoundingClientRect(); const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return !!hit && (hit === el || el.contains(hit)); };
		const h = document.querySelector("article.lesson h1");
		h.scrollIntoView({block: "center"});
		const headingSeen = at(h);
		const step = document.querySelector(".embedded-playground button");
		step.scrollIntoView({block: "center"});
		return {Heading: headingSeen, Button: at(step), Loader: document.getElementById("app-wasm-loader").innerText};
	})()`)
	if !got.Heading || !got.Button {
		t.Errorf("while the wasm loads, the lesson's heading is seen: %v, a playground's button can be pressed: %v; want both", got.Heading, got.Button)
	}
	if strings.ContainsAny(got.Loader, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t.Errorf("the loader says %q on the Chinese page", got.Loader)
	}
	noEnglish(t, b, "while the wasm loads")
}
