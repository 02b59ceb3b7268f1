package e2e

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"txnlab/app/server"
	"txnlab/app/site"
	"txnlab/lessons"
)

var (
	// baseURL is the test server, e.g. http://127.0.0.1:41234.
	baseURL string
	// repoRoot is the module root: web/ and artifacts/ live there.
	repoRoot string
	// chromium is the browser binary.
	chromium string
	// skipReason, when set, skips every test (only outside CI).
	skipReason string
)

func TestMain(m *testing.M) { os.Exit(run(m)) }

func run(m *testing.M) int {
	var err error
	if repoRoot, err = findRepoRoot(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	problem := ""
	if chromium, err = findChromium(); err != nil {
		problem = err.Error() + ` (apt-get install -y chromium)`
	} else if _, err := os.Stat(filepath.Join(repoRoot, "web", "app.wasm")); err != nil {
		problem = "web/app.wasm is missing (make wasm)"
	}
	if problem != "" {
		// CI must never pass by skipping what it exists to run.
		if os.Getenv("CI") == "true" {
			fmt.Fprintln(os.Stderr, "e2e: CI=true and", problem)
			return 1
		}
		skipReason = problem
		return m.Run()
	}

	if u := os.Getenv("E2E_BASE_URL"); u != "" {
		// A server someone started (make run), to check it as a learner
		// would meet it.
		baseURL = strings.TrimSuffix(u, "/")
		return m.Run()
	}

	srv, err := newServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	baseURL = "http://" + ln.Addr().String()
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()

	code := m.Run()
	shared.mu.Lock()
	stopSharedBrowser()
	shared.mu.Unlock()
	stop()
	if err := <-done; err != nil {
		fmt.Fprintln(os.Stderr, "e2e: server:", err)
		code = 1
	}
	return code
}

// newServer is the site as txnlab serve runs it: the built web directory
// and the course built into the binary.
func newServer() (*server.Server, error) {
	course, err := lessons.Embedded()
	if err != nil {
		return nil, err
	}
	return server.New(server.Config{WebDir: filepath.Join(repoRoot, "web"), Lessons: course})
}

func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// findChromium prefers $CHROMIUM, then Debian's chromium.
func findChromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("chromium not found")
}

// browser is one test's tab in a browser context of its own (newTab), so
// no service worker or cache from another test can serve it anything.
type browser struct {
	t   testing.TB
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
	// dialogs are the types of the dialogs the page opened ("beforeunload",
	// "alert", …), each accepted at once so no navigation hangs on one.
	dialogs []string
}

// needsSite skips t, outside CI, when the browser tests cannot run (no
// Chromium, no wasm): a test that reads the site before or without a
// browser of its own (baseURL is unset then) or sums its subtests'
// findings must skip as they do, not fail with a misleading figure.
func needsSite(t testing.TB) {
	t.Helper()
	if skipReason != "" {
		t.Skip(skipReason)
	}
}

// newBrowser opens a tab for t in a browser context of its own. Its
// cleanup saves a screenshot under artifacts/screenshots/ and fails t on
// any console error or uncaught exception the page produced, unless the
// test took them with takeConsoleErrors.
func newBrowser(t testing.TB) *browser {
	t.Helper()
	needsSite(t)
	ctx, closeTab, err := newTab()
	if err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	t.Cleanup(closeTab)
	b := &browser{t: t, ctx: ctx}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, string(ev.Type))
			b.mu.Unlock()
			if _, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
				return
			}
		}
	}()
	t.Cleanup(b.finish)
	return b
}

// takeDialogs returns the types of the dialogs seen so far and forgets
// them.
func (b *browser) takeDialogs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	d := b.dialogs
	b.dialogs = nil
	return d
}

// browserOptions are the flags of every browser the tests and the
// benchmarks start, with a fresh profile directory.
func browserOptions(profile string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 800),
	)
}

// The tests share one Chromium, started with browserOptions and a fresh
// profile at the first newBrowser. Each test's tab lies in a browser
// context of its own (CDP's Target.createBrowserContext, disposed with
// the tab): its own cookies, storage, caches and service workers, as a
// fresh profile would give it. Starting a Chromium per test took 1 to 4
// s on 2 cores, some 150 times a run.
var shared struct {
	mu      sync.Mutex
	ctx     context.Context // the first tab's: its browser is the shared one
	cancel  func()
	profile string
}

// newTab opens a tab in a new browser context of the shared browser,
// starting the browser if it is not running (the first time, or after
// it died: one restart).
func newTab() (context.Context, context.CancelFunc, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if shared.ctx == nil || shared.ctx.Err() != nil {
			if err = startSharedBrowser(); err != nil {
				continue
			}
		}
		ctx, cancel := chromedp.NewContext(shared.ctx, chromedp.WithNewBrowserContext())
		if err = chromedp.Do(ctx); err == nil {
			return ctx, cancel, nil
		}
		cancel()
		stopSharedBrowser()
	}
	return nil, nil, err
}

