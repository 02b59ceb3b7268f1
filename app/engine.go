package app

import "txnlab/app/session"

// The simulation's types as the pages name them. They live in
// app/session, which every page that shows a run shares; the aliases keep
// the components' code short and let the tests name them as before.
type (
	// Engine is session.Engine: the simulation as a page drives it.
	Engine = session.Engine
	// Snapshot is session.Snapshot: the cluster state the cards read.
	Snapshot = session.Snapshot
	// ScriptError is session.ScriptError: a mistake at a line and column.
	ScriptError = session.ScriptError
)
