// Package escape holds the one HTML escaper the browser build uses. It
// writes what html.EscapeString writes, but importing package html links
// its table of 2,231 named entities into web/app.wasm through the
// package's initialiser, whether or not anything unescapes (see
// BENCHMARKS.md, "WebAssembly size").
package escape

import "strings"

var htmlEscaper = strings.NewReplacer(
	`&`, "&amp;",
	`'`, "&#39;",
	`<`, "&lt;",
	`>`, "&gt;",
	`"`, "&#34;",
)

// HTML escapes <, >, &, ' and " in s, for text or a quoted attribute value
// in HTML or SVG markup, exactly as html.EscapeString does.
func HTML(s string) string { return htmlEscaper.Replace(s) }

// WriteHTML writes s to b escaped as HTML does: markup built in a
// builder takes no escaped copy of each value on the way.
func WriteHTML(b *strings.Builder, s string) { htmlEscaper.WriteString(b, s) }
