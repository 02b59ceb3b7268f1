//go:build !(js && wasm)

package playground

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/internal/escape"
)

// earlyTargets are the parts of the playground a step changes, as the
// selectors the head's script (app/server/early_steps.go) replaces them
// by; the editor stays, so nothing typed into it is lost.
var earlyTargets = []struct {
	at     string
	render func(*playground) app.UI
}{
	{".playground > .editor > :is(.results, .results-empty)", (*playground).renderResults},
	{".playground > .stage", (*playground).renderStageSection},
	{".playground > .cluster", (*playground).renderCluster},
	{".playground > .inspector", (*playground).renderInspector},
	{".playground > .trace", (*playground).renderTrace},
	{"#narration", (*playground).renderNarration},
}

// renderEarlySteps is, on the server (the wasm's is
// early_steps_wasm.go's, which renders none), the playground's changing parts at
// steps 1 to EarlySteps of its history, each in an inert template the
// head's script swaps in when Step is pressed before the app starts; the
// app, when it mounts, takes the position reached (takeEarlyPos). They
// are rendered by a playground of their own on p's engine, with the same
// script and language, so that p's drawing state stays the one of step
// 0; the engine is back at p's position when they are done, before the
// page's components that read it are encoded. In the browser, and for a
// script that did not run, there are none.
func (p *playground) renderEarlySteps() app.UI {
	if !app.IsServer || p.run.engine.Len() == 0 || p.run.scriptErr != nil || p.run.engine.Err() != nil {
		return nil
	}
	q := NewPlayground()
	q.run.engine, q.run.histGen = p.run.engine, p.run.histGen
	q.run.lang, q.lib.slug, q.lib.original = p.run.lang, p.lib.slug, p.lib.original
	q.run.script, q.run.editorText = p.run.script, p.run.editorText
	defer p.run.engine.Seek(p.run.engine.Pos())
	var b strings.Builder
	b.WriteString(`<div class="early-steps" hidden>`)
	for k := 1; k <= min(EarlySteps, q.run.engine.Len()); k++ {
		q.run.engine.Seek(k)
		q.run.follow(app.Context{})
		for _, t := range earlyTargets {
			b.WriteString(`<template data-early-step="` + strconv.Itoa(k) + `" data-early-at="` + escape.HTML(t.at) + `">`)
			b.WriteString(app.HTMLString(t.render(q)))
			b.WriteString(`</template>`)
		}
	}
	// The end mark: the steps before it are parsed, while the rest of
	// the page may still be on its way.
	b.WriteString(`<i data-early-end></i></div>`)
	return app.Raw(b.String())
}
