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
	scenarioAttrs    = []string{"id", "title", "facts", "actions"}
	scenarioRequired = []string{"id", "title"}
	scenarioIDRe     = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

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
	script, err := scenario.Parse("", s.Script)
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
