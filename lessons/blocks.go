package lessons

import (
	"bytes"
	"sort"
	"strconv"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"txnlab/core/scenario"
	"txnlab/lessons/doc"
)

// The Blocks extension turns the ```scenario, ```question, ```after and
// ```exercise fenced code blocks of a lesson into nodes of their own (after
// abhinav/goldmark-mermaid): an AST transformer collects the fenced blocks
// of those languages during a walk, parses each (info-string attributes,
// body), and after the walk replaces it with a ScenarioBlock or
// QuestionBlock; a renderer registered for those kinds writes their
// static, escaped HTML (blocks_html.go). What a block gets wrong is
// recorded in the parser context (BlockErrors) with its file line: the
// renderer still draws what it could read.

// KindScenarioBlock is the node kind of a ```scenario block.
var KindScenarioBlock = ast.NewNodeKind("ScenarioBlock")

// KindQuestionBlock is the node kind of a ```question block.
var KindQuestionBlock = ast.NewNodeKind("QuestionBlock")

// ScenarioBlock is a ```scenario block: a script that the page mounts as
// an embedded playground. Its Scenario field (doc.Scenario) is the block
// as the browser gets it, read from the info string and the body.
type ScenarioBlock struct {
	ast.BaseBlock
	Scenario doc.Scenario
	static   doc.Scenario     // variant 0, for the server's HTML
	script   *scenario.Script // nil when the script did not parse
}

// Kind implements ast.Node.
func (n *ScenarioBlock) Kind() ast.NodeKind { return KindScenarioBlock }

// IsRaw implements ast.Node: the body is a script, not Markdown.
func (n *ScenarioBlock) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *ScenarioBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{
		"ID": n.Scenario.ID, "Title": n.Scenario.Title, "Line": strconv.Itoa(n.Scenario.Line),
	}, nil)
}

// QuestionBlock is a ```question block: a thought question the page mounts
// as a question card. Its Question field (doc.Question) is the block as
// the browser gets it, its Markdown already rendered.
type QuestionBlock struct {
	ast.BaseBlock
	Question   doc.Question
	static     doc.Question // variant 0, for the server's HTML
	whenLines  [][]int      // the file line of each choice's when: lines
	queryLines []int        // the file line of each evidence query
	answerLine int          // the file line of answer:
}

// Kind implements ast.Node.
func (n *QuestionBlock) Kind() ast.NodeKind { return KindQuestionBlock }

// IsRaw implements ast.Node: the body is parsed by the block, not by the
// Markdown parser.
func (n *QuestionBlock) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *QuestionBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{
		"ID": n.Question.ID, "Scenario": n.Question.Scenario, "Line": strconv.Itoa(n.Question.Line),
	}, nil)
}

// Blocks is the goldmark extension for lesson blocks: add it with
// goldmark.WithExtensions(lessons.Blocks). NewMarkdown has it already.
var Blocks goldmark.Extender = blocksExtension{}

type blocksExtension struct{}

// Extend implements goldmark.Extender.
func (blocksExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithASTTransformers(
		util.Prioritized(blockTransformer{}, 100),
	))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(newBlocksHTMLRenderer(), 100),
	))
}

var blockErrorsKey = parser.NewContextKey()

// BlockErrors returns what the lesson blocks of the document parsed with
// pc got wrong, in document order. Their File is empty: the parser does
// not know the file's name.
func BlockErrors(pc parser.Context) []*Error {
	errs, _ := pc.Get(blockErrorsKey).([]*Error)
	return errs
}

func addBlockErrors(pc parser.Context, errs ...*Error) {
	if len(errs) > 0 {
		pc.Set(blockErrorsKey, append(BlockErrors(pc), errs...))
	}
}

// blockTransformer replaces the lesson's scenario and question fenced
// blocks with their nodes.
type blockTransformer struct{}

// Transform implements parser.ASTTransformer.
func (blockTransformer) Transform(root *ast.Document, reader text.Reader, pc parser.Context) {
	source := reader.Source()
	var found []*ast.FencedCodeBlock
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if f, ok := n.(*ast.FencedCodeBlock); ok {
			switch string(f.Language(source)) {
			case "scenario", "question", "after", "exercise":
				found = append(found, f)
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if len(found) == 0 {
		return
	}
	lines := newLineIndex(source)
	for _, f := range found {
		lang := string(f.Language(source))
		info := f.Info.Segment
		line := lines.lineOf(info.Start)
		if f.Parent() != root {
			addBlockErrors(pc, &Error{Line: line, Msg: "a " + lang +
				" block must be at the top level of the lesson, not inside a list or a quote"})
			continue
		}
		attrs := string(bytes.TrimSpace(info.Value(source)[len(lang):]))
		body := make([]string, f.Lines().Len())
		for i := range body {
			seg := f.Lines().At(i)
			body[i] = string(bytes.TrimRight(seg.Value(source), "\r\n"))
		}
		var node ast.Node
		var errs []*Error
		switch lang {
		case "scenario":
			s, e := parseScenarioBlock(attrs, body, line)
			node, errs = &ScenarioBlock{Scenario: s.Scenario, script: s.script}, e
		case "question":
			inline := func(src string) string { return renderInline(langOf(pc), src) }
			q, e := parseQuestionBlock(attrs, body, line, inline)
			node, errs = &QuestionBlock{Question: q.Question, whenLines: q.whenLines, queryLines: q.queryLines, answerLine: q.answerLine}, e
		case "after":
			a, e := parseAfterBlock(attrs, body, line, pc)
			node, errs = a, e
		case "exercise":
			x, e := parseExerciseBlock(attrs, body, line, func(src string) string { return renderInline(langOf(pc), src) })
			node, errs = &ExerciseBlock{Exercise: x.Exercise, parsed: x}, e
		}
		node.SetLines(f.Lines())
		root.ReplaceChild(root, f, node)
		addBlockErrors(pc, errs...)
	}
	fillStatic(root)
}

// fillStatic gives every block the values of variant 0, the one a page
// without a learner shows (docs/lessons.md, "Variants"): the browser's
// data keeps the {{NAME}}s, which it fills with the learner's own.
func fillStatic(root *ast.Document) {
	vals := map[string]map[string]string{} // by scenario id
	questionScenario := map[string]string{}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		switch b := n.(type) {
		case *ScenarioBlock:
			vals[b.Scenario.ID] = doc.Draw(b.Scenario.Vary, 0)
			b.static = b.Scenario.Filled(vals[b.Scenario.ID])
		case *QuestionBlock:
			questionScenario[b.Question.ID] = b.Question.Scenario
			b.static = b.Question.Filled(vals[b.Question.Scenario])
		case *AfterBlock:
			b.staticHTML = doc.Fill(b.HTML, vals[questionScenario[b.Question]])
		}
	}
}

// lineIndex maps byte offsets of a source to 1-based line numbers.
type lineIndex []int // the offset at which each line starts

func newLineIndex(source []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range source {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (idx lineIndex) lineOf(offset int) int {
	return sort.Search(len(idx), func(i int) bool { return idx[i] > offset })
}
