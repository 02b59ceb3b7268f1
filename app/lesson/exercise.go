package lesson

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/playground"
	"txnlab/app/progress"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/lessons/doc"
	"txnlab/lessons/exercise"
)

// The exercise card (docs/lessons.md, "Exercises"): the learner edits a
// script until it reaches the exercise's goal, judged by running it
// (lessons/exercise) in slices between frames; on an attack exercise the
// explorer can try instead. It replaces the server's HTML of the block
// (prompt and starting script) when the wasm mounts; pre-rendered, it is
// that same prompt with the starting script in the editor.

// primerSlug is the lesson on the scenario language every exercise
// links to.
const primerSlug = "00-scenario-language"

// languageReference is where the scenario language is documented in
// full, named (not linked: the site does not serve docs/) by every card.
const languageReference = "docs/scenario-language.md"

// exerciseCard is one exercise of a lesson.
type exerciseCard struct {
	app.Compo

	X    doc.Exercise
	Lang doc.Lang

	prog    *progress.Exercise
	text    string // the editor's text
	check   *exercise.Check
	result  *exercise.Result
	err     string
	hints   int // hints shown
	explore *engine.Exploration
	xs      exercise.ExploreState
	// seed is the first seed of the next exploration: after one that
	// ended (found or none), the next tries other schedules.
	seed uint64
}

func (c *exerciseCard) OnMount(ctx app.Context) {
	c.prog = progress.Load().Exercise(c.X.ID)
	c.text = c.prog.Script
	if c.text == "" {
		c.text = c.X.Start
	}
	c.setTextarea(ctx, c.text)
}

func (c *exerciseCard) OnDismount() {
	if c.explore != nil {
		c.explore.Stop()
	}
}

func (c *exerciseCard) state() *progress.Exercise {
	if c.prog == nil {
		return &progress.Exercise{State: progress.Unsolved}
	}
	return c.prog
}

func (c *exerciseCard) editorText() string {
	if c.text == "" && c.prog == nil {
		return c.X.Start
	}
	return c.text
}

func (c *exerciseCard) textareaID() string { return "x-script-" + playground.DomID(c.X.ID) }

// setTextarea gives the editor a text from outside (Reset, a solution, the
// explorer's script): the textarea's value is the browser's, not the
// render's.
func (c *exerciseCard) setTextarea(ctx app.Context, text string) {
	if !app.IsClient {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if ta := app.Window().GetElementByID(c.textareaID()); ta.Truthy() && ta.Get("value").String() != text {
			ta.Set("value", text)
		}
	})
}

// setText replaces the learner's script and keeps it.
func (c *exerciseCard) setText(ctx app.Context, text string) {
	c.text = text
	st := c.state()
	st.Script = text
	if text == c.X.Start {
		st.Script = ""
	}
	progress.Load().Save()
	c.setTextarea(ctx, text)
}

func (c *exerciseCard) onInput(ctx app.Context, e app.Event) {
	c.setText(ctx, ctx.JSSrc().Get("value").String())
}

func (c *exerciseCard) onReset(ctx app.Context, e app.Event) {
	c.result, c.err = nil, ""
	c.setText(ctx, c.X.Start)
}

func (c *exerciseCard) onHint(ctx app.Context, e app.Event) { c.hints++ }

func (c *exerciseCard) onReveal(ctx app.Context, e app.Event) {
	c.state().Revealed = true
	progress.Load().Save()
}

func (c *exerciseCard) onUseSolution(ctx app.Context, e app.Event) {
	c.setText(ctx, c.X.Solution)
}

// onCheck judges the script in slices between frames.
func (c *exerciseCard) onCheck(ctx app.Context, e app.Event) {
	if c.check != nil {
		return
	}
	chk, err := exercise.Start(&c.X, c.text)
	if err != nil {
		c.err = err.Error()
		return
	}
	c.check, c.err = chk, ""
	var slice func(ctx app.Context, budget time.Duration)
	slice = func(ctx app.Context, budget time.Duration) {
		deadline := time.Now().Add(budget)
		for !chk.Work(500) {
			if time.Now().After(deadline) {
				playground.TakeTurn(ctx, slice)
				return
			}
		}
		c.check = nil
		c.result = chk.Result()
		st := c.state()
		st.Tries++
		switch {
		case c.result.Passed:
			st.State = progress.Solved
		case st.State != progress.Solved:
			st.State = progress.Failed
		}
		progress.Load().Save()
	}
	slice(ctx, playground.WorkSlice)
}

