//go:build js && wasm

package lesson

import (
	"txnlab/app/engine"
	"txnlab/app/playground"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// startExploration runs an attack exercise's explorer in the page's
// engine worker, or on the page when there is none (no Worker, or
// ?engine=page); a worker that fails carries it over to the page.
func startExploration(x doc.Exercise, seed uint64, notify func(exercise.ExploreState)) *engine.Exploration {
	if l := playground.PageLink(); l != nil {
		return l.Explore(x, seed, notify)
	}
	return engine.ExploreOnPage(x, seed, notify)
}
