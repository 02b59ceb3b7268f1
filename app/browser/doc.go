// Package browser holds what the pages ask of the browser itself rather
// than of the page: its storage, a download, the clipboard. Each call
// survives the browser refusing (storage disabled, no clipboard): the
// page then goes on without what it asked for.
package browser
