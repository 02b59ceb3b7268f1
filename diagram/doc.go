// Package diagram is the sequence diagram of a history, without a UI:
// which events get a row (Filter), the lanes, rows and arrows of a
// position (Layout), the texts of arrows and notes, the drawing of some
// rows as small SVG trees (Shape) that the page renders with go-app, and
// the exports as text (SVG, Mermaid) that the playground downloads and
// `txnlab run --format mermaid` prints. It imports only the core and the
// standard library, so the command line links no UI.
package diagram
