// Package pages is the top of the browser UI: the route table (Register,
// Routed, each page's path and description) and the plain pages — home,
// the scenario library, not found. The playground (app/playground) and the
// lessons (app/lesson) are pages too; this package routes them.
//
// The UI is compiled twice: into web/app.wasm, where the components run,
// and into the native server, which pre-renders every page so that it has
// content before the wasm arrives. Nothing under app/ but app/server may
// import the server (it is native only), or the wasm doubles in size.
//
// The pages see the simulation only through app/engine's Engine. Every
// button the learner presses is a statement of the scenario language
// written into the script (Engine.Act), so whatever happens in the browser
// is a script the CLI replays with the same digest.
//
// The UI's packages, from the top down: pages; lesson; playground; site
// (paths, the page shell, the page data); and the parts every page may
// use: engine, panels, uitext, class, progress, browser.
// docs/architecture.md has the table of what each may import.
package pages
