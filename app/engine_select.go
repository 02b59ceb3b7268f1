package app

import "txnlab/app/session"

// newEngine is the one place that chooses the simulation behind every
// playground: the core, through the session adapter.
func newEngine() Engine { return session.New() }
