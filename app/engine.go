package app

import "txnlab/app/engine"

// The simulation's types as the pages name them. They live in
// app/engine, which every page that shows a run shares; the aliases keep
// the components' code short and let the tests name them as before.
type (
	// Engine is engine.Engine: the simulation as a page drives it.
	Engine = engine.Engine
	// Snapshot is engine.Snapshot: the cluster state the cards read.
	Snapshot = engine.Snapshot
	// ScriptError is engine.ScriptError: a mistake at a line and column.
	ScriptError = engine.ScriptError
)
