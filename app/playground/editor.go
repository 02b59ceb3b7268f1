package playground

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/core/scenario"
	"txnlab/internal/escape"
)

// The editor is a plain textarea, so typing, selection, undo and screen
// readers behave as everywhere else. Line numbers, the executing line, the
// expectation marks and the error underline are drawn in a backdrop
// behind the (transparent) textarea, scrolled with it. Long lines wrap
// (the library's comments run to 120 characters, wider than the editor's
// column): each backdrop row holds its line's number and, in transparent
// ink, its text, set in the textarea's font at the textarea's width, so
// it wraps exactly as the textarea does and the number stays at the top
// of its logical line.

// setEditor gives the editor a new text from outside (a scenario, an
// action, an undo). go-app writes the value only when it differs from the
// one it last rendered, which the learner's typing may have made stale, so
// the element is also set directly.
func (p *playground) setEditor(ctx app.Context, text string) {
	p.run.editorText, p.run.script, p.run.scriptErr = text, text, nil
	if app.IsClient {
		keepScript(p.page.source, text)
		ctx.Defer(func(ctx app.Context) {
			if ta := app.Window().GetElementByID("script"); ta.Truthy() && ta.Get("value").String() != text {
				ta.Set("value", text)
			}
		})
	}
}

// typedBeforeStart is what the learner typed into the pre-rendered
// editor while the wasm was loading: the server's page has a working
// textarea, and the app, mounting, replaces it with its own. It is read
// when the package starts, and again just before go-app mounts anything
// (StartFirstRun), and taken by the first playground that opens, so
// nothing typed is lost.
var typedBeforeStart = readTypedBeforeStart()

// readTypedBeforeStart reads the server's page's editor.
func readTypedBeforeStart() string {
	if !app.IsClient || !app.Window().Get("document").Truthy() {
		return "" // natively, or the engine's Web Worker (no document)
	}
	ta := app.Window().GetElementByID("script")
	if !ta.Truthy() || ta.Get("value").String() == ta.Get("defaultValue").String() {
		return ""
	}
	return ta.Get("value").String()
}

// takeTypedBeforeStart returns typedBeforeStart once.
func takeTypedBeforeStart() (string, bool) {
	s := typedBeforeStart
	typedBeforeStart = ""
	return s, s != ""
}

func (p *playground) onInput(ctx app.Context, e app.Event) {
	p.run.script = ctx.JSSrc().Get("value").String()
	p.run.actionMsg = nil // it spoke of the script before this edit
	p.run.stop()
	p.run.editGen++
	gen := p.run.editGen
	ctx.After(editDelay, func(ctx app.Context) {
		if gen != p.run.editGen {
			return // typing went on
		}
		keepScript(p.page.source, p.run.script)
		p.applyEdits(ctx)
	})
}

// editPending reports whether the editor holds text typed after its
// error was found, not run yet: the error shown is an older text's, and
// the editor says the edits are about to run.
func (p *playground) editPending() bool {
	return p.run.scriptErr != nil && p.scriptErrOf != p.run.script
}

// applyEdits reruns the typed script, keeping the position: editing the
// end of a script should not send the learner back to the beginning.
func (p *playground) applyEdits(ctx app.Context) {
	if p.run.script == p.run.engine.Script() {
		p.run.scriptErr = nil
		return
	}
	p.startLoad(ctx, p.run.script, func(ctx app.Context, err error) {
		// Where the learner was when the run ended: with the engine in a
		// worker the run takes a few messages, and steps taken meanwhile
		// count.
		p.run.engine.Seek(p.run.posAtRunEnd)
		p.followNewest(ctx)
	})
}

// onEditorScroll keeps the gutter and the backdrop under the text. It
// changes no state, so it skips the render.
func (p *playground) onEditorScroll(ctx app.Context, e app.Event) {
	ctx.PreventUpdate()
	syncEditorScroll()
}

