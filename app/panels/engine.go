package panels

import "txnlab/app/engine"

// The simulation's types as the panels name them (app/engine holds
// them, as for app's pages).
type (
	// Engine is engine.Engine: the simulation a panel reads.
	Engine = engine.Engine
	// Snapshot is engine.Snapshot: the cluster state the cards read.
	Snapshot = engine.Snapshot
)
