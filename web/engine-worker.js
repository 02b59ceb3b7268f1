// The playground's engine in a Web Worker (issue 13): the same app.wasm
// as the page, which, finding no document, serves the engines of the
// page's playgrounds instead of showing the UI (app/engine/worker_js.go).
// The simulation and Go's collector then never take a frame of the page.
//
// The page's first message is, when it has one, the module it compiled
// (go-app's loader publishes it): the worker instantiates that and skips
// the download and the compile. Any other first message (the page had no
// module) is kept, and the worker fetches and compiles app.wasm itself.
self.engineQueued = []; // until Go runs
let started = false;
self.onmessage = (e) => {
  const module = e.data instanceof WebAssembly.Module;
  if (!started && go) {
    started = true;
    start(module
      ? WebAssembly.instantiate(e.data, go.importObject)
      : WebAssembly.instantiateStreaming(fetch("app.wasm"), go.importObject).then((r) => r.instance));
  }
  if (!module) self.engineQueued.push(e.data);
};
// What Go printed last (a panic's message), for the page to show.
const printed = [];
for (const k of ["log", "error"]) {
  const f = console[k].bind(console);
  console[k] = (...a) => { printed.push(a.join(" ")); printed.splice(0, printed.length - 8); f(...a); };
}
const fail = (err) => postMessage(JSON.stringify({ op: "fail", msg: [String(err), ...printed].join("\n") }));
let go;
try {
  importScripts("../wasm_exec.js");
  go = new Go();
} catch (err) {
  fail(err);
}
function start(instance) {
  instance
    .then((i) => go.run(i))
    .then(() => fail("the engine exited"))
    .catch(fail);
}
