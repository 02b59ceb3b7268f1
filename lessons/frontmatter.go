package lessons

import (
	"slices"
	"strconv"
	"strings"

	"txnlab/lessons/doc"
)

// Front matter (docs/lessons.md, "Front matter"): the file's first line is
// ---, then key: value lines, then ---. Only title, summary and order, all
// required. It is read by hand, not by a YAML library: three keys need no
// dependency, and every mistake gets its line.

var frontMatterKeys = []string{"title", "summary", "order"}

// frontMatter is what the lines between the --- say, with the line each
// key is on.
type frontMatter struct {
	meta doc.Meta
	// orderLine is the line of order:, where a twin's differing order is
	// reported.
	orderLine int
	// end is the number of lines the front matter takes, the closing ---
	// included; the body starts after it.
	end int
}

// parseFrontMatter reads the front matter at the start of lines (the
// file split at \n).
func parseFrontMatter(lines []string) (frontMatter, []*Error) {
	var fm frontMatter
	var errs []*Error
	at := func(l int, msg string) { errs = append(errs, &Error{Line: l, Msg: msg}) }
	if len(lines) == 0 || strings.TrimRight(strings.TrimPrefix(lines[0], "\uFEFF"), " \t\r") != "---" {
		at(1, "a lesson starts with front matter: a --- line, then title:, summary: and order: lines, then ---")
		return fm, errs
	}
	seen := map[string]int{}
	for i := 1; i < len(lines); i++ {
		l := i + 1
		t := strings.TrimRight(lines[i], " \t\r")
		if t == "---" {
			fm.end = l
			break
		}
		if strings.TrimSpace(t) == "" {
			continue
		}
		key, value, ok := strings.Cut(t, ":")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		// A value may be double-quoted, as in YAML, to hold a ": ".
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			if u, err := strconv.Unquote(value); err == nil {
				value = u
			}
		}
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			at(l, "front matter: "+strconv.Quote(t)+" is not a key: value line")
			continue
		}
		if !slices.Contains(frontMatterKeys, key) {
			at(l, "front matter: unknown key "+strconv.Quote(key)+didYouMean(key, frontMatterKeys)+
				" (keys: "+strings.Join(frontMatterKeys, ", ")+")")
			continue
		}
		if prev, dup := seen[key]; dup {
			at(l, "front matter: "+key+" given twice (first at line "+strconv.Itoa(prev)+")")
			continue
		}
		seen[key] = l
		if value == "" {
			at(l, "front matter: "+key+" is empty")
			continue
		}
		switch key {
		case "title":
			fm.meta.Title = value
		case "summary":
			fm.meta.Summary = value
		case "order":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || n > 99 {
				at(l, "front matter: order "+strconv.Quote(value)+" must be a whole number from 0 to 99")
				continue
			}
			fm.meta.Order, fm.orderLine = n, l
		}
	}
	if fm.end == 0 {
		// Without its end, the body was read as front matter: what that
		// says is noise.
		return frontMatter{}, []*Error{{Line: 1, Msg: "front matter: no closing --- line"}}
	}
	for _, k := range frontMatterKeys {
		if _, ok := seen[k]; !ok {
			at(fm.end, "front matter: missing "+k+":")
		}
	}
	return fm, errs
}
