package engine

import (
	"encoding/json"
	"math"
	"unicode/utf8"

	"txnlab/core/protocol"
)

// A history's events cross as JSON objects (wireEvent), and the page
// decodes every one of them before a playground can be stepped. With
// json.Unmarshal, by reflection, that was 22 µs an event under wasm, a
// 10,000-event history 220 ms of the page's thread, and 712 ms of lesson
// 03's page's CPU (BENCHMARKS.md). The worker writes them with
// json.Marshal, so they have one shape: no white space, the keys of
// wireEvent's tags each at most once, integers, strings that rarely hold
// an escape. The scanner reads that shape by hand (a string with an
// escape through json.Unmarshal alone) and gives up on anything else (a
// null, a number with a fraction, a key it does not know, white space),
// which eventDecoder then hands to json.Unmarshal: FuzzDecodeWireEvent
// and FuzzEventDecoder hold the two to the same events.

// scanWireEvent reads b, one element of the events' array, into w by
// hand: it reports false, with w partly written, where json.Unmarshal
// must decide.
func scanWireEvent(b []byte, w *wireEvent) bool {
	p := wireScanner{b: b}
	return p.event(w) && p.i == len(b)
}

// wireScanner reads the compact JSON json.Marshal writes; each method
// reports false on anything else, and the caller then gives up.
type wireScanner struct {
	b []byte
	i int
	// shared holds the strings read so far, when the caller keeps them
	// across events: a history names the same few topics, subjects and
	// states thousands of times, and each would be a new string.
	shared map[string]string
}

// maxShared is the longest string shared: names are short, and a longer
// string (an event's text, a record's value) seldom repeats.
const maxShared = 40

// The keys of wireEvent, as bits of the set object keeps: a key seen
// twice gives up (json.Unmarshal would merge a repeated object).
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

