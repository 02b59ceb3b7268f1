// Package app is the browser playground: the go-app routes, pages and
// components that let a learner run Kafka transactions step by step.
//
// The same package is compiled twice: into web/app.wasm, where the
// components run, and into the native server, which pre-renders every page
// so that it has content before the wasm arrives. Nothing here may import
// the server (app/server is `!wasm`), or the wasm doubles in size.
//
// The pages see the simulation only through [Engine], defined with its
// implementation over core/scenario in app/engine (engine.go here names
// its types for the pages). Every button the learner presses is a
// statement of the scenario language written into the script (Engine.Act),
// so whatever happens in the browser is a script the CLI replays with the
// same digest.
//
// The playground's files: playground.go (state, runs, transport handlers,
// keyboard), runner.go (what both playgrounds are made of), editor.go,
// transport.go, stage.go (the diagram's section of the page, the message
// panel and the trace), diagram_state.go (the diagram's view state and
// its components; the diagram's layout, texts and drawing as data are
// package txnlab/diagram), playground_children.go (what the playground gives its
// children: the transport and app/panels' cards, inspector, narration,
// Metrics panel and shortcuts' help), export.go, share.go, idle.go
// (long histories drawn progressively, the engine's background work
// between frames). app/engine keeps the checkpoints that make a move back
// cheap.
//
// The parts both playgrounds compose, with small inputs of their own:
// transportControls (transport.go: the buttons and the scrubber from a
// position, a length and the handlers) and diagramState (diagram_state.go: the
// engine, the diagram's view and its layouts, which the diagram's
// components point at). embedded.go is a lesson's embedded playground
// (scenarioPlayground, ShowAction).
//
// The lessons' files: lessons_page.go (the catalogue, /lessons and
// /zh/lessons), lesson_page.go (one lesson: its server-rendered text
// between the live blocks, previous and next), question.go (a thought
// question card, graded by lessons/answer from the run), app/progress
// (what the learner did, in localStorage, exported and imported as a
// file),
// lesson_source.go (where a page's lesson comes from: the server's course
// when pre-rendering, the page's own embedded data on a first load,
// /lesson-data/ when the browser navigates). app/uitext is the one
// catalogue of the UI's strings in English and Chinese, with the
// language's paths (/zh/…); paths.go has every page's address; home.go
// and layout.go exist in both.
package app
