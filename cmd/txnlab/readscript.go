package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"unicode/utf8"

	"txnlab/core/scenario"
)

// maxLineBytes is the most bytes a line within the language's limit can
// take: MaxLineLength characters of at most four bytes, and a '\r'. A
// line longer than that is too long whatever it holds.
const maxLineBytes = scenario.MaxLineLength*utf8.UTFMax + 1

// readScript reads a script file, but no further than the language's
// limits let a script go: MaxLines lines, maxLineBytes a line. Past one,
// it stops and returns what it read, one line or a line's start beyond
// the limit, so the parser reports the limit at its line and column as
// for any script. os.ReadFile read the whole file first: /dev/zero ran
// out of memory, and a 200 MB file cost 400 MB before it was refused.
// At most (MaxLines+1) × (maxLineBytes+1) bytes, about 20 MB, are held.
func readScript(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return readBounded(f)
}

// readBounded is readScript on any reader.
func readBounded(r io.Reader) (string, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out bytes.Buffer
	for lines := 0; lines <= scenario.MaxLines; lines++ {
		lineLen := 0
		for {
			chunk, err := br.ReadSlice('\n')
			lineLen += len(chunk)
			ended := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
			if ended {
				lineLen--
			}
			if lineLen > maxLineBytes {
				// Keep one byte past the limit: the parser sees a line
				// of more than MaxLineLength characters and says so.
				keep := len(chunk) - (lineLen - maxLineBytes - 1)
				if ended {
					keep--
				}
				out.Write(chunk[:keep])
				return out.String(), nil
			}
			out.Write(chunk)
			switch {
			case ended:
			case errors.Is(err, bufio.ErrBufferFull):
				continue
			case errors.Is(err, io.EOF):
				return out.String(), nil
			case err != nil:
				return "", err
			}
			break
		}
	}
	// Line MaxLines+1 was read: the parser reports the script too long.
	return out.String(), nil
}