// onExplore starts the explorer: in the engine's worker when there is
// one, else on the page.
func (c *exerciseCard) onExplore(ctx app.Context, e app.Event) {
	if c.explore != nil && !c.xs.Done() {
		return
	}
	switch {
	case c.seed == 0:
		c.seed = 1
	case c.xs.Phase == exercise.PhaseFound || c.xs.Phase == exercise.PhaseNone:
		c.seed += uint64(max(c.xs.Runs, 1))
	}
	c.xs = exercise.ExploreState{Phase: exercise.PhaseSearch, MaxRuns: exercise.DefaultMaxRuns, MaxTries: exercise.DefaultMaxTries}
	c.explore = startExploration(c.X, c.seed, func(st exercise.ExploreState) {
		ctx.Dispatch(func(ctx app.Context) { c.xs = st })
	})
}

func (c *exerciseCard) onStopExplore(ctx app.Context, e app.Event) {
	if c.explore != nil {
		c.explore.Stop()
	}
}

func (c *exerciseCard) onUseExplored(ctx app.Context, e app.Event) {
	if c.xs.Script != "" {
		c.setText(ctx, c.xs.Script)
	}
}

func (c *exerciseCard) Render() app.UI {
	l, x, st := c.Lang, c.X, c.state()
	heading := "x.heading.goal"
	if x.Kind == doc.ExerciseAttack {
		heading = "x.heading.attack"
	}
	done := st.State == progress.Solved || st.Revealed
	return app.Section().Class("exercise").ID(x.ID).DataSet("exercise", x.ID).DataSet("kind", x.Kind).
		DataSet("state", st.State).Aria("labelledby", x.ID+"-heading").Body(
		c.renderHeading(heading),
		app.Raw(`<div class="exercise-prompt">`+x.PromptHTML+`</div>`),
		c.renderRules(),
		app.Label().For(c.textareaID()).Class("exercise-label").Text(uitext.Tr(l, "x.script")),
		app.Textarea().ID(c.textareaID()).Class("exercise-script").DataSet("field", "script").
			Spellcheck(false).Attr("autocomplete", "off").Attr("autocapitalize", "off").Attr("wrap", "off").
			Attr("rows", min(max(strings.Count(c.editorText(), "\n")+2, 5), 20)).
			Text(c.editorText()).Body(app.Text(c.editorText())).
			Disabled(c.check != nil).OnInput(c.onInput),
		app.Div().Class("exercise-actions").Body(
			app.Button().Class("button primary").DataSet("action", "check").Disabled(c.check != nil).
				Text(uitext.Tr(l, "x.check")).OnClick(c.onCheck),
			app.Button().Class("button").DataSet("action", "reset").Disabled(c.check != nil).
				Text(uitext.Tr(l, "x.reset")).OnClick(c.onReset),
			app.If(st.State == progress.Failed && c.hints < len(x.HintsHTML), func() app.UI {
				return app.Button().Class("button").DataSet("action", "hint").Text(uitext.Tr(l, "x.hint")).OnClick(c.onHint)
			}),
			app.If(st.Tries >= revealAfter && !done, func() app.UI {
				return app.Button().Class("button").DataSet("action", "reveal").Text(uitext.Tr(l, "x.reveal")).OnClick(c.onReveal)
			}),
			app.A().Class("button").DataSet("action", "open").Href(playground.PlaygroundPath(string(l))+"#s="+playground.EncodeScript(c.editorText())).
				Text(uitext.Tr(l, "x.open")),
		),
		app.Div().Class("exercise-status").Aria("live", "polite").Body(c.renderStatus()),
		app.If(c.result != nil, func() app.UI { return c.renderResult() }),
		app.Range(x.HintsHTML[:min(c.hints, len(x.HintsHTML))]).Slice(func(i int) app.UI {
			return app.Raw(`<p class="hint"><strong>` + uitext.Tr(l, "x.hint") + `:</strong> ` + x.HintsHTML[i] + `</p>`)
		}),
		app.If(x.Kind == doc.ExerciseAttack, func() app.UI { return c.renderExplorer() }),
		app.If(st.Revealed, func() app.UI {
			return app.Div().Class("exercise-solution").Body(
				app.H4().Text(uitext.Tr(l, "x.solution")),
				app.Pre().DataSet("solution", x.ID).Body(app.Code().Text(x.Solution)),
				app.Button().Class("button").DataSet("action", "use-solution").Text(uitext.Tr(l, "x.use.solution")).OnClick(c.onUseSolution),
			)
		}),
		app.If(done, func() app.UI {
			return app.Div().Class("explanation").Body(
				app.H4().Text(uitext.Tr(l, "x.explain")),
				app.Raw(`<div class="explanation-text">`+x.ExplainHTML+`</div>`),
			)
		}),
		app.P().Class("exercise-links").Body(
			app.A().DataSet("link", "primer").Href(uitext.InLang(l, site.PathLessons+"/"+primerSlug)).Text(uitext.Tr(l, "x.primer")),
			app.Text(" · "+uitext.Tr(l, "x.reference")+" "),
			app.Code().DataSet("link", "reference").Text(languageReference),
		),
	)
}

