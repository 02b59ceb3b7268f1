// Package playground is where a learner runs a scenario: the full
// playground page, the lesson's embedded playground (ScenarioPlayground,
// ShowAction) and the compare page, all on one runner.
//
// Its files: runner.go (what both playgrounds are made of: the script,
// its parse error, the undo, the engine and the diagram's view, the
// player), playground.go (the full playground's state, runs, transport
// handlers, keyboard), editor.go, transport.go (the buttons and the
// scrubber both playgrounds compose), stage.go (the diagram's section of
// the page, the message panel and the trace), diagram_state.go (the
// diagram's view state and its components; the diagram's layout, texts
// and drawing as data are package txnlab/diagram), playground_children.go
// (what the playground gives its children: the transport and app/panels'
// cards, inspector, narration, Metrics panel and shortcuts' help),
// export.go, share.go, keep.go (what the browser keeps of a session),
// idle.go (long histories drawn progressively, the engine's background
// work between frames), presenter.go, live.go (Live mode), compare.go,
// embedded.go (a lesson's playground) and library*.go (the scenario
// library as the pages list it). app/engine keeps the checkpoints that
// make a move back cheap.
package playground
