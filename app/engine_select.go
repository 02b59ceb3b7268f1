package app

// newEngine is the one place that chooses the simulation behind every
// playground: the core, through the session adapter.
func newEngine() Engine { return newSessionEngine() }
