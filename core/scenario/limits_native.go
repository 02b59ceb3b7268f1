//go:build !wasm

package scenario

// The CLI's, the explorer's and the tests' run-time bounds (limits.go).
const (
	// DefaultMaxEvents is the history bound NewSession sets.
	DefaultMaxEvents = NativeMaxEvents
	// DefaultMaxPending is the event-queue bound NewSession sets.
	DefaultMaxPending = NativeMaxPending
	// DefaultMaxWork is the work bound NewSession sets.
	DefaultMaxWork = NativeMaxWork
)