func syncEditorScroll() {
	ta := app.Window().GetElementByID("script")
	if !ta.Truthy() {
		return
	}
	if b := app.Window().GetElementByID("script-backdrop"); b.Truthy() {
		b.Set("scrollTop", ta.Get("scrollTop"))
	}
}

// revealLine scrolls the editor so the executing line is in view, unless
// the learner is typing in it.
func revealLine(line int) {
	ta := app.Window().GetElementByID("script")
	if !ta.Truthy() || line <= 0 || app.Window().Get("document").Get("activeElement").Equal(ta) {
		return
	}
	lh := editorLineHeight
	top, h := ta.Get("scrollTop").Int(), ta.Get("clientHeight").Int()
	y := (line-1)*lh + editorPadding
	// Lines above may wrap: the line's row in the backdrop knows where
	// it is.
	if row := app.Window().Get("document").Call("querySelector", `#script-backdrop .ln[data-line="`+strconv.Itoa(line)+`"]`); row.Truthy() {
		y = row.Get("offsetTop").Int()
	}
	if y < top+lh || y > top+h-2*lh {
		ta.Set("scrollTop", max(0, y-h/3))
		syncEditorScroll()
	}
}

// Editor metrics, in CSS pixels; app.css uses the same numbers.
const (
	editorLineHeight = 20
	editorPadding    = 8
)

// loadDelay is how long the scenario list waits after a change before it
// opens the choice: Chrome fires change at every ArrowDown on a closed
// list, and opening each scenario passed on the way would replace the
// script at every key.
const loadDelay = 600 * time.Millisecond

func (p *playground) onLoadScenario(ctx app.Context, e app.Event) {
	slug := ctx.JSSrc().Get("value").String()
	if slug == "" {
		return
	}
	p.lib.loadGen++
	gen := p.lib.loadGen
	ctx.After(loadDelay, func(ctx app.Context) {
		if gen == p.lib.loadGen {
			ctx.Navigate(site.PlaygroundLinkIn(p.run.lang, slug))
		}
	})
}

// edited reports whether the script is the learner's own: it differs
// from the library scenario it started from (or there was none).
func (p *playground) edited() bool { return p.run.script != "" && p.run.script != p.lib.original }

// onRevert goes back to the scenario as the library has it; the replaced
// script can be brought back with Undo.
func (p *playground) onRevert(ctx app.Context, e app.Event) {
	if p.lib.original == "" || p.run.script == p.lib.original {
		return
	}
	p.run.pushUndo(p.run.script)
	p.setEditor(ctx, p.lib.original)
	p.say(false, uitext.Tr(p.run.lang, "pg.reverted"))
	p.startLoad(ctx, p.lib.original, nil)
}

func (p *playground) onUndo(ctx app.Context, e app.Event) {
	prev, ok := p.run.popUndo()
	if !ok {
		return
	}
	pos := p.run.engine.Pos()
	p.setEditor(ctx, prev)
	p.say(false, uitext.Tr(p.run.lang, "pg.undone"))
	p.startLoad(ctx, prev, func(ctx app.Context, err error) {
		p.run.engine.Seek(pos)
		p.followNewest(ctx)
	})
}

// editorError is the error the editor shows: the typed script's parse
// error, else the loaded script's runtime error when the editor holds it.
func (p *playground) editorError() *engine.ScriptError {
	if p.run.scriptErr != nil {
		return p.run.scriptErr
	}
	if err := p.run.engine.Err(); err != nil && p.run.script == p.run.engine.Script() {
		return err
	}
	return nil
}

