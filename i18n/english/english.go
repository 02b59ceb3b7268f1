// Package english finds English sentences in text meant to be Chinese. It
// is the one rule the tests of every Chinese page share (the lessons, the
// playground, the scenario library's twins); it is its own package so the
// wasm, which does not need it, does not link regexp.
package english

import "regexp"

// sentence is a run of four Latin words: a Chinese text may name Kafka's
// identifiers (AddPartitionsToTxn, transactional.id, read_committed) but
// never holds an English sentence.
var sentence = regexp.MustCompile(`[A-Za-z][A-Za-z'’-]*(?:[ ,]+[A-Za-z][A-Za-z'’-]*){3,}`)

// Sentences returns the English sentences in text: each run of four or
// more Latin words separated by spaces or commas.
func Sentences(text string) []string { return sentence.FindAllString(text, -1) }
