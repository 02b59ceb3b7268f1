package app

// Paths of the pages, shared by the route table, the links and the tests.
const (
	PathHome       = "/"
	PathPlayground = "/playground"
	PathScenarios  = "/scenarios"
)

// EngineWorkerPath is the engine worker's script (web/engine-worker.js),
// which starts the page's own app.wasm in the engine's role: the page's
// Go starts it (remote_engine.go), so does the head's script on a page
// with a playground (app/server), and the service worker caches it.
const EngineWorkerPath = "/web/engine-worker.js"