func (p *playground) renderEditor() app.UI {
	se := p.editorError()
	current := 0
	if p.run.script == p.run.engine.Script() && !p.run.busy {
		current = p.run.engine.Line()
	}
	marks := map[int]bool{} // line → expectation passed
	for _, r := range p.run.engine.Results() {
		ok, seen := marks[r.Pos.Line]
		marks[r.Pos.Line] = r.OK && (!seen || ok)
	}
	if p.run.script != p.run.engine.Script() {
		marks = nil
	}
	// The lines go in blocks, each a component that go-app redraws only
	// when its own lines change: moving the executing line redraws two
	// blocks, not a long script's every line.
	blocks, lines := p.cut.of(p.run.script)
	// The blocks with a line marked; the others (most of a long script)
	// take their marks from noMarks.
	marked := map[int]bool{}
	for n := range marks {
		marked[(n-1)/editorBlockLines] = true
	}
	backdrop := make([]app.UI, 0, len(blocks))
	for k, text := range blocks {
		first := 1 + k*editorBlockLines
		count := min(editorBlockLines, lines-first+1)
		in := func(n int) bool { return n >= first && n < first+count }
		bd := &editorBlock{First: first, Count: count, Text: text, Marks: noMarks[:count]}
		if in(current) {
			bd.Current = current
		}
		if marked[k] {
			m := make([]byte, 0, count)
			for n := first; n < first+count; n++ {
				switch ok, has := marks[n]; {
				case !has:
					m = append(m, ' ')
				case ok:
					m = append(m, 'p')
				default:
					m = append(m, 'f')
				}
			}
			bd.Marks = string(m)
		}
		if se != nil && in(se.Line) {
			bd.ErrLine, bd.ErrCol = se.Line, se.Col
		}
		backdrop = append(backdrop, bd)
	}

	l := p.run.lang
	scriptName, scriptSpan := uitext.LocalName(l, "Scenario script", "script-name")
	area := app.Textarea().ID("script").
		Aria("label", "Scenario script").
		Aria("labelledby", scriptName).
		Spellcheck(false).
		Attr("autocomplete", "off").
		Attr("autocapitalize", "off").
		Attr("wrap", "soft").
		Text(p.run.editorText).
		// The child text is what the pre-rendered page shows before the
		// wasm runs (a textarea ignores a value attribute in HTML).
		Body(app.Text(p.run.editorText)).
		OnInput(p.onInput).
		OnScroll(p.onEditorScroll)
	if se != nil {
		area = area.Aria("invalid", "true").Aria("describedby", "script-error")
	}

	revertName, revertSpan := uitext.LocalName(l, "Revert script", "revert-name")
	undoName, undoSpan := uitext.LocalName(l, "Undo script change", "undo-name")
	_, listSpan := uitext.LocalName(l, "Load a library scenario", "library-select-name")
	return app.Section().Class("editor").Aria("label", uitext.Tr(l, "Script")).Body(
		app.If(scriptSpan != nil, func() app.UI { return app.Span().Body(scriptSpan, revertSpan, undoSpan, listSpan) }),
		app.Div().Class("panel-head").Body(
			app.H2().Text(uitext.Tr(l, "Script")),
			app.Div().Class("editor-tools").Body(
				p.renderLibrarySelect(),
				app.Button().Type("button").Class("tool").Aria("label", "Revert script").
					Aria("labelledby", revertName).
					Title(uitext.Tr(l, "Back to the library's version of this scenario")).
					Aria("disabled", p.lib.original == "" || p.run.script == p.lib.original).
					OnClick(p.onRevert).Text(uitext.Tr(l, "Revert")),
				app.Button().Type("button").Class("tool").Aria("label", "Undo script change").
					Aria("labelledby", undoName).
					Title(uitext.Tr(l, "Bring back the script before the last action, revert or load")).
					Aria("disabled", len(p.run.undo) == 0).
					OnClick(p.onUndo).Text(uitext.Tr(l, "Undo")),
				app.Label().Class("tool file-button").Title(uitext.Tr(l, "Open a .scenario file (or drop one on the script)")).Body(
					app.Text(uitext.Tr(l, "Open file")),
					app.Input().Type("file").Accept(".scenario,.txt,text/plain").Class("visually-hidden").
						Aria("label", uitext.Tr(l, "Open a scenario file")).DataSet("action", "open-file").OnChange(p.onOpenFile),
				),
			),
		),
		app.Div().Class("code").OnDragOver(p.onDragOver).OnDrop(p.onDrop).Body(
			app.Div().ID("script-backdrop").Class("backdrop").Aria("hidden", "true").Body(backdrop...),
			area,
		),
		app.If(se != nil, func() app.UI {
			kind := "Line %d, column %d: %s"
			if se.Runtime {
				kind = "Line %d, column %d stops the run: %s"
			}
			return app.P().ID("script-error").Class("script-error").Role("alert").
				DataSet("line", se.Line).DataSet("col", se.Col).
				Body(uitext.ScriptErrorText(l, kind, se)...)
		}),
		app.If(p.run.script != p.run.engine.Script() && (se == nil || p.editPending()), func() app.UI {
			return app.P().Class("editor-status").Role("status").Text(uitext.Tr(l, "Running your edits…"))
		}),
		p.renderResults(),
	)
}