// The card's display-only parts (its rules and a check's result) are
// written as HTML text: built with go-app's elements they cost the wasm
// some 40 kB of code, for parts that hold no control.

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")

// esc escapes text for HTML.
func esc(s string) string { return htmlEscaper.Replace(s) }

// codeHTML is s as a code element.
func codeHTML(s string) string { return "<code>" + esc(s) + "</code>" }

// renderHeading is the card's heading, which names its section: an
// attack's names the mechanism, so that two attacks on one page are two
// landmarks a screen reader tells apart.
func (c *exerciseCard) renderHeading(key string) app.UI {
	h := app.H3().ID(c.X.ID + "-heading").Class("exercise-heading")
	if c.X.Kind != doc.ExerciseAttack || c.X.Break == "" {
		return h.Text(uitext.Tr(c.Lang, key))
	}
	before, after, _ := strings.Cut(uitext.Tr(c.Lang, "x.heading.of"), "%s")
	return h.Body(app.Text(before), app.Code().Text(c.X.Break), app.Text(after))
}

// renderRules says exactly what the check checks.
func (c *exerciseCard) renderRules() app.UI {
	l, x := c.Lang, c.X
	var b strings.Builder
	p := func(parts ...string) {
		b.WriteString("<p>")
		for _, s := range parts {
			b.WriteString(s)
		}
		b.WriteString("</p>")
	}
	b.WriteString(`<div class="exercise-rules">`)
	if x.Kind == doc.ExerciseAttack {
		p(esc(uitext.Tr(l, "x.attack.broken")+" "), codeHTML("break "+x.Break))
		var catches []string
		for _, inv := range exercise.Catches(&x) {
			catches = append(catches, codeHTML(inv))
		}
		p(esc(uitext.Tr(l, "x.attack.catch")+" "), strings.Join(catches, " "+esc(uitext.Tr(l, "x.attack.or"))+" "))
		p(esc(uitext.Tr(l, "x.attack.on")))
		if exercise.Final(&x) {
			p(esc(uitext.Tr(l, "x.attack.liveness")))
		}
		if x.Config != "" {
			p(esc(uitext.Tr(l, "x.attack.config")+" "), codeHTML(x.Config))
		}
	}
	if len(x.Goal) > 0 {
		p(esc(uitext.Tr(l, "x.goal")))
		b.WriteString(`<ul class="exercise-goal">`)
		for _, g := range x.Goal {
			b.WriteString("<li>" + codeHTML(g) + "</li>")
		}
		b.WriteString("</ul>")
	}
	if x.Kind == doc.ExerciseGoal {
		p(esc(uitext.Tr(l, "x.own")))
	}
	if x.MaxAdded > 0 {
		p(esc(fmt.Sprintf(uitext.Tr(l, "x.limit.added"), x.MaxAdded)))
	}
	if len(x.Allow) > 0 {
		p(esc(uitext.Tr(l, "x.limit.allow")+" "), codeHTML(strings.Join(x.Allow, " ")))
	}
	if x.Kind == doc.ExerciseAttack || len(x.Allow) == 0 {
		p(esc(uitext.Tr(l, "x.limit.nobreak")))
	}
	b.WriteString("</div>")
	return app.Raw(b.String())
}

