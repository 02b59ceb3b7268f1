package lessons

import (
	"regexp"
	"strconv"
	"strings"

	"txnlab/lessons/doc"
)

// A ```question block (docs/lessons.md, "Question blocks"): attributes
// naming its scenario and stop line, then a body of prompt, choices with
// their when: lines, hints, the explanation and the evidence sentence.

var (
	questionAttrs    = []string{"id", "scenario", "stop", "multiple"}
	questionRequired = []string{"id", "scenario"}
	questionIDRe     = regexp.MustCompile(`^q-[a-z0-9-]+$`)
	choiceKeys       = "abcdefghijklmnopqrstuvwxyz"
)

// parsedQuestion is a question block as the loader needs it: the data the
// browser gets, and the lines the cross-block checks report at.
type parsedQuestion struct {
	doc.Question
	// whenLines[i][j] is the file line of Choices[i].When[j].
	whenLines [][]int
	// queryLines[i] is the file line of the evidence's i-th query.
	queryLines []int
	// answerLine is the file line of answer:, when there is one.
	answerLine int
}

// questionPart is one keyed part of the body being read.
type questionPart int

const (
	partPrompt questionPart = iota
	partChoice
	partHint
	partExplain
	partEvidence
	partAnswer
)

// rawChoice is a choice as written, before its text is rendered.
type rawChoice struct {
	right     bool
	text      []string
	when      []string
	whenLines []int
	line      int
}