// startSharedBrowser starts the shared Chromium with a fresh profile.
func startSharedBrowser() error {
	stopSharedBrowser()
	profile, err := os.MkdirTemp("", "txnlab-e2e-chromium-")
	if err != nil {
		return err
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), browserOptions(profile)...)
	ctx, cancelTab := chromedp.NewContext(allocCtx)
	shared.ctx, shared.profile = ctx, profile
	shared.cancel = func() { cancelTab(); cancelAlloc() }
	return chromedp.Do(ctx)
}

// stopSharedBrowser ends the shared Chromium, if any, and removes its
// profile.
func stopSharedBrowser() {
	if shared.cancel != nil {
		shared.cancel()
		os.RemoveAll(shared.profile)
	}
	shared.ctx, shared.cancel, shared.profile = nil, nil, ""
}

func (b *browser) finish() {
	// Console events arrive asynchronously: give the last ones a moment.
	time.Sleep(200 * time.Millisecond)
	b.screenshot()
	for _, m := range b.takeConsoleErrors() {
		b.t.Errorf("console %s at %s:%d: %s", m.Type, m.URL, m.Line+1, m.Text)
	}
}

// takeConsoleErrors returns the errors and exceptions seen so far and
// forgets them.
func (b *browser) takeConsoleErrors() []chromedp.ConsoleMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	var errs, rest []chromedp.ConsoleMessage
	for _, m := range b.console {
		if m.Type == chromedp.ConsoleError || m.IsException() {
			errs = append(errs, m)
		} else {
			rest = append(rest, m)
		}
	}
	b.console = rest
	return errs
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func (b *browser) screenshot() {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Logf("screenshot: %v", err)
		return
	}
	dir := filepath.Join(repoRoot, "artifacts", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Logf("screenshot: %v", err)
		return
	}
	name := filepath.Join(dir, unsafeName.ReplaceAllString(b.t.Name(), "_")+".png")
	if err := os.WriteFile(name, png, 0o644); err != nil {
		b.t.Logf("screenshot: %v", err)
	}
}

// do runs actions with a deadline, failing the test on error.
func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression and decodes its value.
func eval[T any](b *browser, expr string, opts ...chromedp.EvaluateOption) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(25*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v", what, cond, err)
	}
}

// open loads a page and waits for the wasm app to run it. go-app
// pre-renders every page on the server, so its buttons exist before the
// app does; the loader element is removed only once the wasm started.
func (b *browser) open(path string) { b.t.Helper(); b.openURL(baseURL + path) }

func (b *browser) openURL(url string) {
	b.t.Helper()
	start := time.Now()
	b.do(
		chromedp.Navigate(url),
		chromedp.WaitNotPresent(chromedp.ID("app-wasm-loader")),
	)
	b.t.Logf("%s: app running after %v", strings.TrimPrefix(url, baseURL), time.Since(start).Round(time.Millisecond))
}

// serveCourse serves a course of the test's own and returns its address.
// The pre-rendering reads one course for the process, so the cleanup
// gives it the shipped course back for the other tests.
func serveCourse(t *testing.T, course *lessons.Course) string {
	t.Helper()
	srv, err := server.New(server.Config{WebDir: filepath.Join(repoRoot, "web"), Lessons: course})
	if err != nil {
		t.Fatal(err)
	}
	url, _ := serve(t, srv)
	t.Cleanup(func() {
		if c, err := lessons.Embedded(); err == nil {
			site.UseLessons(c)
		}
	})
	return url
}

// startServer runs a server of the test's own, for a test that stops it.
func startServer(t *testing.T) (srv *server.Server, url string, stop func()) {
	t.Helper()
	srv, err := newServer()
	if err != nil {
		t.Fatal(err)
	}
	url, stop = serve(t, srv)
	return srv, url, stop
}

// serve runs srv on a free local port until stop, which the test's
// cleanup calls too; it reports the server's own error.
func serve(t *testing.T, srv *server.Server) (url string, stop func()) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("server: %v", err)
			}
			srv.Close()
		})
	}
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), stop
}

func (b *browser) click(sel string) {
	b.t.Helper()
	b.do(chromedp.Click(chromedp.CSS(sel)))
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// shot saves a full-page screenshot named after the test and what, for a
// person to look at; the test's last screen is saved by finish.
func (b *browser) shot(what string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 20*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Logf("screenshot %s: %v", what, err)
		return
	}
	dir := filepath.Join(repoRoot, "artifacts", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.t.Logf("screenshot: %v", err)
		return
	}
	name := filepath.Join(dir, unsafeName.ReplaceAllString(b.t.Name()+"-"+what, "_")+".png")
	if err := os.WriteFile(name, png, 0o644); err != nil {
		b.t.Logf("screenshot: %v", err)
	}
}
