package lessons

import (
	"bytes"
	"cmp"
	"io/fs"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"

	"txnlab/lessons/doc"
)

// Course is every lesson in every language, rendered and checked. It is
// immutable once loaded and safe to share between requests.
type Course struct {
	pages map[pageKey]*page
	// slugs in course order.
	slugs []string
}

type pageKey struct {
	lang doc.Lang
	slug string
}

// page is one lesson file, loaded.
type page struct {
	file   string
	fm     frontMatter
	lesson *doc.Lesson
	html   string
	// scenarios and questions are the blocks with what the checks need.
	scenarios []parsedScenario
	questions []parsedQuestion
	afters    []*AfterBlock
	exercises []parsedExercise
	// prose is the text of the lesson outside its blocks, a top-level
	// node at a time, for the checks that read what a learner reads.
	prose []proseNode
	// steps are the step links of the text.
	steps []stepLink
}

// fileNameRe is NN-slug.md or NN-slug.zh.md.
var fileNameRe = regexp.MustCompile(`^([0-9][0-9]-[a-z0-9]+(?:-[a-z0-9]+)*)(\.zh)?\.md$`)

// Load reads every *.md file in the root of fsys as a lesson (NN-slug.md
// English, NN-slug.zh.md Chinese), renders it and checks it, the twins
// against each other included. If anything is wrong it returns a nil
// Course and an ErrorList naming every mistake's file and line.
func Load(fsys fs.FS) (*Course, error) {
	names, err := fs.Glob(fsys, "*.md")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	md := map[doc.Lang]goldmark.Markdown{doc.English: newMarkdown(doc.English), doc.Chinese: newMarkdown(doc.Chinese)}
	c := &Course{pages: map[pageKey]*page{}}
	var errs ErrorList
	var pages []*page
	for _, name := range names {
		m := fileNameRe.FindStringSubmatch(name)
		if m == nil {
			errs = append(errs, &Error{File: name, Line: 1,
				Msg: "a lesson file is named NN-slug.md or NN-slug.zh.md (slug: lowercase letters, digits and -)"})
			continue
		}
		lang := doc.English
		if m[2] != "" {
			lang = doc.Chinese
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		p, perrs := loadPage(md[lang], name, lang, m[1], data)
		errs = append(errs, perrs...)
		c.pages[pageKey{lang, m[1]}] = p
		pages = append(pages, p)
	}
	errs = append(errs, checkCourse(pages)...)
	if err := sorted(errs); err != nil {
		return nil, err
	}
	for k := range c.pages {
		if k.lang == doc.English {
			c.slugs = append(c.slugs, k.slug)
		}
	}
	slices.SortFunc(c.slugs, func(a, b string) int {
		return cmp.Or(cmp.Compare(c.pages[pageKey{doc.English, a}].lesson.Order,
			c.pages[pageKey{doc.English, b}].lesson.Order), cmp.Compare(a, b))
	})
	return c, nil
}

// loadPage renders and checks one lesson file on its own.
func loadPage(md goldmark.Markdown, file string, lang doc.Lang, slug string, data []byte) (*page, []*Error) {
	var errs []*Error
	if !utf8.Valid(data) {
		// goldmark v1.8.7 panics on a soft line break after invalid UTF-8
		// when CJK line breaks are on (util.ToRune), and a lesson is text:
		// say where, and go on with the bad bytes replaced.
		line := 1 + bytes.Count(data[:firstInvalidUTF8(data)], []byte("\n"))
		errs = append(errs, &Error{Line: line, Msg: "the file is not valid UTF-8"})
		data = []byte(strings.ToValidUTF8(string(data), "\uFFFD"))
	}
	lines := strings.Split(string(data), "\n")
	fm, fmErrs := parseFrontMatter(lines)
	errs = append(errs, fmErrs...)
	fm.meta.Slug, fm.meta.Lang = slug, lang
	p := &page{file: file, fm: fm, lesson: &doc.Lesson{Meta: fm.meta}}

	// The body keeps its line numbers: the front matter's lines become
	// blank lines, which Markdown ignores at the start of a document.
	source := data
	if fm.end > 0 {
		body := strings.Join(lines[fm.end:], "\n")
		source = []byte(strings.Repeat("\n", fm.end) + body)
	}
	pc := parser.NewContext()
	pc.Set(langKey, lang)
	root := md.Parser().Parse(text.NewReader(source), parser.WithContext(pc))
	errs = append(errs, BlockErrors(pc)...)
	p.steps = stepLinks(root, source)

	var full bytes.Buffer
	if err := md.Renderer().Render(&full, source, root); err != nil {
		errs = append(errs, &Error{Line: 1, Msg: "rendering: " + err.Error()})
	}
	p.html = full.String()

	var run bytes.Buffer
	flush := func() {
		if s := run.String(); strings.TrimSpace(s) != "" {
			p.lesson.Segments = append(p.lesson.Segments, doc.Segment{HTML: s})
		}
		run.Reset()
	}
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		switch b := n.(type) {
		case *ScenarioBlock:
			flush()
			p.lesson.Segments = append(p.lesson.Segments, doc.Segment{Scenario: b.Scenario.ID})
			p.lesson.Scenarios = append(p.lesson.Scenarios, b.Scenario)
			p.scenarios = append(p.scenarios, parsedScenario{b.Scenario, b.script})
		case *QuestionBlock:
			flush()
			p.lesson.Segments = append(p.lesson.Segments, doc.Segment{Question: b.Question.ID})
			p.lesson.Questions = append(p.lesson.Questions, b.Question)
			p.questions = append(p.questions, parsedQuestion{b.Question, b.whenLines, b.queryLines, b.answerLine})
		case *AfterBlock:
			flush()
			p.lesson.Segments = append(p.lesson.Segments, doc.Segment{After: b.Question, HTML: b.HTML})
			p.afters = append(p.afters, b)
		case *ExerciseBlock:
			flush()
			p.lesson.Segments = append(p.lesson.Segments, doc.Segment{Exercise: b.Exercise.ID})
			p.lesson.Exercises = append(p.lesson.Exercises, b.Exercise)
			p.exercises = append(p.exercises, b.parsed)
		default:
			start := run.Len()
			if err := md.Renderer().Render(&run, source, n); err != nil {
				errs = append(errs, &Error{Line: 1, Msg: "rendering: " + err.Error()})
			}
			p.prose = append(p.prose, proseNode{text: run.String()[start:], line: nodeLine(n, source)})
		}
	}
	flush()

	for _, q := range p.lesson.Questions {
		p.lesson.Meta.Questions = append(p.lesson.Meta.Questions, q.ID)
	}
	for _, x := range p.lesson.Exercises {
		p.lesson.Meta.Exercises = append(p.lesson.Meta.Exercises, x.ID)
	}
	errs = append(errs, checkLesson(p)...)
	for _, e := range errs {
		e.File = file
	}
	return p, errs
}