// editorBlockLines is the number of script lines in an editor block.
const editorBlockLines = 64

// noMarks is a block's marks when none of its lines has one.
var noMarks = strings.Repeat(" ", editorBlockLines)

// scriptBlocks cuts script into the editor's blocks of editorBlockLines
// lines, each its lines joined by newlines, and counts its lines: every
// line the textarea has, the empty one after a final newline included,
// since the gutter must scroll exactly as far as the text. The blocks
// are pieces of script itself: splitting a long script into lines and
// joining them again at every render was a sixth of what the
// playground's page allocated over a session of moves, and so of what
// brought its collector.
func scriptBlocks(script string) (blocks []string, lines int) {
	start, newlines := 0, 0
	for i := 0; i < len(script); i++ {
		if script[i] != '\n' {
			continue
		}
		if newlines++; newlines%editorBlockLines == 0 {
			blocks = append(blocks, script[start:i])
			start = i + 1
		}
	}
	return append(blocks, script[start:]), newlines + 1
}

// editorCut is a script cut into the editor's blocks (scriptBlocks),
// kept while the script stays the same: every move renders the editor
// again, and cutting a long script was a third of that render (36 % of
// BenchmarkEditorRender's CPU profile, natively).
type editorCut struct {
	script string
	blocks []string
	lines  int
}

// of is script's blocks and line count. An unchanged script is the same
// string, which compares equal at once (same bytes, same address).
func (c *editorCut) of(script string) (blocks []string, lines int) {
	if c.blocks == nil || c.script != script {
		c.script = script
		c.blocks, c.lines = scriptBlocks(script)
	}
	return c.blocks, c.lines
}

// editorBlock is a run of the backdrop's rows: per line, its number (the
// gutter) and its text (transparent, so it wraps as the textarea's
// does). Its fields are all it draws, so go-app redraws it only when one
// changes: typing in a line redraws its block, not a long script's every
// line.
type editorBlock struct {
	app.Compo
	First   int    // the first line's number
	Count   int    // lines in the block
	Text    string // the block's lines, joined by newlines
	Current int    // the executing line, when in the block
	Marks   string // per line: 'p' an expectation passed, 'f' failed, ' ' none
	ErrLine int    // the line with the error, when in the block
	ErrCol  int

	// drawn is what html was written from: the block's rows without the
	// executing line, which markCurrent marks in the page.
	drawn blockRows
	html  string
}

// blockRows is what a block's markup depends on in the browser.
type blockRows struct {
	first, count    int
	text, marks     string
	errLine, errCol int
}

// OnMount marks the executing line once the block is in the page. A
// block just mounted has no mark to take away, so one without the line
// (all but one of a long script's blocks) asks for nothing.
func (b *editorBlock) OnMount(ctx app.Context) {
	if b.Current != 0 {
		ctx.Defer(b.markCurrent)
	}
}

