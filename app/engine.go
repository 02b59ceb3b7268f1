package app

import (
	"fmt"

	"txnlab/core/sim"
)

// Engine is the simulation as the playground drives it. The core's cluster
// and scenario packages implement it behind an adapter; the pages never
// reach past it, so the UI can be built and tested before the core is done
// and the core can change without a component changing.
//
// A history is the whole run of a loaded script, computed deterministically,
// and a step is the smallest unit the UI can stop at. Positions run from 0
// (nothing has happened) to Len() (the run is over). Because the same script
// always gives the same history, stepping back may simply replay from the
// start: the UI never asks for anything it could not ask again.
//
// Every method runs on go-app's UI goroutine, so an implementation needs no
// locks; a method that would run long must be cut into steps instead.
type Engine interface {
	// Load replaces the script and rewinds to position 0. A mistake in the
	// script is returned as a *ScriptError so the editor can point at it;
	// after an error the previous history stays loaded.
	Load(script string) error

	// Len is the number of steps in the loaded history.
	Len() int

	// Pos is the number of steps taken, from 0 to Len().
	Pos() int

	// Step takes one step and reports whether there was one to take.
	Step() bool

	// StepBack returns to Pos()-1; at 0 it does nothing.
	StepBack()

	// Seek moves to position i, clamped to [0, Len()].
	Seek(i int)

	// Events is the trace up to Pos(), oldest first. The slice belongs to
	// the engine and is valid until its next call.
	Events() []sim.Event

	// Digest identifies Events(): the CLI prints the same digest for the
	// same script, which is how a learner can trust the two agree.
	Digest() string
}

// ScriptError is a mistake in a scenario script at a place the editor can
// show. Line and Col start at 1, as editors count.
type ScriptError struct {
	Line, Col int
	Msg       string
}

// Error renders the error as compilers do, so it reads the same in the
// browser and in the CLI.
func (e *ScriptError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
}
