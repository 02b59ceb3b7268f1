package lessons

import (
	"errors"
	"strconv"
	"strings"

	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// The checks that need more than one block: a question against its
// scenario in the same lesson, and a lesson against its twin and the rest
// of the course. Each block's own checks are in its parser.

// checkLesson checks the blocks of one lesson against each other.
func checkLesson(p *page) []*Error {
	var errs []*Error
	at := func(l int, msg string) { errs = append(errs, &Error{Line: l, Msg: msg}) }
	byID := map[string]*parsedScenario{}
	var ids []string
	for i := range p.scenarios {
		s := &p.scenarios[i]
		if s.ID == "" {
			continue
		}
		if prev, dup := byID[s.ID]; dup {
			at(s.Line, "duplicate scenario id "+strconv.Quote(s.ID)+" (first at line "+strconv.Itoa(prev.Line)+")")
			continue
		}
		byID[s.ID] = s
		ids = append(ids, s.ID)
	}
	for _, s := range byID {
		if s.script == nil {
			continue
		}
		for _, f := range s.Filled(doc.Draw(s.Vary, 0)).Facts {
			if msg := checkQuery(s, f); msg != "" {
				at(s.Line, "scenario facts: query "+strconv.Quote(f)+": "+msg)
			}
		}
		for _, a := range s.Filled(doc.Draw(s.Vary, 0)).Actions {
			if msg := checkAction(s, a); msg != "" {
				at(s.Line, "scenario actions: "+strconv.Quote(a)+": "+msg)
			}
		}
	}
	// Each playground's section is named by its title and each
	// question's by its prompt: two alike on one page are two landmarks a
	// screen reader cannot tell apart. own reports a name said before.
	own := func(seen map[string]int, name string, line int, who, field, block string) {
		if first, dup := seen[name]; dup && name != "" {
			at(line, who+": its "+field+" is the one at line "+strconv.Itoa(first)+"; each "+block+" on a page needs a "+field+" of its own")
			return
		}
		seen[name] = line
	}
	titles, prompts := map[string]int{}, map[string]int{}
	for i := range p.scenarios {
		own(titles, p.scenarios[i].Title, p.scenarios[i].Line, "scenario "+p.scenarios[i].ID, "title", "playground")
	}
	for i := range p.questions {
		own(prompts, p.questions[i].PromptHTML, p.questions[i].Line, "question "+p.questions[i].ID, "prompt", "question")
	}
	for _, st := range p.steps {
		s, ok := byID[st.scenario]
		switch {
		case !ok:
			at(st.fileLine, "step link "+st.raw+": no scenario block "+strconv.Quote(st.scenario)+" in this lesson"+didYouMean(st.scenario, ids))
		case st.line == 0:
			at(st.fileLine, "step link "+st.raw+": expected #step:SCENARIO:LINE with LINE a line of that block's script")
		case s.script != nil:
			if msg := checkStop(s, st.line); msg != "" {
				at(st.fileLine, "step link "+st.raw+": "+strings.Replace(msg, "stop=", "line ", 1))
			}
		}
	}
	for i := range p.questions {
		q := &p.questions[i]
		if q.Scenario == "" {
			continue
		}
		s, ok := byID[q.Scenario]
		if !ok {
			at(q.Line, "question "+q.ID+": no scenario block "+strconv.Quote(q.Scenario)+" in this lesson"+didYouMean(q.Scenario, ids))
			continue
		}
		if s.script == nil {
			continue // its errors are reported; checking against it would only repeat them
		}
		for _, name := range doc.Names(questionText(&q.Question)) {
			if !hasVar(s.Vary, name) {
				at(q.Line, "question "+q.ID+": {{"+name+"}} is not one of scenario "+s.ID+"'s vary= names")
			}
		}
		// The checks read variant 0, the one the server shows; the tests
		// run every variant.
		filled := q.Question.Filled(doc.Draw(s.Vary, 0))
		if filled.Answer != "" {
			if msg := checkQuery(s, filled.Answer); msg != "" {
				at(q.answerLine, "answer: query {"+filled.Answer+"}: "+msg)
			}
		}
		n := 0
		for _, part := range filled.Evidence {
			if part.Query == "" {
				continue
			}
			if msg := checkQuery(s, part.Query); msg != "" {
				at(q.queryLines[n], "evidence: query {"+part.Query+"}: "+msg)
			}
			n++
		}
		if q.Stop > 0 {
			if msg := checkStop(s, q.Stop); msg != "" {
				at(q.Line, "question "+q.ID+": "+msg)
			}
		}
		for ci, c := range filled.Choices {
			for wi, w := range c.When {
				if msg := checkWhen(s, w); msg != "" {
					at(q.whenLines[ci][wi], "when: "+msg)
				}
			}
		}
	}
	asked := map[string]bool{}
	segQuestion := map[string]bool{}
	for _, q := range p.questions {
		segQuestion[q.ID] = true
	}
	for _, seg := range p.lesson.Segments {
		if seg.Question != "" {
			asked[seg.Question] = true
		}
		if seg.After == "" {
			continue
		}
		a := afterByQuestion(p.afters, seg.After)
		switch {
		case !segQuestion[seg.After]:
			at(a.Line, "after question="+seg.After+": no such question in this lesson")
		case !asked[seg.After]:
			at(a.Line, "after question="+seg.After+": the after block comes before its question (it holds the answer: ask first)")
		}
	}
	for _, prose := range p.prose {
		if strings.Contains(prose.text, "{{") {
			at(prose.line, "{{…}} is for a varied scenario's blocks; the lesson's text is the same for every learner")
		}
	}
	return errs
}

// questionText is every text of a question that may say {{NAME}}.
func questionText(q *doc.Question) string {
	parts := []string{q.PromptHTML, q.Answer, q.ExplainHTML}
	parts = append(parts, q.HintsHTML...)
	for _, c := range q.Choices {
		parts = append(parts, c.HTML)
		parts = append(parts, c.When...)
	}
	for _, e := range q.Evidence {
		parts = append(parts, e.Text, e.Code, e.Query)
	}
	return strings.Join(parts, "\n")
}

// afterByQuestion finds the first after block of a question (for its line).
func afterByQuestion(afters []*AfterBlock, q string) *AfterBlock {
	for _, a := range afters {
		if a.Question == q {
			return a
		}
	}
	return &AfterBlock{}
}

// checkStop says what is wrong with stop=N for scenario s, or "".
func checkStop(s *parsedScenario, stop int) string {
	for _, st := range s.script.Statements {
		if st.Position().Line == stop {
			return ""
		}
	}
	n := strings.Count(s.Script, "\n")
	if stop > n {
		return "stop=" + strconv.Itoa(stop) + " is past the end of scenario " + s.ID + " (its script has " + strconv.Itoa(n) + " lines)"
	}
	return "stop=" + strconv.Itoa(stop) + " is not a statement of scenario " + s.ID +
		" (line " + strconv.Itoa(stop) + " of its script, file line " + strconv.Itoa(s.Line+stop) + ", is blank or a comment)"
}

// checkWhen says what is wrong with a when: line, or "": it must be an
// expect statement of the scenario language that parses against the
// script's declarations.
func checkWhen(s *parsedScenario, w string) string {
	if f := strings.Fields(w); len(f) == 0 || f[0] != "expect" {
		return strconv.Quote(w) + " is not an expect statement (when: expect …)"
	}
	_, err := scenario.ParseLine(w, 1, s.script.Decls.Clone())
	if err == nil {
		return ""
	}
	var e *scenario.Error
	if errors.As(err, &e) {
		return e.Msg + " (column " + strconv.Itoa(e.Pos.Col) + " of the statement)"
	}
	return err.Error()
}

// checkQuery says what is wrong with a query (a fact, an evidence slot)
// against the script it is evaluated on, or "".
func checkQuery(s *parsedScenario, q string) string {
	_, err := scenario.ParseQuery(q, s.script.Decls)
	if err == nil {
		return ""
	}
	var e *scenario.Error
	if errors.As(err, &e) {
		return e.Msg + " (column " + strconv.Itoa(e.Pos.Col) + " of the query)"
	}
	return err.Error()
}

// checkAction says what is wrong with an action (a statement a
// playground offers as a button) against its script, or "": it must be
// one statement that is not a declaration nor an expectation.
func checkAction(s *parsedScenario, a string) string {
	st, err := scenario.ParseLine(a, 1, s.script.Decls.Clone())
	if err != nil {
		var e *scenario.Error
		if errors.As(err, &e) {
			return e.Msg + " (column " + strconv.Itoa(e.Pos.Col) + ")"
		}
		return err.Error()
	}
	switch st.(type) {
	case nil, *scenario.ClusterStmt, *scenario.TopicStmt, *scenario.ProducerStmt, *scenario.ConsumerStmt:
		return "an action is one statement that does something (crash broker-1, pause app, …), not a declaration"
	}
	if scenario.IsExpect(st) {
		return "an action is one statement that does something (crash broker-1, pause app, …), not an expectation"
	}
	return ""
}

// checkCourse checks the lessons against each other: every lesson has its
// twin in the other language, the twins agree on order and block ids, and
// no two questions of a language share an id (progress is keyed by it).
func checkCourse(pages []*page) []*Error {
	var errs []*Error
	type twins struct{ en, zh *page }
	bySlug := map[string]*twins{}
	var slugs []string
	type loc struct {
		file string
		line int
	}
	questionIDs := map[doc.Lang]map[string]loc{}
	for _, p := range pages {
		t := bySlug[p.lesson.Slug]
		if t == nil {
			t = &twins{}
			bySlug[p.lesson.Slug] = t
			slugs = append(slugs, p.lesson.Slug)
		}
		if p.lesson.Lang == doc.Chinese {
			t.zh = p
		} else {
			t.en = p
		}
		seen := questionIDs[p.lesson.Lang]
		if seen == nil {
			seen = map[string]loc{}
			questionIDs[p.lesson.Lang] = seen
		}
		// Exercises and questions share one id space: progress is kept by id.
		claim := func(kind, id string, line int) {
			if id == "" {
				return
			}
			if prev, dup := seen[id]; dup {
				errs = append(errs, &Error{File: p.file, Line: line,
					Msg: "duplicate " + kind + " id " + strconv.Quote(id) + " (first at " + prev.file + ":" + strconv.Itoa(prev.line) + ")"})
				return
			}
			seen[id] = loc{p.file, line}
		}
		for _, x := range p.exercises {
			claim("exercise", x.ID, x.Line)
		}
		for _, q := range p.questions {
			claim("question", q.ID, q.Line)
		}
	}
	for _, slug := range slugs {
		t := bySlug[slug]
		switch {
		case t.zh == nil:
			errs = append(errs, &Error{File: t.en.file, Line: 1, Msg: "no Chinese twin: " + slug + ".zh.md is missing"})
			continue
		case t.en == nil:
			errs = append(errs, &Error{File: t.zh.file, Line: 1, Msg: "no English twin: " + slug + ".md is missing"})
			continue
		}
		if a, b := t.en.fm.meta.Order, t.zh.fm.meta.Order; a != 0 && b != 0 && a != b {
			errs = append(errs, &Error{File: t.zh.file, Line: t.zh.fm.orderLine,
				Msg: "order " + strconv.Itoa(b) + " differs from the English twin's order " + strconv.Itoa(a) +
					" (" + t.en.file + ":" + strconv.Itoa(t.en.fm.orderLine) + ")"})
		}
		errs = append(errs, compareIDs("scenario", t.en, t.zh, blockIDs(t.en.lesson.Scenarios), blockIDs(t.zh.lesson.Scenarios))...)
		errs = append(errs, compareIDs("question", t.en, t.zh, questionBlockIDs(t.en.lesson.Questions), questionBlockIDs(t.zh.lesson.Questions))...)
		errs = append(errs, compareIDs("exercise", t.en, t.zh, exerciseBlockIDs(t.en.lesson.Exercises), exerciseBlockIDs(t.zh.lesson.Exercises))...)
	}
	return errs
}

// blockID is a block's id and the line it is at.
type blockID struct {
	id   string
	line int
}

func blockIDs(ss []doc.Scenario) []blockID {
	ids := make([]blockID, len(ss))
	for i, s := range ss {
		ids[i] = blockID{s.ID, s.Line}
	}
	return ids
}

func exerciseBlockIDs(xs []doc.Exercise) []blockID {
	ids := make([]blockID, len(xs))
	for i, x := range xs {
		ids[i] = blockID{x.ID, x.Line}
	}
	return ids
}

func questionBlockIDs(qs []doc.Question) []blockID {
	ids := make([]blockID, len(qs))
	for i, q := range qs {
		ids[i] = blockID{q.ID, q.Line}
	}
	return ids
}

// compareIDs reports the first place where the twins' blocks of a kind
// differ: the same ids, in the same order, in both languages.
func compareIDs(kind string, en, zh *page, a, b []blockID) []*Error {
	for i := 0; i < len(a) || i < len(b); i++ {
		switch {
		case i >= len(b):
			return []*Error{{File: en.file, Line: a[i].line,
				Msg: kind + " " + strconv.Quote(a[i].id) + " has no counterpart in the Chinese twin " + zh.file +
					" (both languages have the same " + kind + " blocks, in the same order)"}}
		case i >= len(a):
			return []*Error{{File: zh.file, Line: b[i].line,
				Msg: kind + " " + strconv.Quote(b[i].id) + " has no counterpart in the English twin " + en.file +
					" (both languages have the same " + kind + " blocks, in the same order)"}}
		case a[i].id != b[i].id:
			return []*Error{{File: zh.file, Line: b[i].line,
				Msg: kind + " " + strconv.Quote(b[i].id) + " is " + strconv.Quote(a[i].id) + " in the English twin (" +
					en.file + ":" + strconv.Itoa(a[i].line) + "): both languages have the same " + kind + " blocks, in the same order"}}
		}
	}
	return nil
}