// OnUpdate marks the executing line again after the block is redrawn.
func (b *editorBlock) OnUpdate(ctx app.Context) { ctx.Defer(b.markCurrent) }

// markCurrent gives the executing line's number and text the class
// "current", and takes it from the line that had it. In the browser the
// block's markup leaves the executing line out: a step moves that line
// at every step, and writing the line into the markup made the browser
// parse, style and lay out the block's 64 rows again (3 kB of markup)
// where two class changes do.
func (b *editorBlock) markCurrent(ctx app.Context) {
	root := b.JSValue()
	if !root.Truthy() {
		return
	}
	for _, sel := range []string{".ln.current", ".bl.current"} {
		if el := root.Call("querySelector", sel); el.Truthy() {
			el.Get("classList").Call("remove", "current")
		}
	}
	if b.Current == 0 {
		return
	}
	ln := root.Call("querySelector", `.ln[data-line="`+strconv.Itoa(b.Current)+`"]`)
	if !ln.Truthy() {
		return
	}
	ln.Get("classList").Call("add", "current")
	if bl := ln.Get("nextElementSibling"); bl.Truthy() {
		bl.Get("classList").Call("add", "current")
	}
}

// Render writes the block as one piece of HTML, which the browser
// parses in one go: 5,000 lines built as go-app elements (three elements
// and a text per line, each a call from the wasm into JavaScript) kept a
// pasted script's page busy for seconds. In the browser the markup is
// kept while the rows stay the same, and the executing line is left to
// markCurrent; the server's page has it in its markup.
func (b *editorBlock) Render() app.UI {
	if !app.IsClient {
		return app.Raw(blockHTML(b.rows(), b.Current))
	}
	if rows := b.rows(); b.html == "" || rows != b.drawn {
		b.drawn, b.html = rows, blockHTML(rows, 0)
	}
	return app.Raw(b.html)
}

func (b *editorBlock) rows() blockRows {
	return blockRows{first: b.First, count: b.Count, text: b.Text, marks: b.Marks, errLine: b.ErrLine, errCol: b.ErrCol}
}

// blockHTML is the block's rows as HTML, line current (0: none) marked
// as executing.
func blockHTML(b blockRows, current int) string {
	lines := strings.SplitN(b.text, "\n", b.count)
	var h strings.Builder
	h.Grow(len(b.text) + b.count*64)
	h.WriteString(`<div class="lines">`)
	for i := range b.count {
		n := b.first + i
		text := ""
		if i < len(lines) {
			text = lines[i]
		}
		gc, bc := "ln", "bl"
		if n == current {
			gc += " current"
			bc += " current"
		}
		if i < len(b.marks) {
			switch b.marks[i] {
			case 'p':
				gc += " pass"
			case 'f':
				gc += " fail"
			}
		}
		body := escape.HTML(text)
		if n == b.errLine {
			gc += " error"
			bc += " error"
			// The error column, underlined under the text.
			r := []rune(text)
			col := min(max(b.errCol-1, 0), len(r))
			at, rest := " ", ""
			if col < len(r) {
				at, rest = string(r[col]), string(r[col+1:])
			}
			body = escape.HTML(string(r[:col])) + `<span class="error-at">` + escape.HTML(at) + `</span>` + escape.HTML(rest)
		}
		fmt.Fprintf(&h, `<div class="row"><div class="%s" data-line="%d">%d</div><div class="%s">%s</div></div>`, gc, n, n, bc, body)
	}
	h.WriteString(`</div>`)
	return h.String()
}