func (c *exerciseCard) renderStatus() app.UI {
	l, st := c.Lang, c.state()
	switch {
	case c.err != "":
		return app.P().Class("error").Text(c.err)
	case c.check != nil:
		run, runs, line := c.check.Progress()
		return app.P().Text(fmt.Sprintf(uitext.Tr(l, "x.running"), run+1, runs, line))
	case c.result != nil && c.result.Passed:
		return app.P().Class("right").Text(uitext.Tr(l, "x.solved"))
	case c.result != nil:
		return app.P().Class("wrong").Text(uitext.Tr(l, "x.failed") + " " + fmt.Sprintf(uitext.Tr(l, "x.tries"), st.Tries))
	case st.Revealed && st.State != progress.Solved:
		return app.P().Text(uitext.Tr(l, "x.revealed"))
	}
	return nil
}

// renderResult lists what the run showed: each goal line held or not,
// each limit broken, what the checker reported in each run.
func (c *exerciseCard) renderResult() app.UI {
	l, r := c.Lang, c.result
	var b strings.Builder
	li := func(ok bool, attr, value string, parts ...string) {
		cls, mark := "held", "✓ "
		if !ok {
			cls, mark = "missed", "✗ "
		}
		b.WriteString(`<li class="` + cls + `" data-` + attr + `="` + esc(value) + `">` + mark)
		for _, s := range parts {
			b.WriteString(s)
		}
		b.WriteString("</li>")
	}
	fmt.Fprintf(&b, `<div class="exercise-result" data-passed="%t"><h4>%s</h4><ul>`, r.Passed, esc(uitext.Tr(l, "x.result")))
	if e := r.Err; e != nil {
		text := scriptErrorHTML(l, e)
		if e.Broken {
			text += " " + esc(uitext.Tr(l, "x.err.broken"))
		}
		li(false, "error", strconv.Itoa(e.Line), text)
	}
	for _, lim := range r.Limits {
		switch lim.Kind {
		case exercise.LimitAdded:
			li(false, "limit", lim.Kind, esc(fmt.Sprintf(uitext.Tr(l, "x.limit.too.many"), lim.Added, lim.Max)))
		case exercise.LimitVerb:
			li(false, "limit", lim.Kind, esc(fmt.Sprintf(uitext.Tr(l, "x.limit.verb"), lim.Line)+" "), codeHTML(lim.Verb))
		default:
			li(false, "limit", lim.Kind, esc(fmt.Sprintf(uitext.Tr(l, "x.limit.break"), lim.Line)+" "), codeHTML(lim.Verb))
		}
	}
	for i, g := range r.Goals {
		own := ""
		if g.Own {
			own = esc(fmt.Sprintf(uitext.Tr(l, "x.own.line"), g.Line) + " ")
		}
		switch {
		case g.Err != "":
			li(false, "goal", strconv.Itoa(i), own, codeHTML(g.Text), " "+esc(uitext.Tr(l, "x.unknown"))+" ", uitext.PiecesHTML(uitext.CoreErrorPieces(string(l), g.Err)))
		case g.Held:
			li(true, "goal", strconv.Itoa(i), own, codeHTML(g.Text), " "+esc(uitext.Tr(l, "x.held")))
		default:
			li(false, "goal", strconv.Itoa(i), own, codeHTML(g.Text), " "+esc(uitext.Tr(l, "x.missed"))+" ", uitext.PiecesHTML(uitext.ExpectationValue(string(l), g.Actual)))
		}
	}
	for _, run := range r.Runs {
		key, which, ok := "x.run.on", "on", len(run.Violated) == 0
		if run.Broken {
			key, which, ok = "x.run.broken", "broken", run.Caught
		}
		what := esc(uitext.Tr(l, "x.run.nothing"))
		if len(run.Violated) > 0 {
			what = codeHTML(strings.Join(run.Violated, ", "))
			if run.Broken {
				verdict := "x.run.notcaught"
				if run.Caught {
					verdict = "x.run.caught"
				}
				what += " " + esc(uitext.Tr(l, verdict))
			}
			// What the checker saw, in its story: the learner's attack
			// at work (or the mechanism's gap, in the run with it on).
			for _, f := range run.Findings {
				what += `<span class="finding">` + uitext.PiecesHTML(uitext.ViolationPieces(string(l), f)) + `</span>`
			}
		}
		li(ok, "run", which, esc(uitext.Tr(l, key)+" "), what)
	}
	b.WriteString("</ul></div>")
	return app.Raw(b.String())
}

