package e2e

import (
	"bufio"
	"net/http"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"txnlab/scenarios"
)

// TestTheStaticExportWorksOnAPlainFileServer (issue 10, defect 12): the
// export (txnlab serve --static) served by python3 -m http.server, which
// knows nothing of the site: the pages load at their addresses, a
// library link and a share link open their script, a reload keeps the
// page, and once the service worker has cached the site it loads with the
// server gone.
func TestTheStaticExportWorksOnAPlainFileServer(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed to serve the export as a plain static host would")
	}
	srv, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	if err := srv.WriteStatic(dir); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", dir, "0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	t.Cleanup(stop)
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`port (\d+)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("python's http.server said %q (%v)", line, err)
	}
	site := "http://127.0.0.1:" + m[1]

	b := newBrowser(t)
	b.openURL(site + "/playground")
	waitIdle(b)
	if p := eval[string](b, `location.pathname`); p != "/playground" {
		t.Errorf("the playground's address became %s", p)
	}
	if n := count(b, selDiagram); n != 1 {
		t.Fatalf("the playground did not open (%d diagrams): %s", n, b.text("main"))
	}
	b.click(button("Step"))
	waitPosition(b, 1)

	sc, _ := scenarios.Get("abort")
	b.openURL(site + "/playground?scenario=abort")
	waitIdle(b)
	if scriptText(b) != sc.Script {
		t.Errorf("?scenario=abort opened another script")
	}
	for range 3 {
		b.click(button("Step"))
	}
	waitPosition(b, 3)
	eval[bool](b, `([...document.querySelectorAll("button.menu-item")].find(x => x.textContent === "Copy a link to this script").click(), true)`)
	b.waitFor("the share link", `location.hash.startsWith("#s=")`)
	link := eval[string](b, `location.href`)

	other := newBrowser(t)
	other.openURL(link)
	waitIdle(other)
	waitPosition(other, 3)
	if scriptText(other) != sc.Script {
		t.Errorf("the share link opened another script")
	}
	// A reload lands on the same page and script.
	other.do(chromedp.Reload(), chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	waitIdle(other)
	if scriptText(other) != sc.Script || count(other, selDiagram) != 1 {
		t.Errorf("the reload did not bring the page back")
	}
	for _, path := range []string{"/", "/scenarios", "/lessons", "/lessons/03-transaction-protocols", "/zh/"} {
		other.openURL(site + path)
		if count(other, ".notfound, [data-page=notfound]") > 0 || eval[bool](other, `document.title.includes("not found") || document.body.innerText.includes("Not Found")`) {
			t.Errorf("%s: not found on the static host", path)
		}
	}
	other.openURL(site + "/lessons/03-transaction-protocols")
	other.waitFor("the lesson's text", `document.body.innerText.includes("InitProducerId")`)
	// A first visit registers the service worker seconds after its load
	// (third_party/go-app): other leaves before the server goes, rather
	// than fail to fetch the worker's script then.
	other.do(chromedp.Navigate("about:blank"))

	// Offline: the worker has cached the site; the server goes away.
	b.waitFor("the service worker to cache the site", `navigator.serviceWorker.ready
		.then(() => caches.keys()).then(ks => ks.length && caches.open(ks[0]))
		.then(c => c && Promise.all(["/web/app.wasm", "/playground/", "/scenarios/", "/playground/?scenario=abort"].map(u => c.match(u))))
		.then(hits => !!hits && hits.every(Boolean))`)
	stop()
	if _, err := (&http.Client{Timeout: time.Second}).Get(site + "/"); err == nil {
		t.Fatal("the static server still answers")
	}
	b.openURL(site + "/playground")
	waitIdle(b)
	b.click(button("Step"))
	waitPosition(b, 1)
	b.do(chromedp.Reload(), chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")))
	waitIdle(b)
	b.openURL(site + "/playground?scenario=abort")
	waitIdle(b)
	if scriptText(b) != sc.Script {
		t.Errorf("offline, ?scenario=abort opened another script")
	}
	// The presenter view needs nothing from the network (issue 29).
	eval[bool](b, `(document.activeElement.blur(), true)`)
	at := eval[int](b, scrubPos)
	b.do(chromedp.KeyEvent("p"))
	b.waitFor("the presenter view, offline", `!!document.querySelector(".playground.presenting")`)
	b.do(chromedp.KeyEvent(kb.PageDown))
	waitScrub(b, at+1)
}