// renderResults lists the expectations checked so far.
func (p *playground) renderResults() app.UI {
	rs := p.run.engine.Results()
	l := p.run.lang
	if len(rs) == 0 {
		return app.P().Class("results-empty").Text(uitext.Tr(l, "Expectations appear here as the script checks them."))
	}
	failed := 0
	for _, r := range rs {
		if !r.OK {
			failed++
		}
	}
	return app.Details().Class("results").Open(failed > 0).Body(
		app.Summary().Text(fmt.Sprintf(uitext.Tr(l, "%d expectation(s) checked, %d failed"), len(rs), failed)),
		app.Ul().Body(app.Range(rs).Slice(func(i int) app.UI {
			r := rs[i]
			li := app.Li().Class("result").DataSet("line", r.Pos.Line)
			if r.OK {
				return li.Class("ok").Body(app.Text(fmt.Sprintf("✓ %d: ", r.Pos.Line)), app.Code().Text(r.Line))
			}
			return li.Class("fail").Body(
				app.Text(fmt.Sprintf("✗ %d: ", r.Pos.Line)), app.Code().Text(r.Line),
				app.Br(),
				app.Span().Class("detail").Body(expectationDetail(l, r)...),
			)
		})),
	)
}

// renderLibrarySelect is the editor's list of library scenarios. Until the
// page's first history is loaded and drawn it lists only the scenario
// shown: reading and listing the whole library is not needed for the
// first step.
func (p *playground) renderLibrarySelect() app.UI {
	return &librarySelect{Lang: p.run.lang, Listed: p.lib.libraryListed, Slug: p.lib.slug, Title: p.lib.slugTitle, Edited: p.edited(), onChange: p.onLoadScenario}
}

// maxOpenedFile bounds a script read from a file, as a share link is.
const maxOpenedFile = maxSharedScript

// onOpenFile reads a .scenario file the learner picked.
func (p *playground) onOpenFile(ctx app.Context, e app.Event) {
	files := ctx.JSSrc().Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return
	}
	p.readFile(ctx, files.Index(0))
	ctx.JSSrc().Set("value", "") // the same file again is a new choice
}

// onDragOver lets a file be dropped on the script.
func (p *playground) onDragOver(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ctx.PreventUpdate()
}

// onDrop reads a file dropped on the script.
func (p *playground) onDrop(ctx app.Context, e app.Event) {
	dt := e.Get("dataTransfer")
	if !dt.Truthy() || !dt.Get("files").Truthy() || dt.Get("files").Length() == 0 {
		return // text dropped into the textarea: the browser inserts it
	}
	e.PreventDefault()
	p.readFile(ctx, dt.Get("files").Index(0))
}

// readFile loads a file's text as the script; the script it replaces
// goes on Undo.
func (p *playground) readFile(ctx app.Context, file app.Value) {
	name := file.Get("name").String()
	if file.Get("size").Int() > maxOpenedFile {
		p.say(true, fmt.Sprintf(uitext.Tr(p.run.lang, "%s is too big to be a scenario (over %d bytes)."), name, maxOpenedFile))
		return
	}
	var onText app.Func
	onText = app.FuncOf(func(this app.Value, args []app.Value) any {
		onText.Release()
		text := args[0].String()
		ctx.Dispatch(func(ctx app.Context) {
			if p.run.script != "" && p.run.script != text {
				p.run.pushUndo(p.run.script)
			}
			p.lib.slug, p.lib.slugTitle, p.lib.original = "", "", text
			p.setEditor(ctx, text)
			p.startLoad(ctx, text, nil)
			p.say(false, fmt.Sprintf(uitext.Tr(p.run.lang, "Opened %s. Undo brings back the script before it."), name))
		})
		return nil
	})
	file.Call("text").Call("then", onText)
}

// expectationDetail says what a failed expectation wanted and what the
// run has, in the page's language (uitext.ExpectationValue).
func expectationDetail(l string, r scenario.Result) []app.UI {
	out := []app.UI{app.Text(uitext.Tr(l, "expected") + " ")}
	out = append(out, uitext.PiecesUI(uitext.ExpectationValue(l, r.Expected))...)
	out = append(out, app.Text(uitext.Tr(l, ", got")+" "))
	return append(out, uitext.PiecesUI(uitext.ExpectationValue(l, r.Actual))...)
}
