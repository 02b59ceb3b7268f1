//go:build !(js && wasm)

package app

import (
	"txnlab/app/session"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// startExploration runs the explorer in the process natively (there is
// no worker).
func startExploration(x doc.Exercise, seed uint64, notify func(exercise.ExploreState)) *session.Exploration {
	return session.ExploreOnPage(x, seed, notify)
}
