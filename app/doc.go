// Package app is the browser playground: the go-app routes, pages and
// components that let a learner run Kafka transactions step by step.
//
// The same package is compiled twice: into web/app.wasm, where the
// components run, and into the native server, which pre-renders every page
// so that it has content before the wasm arrives. Nothing here may import
// the server (app/server is `!wasm`), or the wasm doubles in size.
//
// The pages see the simulation only through [Engine], so the core can be
// swapped in for the fake engine without touching a component.
package app
