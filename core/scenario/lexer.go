package scenario

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// token is one space-separated word of a line.
type token struct {
	raw    string // as written: quotes and escapes included
	text   string // raw, or the decoded string when the whole token is one quoted string
	col    int    // 1-based column (in runes) of the first character
	quoted bool   // the whole token is one quoted string
}

// lexedLine is one line cut into tokens.
type lexedLine struct {
	toks   []token
	source string // the line trimmed, without its comment
}

// lexLine cuts one line into tokens. Tokens are separated by spaces and
// tabs; '#' outside quotes starts a comment; a double quote opens a quoted
// section (which may hold spaces and '#', with \" and \\ as escapes) that
// ends at the next unescaped double quote. Quotes may appear inside a
// token (k="a b"); whether they are allowed there is the parser's call.
func lexLine(src string, lineNo int) (lexedLine, *Error) {
	var out lexedLine
	errAt := func(col int, msg string) (lexedLine, *Error) {
		return lexedLine{}, &Error{Pos: Pos{lineNo, col}, Msg: msg}
	}
	// Check the characters first: valid UTF-8, no control characters but
	// tab, not too long.
	col := 0
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		col++
		if r == utf8.RuneError && size == 1 {
			return errAt(col, "invalid UTF-8 byte 0x"+strconv.FormatUint(uint64(src[i]), 16))
		}
		if (r < 0x20 && r != '\t') || r == 0x7f {
			return errAt(col, "unexpected control character "+runeName(r))
		}
		if col > MaxLineLength {
			return errAt(col, "line too long: at most "+strconv.Itoa(MaxLineLength)+" characters")
		}
		i += size
	}

	first, last := -1, -1 // byte offsets of the first token's start and the last token's end
	col = 0
	i := 0
	for i < len(src) {
		c := src[i]
		if c == ' ' || c == '\t' {
			i++
			col++
			continue
		}
		if c == '#' {
			break
		}
		// A token.
		start, startCol := i, col+1
		quotedWhole := c == '"'
		firstClose := -1 // byte offset just after the closing quote of the first quoted section
		for i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '#' {
			if src[i] != '"' {
				_, size := utf8.DecodeRuneInString(src[i:])
				i += size
				col++
				continue
			}
			qCol := col + 1
			i++
			col++
			closed := false
			for i < len(src) {
				r, size := utf8.DecodeRuneInString(src[i:])
				if r == '\\' {
					if i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '\\') {
						i += 2
						col += 2
						continue
					}
					if i+3 < len(src) && src[i+1] == 'x' && isHex(src[i+2]) && isHex(src[i+3]) {
						i += 4
						col += 4
						continue
					}
					next := "end of line"
					if i+1 < len(src) {
						nr, _ := utf8.DecodeRuneInString(src[i+1:])
						next = strconv.Quote(`\` + string(nr))
					}
					return errAt(col+1, "unknown escape "+next+` in quotes: only \" and \\ are allowed`)
				}
				i += size
				col++
				if r == '"' {
					closed = true
					break
				}
			}
			if !closed {
				return errAt(qCol, "unterminated quote: add a closing \"")
			}
			if firstClose < 0 {
				firstClose = i
			}
		}
		raw := src[start:i]
		t := token{raw: raw, text: raw, col: startCol}
		if quotedWhole && firstClose == i {
			t.quoted = true
			t.text = unescape(raw[1 : len(raw)-1])
		}
		out.toks = append(out.toks, t)
		if first < 0 {
			first = start
		}
		last = i
	}
	if first >= 0 {
		out.source = src[first:last]
	}
	return out, nil
}

// unescape decodes the inside of a quoted string whose escapes the lexer
// has checked.
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' && isHex(s[i+2]) && isHex(s[i+3]) {
			b.WriteByte(unhex(s[i+2])<<4 | unhex(s[i+3]))
			i += 3
			continue
		}
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isHex reports whether c is a hexadecimal digit (of a \xNN escape).
func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

// quotedEnd returns the byte offset just after the quoted string that
// starts at s[0] == '"', or -1 if it does not close.
func quotedEnd(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// indexOutside returns the byte offset of the first sep in s outside
// quoted sections and, when parens is set, outside parentheses; -1 if
// none.
func indexOutside(s string, seps string, parens bool) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			end := quotedEnd(s[i:])
			if end < 0 {
				return -1
			}
			i += end - 1
		case parens && c == '(':
			depth++
		case parens && c == ')':
			if depth > 0 {
				depth--
			}
		case depth == 0 && strings.IndexByte(seps, c) >= 0:
			return i
		}
	}
	return -1
}

// runeCol returns the column of byte offset off in a token starting at col.
func runeCol(raw string, col, off int) int {
	if off > len(raw) {
		off = len(raw)
	}
	return col + utf8.RuneCountInString(raw[:off])
}

func runeName(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	for len(s) < 4 {
		s = "0" + s
	}
	return "U+" + strings.ToUpper(s)
}
