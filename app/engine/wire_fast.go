package engine

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	"txnlab/core/protocol"
)

// A history's events cross as JSON objects (wireEvent), and the page
// decodes every one of them before a playground can be stepped:
// json.Unmarshal, by reflection, took about 60 % of that time in the
// browser (22 µs an event under wasm; a 10,000-event history 220 ms of
// the page's thread, a lesson page with thirteen playgrounds 700 ms of
// its CPU). The worker writes them with json.Marshal, so they have one
// shape: no white space, the keys of wireEvent's tags each at most once,
// integers, strings that rarely hold an escape. decodeWireEvent reads that
// shape by hand (a string with an escape through json.Unmarshal alone)
// and hands anything else (a null, a number with a fraction, a key it
// does not know, white space) to json.Unmarshal, whose
// result is then the one kept: FuzzDecodeWireEvent holds the two to the
// same events.

// decodeWireEvent decodes b, one element of the events' array, into w
// as json.Unmarshal would.
func decodeWireEvent(b []byte, w *wireEvent) error {
	if scanWireEvent(b, w) {
		return nil
	}
	*w = wireEvent{}
	return json.Unmarshal(b, w)
}

// scanWireEvent is decodeWireEvent's own reading: it reports false, with
// w partly written, where json.Unmarshal must decide.
func scanWireEvent(b []byte, w *wireEvent) bool {
	p := wireScanner{b: b}
	return p.event(w) && p.i == len(b)
}

// wireScanner reads the compact JSON json.Marshal writes; each method
// reports false on anything else, and the caller then gives up.
type wireScanner struct {
	b []byte
	i int
}

// The keys of wireEvent, wireNote and wireMsg, as bits of a set: a key
// seen twice gives up (json.Unmarshal would merge a repeated object).
const (
	keyAt = 1 << iota
	keyMsgID
	keyReplyTo
	keyOffset
	keySubject
	keyFrom
	keyTo
	keyText
	keyNoteText
	keyNote
	keyMsg
	keyNode
	keyPeer
	keyAPI
	keyError
	keyKind
	keyException
	keyResp
	keyInternal
	keyIllegal
	keyUnmet
	keyContents
	keyIndex
)

