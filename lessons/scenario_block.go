package lessons

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// A ```scenario block (docs/lessons.md, "Scenario blocks"): an id, a title,
// optional facts, and a scenario script as its body.

var (
	scenarioAttrs    = []string{"id", "title", "facts", "actions", "vary"}
	scenarioRequired = []string{"id", "title"}
	scenarioIDRe     = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	varNameRe        = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// maxVariants bounds a scenario's variants: the tests run every one of
// them with every question on it.
const maxVariants = 24

// parsedScenario is a scenario block as the loader needs it: the data the
// browser gets, and the parsed script for checking the questions on it.
type parsedScenario struct {
	doc.Scenario
	// script is the parsed script, nil when it did not parse.
	script *scenario.Script
}

// parseScenarioBlock reads a scenario block whose fence is at line (of the
// lesson file) and whose body lines follow it, one file line each.
func parseScenarioBlock(info string, body []string, line int) (parsedScenario, []*Error) {
	var errs []*Error
	at := func(l int, msg string) { errs = append(errs, &Error{Line: l, Msg: msg}) }
	s := parsedScenario{Scenario: doc.Scenario{Line: line}}

	as, msg := parseAttrs(info)
	if msg != "" {
		at(line, "scenario block: "+msg)
	}
	for _, m := range checkAttrs("scenario", as, scenarioAttrs, scenarioRequired) {
		at(line, m)
	}
	if id, ok := as.get("id"); ok {
		s.ID = id
		if !scenarioIDRe.MatchString(id) {
			at(line, "scenario id "+strconv.Quote(id)+" must be a lowercase letter, then lowercase letters, digits and -")
		}
	}
	if title, ok := as.get("title"); ok {
		s.Title = strings.TrimSpace(title)
		if s.Title == "" {
			at(line, "scenario title is empty")
		}
	}
	// facts and actions are ;-separated lists, checked against the
	// script by checkLesson.
	list := func(key, item, items string) []string {
		v, ok := as.get(key)
		if !ok {
			return nil
		}
		var out []string
		for part := range strings.SplitSeq(v, ";") {
			if part = strings.TrimSpace(part); part == "" {
				at(line, "scenario "+key+": an empty "+item+" ("+key+" are "+items+" separated by ;)")
				continue
			}
			out = append(out, part)
		}
		return out
	}
	s.Facts = list("facts", "query", "queries")
	s.Actions = list("actions", "statement", "statements")

	if strings.TrimSpace(strings.Join(body, "")) == "" {
		at(line, "scenario block has no script")
		return s, errs
	}
	s.Script = strings.Join(body, "\n") + "\n"
	if v, ok := as.get("vary"); ok {
		var msgs []string
		s.Vary, msgs = parseVary(v)
		for _, m := range msgs {
			at(line, "scenario vary: "+m)
		}
	}
	for _, name := range doc.Names(s.Script + s.Title + strings.Join(s.Facts, ";") + strings.Join(s.Actions, ";")) {
		if !hasVar(s.Vary, name) {
			at(line, "scenario "+s.ID+": {{"+name+"}} is not one of its vary= names")
		}
	}
	// Every variant must parse; the checks of the questions on it use
	// variant 0, the one the server shows.
	for n := doc.Variants(s.Vary) - 1; n >= 1; n-- {
		if _, err := scenario.Parse("", doc.Fill(s.Script, doc.Draw(s.Vary, n))); err != nil {
			at(line, "scenario "+s.ID+": variant "+variantText(s.Vary, n)+": "+err.Error())
		}
	}
	script, err := scenario.Parse("", doc.Fill(s.Script, doc.Draw(s.Vary, 0)))
	if err != nil {
		var list scenario.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				at(line+e.Pos.Line, "scenario "+s.ID+": "+e.Msg+" (column "+strconv.Itoa(e.Pos.Col)+")")
			}
		} else {
			at(line, "scenario "+s.ID+": "+err.Error())
		}
		return s, errs
	}
	s.script = script
	return s, errs
}

// parseVary reads a vary= attribute: NAME=V1|V2|… separated by ;.
func parseVary(v string) ([]doc.Var, []string) {
	var out []doc.Var
	var msgs []string
	for part := range strings.SplitSeq(v, ";") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		name, values, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if !ok || !varNameRe.MatchString(name) {
			msgs = append(msgs, strconv.Quote(part)+" is not NAME=V1|V2 (NAME: a lowercase letter, then lowercase letters, digits and _)")
			continue
		}
		if hasVar(out, name) {
			msgs = append(msgs, name+" is given twice")
			continue
		}
		vr := doc.Var{Name: name}
		for val := range strings.SplitSeq(values, "|") {
			val = strings.TrimSpace(val)
			if val == "" || strings.ContainsAny(val, " \t{}") {
				msgs = append(msgs, name+": the value "+strconv.Quote(val)+" must be a word (no spaces, braces, | or ;)")
				continue
			}
			vr.Values = append(vr.Values, val)
		}
		if len(vr.Values) < 2 {
			msgs = append(msgs, name+" needs at least two values (V1|V2)")
			continue
		}
		out = append(out, vr)
	}
	if n := doc.Variants(out); n > maxVariants {
		msgs = append(msgs, strconv.Itoa(n)+" variants in all; at most "+strconv.Itoa(maxVariants))
	}
	return out, msgs
}

func hasVar(vars []doc.Var, name string) bool {
	for _, v := range vars {
		if v.Name == name {
			return true
		}
	}
	return false
}

// variantText names variant n for an error: "id=payments-7 n=3".
func variantText(vars []doc.Var, n int) string {
	vals := doc.Draw(vars, n)
	var parts []string
	for _, v := range vars {
		parts = append(parts, v.Name+"="+vals[v.Name])
	}
	return strings.Join(parts, " ")
}
