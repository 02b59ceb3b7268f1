//go:build wasm

package scenario

// The browser's run-time bounds (limits.go): a share link can run any
// script in a visitor's tab, so the bounds are what a tab affords.
const (
	// DefaultMaxEvents is the history bound NewSession sets.
	DefaultMaxEvents = BrowserMaxEvents
	// DefaultMaxPending is the event-queue bound NewSession sets.
	DefaultMaxPending = BrowserMaxPending
	// DefaultMaxWork is the work bound NewSession sets.
	DefaultMaxWork = BrowserMaxWork
)
