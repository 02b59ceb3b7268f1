// Package browser holds what the pages ask of the browser itself rather
// than of the page: its storage, a download, the clipboard, the Go
// collector's pace and its collections in the browser's idle moments.
// Each call survives the browser refusing (storage disabled, no
// clipboard, no requestIdleCallback): the page then goes on without what
// it asked for.
package browser
