package lessons

import (
	"slices"
	"strconv"
	"strings"
)

// A block's info string is its language word and then attributes:
//
//	```question id=q-markers-fail scenario=markers-fail stop=14
//	```scenario id=endtxn title="EndTxn: commit"
//
// A value is a bare word (no spaces, no quotes) or a double-quoted string
// in which \" and \\ stand for " and \. goldmark's own attribute syntax
// ({#id .class key=value}) is for rendered elements and turns numbers into
// floats; these attributes are data, so they get their own small parser.

// attrs is the attributes of one block, in the order written.
type attrs []attr

type attr struct{ key, value string }

// get returns the value of key and whether it was given.
func (as attrs) get(key string) (string, bool) {
	for _, a := range as {
		if a.key == key {
			return a.value, true
		}
	}
	return "", false
}

// parseAttrs parses the attributes after the language word. It stops at
// the first malformed attribute and says what is wrong with it.
func parseAttrs(s string) (attrs, string) {
	var as attrs
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return as, ""
		}
		eq := strings.IndexAny(s, "= \t\"")
		if eq <= 0 || s[eq] != '=' {
			word, _, _ := strings.Cut(s, " ")
			return as, "attribute " + strconv.Quote(word) + " is not key=value"
		}
		key := s[:eq]
		s = s[eq+1:]
		var value string
		if strings.HasPrefix(s, `"`) {
			var b strings.Builder
			i, closed := 1, false
			for i < len(s) {
				c := s[i]
				if c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					b.WriteByte(s[i+1])
					i += 2
					continue
				}
				i++
				if c == '"' {
					closed = true
					break
				}
				b.WriteByte(c)
			}
			if !closed {
				return as, "the quoted value of " + strconv.Quote(key) + " has no closing \""
			}
			value, s = b.String(), s[i:]
			if s != "" && s[0] != ' ' && s[0] != '\t' {
				return as, "a space must follow the quoted value of " + strconv.Quote(key)
			}
		} else {
			end := strings.IndexAny(s, " \t")
			if end < 0 {
				end = len(s)
			}
			value, s = s[:end], s[end:]
			if strings.Contains(value, `"`) {
				return as, "the value of " + strconv.Quote(key) + " has a stray \": quote the whole value"
			}
		}
		if _, dup := as.get(key); dup {
			return as, "attribute " + strconv.Quote(key) + " given twice"
		}
		as = append(as, attr{key, value})
	}
}

// checkAttrs reports the attributes a block does not know (with the
// closest known one) and the required ones it lacks.
func checkAttrs(lang string, as attrs, known, required []string) []string {
	var msgs []string
	for _, a := range as {
		if !slices.Contains(known, a.key) {
			msgs = append(msgs, "unknown "+lang+" attribute "+strconv.Quote(a.key)+
				didYouMean(a.key, known)+" (known: "+strings.Join(known, ", ")+")")
		}
	}
	for _, k := range required {
		if _, ok := as.get(k); !ok {
			msgs = append(msgs, lang+" block needs a "+k+"= attribute")
		}
	}
	return msgs
}
