package app

// newEngine is the one place that chooses the simulation behind every
// playground. It returns the fake until the core's adapter exists; swapping
// it is the whole of wiring the core in.
func newEngine() Engine { return newFakeEngine() }