// event reads one wireEvent object.
func (p *wireScanner) event(w *wireEvent) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	seen := 0
	for {
		key, ok := p.str()
		if !ok || !p.next(':') {
			return false
		}
		var bit int
		switch key {
		case "t":
			bit, ok = keyAt, p.int64(&w.At)
		case "m":
			bit, ok = keyMsgID, p.int64(&w.MsgID)
		case "rt":
			bit, ok = keyReplyTo, p.int64(&w.ReplyTo)
		case "o":
			bit, ok = keyOffset, p.int64(&w.Offset)
		case "s":
			bit = keySubject
			w.Subject, ok = p.str()
		case "f":
			bit = keyFrom
			w.From, ok = p.str()
		case "to":
			bit = keyTo
			w.To, ok = p.str()
		case "x":
			bit = keyText
			w.Text, ok = p.str()
		case "xn":
			bit = keyNoteText
			w.NoteText, ok = p.bool()
		case "no":
			bit = keyNote
			w.Note = &wireNote{}
			ok = p.note(w.Note)
		case "M":
			bit = keyMsg
			w.Msg = &wireMsg{}
			ok = p.msg(w.Msg)
		case "n":
			bit, ok = keyNode, p.uint16(&w.Node)
		case "p":
			bit, ok = keyPeer, p.uint16(&w.Peer)
		case "a":
			bit, ok = keyAPI, p.int(&w.API)
		case "e":
			bit, ok = keyError, p.int(&w.Error)
		case "k":
			bit, ok = keyKind, p.int(&w.Kind)
		case "ex":
			bit, ok = keyException, p.int(&w.Exception)
		case "r":
			bit = keyResp
			w.Resp, ok = p.bool()
		case "in":
			bit = keyInternal
			w.Internal, ok = p.bool()
		case "il":
			bit = keyIllegal
			w.Illegal, ok = p.bool()
		case "u":
			bit = keyUnmet
			w.Unmet, ok = p.bool()
		case "c":
			bit, ok = keyContents, p.int(&w.Contents)
		case "i":
			bit = keyIndex
			w.Index = new(int)
			ok = p.int(w.Index)
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// note reads a wireNote object.
func (p *wireScanner) note(n *wireNote) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	seen := 0
	for {
		key, ok := p.str()
		if !ok || !p.next(':') {
			return false
		}
		var bit int
		switch key {
		case "c":
			bit, ok = 1, p.int(&n.Code)
		case "a":
			bit = 2
			n.Args, ok = p.strs()
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// msg reads a wireMsg object; its body stays JSON, a slice of b
// (decodeEvent decodes it, and so finds any error in it).
func (p *wireScanner) msg(m *wireMsg) bool {
	if !p.next('{') {
		return false
	}
	if p.next('}') {
		return true
	}
	seen := 0
	for {
		key, ok := p.str()
		if !ok || !p.next(':') {
			return false
		}
		var bit int
		switch key {
		case "a":
			var api int64
			bit, ok = 1, p.intIn(&api, math.MinInt16, math.MaxInt16)
			m.API = protocol.APIKey(api)
		case "r":
			bit = 2
			m.Resp, ok = p.bool()
		case "b":
			bit = 4
			m.Body, ok = p.object()
		default:
			return false
		}
		if !ok || seen&bit != 0 {
			return false
		}
		seen |= bit
		if p.next('}') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// next consumes c if it comes next.
func (p *wireScanner) next(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string. One without an escape is copied as it is, if it
// is valid UTF-8 (json.Unmarshal would replace an invalid byte); one with
// an escape (json.Marshal writes <, > and & as \u003c, \u003e, \u0026)
// is json.Unmarshal's to read.
func (p *wireScanner) str() (string, bool) {
	start := p.i
	if !p.next('"') {
		return "", false
	}
	ascii, escaped := true, false
	for ; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			if escaped {
				var s string
				err := json.Unmarshal(p.b[start:p.i], &s)
				return s, err == nil
			}
			s := p.b[start+1 : p.i-1]
			if !ascii && !utf8.Valid(s) {
				return "", false
			}
			return string(s), true
		case c == '\\':
			escaped = true
			p.i++ // the escaped byte cannot end the string
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// strs reads an array of strings; [] is an empty slice, as json.Unmarshal
// makes it.
func (p *wireScanner) strs() ([]string, bool) {
	if !p.next('[') {
		return nil, false
	}
	out := []string{}
	if p.next(']') {
		return out, true
	}
	for {
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		if p.next(']') {
			return out, true
		}
		if !p.next(',') {
			return nil, false
		}
	}
}

// bool reads true or false.
func (p *wireScanner) bool() (bool, bool) {
	switch {
	case len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true":
		p.i += 4
		return true, true
	case len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false":
		p.i += 5
		return false, true
	}
	return false, false
}

// intIn reads an integer between lo and hi: an optional minus, then
// digits without a leading zero, and no fraction or exponent after them.
func (p *wireScanner) intIn(v *int64, lo, hi int64) bool {
	neg := p.next('-')
	start := p.i
	var u uint64
	for ; p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9'; p.i++ {
		if u > (math.MaxUint64-9)/10 {
			return false // far beyond any field's range
		}
		u = u*10 + uint64(p.b[p.i]-'0')
	}
	n := p.i - start
	if n == 0 || n > 1 && p.b[start] == '0' {
		return false
	}
	if p.i < len(p.b) && (p.b[p.i] == '.' || p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		return false
	}
	switch {
	case !neg:
		if u > uint64(hi) {
			return false
		}
		*v = int64(u)
	case lo == 0:
		return false // json.Unmarshal refuses "-0" for an unsigned field
	case u == 0:
		*v = 0
	case u-1 <= uint64(-(lo + 1)):
		*v = -int64(u-1) - 1
	default:
		return false
	}
	return true
}

func (p *wireScanner) int64(v *int64) bool { return p.intIn(v, math.MinInt64, math.MaxInt64) }

func (p *wireScanner) int(v *int) bool {
	var x int64
	ok := p.intIn(&x, math.MinInt, math.MaxInt)
	*v = int(x)
	return ok
}

func (p *wireScanner) uint16(v *uint16) bool {
	var x int64
	ok := p.intIn(&x, 0, math.MaxUint16)
	*v = uint16(x)
	return ok
}

// object finds the extent of an object value (a message's body) by its
// braces and strings; whether it is valid JSON inside is for whoever
// decodes it.
func (p *wireScanner) object() ([]byte, bool) {
	start := p.i
	if !p.next('{') {
		return nil, false
	}
	for depth, inString := 1, false; p.i < len(p.b); p.i++ {
		c := p.b[p.i]
		switch {
		case inString && c == '\\':
			p.i++ // the escaped byte cannot end the string
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			if depth--; depth == 0 {
				p.i++
				return p.b[start:p.i], true
			}
		}
	}
	return nil, false
}
