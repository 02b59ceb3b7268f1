// Package english finds English sentences in text meant to be Chinese. It
// is the one rule the tests of every Chinese page share (the lessons, the
// playground, the scenario library's twins); it is its own package so the
// wasm, which does not need it, does not link regexp.
package english

import (
	"regexp"
	"strings"
)

// sentence is a run of four Latin words: a Chinese text may name Kafka's
// identifiers (AddPartitionsToTxn, transactional.id, read_committed) but
// never holds an English sentence.
var sentence = regexp.MustCompile(`[A-Za-z][A-Za-z'’-]*(?:[ ,]+[A-Za-z][A-Za-z'’-]*){3,}`)

// Sentences returns the English sentences in text: each run of four or
// more Latin words separated by spaces or commas.
func Sentences(text string) []string { return sentence.FindAllString(text, -1) }

// WordPairs returns each two plain English words in a row in text, code
// included: stricter than Sentences, for the core's short phrases ("no
// violation") that a Chinese page must not show even as code. A word is
// plain when it is Latin letters (and apostrophes) only and isCode (an
// identifier test: broker-1, InitProducerId, PRODUCER_FENCED) refuses
// it; a Chinese character or any mark ends a run of words.
func WordPairs(text string, isCode func(string) bool) []string {
	var out []string
	prev := ""
	for _, w := range wordOrMark.FindAllString(text, -1) {
		bare := strings.Trim(w, ",:;()[]")
		if !plainWord.MatchString(bare) || isCode(bare) {
			prev = ""
			continue
		}
		if prev != "" {
			out = append(out, prev+" "+bare)
		}
		prev = bare
	}
	return out
}

var (
	// wordOrMark splits a text into runs of ASCII that are not spaces,
	// and each other character (a Chinese one, a full-width mark) alone.
	wordOrMark = regexp.MustCompile(`[!-~]+|[^\x00-\x7f]`)
	plainWord  = regexp.MustCompile(`^[A-Za-z']+$`)
)
