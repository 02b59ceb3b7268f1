package lessons

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"

	"txnlab/core/safety"
	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// An ```exercise block (docs/lessons.md, "Exercises"): a task the learner
// does by writing or changing a script, judged by running it. Its body
// is keyed lines at the start of a line (start:, goal:, hint:, explain:,
// solution:, wrong:); the scripts are the indented lines under their key.

var (
	exerciseAttrs    = []string{"id", "kind", "max-added", "allow", "break", "catches", "config"}
	exerciseRequired = []string{"id", "kind"}
	exerciseIDRe     = regexp.MustCompile(`^x-[a-z0-9-]+$`)
	exerciseKeyRe    = regexp.MustCompile(`^(start|goal|hint|explain|solution|wrong):`)
)

// KindExerciseBlock is the node kind of an ```exercise block.
var KindExerciseBlock = ast.NewNodeKind("ExerciseBlock")

// ExerciseBlock is an ```exercise block: a task the page mounts as an
// exercise card.
type ExerciseBlock struct {
	ast.BaseBlock
	Exercise doc.Exercise
	parsed   parsedExercise
}

// Kind implements ast.Node.
func (n *ExerciseBlock) Kind() ast.NodeKind { return KindExerciseBlock }

// IsRaw implements ast.Node: the body is parsed by the block.
func (n *ExerciseBlock) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *ExerciseBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"ID": n.Exercise.ID, "Kind": n.Exercise.Kind, "Line": strconv.Itoa(n.Exercise.Line)}, nil)
}

// parsedExercise is an exercise block as the loader needs it: the data the
// browser gets and the file lines its checks report at.
type parsedExercise struct {
	doc.Exercise
	goalLines []int
	// solution is the parsed reference solution, nil when it did not
	// parse: the goal lines are checked against its declarations.
	solution *scenario.Script
}

// exerciseScript is one script of the body and where it starts.
type exerciseScript struct {
	key   string
	lines []string
	line  int // the key's file line
}

