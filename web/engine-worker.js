// The playground's engine in a Web Worker (issue 13): the same app.wasm
// as the page (one download, already in the HTTP and service-worker
// caches), which, finding no document, serves the engines of the page's
// playgrounds instead of showing the UI (app/session/worker_js.go). The
// simulation and Go's collector then never take a frame of the page.
self.engineQueued = [];
self.onmessage = (e) => self.engineQueued.push(e.data); // until Go runs
// What Go printed last (a panic's message), for the page to show.
const printed = [];
for (const k of ["log", "error"]) {
  const f = console[k].bind(console);
  console[k] = (...a) => { printed.push(a.join(" ")); printed.splice(0, printed.length - 8); f(...a); };
}
const fail = (err) => postMessage(JSON.stringify({ op: "fail", msg: [String(err), ...printed].join("\n") }));
try {
  importScripts("../wasm_exec.js");
  const go = new Go();
  WebAssembly.instantiateStreaming(fetch("app.wasm"), go.importObject)
    .then((r) => go.run(r.instance))
    .then(() => fail("the engine exited"))
    .catch(fail);
} catch (err) {
  fail(err);
}
