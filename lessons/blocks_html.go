package lessons

import (
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"

	"txnlab/lessons/doc"
)

// The static HTML of lesson blocks: what a reader sees before the wasm has
// loaded (or without it), and where the wasm mounts the live part. Every
// value from the lesson is escaped; the question's rendered Markdown comes
// from goldmark with raw HTML left out. The answer (the [x] marks, hints,
// explanation, evidence) is not in it: the card reveals it after the run.
// An after block is a <details> element, folded: readable without the
// wasm by opening it. An exercise shows its prompt and starting script.
//
//	<figure class="lesson-scenario" data-scenario="ID"><figcaption>TITLE</figcaption><pre><code>SCRIPT</code></pre></figure>
//	<div class="question" data-question="ID" data-state="unanswered">
//	<div class="question-prompt">PROMPT</div>
//	<ul class="question-choices">
//	<li><label><input type="radio" name="ID" value="a" disabled> CHOICE</label></li>
//	</ul>
//	</div>

// blocksHTMLRenderer renders ScenarioBlock and QuestionBlock nodes.
type blocksHTMLRenderer struct {
	html.Config
}

func newBlocksHTMLRenderer() renderer.NodeRenderer {
	return &blocksHTMLRenderer{Config: html.NewConfig()}
}

// RegisterFuncs implements renderer.NodeRenderer.
func (r *blocksHTMLRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindScenarioBlock, r.renderScenario)
	reg.Register(KindQuestionBlock, r.renderQuestion)
	reg.Register(KindAfterBlock, r.renderAfter)
	reg.Register(KindExerciseBlock, r.renderExercise)
}

func (r *blocksHTMLRenderer) renderScenario(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := &node.(*ScenarioBlock).static
	_, _ = w.WriteString(`<figure class="lesson-scenario" data-scenario="`)
	writeEscaped(w, n.ID)
	_, _ = w.WriteString(`"><figcaption>`)
	writeEscaped(w, n.Title)
	_, _ = w.WriteString(`</figcaption><pre><code>`)
	writeEscaped(w, n.Script)
	_, _ = w.WriteString("</code></pre></figure>\n")
	return ast.WalkSkipChildren, nil
}

func (r *blocksHTMLRenderer) renderQuestion(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := &node.(*QuestionBlock).static
	input := "radio"
	if n.Multiple {
		input = "checkbox"
	}
	_, _ = w.WriteString(`<div class="question" data-question="`)
	writeEscaped(w, n.ID)
	_, _ = w.WriteString("\" data-state=\"unanswered\">\n<div class=\"question-prompt\">")
	_, _ = w.WriteString(n.PromptHTML)
	_, _ = w.WriteString("</div>\n")
	if n.Answer != "" {
		_, _ = w.WriteString(`<p class="question-answer"><input type="text" name="`)
		writeEscaped(w, n.ID)
		_, _ = w.WriteString(`" data-answer disabled></p>` + "\n</div>\n")
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString("<ul class=\"question-choices\">\n")
	// The choices in the order a page without a learner shows
	// (doc.Order with seed 0): never the source's, whose [x] marks
	// carry no meaning for the reader.
	for _, i := range doc.Order(0, n.ID, len(n.Choices)) {
		c := n.Choices[i]
		_, _ = w.WriteString(`<li><label><input type="` + input + `" name="`)
		writeEscaped(w, n.ID)
		_, _ = w.WriteString(`" value="`)
		writeEscaped(w, c.Key)
		_, _ = w.WriteString(`" disabled> `)
		_, _ = w.WriteString(c.HTML)
		_, _ = w.WriteString("</label></li>\n")
	}
	_, _ = w.WriteString("</ul>\n</div>\n")
	return ast.WalkSkipChildren, nil
}

func (r *blocksHTMLRenderer) renderAfter(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*AfterBlock)
	_, _ = w.WriteString(`<details class="after-answer" data-after="`)
	writeEscaped(w, n.Question)
	_, _ = w.WriteString(`"><summary>`)
	writeEscaped(w, n.Summary)
	_, _ = w.WriteString("</summary>\n<div class=\"after-body\">\n")
	_, _ = w.WriteString(n.staticHTML)
	_, _ = w.WriteString("</div>\n</details>\n")
	return ast.WalkSkipChildren, nil
}

func (r *blocksHTMLRenderer) renderExercise(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := &node.(*ExerciseBlock).Exercise
	_, _ = w.WriteString(`<div class="exercise" data-exercise="`)
	writeEscaped(w, n.ID)
	_, _ = w.WriteString(`" data-kind="`)
	writeEscaped(w, n.Kind)
	_, _ = w.WriteString("\" data-state=\"unsolved\">\n<div class=\"exercise-prompt\">")
	_, _ = w.WriteString(n.PromptHTML)
	_, _ = w.WriteString("</div>\n<pre><code>")
	writeEscaped(w, n.Start)
	_, _ = w.WriteString("</code></pre>\n</div>\n")
	return ast.WalkSkipChildren, nil
}

func writeEscaped(w util.BufWriter, s string) {
	_, _ = w.Write(util.EscapeHTML([]byte(s)))
}