// object reads an object, each of whose values field reads: field
// returns the key's bit (0 for a key it does not know) and whether the
// value read. A key seen twice gives up.
func (p *wireScanner) object(field func(key string) (bit int, ok bool)) bool {
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
		bit, ok := field(key)
		if !ok || bit == 0 || seen&bit != 0 {
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

// event reads one wireEvent object.
func (p *wireScanner) event(w *wireEvent) bool {
	return p.object(func(key string) (int, bool) {
		switch key {
		case "t":
			return keyAt, p.int64(&w.At)
		case "m":
			return keyMsgID, p.int64(&w.MsgID)
		case "rt":
			return keyReplyTo, p.int64(&w.ReplyTo)
		case "o":
			return keyOffset, p.int64(&w.Offset)
		case "s":
			return keySubject, p.str1(&w.Subject)
		case "f":
			return keyFrom, p.str1(&w.From)
		case "to":
			return keyTo, p.str1(&w.To)
		case "x":
			return keyText, p.str1(&w.Text)
		case "xn":
			return keyNoteText, p.bool1(&w.NoteText)
		case "no":
			w.Note = &wireNote{}
			return keyNote, p.note(w.Note)
		case "M":
			w.Msg = &wireMsg{}
			return keyMsg, p.msg(w.Msg)
		case "n":
			return keyNode, p.uint16(&w.Node)
		case "p":
			return keyPeer, p.uint16(&w.Peer)
		case "a":
			return keyAPI, p.int(&w.API)
		case "e":
			return keyError, p.int(&w.Error)
		case "k":
			return keyKind, p.int(&w.Kind)
		case "ex":
			return keyException, p.int(&w.Exception)
		case "r":
			return keyResp, p.bool1(&w.Resp)
		case "in":
			return keyInternal, p.bool1(&w.Internal)
		case "il":
			return keyIllegal, p.bool1(&w.Illegal)
		case "u":
			return keyUnmet, p.bool1(&w.Unmet)
		case "c":
			return keyContents, p.int(&w.Contents)
		case "i":
			w.Index = new(int)
			return keyIndex, p.int(w.Index)
		}
		return 0, false
	})
}

// note reads a wireNote object.
func (p *wireScanner) note(n *wireNote) bool {
	return p.object(func(key string) (int, bool) {
		switch key {
		case "c":
			return 1, p.int(&n.Code)
		case "a":
			var ok bool
			n.Args, ok = p.strs()
			return 2, ok
		}
		return 0, false
	})
}

// msg reads a wireMsg object; its body stays JSON, a slice of b
// (decodeEvent decodes it, and so finds any error in it).
func (p *wireScanner) msg(m *wireMsg) bool {
	return p.object(func(key string) (int, bool) {
		switch key {
		case "a":
			return 1, intAs(p, &m.API, math.MinInt16, math.MaxInt16)
		case "r":
			return 2, p.bool1(&m.Resp)
		case "b":
			var ok bool
			m.Body, ok = p.rawObject()
			return 4, ok
		}
		return 0, false
	})
}

// After the memo of repeated bodies (messageMemo), nearly all the time
// left in decoding a lesson's histories by reflection went to the
// followers' Fetch requests and their answers (95 % of it over the
// library): a follower lists every partition it follows, 17 to 50 a
// request. Those two read by hand; any other message, or a Fetch answer
// that carries records, is json.Unmarshal's.

// fetchRequest reads a FetchRequest's body.
func (p *wireScanner) fetchRequest(m *protocol.FetchRequest) bool {
	return p.object(func(key string) (int, bool) {
		switch key {
		case "ReplicaId":
			return 1, p.int32(&m.ReplicaId)
		case "MaxWaitMs":
			return 2, p.int32(&m.MaxWaitMs)
		case "MinBytes":
			return 4, p.int32(&m.MinBytes)
		case "IsolationLevel":
			return 8, intAs(p, &m.IsolationLevel, math.MinInt8, math.MaxInt8)
		case "SessionEpoch":
			return 16, p.int32(&m.SessionEpoch)
		case "Partitions":
			return 32, readArray(p, &m.Partitions, func(f *protocol.FetchPartition) bool {
				return p.object(func(key string) (int, bool) {
					switch key {
					case "Topic":
						return 1, p.str1(&f.Topic)
					case "Partition":
						return 2, p.int32(&f.Partition)
					case "FetchOffset":
						return 4, p.int64(&f.FetchOffset)
					case "LastFetchedEpoch":
						return 8, p.int32(&f.LastFetchedEpoch)
					}
					return 0, false
				})
			})
		}
		return 0, false
	})
}

// fetchResponse reads a FetchResponse's body whose partitions carry no
// records.
func (p *wireScanner) fetchResponse(m *protocol.FetchResponse) bool {
	return p.object(func(key string) (int, bool) {
		if key != "Responses" {
			return 0, false
		}
		return 1, readArray(p, &m.Responses, func(d *protocol.FetchPartitionData) bool {
			return p.object(func(key string) (int, bool) {
				switch key {
				case "Topic":
					return 1, p.str1(&d.Topic)
				case "Partition":
					return 2, p.int32(&d.Partition)
				case "ErrorCode":
					return 4, intAs(p, &d.ErrorCode, math.MinInt16, math.MaxInt16)
				case "HighWatermark":
					return 8, p.int64(&d.HighWatermark)
				case "LastStableOffset":
					return 16, p.int64(&d.LastStableOffset)
				case "LogStartOffset":
					return 32, p.int64(&d.LogStartOffset)
				case "AbortedTransactions":
					return 64, readArray(p, &d.AbortedTransactions, func(a *protocol.AbortedTransaction) bool {
						return p.object(func(key string) (int, bool) {
							switch key {
							case "ProducerId":
								return 1, p.int64(&a.ProducerId)
							case "FirstOffset":
								return 2, p.int64(&a.FirstOffset)
							}
							return 0, false
						})
					})
				case "Diverging":
					return 128, p.bool1(&d.Diverging)
				case "DivergingEpoch":
					return 256, p.int32(&d.DivergingEpoch)
				case "DivergingEndOffset":
					return 512, p.int64(&d.DivergingEndOffset)
				}
				return 0, false // Records among them
			})
		})
	})
}

// readArray reads an array into *out, each element with read; [] is an
// empty slice, as json.Unmarshal makes it.
func readArray[T any](p *wireScanner, out *[]T, read func(*T) bool) bool {
	if !p.next('[') {
		return false
	}
	*out = []T{}
	if p.next(']') {
		return true
	}
	for {
		var v T
		if !read(&v) {
			return false
		}
		*out = append(*out, v)
		if p.next(']') {
			return true
		}
		if !p.next(',') {
			return false
		}
	}
}

// scanBody reads a message's body by hand if it is one of those read so
// (the followers' Fetch requests and answers without records), its
// strings shared through shared (nil for none); nil otherwise, for
// json.Unmarshal.
func scanBody(key [2]int, body []byte, shared map[string]string) protocol.Message {
	p := wireScanner{b: body, shared: shared}
	switch key {
	case msgKey(protocol.Fetch, false):
		m := &protocol.FetchRequest{}
		if p.fetchRequest(m) && p.i == len(body) {
			return m
		}
	case msgKey(protocol.Fetch, true):
		m := &protocol.FetchResponse{}
		if p.fetchResponse(m) && p.i == len(body) {
			return m
		}
	}
	return nil
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
			if p.shared == nil || len(s) > maxShared {
				return string(s), true
			}
			if v, ok := p.shared[string(s)]; ok {
				return v, true
			}
			v := string(s)
			p.shared[v] = v
			return v, true
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

// str1 reads a string into *v.
func (p *wireScanner) str1(v *string) bool {
	var ok bool
	*v, ok = p.str()
	return ok
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

// bool1 reads true or false into *v.
func (p *wireScanner) bool1(v *bool) bool {
	var ok bool
	*v, ok = p.bool()
	return ok
}

// intAs reads an integer between lo and hi, the range of v's type, into
// *v.
func intAs[T ~int8 | ~int16 | ~int32 | ~int | ~uint16](p *wireScanner, v *T, lo, hi int64) bool {
	var x int64
	ok := p.intIn(&x, lo, hi)
	*v = T(x)
	return ok
}

func (p *wireScanner) int32(v *int32) bool { return intAs(p, v, math.MinInt32, math.MaxInt32) }

func (p *wireScanner) int64(v *int64) bool { return p.intIn(v, math.MinInt64, math.MaxInt64) }

func (p *wireScanner) int(v *int) bool { return intAs(p, v, math.MinInt, math.MaxInt) }

func (p *wireScanner) uint16(v *uint16) bool { return intAs(p, v, 0, math.MaxUint16) }

// rawObject finds the extent of an object value (a message's body) by
// its braces and strings; whether it is valid JSON inside is for whoever
// decodes it.
func (p *wireScanner) rawObject() ([]byte, bool) {
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
