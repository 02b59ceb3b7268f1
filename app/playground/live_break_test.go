package playground

import "testing"

// TestBreakpointIn: a page that opens or reloads a live session shows the
// breakpoint the session's script last set.
func TestBreakpointIn(t *testing.T) {
	for _, tc := range []struct{ lines, was, want string }{
		{"cluster\n", "", ""},
		{"cluster\n", "Produce", "Produce"},
		{"# breakpoint: the next EndTxn request is held until you step\n", "", "EndTxn"},
		{"# breakpoint: the next EndTxn request is held until you step\nadvance 5ms\n# breakpoint: holding EndTxn v3 from shop to broker-0; step to send it\n", "", "EndTxn"},
		{"# breakpoint: the next EndTxn request is held until you step\n# breakpoint: cleared\n", "", ""},
		{"# breakpoint: cleared\n# breakpoint: the next Produce request is held until you step\n", "EndTxn", "Produce"},
	} {
		if got := breakpointIn(tc.lines, tc.was); got != tc.want {
			t.Errorf("%q after %q: %q, want %q", tc.lines, tc.was, got, tc.want)
		}
	}
}
