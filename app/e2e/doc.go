// Package e2e holds the browser tests: the real server on a loopback
// port, the real web/app.wasm, and headless Chromium driven by chromedp.
// `make test-browser` builds the wasm first; outside CI a missing
// Chromium or wasm skips the tests, under CI=true it fails them.
package e2e