func parseExerciseBlock(info string, body []string, line int, inline func(string) string) (parsedExercise, []*Error) {
	var errs []*Error
	at := func(l int, msg string) { errs = append(errs, &Error{Line: l, Msg: msg}) }
	x := parsedExercise{Exercise: doc.Exercise{Line: line}}

	as, msg := parseAttrs(info)
	if msg != "" {
		at(line, "exercise block: "+msg)
	}
	for _, m := range checkAttrs("exercise", as, exerciseAttrs, exerciseRequired) {
		at(line, m)
	}
	if id, ok := as.get("id"); ok {
		x.ID = id
		if !exerciseIDRe.MatchString(id) {
			at(line, "exercise id "+strconv.Quote(id)+" must be x- then lowercase letters, digits and -")
		}
	}
	if k, ok := as.get("kind"); ok {
		x.Kind = k
		if k != doc.ExerciseGoal && k != doc.ExerciseAttack {
			at(line, "exercise kind="+strconv.Quote(k)+" must be goal or attack")
		}
	}
	if s, ok := as.get("max-added"); ok {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			at(line, "exercise max-added="+strconv.Quote(s)+" must be a number of statements (0 or more)")
		}
		x.MaxAdded = n
	}
	if s, ok := as.get("allow"); ok {
		x.Allow = strings.Fields(s)
		if len(x.Allow) == 0 {
			at(line, "exercise allow= is empty (leave it out to allow any verb but break and restore)")
		}
	}
	mech, hasBreak := as.get("break")
	switch {
	case x.Kind == doc.ExerciseAttack && !hasBreak:
		at(line, "an attack exercise needs break=MECHANISM (one of "+strings.Join(safety.MechanismNames(), ", ")+")")
	case x.Kind == doc.ExerciseGoal && hasBreak:
		at(line, "break= is for attack exercises (a goal exercise may allow the learner to break with allow=\"break\")")
	case hasBreak:
		x.Break = mech
		if _, ok := safety.MechanismByName(mech); !ok {
			at(line, "exercise break="+strconv.Quote(mech)+" is not a mechanism (one of "+strings.Join(safety.MechanismNames(), ", ")+")")
		}
	}
	if s, ok := as.get("catches"); ok {
		x.Catches = strings.Fields(s)
		for _, inv := range x.Catches {
			if _, ok := safety.InvariantByName(inv); !ok {
				at(line, "exercise catches: "+strconv.Quote(inv)+" is not an invariant (one of "+strings.Join(safety.InvariantNames(), ", ")+")")
			}
		}
	}
	if s, ok := as.get("config"); ok {
		x.Config = s
		if _, err := scenario.ParseSettings(s); err != nil {
			at(line, "exercise config: "+err.Error())
		}
	}

	var (
		prompt, explain []string
		hints           [][]string
		scripts         []*exerciseScript
		part            string // "", hint, explain, or a script's key
		explainLine     int
	)
	for i, raw := range body {
		l := line + 1 + i
		t := strings.TrimSpace(raw)
		if m := exerciseKeyRe.FindString(raw); m != "" {
			key := strings.TrimSuffix(m, ":")
			rest := strings.TrimSpace(raw[len(m):])
			part = key
			switch key {
			case "goal":
				x.Goal = append(x.Goal, rest)
				x.goalLines = append(x.goalLines, l)
				if rest == "" {
					at(l, "exercise: an empty goal: (an expect statement)")
				}
			case "hint":
				hints = append(hints, []string{rest})
			case "explain":
				if explainLine != 0 {
					at(l, "exercise: a second explain: (the first is at line "+strconv.Itoa(explainLine)+")")
				}
				explainLine = l
				explain = append(explain, rest)
			default:
				if rest != "" {
					at(l, "exercise: "+key+": takes its script on the indented lines below it")
				}
				scripts = append(scripts, &exerciseScript{key: key, line: l})
			}
			continue
		}
		switch part {
		case "":
			prompt = append(prompt, t)
		case "goal":
			if t != "" {
				at(l, "exercise: goal: is one line, an expect statement (give another goal: for another)")
			}
		case "hint":
			hints[len(hints)-1] = append(hints[len(hints)-1], t)
		case "explain":
			explain = append(explain, t)
		default:
			sc := scripts[len(scripts)-1]
			if t != "" && raw == t {
				at(l, "exercise: the lines of "+sc.key+": are indented (a key such as goal: starts a line)")
			}
			sc.lines = append(sc.lines, t)
		}
	}

	if x.PromptHTML = inline(joinLines(prompt)); x.PromptHTML == "" {
		at(line, "exercise has no prompt (the lines before its first key)")
	}
	for _, h := range hints {
		x.HintsHTML = append(x.HintsHTML, inline(joinLines(h)))
	}
	if explainLine == 0 {
		at(line, "exercise has no explain: line")
	} else if x.ExplainHTML = inline(joinLines(explain)); x.ExplainHTML == "" {
		at(explainLine, "exercise: an empty explain:")
	}
	if x.Kind == doc.ExerciseGoal && len(x.Goal) == 0 {
		at(line, "a goal exercise needs at least one goal: line (an expect statement the learner's script must make hold)")
	}
	count := map[string]int{}
	for _, sc := range scripts {
		count[sc.key]++
		src := strings.TrimSpace(strings.Join(sc.lines, "\n"))
		if src == "" {
			at(sc.line, "exercise: "+sc.key+": has no script")
			continue
		}
		src += "\n"
		parsed, err := scenario.Parse("", src)
		if err != nil {
			var list scenario.ErrorList
			if errors.As(err, &list) {
				for _, e := range list {
					at(sc.line+e.Pos.Line, "exercise "+x.ID+" "+sc.key+": "+e.Msg+" (column "+strconv.Itoa(e.Pos.Col)+")")
				}
			} else {
				at(sc.line, "exercise "+x.ID+" "+sc.key+": "+err.Error())
			}
		}
		switch sc.key {
		case "start":
			x.Start = src
		case "solution":
			x.Solution, x.solution = src, parsed
		case "wrong":
			x.Wrong = append(x.Wrong, src)
		}
	}
	for _, key := range []string{"start", "solution"} {
		switch count[key] {
		case 0:
			at(line, "exercise has no "+key+": script")
		case 1:
		default:
			at(line, "exercise has "+strconv.Itoa(count[key])+" "+key+": scripts; one is allowed")
		}
	}
	if count["wrong"] == 0 {
		at(line, "exercise has no wrong: script (an attempt that must fail, which the tests run)")
	}
	if x.solution != nil {
		ps := &parsedScenario{Scenario: doc.Scenario{ID: x.ID}, script: x.solution}
		for i, g := range x.Goal {
			if msg := checkWhen(ps, g); msg != "" {
				at(x.goalLines[i], "goal: "+msg)
			}
		}
	}
	return x, errs
}
