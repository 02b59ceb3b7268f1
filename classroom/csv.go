//go:build !wasm

package classroom

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes a class's results, one vote a row, with a header.
// Students are numbers; a cell a spreadsheet would read as a formula is
// quoted with a leading apostrophe (CSV injection).
func WriteCSV(w io.Writer, rows []Row) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"round", "second_vote_of", "question", "student", "choice", "answer", "sure"})
	for _, r := range rows {
		cw.Write([]string{strconv.Itoa(r.Round), strconv.Itoa(r.Of), cell(r.Question), strconv.Itoa(r.Student),
			strconv.Itoa(r.Choice), cell(r.Answer), []string{"guessing", "fairly sure", "sure"}[r.Sure%3]})
	}
	cw.Flush()
	return cw.Error()
}

func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
