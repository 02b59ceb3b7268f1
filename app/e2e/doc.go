// Package e2e holds the browser tests: the real server on a loopback
// port, the real web/app.wasm, and headless Chromium driven by chromedp.
// `make test-browser` builds the wasm first; outside CI a missing
// Chromium or wasm skips the tests, under CI=true it fails them.
//
// E2E_BASE_URL=http://127.0.0.1:8080 runs them against a server someone
// started (`make run`) instead of one of their own. Every test saves
// screenshots under artifacts/screenshots/ (git-ignored).
//
// bench_test.go holds the browser benchmarks (`make bench`): time to
// interactive, seek, the diagram's frames and memory, over the long
// histories of core/workload.
package e2e
