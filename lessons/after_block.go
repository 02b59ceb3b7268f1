package lessons

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"txnlab/lessons/doc"
)

// An ```after block (docs/lessons.md, "After blocks"): the part of a
// lesson that states a question's answer (the explanation, an outcome
// table, an erratum), tied to the question so that the page can keep it
// folded until the learner has answered. Its body is Markdown, rendered
// here on the server like the rest of the text.

var (
	afterAttrs    = []string{"question"}
	afterRequired = []string{"question"}
)

// KindAfterBlock is the node kind of an ```after block.
var KindAfterBlock = ast.NewNodeKind("AfterBlock")

// AfterBlock is an ```after block, its body rendered.
type AfterBlock struct {
	ast.BaseBlock
	// Question is the id of the question it follows.
	Question string
	// HTML is the rendered body; Summary the folded block's label, in the
	// page's language.
	HTML, Summary string
	staticHTML    string // variant 0's values filled in, for the server's HTML
	// Line is the fence's line in the lesson file.
	Line int
}

// Kind implements ast.Node.
func (n *AfterBlock) Kind() ast.NodeKind { return KindAfterBlock }

// IsRaw implements ast.Node: the body is rendered by the block.
func (n *AfterBlock) IsRaw() bool { return true }

// Dump implements ast.Node.
func (n *AfterBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Question": n.Question, "Line": strconv.Itoa(n.Line)}, nil)
}

// langKey holds the page's language in the parser context, for the
// blocks that write words of their own (an after block's summary).
var langKey = parser.NewContextKey()

func langOf(pc parser.Context) doc.Lang {
	if l, ok := pc.Get(langKey).(doc.Lang); ok {
		return l
	}
	return doc.English
}

// afterSummary is the label of a folded after block.
func afterSummary(l doc.Lang) string {
	if l == doc.Chinese {
		return "回答之后再看"
	}
	return "After you answer"
}

// liveFences are the block languages that may not nest in an after block:
// its body is text, and the page mounts live blocks only at the top.
var liveFences = []string{"scenario", "question", "exercise", "after"}

func parseAfterBlock(info string, body []string, line int, pc parser.Context) (*AfterBlock, []*Error) {
	var errs []*Error
	at := func(l int, msg string) { errs = append(errs, &Error{Line: l, Msg: msg}) }
	n := &AfterBlock{Line: line, Summary: afterSummary(langOf(pc))}
	as, msg := parseAttrs(info)
	if msg != "" {
		at(line, "after block: "+msg)
	}
	for _, m := range checkAttrs("after", as, afterAttrs, afterRequired) {
		at(line, m)
	}
	if q, ok := as.get("question"); ok {
		n.Question = q
		if !questionIDRe.MatchString(q) {
			at(line, "after question="+strconv.Quote(q)+" is not a question id (q-…)")
		}
	}
	for i, l := range body {
		t := strings.TrimLeft(l, " ")
		if rest := strings.TrimLeft(t, "`~"); len(t)-len(rest) >= 3 {
			word, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
			for _, f := range liveFences {
				if word == f {
					at(line+1+i, "a "+f+" block cannot be inside an after block (put it before or after the after block)")
				}
			}
		}
	}
	src := strings.Join(body, "\n")
	if strings.TrimSpace(src) == "" {
		at(line, "after block is empty")
		return n, errs
	}
	source := []byte(src)
	md := inlineMarkdown[langOf(pc)]
	root := md.Parser().Parse(text.NewReader(source))
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, source, root); err != nil {
		at(line, "after block: rendering: "+err.Error())
	}
	n.HTML = buf.String()
	return n, errs
}