// scriptErrorHTML is a script error's line for the result, said in the
// page's language as the editor says it (uitext.ScriptErrorPieces).
func scriptErrorHTML(l doc.Lang, e *exercise.ScriptError) string {
	if l != doc.Chinese {
		return esc(fmt.Sprintf(uitext.Tr(l, "x.err"), e.Line, e.Col, e.Msg))
	}
	head := esc(fmt.Sprintf(uitext.Tr(l, "x.err"), e.Line, e.Col, ""))
	return head + uitext.PiecesHTML(uitext.ScriptErrorPieces(string(l), e.Msg, e.Runtime))
}

// renderExplorer is "Let the explorer try": its button, its progress
// with a Stop button, and the shrunk script it found.
func (c *exerciseCard) renderExplorer() app.UI {
	l, xs := c.Lang, c.xs
	running := c.explore != nil && !xs.Done()
	var progress app.UI
	switch {
	case running && xs.Phase == exercise.PhaseShrink:
		progress = app.Div().Body(
			app.Progress().Aria("label", uitext.Tr(l, "x.explore.progress")).Max(xs.MaxTries).Value(xs.Tries),
			app.P().Text(fmt.Sprintf(uitext.Tr(l, "x.explore.shrink"), xs.Runs, xs.Tries)))
	case running:
		progress = app.Div().Body(
			app.Progress().Aria("label", uitext.Tr(l, "x.explore.progress")).Max(xs.MaxRuns).Value(xs.Runs),
			app.P().Text(fmt.Sprintf(uitext.Tr(l, "x.explore.search"), xs.Runs, xs.MaxRuns)))
	case c.explore != nil && xs.Phase == exercise.PhaseFound:
		progress = app.Div().Class("explored").Body(
			app.P().Text(fmt.Sprintf(uitext.Tr(l, "x.explore.found"), xs.Original)),
			app.Pre().DataSet("explored", c.X.ID).Body(app.Code().Text(xs.Script)),
			app.Button().Class("button primary").DataSet("action", "use-explored").Text(uitext.Tr(l, "x.explore.use")).OnClick(c.onUseExplored),
		)
	case c.explore != nil && xs.Phase == exercise.PhaseNone:
		progress = app.P().Text(fmt.Sprintf(uitext.Tr(l, "x.explore.none"), xs.Runs))
	case c.explore != nil && xs.Phase == exercise.PhaseStop:
		progress = app.P().Text(fmt.Sprintf(uitext.Tr(l, "x.explore.stopped"), xs.Runs))
	}
	return app.Div().Class("exercise-explorer").DataSet("explorer", xs.Phase).Body(
		app.P().Class("hint-line").Text(uitext.Tr(l, "x.explore.lead")),
		app.Div().Class("exercise-actions").Body(
			app.Button().Class("button").DataSet("action", "explore").Disabled(running).Text(uitext.Tr(l, "x.explore")).OnClick(c.onExplore),
			app.If(running, func() app.UI {
				return app.Button().Class("button").DataSet("action", "stop-explore").Text(uitext.Tr(l, "x.explore.stop")).OnClick(c.onStopExplore)
			}),
		),
		app.Div().Aria("live", "polite").Body(progress),
	)
}