// parseQuestionBlock reads a question block whose fence is at line (of the
// lesson file). inline renders inline Markdown to HTML.
func parseQuestionBlock(info string, body []string, line int, inline func(string) string) (parsedQuestion, []*Error) {
	var errs []*Error
	at := func(l int, msg string) { errs = append(errs, &Error{Line: l, Msg: msg}) }
	q := parsedQuestion{Question: doc.Question{Line: line}}

	as, msg := parseAttrs(info)
	if msg != "" {
		at(line, "question block: "+msg)
	}
	for _, m := range checkAttrs("question", as, questionAttrs, questionRequired) {
		at(line, m)
	}
	if id, ok := as.get("id"); ok {
		q.ID = id
		if !questionIDRe.MatchString(id) {
			at(line, "question id "+strconv.Quote(id)+" must be q- then lowercase letters, digits and -")
		}
	}
	if s, ok := as.get("scenario"); ok {
		q.Scenario = s
		if !scenarioIDRe.MatchString(s) {
			at(line, "question scenario="+strconv.Quote(s)+" is not a scenario id")
		}
	}
	if s, ok := as.get("stop"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			at(line, "question stop="+strconv.Quote(s)+" must be a line number of the scenario's script (1 or more)")
		} else {
			q.Stop = n
		}
	}
	if s, ok := as.get("multiple"); ok {
		switch s {
		case "true":
			q.Multiple = true
		case "false":
		default:
			at(line, "question multiple="+strconv.Quote(s)+" must be true or false")
		}
	}

	var (
		prompt, explain []string
		hints           [][]string
		evidence        []evidenceLine
		choices         []*rawChoice
		part            = partPrompt
		explainLine     int
		evidenceLineNo  int
	)
	for i, raw := range body {
		l := line + 1 + i
		t := strings.TrimSpace(raw)
		if right, text, ok := choiceLine(t); ok {
			if part > partChoice {
				at(l, "question: the choices come before hint:, explain: and evidence:")
			}
			part = partChoice
			choices = append(choices, &rawChoice{right: right, text: []string{text}, line: l})
			if text == "" {
				at(l, "question: a choice without text")
			}
			continue
		}
		if rest, ok := keyLine(t, "when"); ok {
			if part != partChoice {
				at(l, "question: when: belongs under a choice (- [ ] or - [x])")
				continue
			}
			c := choices[len(choices)-1]
			c.when = append(c.when, rest)
			c.whenLines = append(c.whenLines, l)
			if rest == "" {
				at(l, "question: an empty when:")
			}
			continue
		}
		if rest, ok := keyLine(t, "hint"); ok {
			part = partHint
			hints = append(hints, []string{rest})
			continue
		}
		if rest, ok := keyLine(t, "explain"); ok {
			if explainLine != 0 {
				at(l, "question: a second explain: (the first is at line "+strconv.Itoa(explainLine)+")")
			}
			part, explainLine = partExplain, l
			explain = append(explain, rest)
			continue
		}
		if rest, ok := keyLine(t, "answer"); ok {
			if q.Answer != "" {
				at(l, "question: a second answer:")
				continue
			}
			if len(choices) > 0 {
				at(l, "question: answer: is for a question answered by typing a value; this one has choices")
			}
			part, q.Answer, q.answerLine = partAnswer, strings.Join(strings.Fields(rest), " "), l
			if q.Answer == "" {
				at(l, "question: an empty answer: (a query whose value at the stop point is the right answer)")
			}
			continue
		}
		if rest, ok := keyLine(t, "evidence"); ok {
			if evidenceLineNo != 0 {
				at(l, "question: a second evidence: (the first is at line "+strconv.Itoa(evidenceLineNo)+")")
			}
			part, evidenceLineNo = partEvidence, l
			evidence = append(evidence, evidenceLine{rest, l})
			continue
		}
		switch part {
		case partAnswer:
			if t != "" {
				at(l, "question: answer: is one line, a query")
			}
		case partPrompt:
			prompt = append(prompt, t)
		case partChoice:
			c := choices[len(choices)-1]
			if len(c.when) > 0 && t != "" {
				at(l, "question: text after a choice's when: lines (continue the choice's text before them)")
				continue
			}
			c.text = append(c.text, t)
		case partHint:
			hints[len(hints)-1] = append(hints[len(hints)-1], t)
		case partExplain:
			explain = append(explain, t)
		case partEvidence:
			evidence = append(evidence, evidenceLine{t, l})
		}
	}

	if q.PromptHTML = inline(joinLines(prompt)); q.PromptHTML == "" {
		at(line, "question has no prompt (the lines before its first choice)")
	}
	right := 0
	for i, c := range choices {
		if i >= len(choiceKeys) {
			at(c.line, "question: more than "+strconv.Itoa(len(choiceKeys))+" choices")
			break
		}
		if len(c.when) == 0 {
			at(c.line, "question: a choice needs at least one when: line (an expect statement that holds when the choice is what happened)")
		}
		if c.right {
			right++
		}
		q.Choices = append(q.Choices, doc.Choice{
			Key:   choiceKeys[i : i+1],
			HTML:  inline(joinLines(c.text)),
			Right: c.right,
			When:  c.when,
		})
		q.whenLines = append(q.whenLines, c.whenLines)
	}
	if q.Answer == "" && len(choices) < 2 {
		at(line, "question needs at least two choices (- [ ] or - [x] lines), or an answer: line")
	}
	if !q.Multiple && len(choices) >= 2 && right != 1 {
		at(line, "question has "+strconv.Itoa(right)+" choices marked [x]: a single-choice question needs exactly one (or say multiple=true)")
	}
	for _, h := range hints {
		q.HintsHTML = append(q.HintsHTML, inline(joinLines(h)))
	}
	if explainLine == 0 {
		at(line, "question has no explain: line")
	} else if q.ExplainHTML = inline(joinLines(explain)); q.ExplainHTML == "" {
		at(explainLine, "question: an empty explain:")
	}
	if evidenceLineNo == 0 {
		at(line, "question has no evidence: line")
	} else {
		parts, qlines, perrs := parseEvidence(evidence)
		errs = append(errs, perrs...)
		q.Evidence, q.queryLines = parts, qlines
		if !hasQuery(parts) {
			at(evidenceLineNo, "question: the evidence has no {query} slot (it must show a value from the run)")
		}
	}
	return q, errs
}

// choiceLine recognises "- [ ] text" and "- [x] text".
func choiceLine(t string) (right bool, text string, ok bool) {
	rest, ok := strings.CutPrefix(t, "- [")
	if !ok || len(rest) < 2 || rest[1] != ']' {
		return false, "", false
	}
	switch rest[0] {
	case ' ':
	case 'x', 'X':
		right = true
	default:
		return false, "", false
	}
	rest = rest[2:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return false, "", false
	}
	return right, strings.TrimSpace(rest), true
}

// keyLine recognises "key: rest".
func keyLine(t, key string) (string, bool) {
	rest, ok := strings.CutPrefix(t, key+":")
	if !ok {
		return "", false
	}
	return strings.TrimSpace(rest), true
}

// joinLines joins a part's lines as Markdown source, dropping leading and
// trailing blank lines.
func joinLines(lines []string) string {
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
