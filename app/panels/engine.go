package panels

import "txnlab/app/session"

// The simulation's types as the panels name them (app/session holds
// them, as for app's pages).
type (
	// Engine is session.Engine: the simulation a panel reads.
	Engine = session.Engine
	// Snapshot is session.Snapshot: the cluster state the cards read.
	Snapshot = session.Snapshot
)
