package server

import (
	"crypto/sha256"
	"encoding/base64"
	"txnlab/app/site"
)

// engineStart is an inline script in every page's head that starts the
// engine's Web Worker (web/engine-worker.js, issue 13) once the page is
// parsed, and hands it the page's wasm module when go-app's loader has
// compiled it: the worker then neither downloads nor compiles the 11 MB
// again, its thread and script start while the page waits for its wasm
// (a worker started while the page's Go runs waited 0.6 s for its
// script), and its Go starts with the page's, not after it.
//
// Only a page that shows a playground (pre-rendered by the server) gets
// one here; any other page's Go starts it when a playground needs it
// (app/playground/remote_engine.go), and so does ?engine=page, which keeps the
// engine on the page. The worker's first replies, and an error, wait in
// txnlabEngineQueued until the page's Go takes the worker over.
//
// The Content-Security-Policy allows this one inline script by its hash
// (engineStartHash), and no other.
const engineStart = `
addEventListener("DOMContentLoaded", () => {
  if (typeof Worker === "undefined" || new URLSearchParams(location.search).get("engine") === "page") return;
  if (!document.querySelector(".playground, .embedded-playground")) return;
  try {
    const w = new Worker("` + site.EngineWorkerPath + `");
    const q = [];
    w.onmessage = (m) => q.push({ data: m.data });
    w.onerror = (m) => q.push({ error: m.message || "the worker's script failed" });
    globalThis.txnlabEngineWorker = w;
    globalThis.txnlabEngineQueued = q;
    if (globalThis.goappWasmModule) w.postMessage(globalThis.goappWasmModule);
    else addEventListener("goapp-wasm-module", (e) => w.postMessage(e.detail), { once: true });
  } catch (err) {
    console.warn("txnlab: the engine's worker could not start early:", err);
  }
}, { once: true });
`

// engineStartTag is engineStart as the head's element.
const engineStartTag = "<script>" + engineStart + "</script>"

// engineStartHash is the CSP source that allows engineStart.
var engineStartHash = func() string {
	sum := sha256.Sum256([]byte(engineStart))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()