// proseNode is one top-level node of a lesson's text, rendered.
type proseNode struct {
	text string // HTML
	line int
}

// nodeLine is the file line a block node starts at (its first line of
// text, or of a child's), or 1.
func nodeLine(n ast.Node, source []byte) int {
	for ; n != nil; n = n.FirstChild() {
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return 1 + bytes.Count(source[:n.Lines().At(0).Start], []byte("\n"))
		}
	}
	return 1
}

// firstInvalidUTF8 is the offset of the first byte of data that is not
// valid UTF-8.
func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(data)
}

// Catalogue is the course's catalogue in one language: every lesson's
// Meta, in course order.
func (c *Course) Catalogue(lang doc.Lang) doc.Catalogue {
	cat := make(doc.Catalogue, 0, len(c.slugs))
	for _, s := range c.slugs {
		if p, ok := c.pages[pageKey{lang, s}]; ok {
			cat = append(cat, p.lesson.Meta)
		}
	}
	return cat
}

// Lesson returns a lesson in one language, as the browser gets it. The
// lesson is shared: callers must not change it.
func (c *Course) Lesson(lang doc.Lang, slug string) (*doc.Lesson, bool) {
	p, ok := c.pages[pageKey{lang, slug}]
	if !ok {
		return nil, false
	}
	return p.lesson, true
}

// HTML returns a lesson's whole body rendered, its blocks drawn as their
// static fallback (blocks_html.go): the server's page before the wasm
// mounts the live parts, and what the golden tests compare. It is "" for
// a lesson the course does not have.
func (c *Course) HTML(lang doc.Lang, slug string) string {
	if p, ok := c.pages[pageKey{lang, slug}]; ok {
		return p.html
	}
	return ""
}

// Slugs lists the lessons' slugs in course order. Every slug exists in
// every language of doc.Langs.
func (c *Course) Slugs() []string { return slices.Clone(c.slugs) }

// stepPrefix starts the fragment of a step link: [text](#step:ID:LINE)
// moves the lesson's playground ID to the step right after line LINE of
// its script ran, so a line of prose (a line of Java, a step of the
// protocol) can show the messages it causes.
const stepPrefix = "#step:"

// stepLink is a step link as written, with its file line.
type stepLink struct {
	scenario string
	line     int // of the script; 0 when it did not parse
	fileLine int
	raw      string
}

// stepLinks finds the step links of a document.
func stepLinks(root ast.Node, source []byte) []stepLink {
	idx := newLineIndex(source)
	var out []stepLink
	ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		l, ok := n.(*ast.Link)
		if !entering || !ok || !strings.HasPrefix(string(l.Destination), stepPrefix) {
			return ast.WalkContinue, nil
		}
		s := stepLink{raw: string(l.Destination)}
		for b := n.Parent(); b != nil; b = b.Parent() {
			if b.Type() == ast.TypeBlock && b.Lines().Len() > 0 {
				s.fileLine = idx.lineOf(b.Lines().At(0).Start)
				break
			}
		}
		id, line, _ := strings.Cut(strings.TrimPrefix(s.raw, stepPrefix), ":")
		s.scenario = id
		if n, err := strconv.Atoi(line); err == nil && n > 0 {
			s.line = n
		}
		out = append(out, s)
		return ast.WalkContinue, nil
	})
	return out
}
