//go:build !(js && wasm)

package lesson

import (
	"txnlab/app/engine"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// startExploration runs the explorer in the process natively (there is
// no worker).
func startExploration(x doc.Exercise, seed uint64, notify func(exercise.ExploreState)) *engine.Exploration {
	return engine.ExploreOnPage(x, seed, notify)
}
