package scenario

// Reading a script line by line: the limits, positions and errors, the
// entry points (Parse, ParseLine) and the primitives every statement's
// parser reads its tokens with. What a line means is decided by the verb
// table (statement.go) and the statement's own file.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"txnlab/core/sim"
	"txnlab/internal/errlist"
)

// Limits that keep a host (a browser tab, the CLI, a test) safe from a
// hostile or mistaken script. The parser reports an error for each.
const (
	MaxBrokers            = 9             // brokers per cluster
	MaxPartitions         = 64            // partitions per topic
	MaxInternalPartitions = 50            // partitions of __transaction_state and __consumer_offsets
	MaxClients            = 32            // producers and consumers declared in one script
	MaxTopics             = 32            // topics declared in one script
	MaxLines              = 5000          // lines in a script, blank and comment lines included
	MaxLineLength         = 1000          // characters (runes) in one line
	MaxDuration           = 365 * sim.Day // longest duration a script may write
	MaxCount              = 1<<31 - 1     // largest count= value
)

// Pos is a position in a script: 1-based line and 1-based column, counted
// in characters (runes), a tab counting as one.
type Pos struct{ Line, Col int }

// String renders the position as "line:col".
func (p Pos) String() string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// Error is a script error: where it is and what was expected there.
type Error struct {
	File string // the script's name; empty renders as "script"
	Pos  Pos
	Msg  string
}

// Error renders "file:line:col: msg".
func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = "script"
	}
	return file + ":" + e.Pos.String() + ": " + e.Msg
}

// ErrorList is every error found in a script, sorted by position. Parse
// reports at most one error per line: the first one on it.
type ErrorList = errlist.List[*Error]

// sortErrors orders the list by line, then column (insertion sort: the
// list is nearly sorted already, and stable).
func sortErrors(l ErrorList) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && posLess(l[j].Pos, l[j-1].Pos); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

func posLess(a, b Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Col < b.Col
}

// Parse parses a whole script. It returns every statement that parsed and,
// if any line did not, an ErrorList with the first error of each such
// line, sorted by position. file names the script in error messages ("" is
// rendered as "script"). Parse never panics.
func Parse(file, src string) (*Script, error) {
	s := &Script{File: file, Decls: NewDecls()}
	var errs ErrorList
	src = strings.TrimPrefix(src, "\uFEFF")
	for lineNo := 1; len(src) > 0; lineNo++ {
		text := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			text, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		if lineNo > MaxLines {
			errs = append(errs, &Error{File: file, Pos: Pos{lineNo, 1},
				Msg: "script too long: at most " + strconv.Itoa(MaxLines) + " lines"})
			break
		}
		st, err := parseLine(text, lineNo, s.Decls, true)
		if err != nil {
			err.File = file
			errs = append(errs, err)
			continue
		}
		if st != nil {
			s.Statements = append(s.Statements, st)
		}
	}
	sortErrors(errs)
	return s, errs.Err()
}

// ParseLine parses one line of a script, numbered lineNo, in the context
// of the declarations before it. It returns (nil, nil) for a blank or
// comment line. On success the line's declaration (cluster, topic,
// producer, consumer), if any, is added to decls; on error decls is left
// as it was and the error is an ErrorList of one *Error. A nil decls is
// an empty table.
func ParseLine(src string, lineNo int, decls *Decls) (Stmt, error) {
	if decls == nil {
		decls = NewDecls()
	}
	if lineNo < 1 {
		lineNo = 1
	}
	if lineNo > MaxLines {
		return nil, ErrorList{{Pos: Pos{lineNo, 1}, Msg: "script too long: at most " + strconv.Itoa(MaxLines) + " lines"}}
	}
	st, err := parseLine(src, lineNo, decls, false)
	if err != nil {
		return nil, ErrorList{err}
	}
	return st, nil
}

// bailout carries the first error of a line up from deep in its parser.
type bailout struct{ err *Error }

// lineParser parses the tokens of one line.
type lineParser struct {
	d       *Decls
	line    int
	toks    []token
	i       int
	pending func() // the line's declaration, applied when the line is accepted
}

// parseLine parses one line. In script mode (Parse) a declaration is kept
// even when the rest of its line is wrong, and a missing cluster statement
// is replaced by the default one, so one mistake does not cascade into
// errors on every later line.
func parseLine(src string, lineNo int, d *Decls, script bool) (st Stmt, err *Error) {
	src = strings.TrimSuffix(src, "\r")
	ll, lerr := lexLine(src, lineNo)
	if lerr != nil {
		return nil, lerr
	}
	if len(ll.toks) == 0 {
		return nil, nil
	}
	lp := &lineParser{d: d, line: lineNo, toks: ll.toks}
	var clusterErr *Error
	if d.Cluster == nil && ll.toks[0].raw != "cluster" {
		clusterErr = &Error{Pos: Pos{lineNo, ll.toks[0].col},
			Msg: `the script must start with a cluster statement, e.g. "cluster brokers=3"`}
		if !script {
			return nil, clusterErr
		}
		d.Cluster = DefaultCluster()
	}
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			st, err = nil, b.err
		}
		if lp.pending != nil && (err == nil || script) {
			lp.pending()
		}
		if clusterErr != nil {
			st, err = nil, clusterErr
		}
	}()
	st = lp.statement()
	setBase(st, Base{Pos: Pos{lineNo, ll.toks[0].col}, Text: ll.source})
	return st, nil
}

// failf stops the line with an error at column col.
func (lp *lineParser) failf(col int, format string, args ...any) {
	panic(bailout{&Error{Pos: Pos{lp.line, col}, Msg: fmt.Sprintf(format, args...)}})
}

func (lp *lineParser) more() bool { return lp.i < len(lp.toks) }

// next returns the next token, or fails with missing at the end of the line.
func (lp *lineParser) next(missing string) token {
	if !lp.more() {
		lp.failf(lp.endCol(), "%s", missing)
	}
	t := lp.toks[lp.i]
	lp.i++
	return t
}

// done fails if tokens are left.
func (lp *lineParser) done(what string) {
	if lp.more() {
		t := lp.toks[lp.i]
		lp.failf(t.col, "unexpected %q: %s", t.raw, what)
	}
}

// endCol is the column just after the last token and one space: where a
// missing token would go.
func (lp *lineParser) endCol() int {
	last := lp.toks[len(lp.toks)-1]
	return last.col + utf8.RuneCountInString(last.raw) + 1
}
