package playground

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/engine"
	"txnlab/app/site"
	"txnlab/app/uitext"
	"txnlab/core/scenario"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/lessons/doc"
)

// The compare page runs one script twice, under two settings (a Kafka
// release's protocol, a mechanism switched off, a seed), and shows both
// sequence diagrams side by side, aligned statement by statement, with
// the steps only one run has marked, a one-line summary per statement
// and both digests. It is `txnlab diff` in the browser: the runs, the
// alignment and the digests are core/scenario's (StartRecorded, Align),
// so the page and the CLI agree. A share link carries the script and
// both settings (#s=…&a=…&b=…).

// The settings a compare page opens with: the protocol the course
// teaches against the one Kafka 4.0 runs.
const (
	defaultSettingsA = "kafka=3.5"
	defaultSettingsB = "kafka=4.0"
	defaultCompare   = "jepsen-delayed-endtxn"
)

// compareSteps is how many session steps run between two looks at the
// clock; maxCompareRows bounds the rows a diagram draws (past it the
// diagrams stop at a statement boundary and say so; the summaries still
// cover every statement); maxCompareScript bounds the script.
const (
	compareSteps     = 64
	maxCompareRows   = 2500
	maxCompareScript = 256 << 10
)

// comparePage is the page at /compare and /zh/compare.
type comparePage struct {
	app.Compo

	lang doc.Lang

	// editorText is what the textarea was last given from outside;
	// script what it holds now (see playground.editorText).
	editorText, script string
	// settings are the two fields' texts; settingsErr their parse
	// errors ("" when fine).
	settings    [2]string
	settingsErr [2][]uitext.Piece
	scriptErr   *engine.ScriptError
	notice      string
	shareMsg    string

	// The run in progress: its recorders, which run is being worked on,
	// and busyGen, which a newer run or leaving the page bumps.
	rec     [2]*scenario.Recorder
	busy    bool
	busyGen int

	// result is the last comparison finished; nil before the first.
	result *comparison

	// addr is what the page keeps of its addresses (compareAddress).
	addr compareAddress
}

// compareAddress is what the compare page keeps of its addresses: its
// state as a fragment (frag, made of fragKey: stateFragment), the script
// its own address gives without a fragment (plain: its scenario's or the
// default, what the page shows before any edit), and editGen, which
// counts the edits so that only the last is written into the address
// (keep).
type compareAddress struct {
	fragKey, frag string
	plain         string
	editGen       int
}

// comparison is a finished comparison as the page draws it.
type comparison struct {
	script   string
	settings [2]scenario.Settings
	texts    [2]string // the settings as the learner wrote them
	runs     [2]*scenario.RecordedRun
	diffs    []scenario.StmtDiff
	sides    [2]*compareSide
	// shown is how many statements the diagrams draw (all but past
	// maxCompareRows); differing how many statements differ.
	shown, differing int
}

// NewComparePage is the compare route's page, under the default
// settings (Kafka 3.5 against 4.0) until its address says others.
func NewComparePage() *comparePage {
	c := &comparePage{settings: [2]string{defaultSettingsA, defaultSettingsB}}
	if app.IsClient {
		c.lang = uitext.LangOf(app.Window().URL().Path)
	}
	if sc, ok := ScenarioBySlugIn(c.lang, defaultCompare); ok {
		c.editorText, c.script = sc.Script, sc.Script
	}
	return c
}

// OnNav reads the address: a share link's script and settings, or a
// library scenario (?scenario=…), and compares at once.
func (c *comparePage) OnNav(ctx app.Context) {
	u := ctx.Page().URL()
	c.lang = uitext.LangOf(u.Path)
	site.SetPageIn(ctx, c.lang, uitext.Tr(c.lang, "cmp.title"), uitext.Tr(c.lang, "cmp.description"))
	fragment := ""
	if app.IsClient {
		fragment = app.Window().URL().Fragment
	}
	// The server pre-renders the form and a placeholder: the fragment
	// (a share link's state) never reaches it, and the browser runs the
	// comparison anyway.
	c.open(ctx, u.Query().Get("scenario"), fragment, app.IsClient)
}

// OnDismount stops a run in progress.
func (c *comparePage) OnDismount() { c.busyGen++ }

// open loads a library scenario or a share link's fragment (the link
// wins) and, if run, runs the comparison.
func (c *comparePage) open(ctx app.Context, slug, fragment string, run bool) {
	c.notice = ""
	// The page's own script: its address's scenario, or the default,
	// named when the address asked for one the library lacks (the
	// playground's notice, "here is the happy path", said so over
	// another script). Not the script shown: a navigation within the
	// page (its fragment changed) keeps what the learner wrote.
	own, known := ScenarioBySlugIn(c.lang, slug)
	if !known {
		own, _ = ScenarioBySlugIn(c.lang, defaultCompare)
		if slug != "" {
			c.notice = fmt.Sprintf(uitext.Tr(c.lang, "cmp.noscenario"), slug, strings.TrimRight(own.Title, ".。"))
		}
	}
	c.addr.plain = own.Script
	if slug != "" {
		c.setEditor(ctx, own.Script)
	}
	if fragment != "" {
		src, a, b, ok, err := compareState(fragment)
		switch {
		case err != nil:
			c.notice = uitext.Tr(c.lang, "pg.badlink")
		case ok:
			c.setEditor(ctx, src)
			c.settings = [2]string{a, b}
		}
	}
	if run {
		c.compare(ctx)
	}
}

// compareFragment is the share link's fragment for a script and two
// settings.
func compareFragment(script, a, b string) string {
	return "s=" + EncodeScript(script) + "&a=" + url.QueryEscape(a) + "&b=" + url.QueryEscape(b)
}

// compareState reads a compare link's fragment; ok is false when it
// carries no script. A link from the playground (#s= alone) keeps the
// default settings.
func compareState(fragment string) (src, a, b string, ok bool, err error) {
	src, ok, err = sharedScript(fragment)
	if !ok || err != nil {
		return "", "", "", false, err
	}
	a, b = defaultSettingsA, defaultSettingsB
	for _, part := range strings.Split(fragment, "&") {
		k, v, _ := strings.Cut(part, "=")
		if k != "a" && k != "b" {
			continue
		}
		text, err := url.QueryUnescape(v)
		if err != nil {
			return "", "", "", false, err
		}
		if k == "a" {
			a = text
		} else {
			b = text
		}
	}
	return src, a, b, true, nil
}

// ---- Running ----

// compare parses both settings and the script and starts both runs;
// they run in slices (work) so a long script does not freeze the page.
func (c *comparePage) compare(ctx app.Context) {
	c.keep()
	c.busyGen++
	c.busy = false
	c.shareMsg = ""
	var st [2]scenario.Settings
	bad := false
	for i, text := range c.settings {
		s, err := scenario.ParseSettings(text)
		c.settingsErr[i] = nil
		if err != nil {
			c.settingsErr[i] = settingsErrorIn(c.lang, err.Error())
			bad = true
		}
		st[i] = s
	}
	c.scriptErr = nil
	if len(c.script) > maxCompareScript {
		c.scriptErr = &engine.ScriptError{Line: 1, Col: 1, Msg: uitext.Tr(c.lang, "cmp.toolong")}
		return
	}
	if bad {
		return
	}
	for i := range c.rec {
		r, err := scenario.StartRecorded("compare", c.script, st[i])
		if err != nil {
			c.scriptErr = compareScriptError(err, false)
			return
		}
		c.rec[i] = r
	}
	c.busy = true
	src, texts := c.script, c.settings
	c.work(ctx, c.busyGen, func() {
		c.result = newComparison(src, st, texts, [2]*scenario.RecordedRun{c.rec[0].Run(), c.rec[1].Run()})
		c.rec = [2]*scenario.Recorder{}
	})
}

// work runs the recorders for about a frame's budget, then again in the
// page's next turns (turns.go), after the browser drew; done runs once
// both have finished. The next slice went in a timer of a millisecond,
// which Go ran in the same task when the render after a slice had taken
// that long: comparing a 3,000-event script froze the page for one task
// of 2.7 s.
func (c *comparePage) work(ctx app.Context, gen int, done func()) {
	c.workWithin(ctx, gen, done, WorkSlice)
}

func (c *comparePage) workWithin(ctx app.Context, gen int, done func(), budget time.Duration) {
	if gen != c.busyGen {
		return // superseded
	}
	if app.IsServer {
		budget = time.Hour // natively (the tests): nobody waits for a frame
	}
	start := time.Now()
	for time.Since(start) < budget {
		i := 0
		if c.rec[0].Work(0) {
			i = 1
		}
		if c.rec[i].Work(compareSteps) && i == 1 {
			c.busy = false
			done()
			return
		}
	}
	TakeTurn(ctx, func(ctx app.Context, budget time.Duration) { c.workWithin(ctx, gen, done, budget) })
}

// settingsErrorIn is ParseSettings' error for a page in lang: itself in
// English; in Chinese, that the settings cannot be read and why, its
// values as code. A config value's error is the config statement's,
// after the setting it is about ("transaction.version=9: …").
func settingsErrorIn(lang doc.Lang, msg string) []uitext.Piece {
	if lang != doc.Chinese {
		return uitext.Prose(msg)
	}
	lead := uitext.Prose(uitext.Tr(lang, "cmp.settings.bad") + "：")
	if ps, ok := uitext.ErrorSentence(msg); ok {
		return append(lead, ps...)
	}
	if word, rest, ok := strings.Cut(msg, ": "); ok {
		if ps, ok := uitext.ErrorSentence(rest); ok {
			return slices.Concat(lead, uitext.Code(word), uitext.Prose("："), ps)
		}
	}
	return append(lead, uitext.CoreErrorPieces(string(lang), msg)...)
}

// compareScriptError is a core error as the editor shows it.
func compareScriptError(err error, runtime bool) *engine.ScriptError {
	var se *scenario.Error
	if errors.As(err, &se) {
		return &engine.ScriptError{Line: se.Pos.Line, Col: se.Pos.Col, Msg: se.Msg, Runtime: runtime}
	}
	return &engine.ScriptError{Line: 1, Col: 1, Msg: err.Error(), Runtime: runtime}
}

// newComparison aligns two finished runs and lays out their diagrams.
func newComparison(src string, st [2]scenario.Settings, texts [2]string, runs [2]*scenario.RecordedRun) *comparison {
	cmp := &comparison{script: src, settings: st, texts: texts, runs: runs}
	cmp.diffs = scenario.Align(runs[0], runs[1])
	for _, d := range cmp.diffs {
		if d.Differs() {
			cmp.differing++
		}
	}
	cmp.sides, cmp.shown = alignedSides(runs, cmp.diffs, maxCompareRows)
	return cmp
}

// ---- The aligned diagrams ----

// compareSide is one run's diagram: its events with spacer rows where
// the other run has a row this one lacks, laid out as the playground's
// diagram is, and what the page draws over it.
type compareSide struct {
	events []sim.Event
	names  *sim.Names // what the run's node codes stand for
	layout *diagram.Layout
	// stmtRow is the row of each statement's header (the statement's
	// text, on both sides at the same height), by statement index.
	stmtRow []int
	// differs are the rows of the events only this run has.
	differs map[int]bool
	// differsMsg are the messages whose send only this run has.
	differsMsg map[int64]bool
	rows       int
}

// spacer is a row with nothing drawn on it: a delivery of no message
// (drawNote draws no delivery, and no send opened message 0's arrow).
var spacer = sim.Event{Kind: sim.KindDeliver}

// alignedSides lays out both runs' events statement by statement: a
// header row for each statement, then its events in the alignment's
// order, an event both runs have on the same row on both sides and one
// only one run has facing a spacer. Statements stop being drawn once a
// side has more than limit rows; shown is how many were.
func alignedSides(runs [2]*scenario.RecordedRun, diffs []scenario.StmtDiff, limit int) (sides [2]*compareSide, shown int) {
	var f diagram.Filter // the playground's default: replication hidden
	var traces [2][]sim.Event
	for i, r := range runs {
		if r.Session.Cluster != nil {
			traces[i] = r.Session.Cluster.World.Trace.Events(0)
		}
		sides[i] = &compareSide{differs: map[int]bool{}, differsMsg: map[int64]bool{}}
		if r.Session.Cluster != nil {
			sides[i].names = r.Session.Cluster.World.Names()
		}
	}
	var next [2]int // the next trace event of each side not yet placed
	add := func(i int, e sim.Event) {
		s := sides[i]
		s.events = append(s.events, e)
		if f.Shows(&e) {
			s.rows++
		}
	}
	// upTo places side i's events before trace index k: the hidden ones
	// the alignment leaves out (replication).
	upTo := func(i, k int) {
		for ; next[i] < k && next[i] < len(traces[i]); next[i]++ {
			add(i, traces[i][next[i]])
		}
	}
	even := func() {
		for sides[0].rows < sides[1].rows {
			add(0, spacer)
		}
		for sides[1].rows < sides[0].rows {
			add(1, spacer)
		}
	}
	for _, d := range diffs {
		if sides[0].rows > limit || sides[1].rows > limit {
			break
		}
		shown++
		for i := range sides {
			sides[i].stmtRow = append(sides[i].stmtRow, sides[i].rows)
			add(i, spacer)
		}
		for _, op := range d.Ops {
			for i, k := range [2]int{op.A, op.B} {
				if k < 0 {
					continue
				}
				upTo(i, k)
				e := traces[i][k]
				if op.Op != '=' && f.Shows(&e) {
					sides[i].differs[sides[i].rows] = true
					if e.Kind == sim.KindSend {
						sides[i].differsMsg[e.MsgID] = true
					}
				}
				add(i, e)
				next[i] = k + 1
			}
			even()
		}
	}
	if shown == len(diffs) {
		for i := range sides {
			upTo(i, len(traces[i])) // what follows the last statement (nothing, or hidden)
		}
	}
	even()
	// The same lanes on both sides, by name: each run coded its nodes
	// in its own order.
	lanes := diagram.LanesOf(f, diagram.Run{Names: sides[0].names, Events: sides[0].events},
		diagram.Run{Names: sides[1].names, Events: sides[1].events})
	for i := range sides {
		s := sides[i]
		s.layout = diagram.FullLayout(lanes, s.names, s.events, f).At(len(s.events), len(s.events))
	}
	return sides, shown
}

// svg is side i's diagram as markup: the lane heads, the statements'
// bands, the marks of the differing rows, and the rows themselves.
func (s *compareSide) svg(lang doc.Lang, i int, cmp *comparison) string {
	l := s.layout
	l.Words = uitext.DiagramWords(string(lang)) // the notes in the page's language
	var b strings.Builder
	h := l.Height + diagram.HeadHeight
	id := "abcdefgh"[i : i+1]
	b.WriteString(`<svg xmlns="` + diagram.SVGNS + `" class="sequence cmp-sequence" data-run="` + id + `" width="` + itoa(l.Width) +
		`" height="` + itoa(h) + `" viewBox="0 0 ` + itoa(l.Width) + " " + itoa(h) + `" role="img" aria-label="` +
		htmlAttr(fmt.Sprintf(uitext.Tr(lang, "cmp.diagram.label"), id, len(s.differs))) + `" data-rows="` + itoa(l.NowRow) +
		`" data-differs="` + itoa(len(s.differs)) + `">`)
	l.Markers = "cmp-" + id + "-" // two diagrams on the page
	writeRaw(&b, diagram.ArrowDefs(l.Markers))
	writeRaw(&b, diagram.LaneHeads(l, nil))
	b.WriteString(`<g transform="translate(0,` + itoa(diagram.HeadHeight) + `)">`)
	for k, row := range s.stmtRow {
		d := cmp.diffs[k]
		class := "cmp-stmt"
		if d.Differs() {
			class += " cmp-stmt-differs"
		}
		y := row * diagram.RowHeight
		g := diagram.El("g", "class", class, "id", stmtAnchor(id, d.Line), "data-line", itoa(d.Line)).With(
			diagram.El("rect", "class", "cmp-stmt-band", "x", "0", "y", itoa(y+2), "width", itoa(l.Width), "height", itoa(diagram.RowHeight-4), "rx", "4"),
			diagram.El("text", "class", "cmp-stmt-label", "x", "6", "y", itoa(y+diagram.RowHeight/2+4)).
				WithText(fmt.Sprintf(uitext.Tr(lang, "line %d"), d.Line)+"  "+diagram.Truncate(d.Text, 90)),
		)
		writeRaw(&b, g)
	}
	mark, only := "−", uitext.Tr(lang, "cmp.only.a")
	if i == 1 {
		mark, only = "+", uitext.Tr(lang, "cmp.only.b")
	}
	for row := range l.Rows {
		if !s.differs[row] {
			continue
		}
		y := row * diagram.RowHeight
		writeRaw(&b, diagram.El("g", "class", "cmp-diff cmp-only-"+id, "data-row", itoa(row)).With(
			diagram.El("title").WithText(only),
			diagram.El("rect", "class", "cmp-diff-band", "x", "0", "y", itoa(y), "width", itoa(l.Width), "height", itoa(diagram.RowHeight)),
			diagram.El("text", "class", "cmp-diff-mark", "x", "14", "y", itoa(y+diagram.RowHeight/2+5), "text-anchor", "middle").WithText(mark),
		))
	}
	for _, sh := range diagram.DrawRows(l, s.events, 0, l.NowRow+1, 0) {
		if sh.Msg != 0 && s.differsMsg[sh.Msg] {
			for k := range sh.Attrs {
				if sh.Attrs[k].K == "class" {
					sh.Attrs[k].V += " cmp-differs"
				}
			}
		}
		sh.Msg = 0 // nothing to open: the compare page has no message panel
		writeRaw(&b, sh)
	}
	b.WriteString("</g></svg>")
	return b.String()
}

// stmtAnchor is the id of a statement's band in run id's diagram.
func stmtAnchor(id string, line int) string { return "cmp-" + id + "-line-" + strconv.Itoa(line) }

func htmlAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// ---- The settings fields ----

// settingWord is the value of the first KEY= word of a settings text.
func settingWord(text, key string) string {
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		if v, ok := strings.CutPrefix(w, key+"="); ok {
			return v
		}
	}
	return ""
}

// withSetting is text with its KEY= words replaced by KEY=value (none
// when value is ""), the other words kept in their order.
func withSetting(text, key, value string) string {
	var out []string
	placed := false
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' }) {
		if !strings.HasPrefix(w, key+"=") {
			out = append(out, w)
			continue
		}
		if !placed && value != "" {
			out = append(out, key+"="+value)
		}
		placed = true
	}
	if !placed && value != "" {
		out = append(out, key+"="+value)
	}
	return strings.Join(out, " ")
}

func (c *comparePage) onSettings(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		c.settings[i] = ctx.JSSrc().Get("value").String()
		c.keepLater(ctx)
	}
}

// onPick sets one word of a settings field from its picker and compares
// again.
func (c *comparePage) onPick(i int, key string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		v := strings.TrimSpace(ctx.JSSrc().Get("value").String())
		if v == "-" {
			v = ""
		}
		c.settings[i] = withSetting(c.settings[i], key, v)
		c.compare(ctx)
	}
}

func (c *comparePage) onSettingsKey(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Enter" {
		e.PreventDefault()
		c.compare(ctx)
	}
}

// ---- The editor and the link ----

func (c *comparePage) setEditor(ctx app.Context, text string) {
	c.editorText, c.script = text, text
	if app.IsClient {
		ctx.Defer(func(ctx app.Context) {
			if ta := app.Window().GetElementByID("cmp-script"); ta.Truthy() && ta.Get("value").String() != text {
				ta.Set("value", text)
			}
		})
	}
}

func (c *comparePage) onScript(ctx app.Context, e app.Event) {
	was := c.edited()
	c.script = ctx.JSSrc().Get("value").String()
	if c.edited() == was {
		ctx.PreventUpdate() // only Revert's showing depends on the text
	}
	c.keepLater(ctx)
}

// edited reports whether the script is not the one the page opened with
// (its address's scenario or the default), which Revert brings back.
func (c *comparePage) edited() bool { return c.script != c.addr.plain }

// onRevert brings back the script the page opened with, keeps both
// settings, and compares again: the learner's way back from an edit,
// which before meant clearing the address by hand.
func (c *comparePage) onRevert(ctx app.Context, e app.Event) {
	c.addr.editGen++ // an edit's pending keep is overtaken
	c.setEditor(ctx, c.addr.plain)
	c.compare(ctx)
}

// keepLater keeps the page's state once the typing pauses: compressing a
// long script into the address at every key would slow the typing.
func (c *comparePage) keepLater(ctx app.Context) {
	c.addr.editGen++
	gen := c.addr.editGen
	ctx.After(editDelay, func(ctx app.Context) {
		ctx.PreventUpdate()
		if gen == c.addr.editGen {
			c.keep()
		}
	})
}

// keep writes the script and the settings into the address's fragment,
// as a share link does, so that a reload (or a bookmark) brings back what
// the learner wrote: the page lost it before. An address that gives what
// is shown anyway keeps no fragment.
func (c *comparePage) keep() {
	if !app.IsClient {
		return
	}
	frag := ""
	if c.edited() || c.settings != [2]string{defaultSettingsA, defaultSettingsB} {
		frag = c.stateFragment()
	}
	loc := app.Window().Get("location")
	if loc.Get("hash").String() != frag {
		app.Window().Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+loc.Get("search").String()+frag)
	}
}

func (c *comparePage) onCompare(ctx app.Context, e app.Event) { c.compare(ctx) }

// shareLink is the page's address with the script and both settings.
func (c *comparePage) shareLink() string {
	return uitext.InLang(c.lang, site.PathCompare) + c.stateFragment()
}

// onShare puts the link in the address bar and, if the browser lets it,
// on the clipboard.
func (c *comparePage) onShare(ctx app.Context, e app.Event) {
	if !app.IsClient {
		return
	}
	u := app.Window().URL()
	u.RawQuery = ""
	u.Fragment = ""
	link := strings.TrimSuffix(u.String(), "#") + c.stateFragment()
	app.Window().Get("history").Call("replaceState", nil, "", link)
	c.shareMsg = uitext.Tr(c.lang, "cmp.share.address")
	if browser.CopyToClipboard(link) {
		c.shareMsg = uitext.Tr(c.lang, "cmp.share.copied")
	}
}

// scrollTo brings statement line's band of diagram A into view.
func scrollTo(line int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if el := app.Window().GetElementByID(stmtAnchor("a", line)); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "center"})
		}
		ctx.PreventUpdate()
	}
}

// stateFragment is "#" and the page's script and settings as a share
// link's fragment: what the share link, the address kept across a reload
// (keep) and the language control carry. Compressing a long script is
// done once for each state, not at every render or kept edit.
func (c *comparePage) stateFragment() string {
	key := c.script + "\x00" + c.settings[0] + "\x00" + c.settings[1]
	if c.addr.fragKey != key {
		c.addr.fragKey, c.addr.frag = key, "#"+compareFragment(c.script, c.settings[0], c.settings[1])
	}
	return c.addr.frag
}

// ---- Page ----

func (c *comparePage) Render() app.UI {
	l := c.lang
	return site.ShellTwin(l, uitext.InLang(l, site.PathCompare), c.stateFragment(),
		app.Div().Class("compare").DataSet("state", c.state()).Body(
			app.H1().Text(uitext.Tr(l, "cmp.title")),
			app.P().Class("cmp-lead").Text(uitext.Tr(l, "cmp.lead")),
			app.If(c.notice != "", func() app.UI { return app.P().Class("notice").Role("status").Text(c.notice) }),
			c.renderForm(),
			c.renderResult(),
		),
	)
}

func (c *comparePage) state() string {
	switch {
	case c.busy:
		return "running"
	case c.result != nil:
		return "done"
	}
	return "idle"
}

func (c *comparePage) renderForm() app.UI {
	l := c.lang
	area := app.Textarea().ID("cmp-script").Class("cmp-script").DataSet("field", "script").
		Aria("label", "Scenario script").Spellcheck(false).
		Attr("autocomplete", "off").Attr("autocapitalize", "off").Attr("wrap", "off").
		Attr("rows", min(max(strings.Count(c.editorText, "\n")+1, 6), 18)).
		Text(c.editorText).Body(app.Text(c.editorText)).
		OnInput(c.onScript)
	name, nameUI := uitext.LocalName(l, "Scenario script", "cmp-script-name")
	if name != "" {
		area = area.Aria("labelledby", name)
	}
	if c.scriptErr != nil {
		area = area.Aria("invalid", "true").Aria("describedby", "cmp-script-error")
	}
	return app.Form().Class("cmp-form").OnSubmit(func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		c.compare(ctx)
	}).Body(
		app.Div().Class("cmp-editor").Body(
			app.Label().For("cmp-script").Class("cmp-field-label").Text(uitext.Tr(l, "cmp.script")),
			nameUI,
			area,
			app.If(c.scriptErr != nil, func() app.UI {
				msg := "Line %d, column %d: %s"
				if c.scriptErr.Runtime {
					msg = "Line %d, column %d stops the run: %s"
				}
				return app.P().ID("cmp-script-error").Class("script-error").Role("alert").
					DataSet("line", c.scriptErr.Line).Body(uitext.ScriptErrorText(string(l), msg, c.scriptErr)...)
			}),
		),
		app.Div().Class("cmp-settings-pair").Body(c.renderSettings(0), c.renderSettings(1)),
		app.Div().Class("cmp-actions").Body(
			app.Button().Type("submit").Class("tool cmp-run").DataSet("action", "compare").
				Disabled(c.busy).Text(uitext.Tr(l, "cmp.run")),
			app.Button().Type("button").Class("tool").DataSet("action", "share").
				OnClick(c.onShare).Text(uitext.Tr(l, "cmp.share")),
			app.If(c.edited(), func() app.UI {
				return app.Button().Type("button").Class("tool").DataSet("action", "revert").
					Title(uitext.Tr(l, "cmp.revert")).OnClick(c.onRevert).Text(uitext.Tr(l, "Revert"))
			}),
			app.A().Class("cmp-playground").Href(uitext.InLang(l, site.PathPlayground)+"#s="+EncodeScript(c.script)).
				Text(uitext.Tr(l, "cmp.open.playground")),
			app.If(c.busy, func() app.UI {
				return app.Span().Class("busy").Role("status").Text(uitext.Tr(l, "Running the script…"))
			}),
			app.If(c.shareMsg != "", func() app.UI {
				return app.Span().Class("cmp-share-msg").Role("status").Text(c.shareMsg)
			}),
		),
	)
}

// renderSettings is run i's settings field and its pickers, which write
// words of the field.
func (c *comparePage) renderSettings(i int) app.UI {
	l := c.lang
	id := "abcdefgh"[i : i+1]
	text := c.settings[i]
	field := "cmp-settings-" + id
	kafka := settingWord(text, "kafka")
	brk := settingWord(text, "break")
	seed := settingWord(text, "seed")
	// "-" is the option of no word: go-app drops an empty value, and an
	// option without one is worth its text. selected is only written
	// when true: the pre-rendered page's selected="false" selects.
	option := func(value, label, current string) app.UI {
		o := app.Option().Value(value).Text(label)
		if value == current || value == "-" && current == "" {
			o = o.Selected(true)
		}
		return o
	}
	kafkaOpts := []app.UI{option("-", uitext.Tr(l, "cmp.pick.none"), kafka)}
	for _, v := range []string{"3.5", "3.6", "3.8", "4.0"} {
		kafkaOpts = append(kafkaOpts, option(v, "Kafka "+v, kafka))
	}
	breakOpts := []app.UI{option("-", uitext.Tr(l, "cmp.pick.nobreak"), brk)}
	for _, m := range scenario.Mechanisms {
		breakOpts = append(breakOpts, option(m.String(), m.String(), brk))
	}
	input := app.Input().Type("text").ID(field).Class("cmp-settings").DataSet("field", "settings-"+id).
		Spellcheck(false).Attr("autocomplete", "off").Attr("autocapitalize", "off").
		Placeholder("kafka=4.0 seed=7").Value(text).
		OnInput(c.onSettings(i)).OnKeyDown(c.onSettingsKey)
	if len(c.settingsErr[i]) > 0 {
		input = input.Aria("invalid", "true").Aria("describedby", field+"-error")
	}
	return app.FieldSet().Class("cmp-run-settings cmp-run-"+id).Body(
		app.Legend().Text(fmt.Sprintf(uitext.Tr(l, "cmp.run.legend"), strings.ToUpper(id))),
		app.Label().For(field).Class("cmp-field-label").Text(uitext.Tr(l, "cmp.settings")),
		input,
		app.Div().Class("cmp-pickers").Body(
			app.Label().Body(app.Span().Text(uitext.Tr(l, "cmp.pick.kafka")),
				app.Select().DataSet("pick", "kafka-"+id).OnChange(c.onPick(i, "kafka")).Body(kafkaOpts...)),
			app.Label().Body(app.Span().Text(uitext.Tr(l, "cmp.pick.break")),
				app.Select().DataSet("pick", "break-"+id).OnChange(c.onPick(i, "break")).Body(breakOpts...)),
			app.Label().Body(app.Span().Text(uitext.Tr(l, "cmp.pick.seed")),
				app.Input().Type("number").Attr("min", "1").Class("cmp-seed").DataSet("pick", "seed-"+id).
					Value(seed).OnChange(c.onPick(i, "seed"))),
		),
		app.If(len(c.settingsErr[i]) > 0, func() app.UI {
			return app.P().ID(field + "-error").Class("script-error").Role("alert").Body(uitext.PiecesUI(c.settingsErr[i])...)
		}),
	)
}

func (c *comparePage) renderResult() app.UI {
	l := c.lang
	cmp := c.result
	if cmp == nil {
		return app.P().Class("diagram-placeholder").Text(uitext.Tr(l, "cmp.placeholder"))
	}
	stale := cmp.script != c.script || cmp.texts != c.settings
	class := "cmp-result"
	if stale || c.busy {
		class += " stale"
	}
	return app.Section().Class(class).Aria("labelledby", "cmp-result-heading").Body(
		app.H2().ID("cmp-result-heading").Text(fmt.Sprintf(uitext.Tr(l, "cmp.differing"), cmp.differing, len(cmp.diffs))),
		app.If(stale && !c.busy, func() app.UI {
			return app.P().Class("notice").Text(uitext.Tr(l, "cmp.stale"))
		}),
		c.renderRuns(cmp),
		c.renderSummaries(cmp),
		app.If(cmp.shown < len(cmp.diffs), func() app.UI {
			return app.P().Class("notice cmp-cut").Role("note").
				Text(fmt.Sprintf(uitext.Tr(l, "cmp.cut"), cmp.shown, len(cmp.diffs)))
		}),
		app.Div().Class("cmp-diagrams").Body(c.renderSide(cmp, 0), c.renderSide(cmp, 1)),
	)
}

// renderRuns says, for each run, its settings, digest, failed
// expectations, the invariants broken and where it stopped — what
// `txnlab diff` prints last.
func (c *comparePage) renderRuns(cmp *comparison) app.UI {
	l := c.lang
	row := func(i int) app.UI {
		r := cmp.runs[i]
		id := "abcdefgh"[i : i+1]
		viol := r.Violated()
		var stopped app.UI = app.Text("")
		if r.Session.Err != nil {
			se := compareScriptError(r.Session.Err, true)
			stopped = app.P().Class("script-error").DataSet("stopped", id).
				Body(uitext.ScriptErrorText(string(l), "Line %d, column %d stops the run: %s", se)...)
		}
		return app.Li().Class("cmp-run-facts").DataSet("run", id).Body(
			app.Strong().Text(fmt.Sprintf(uitext.Tr(l, "cmp.run.legend"), strings.ToUpper(id))+" "),
			app.Code().Text(cmp.settings[i].String()),
			app.Br(),
			app.Output().Class("digest").DataSet("run", id).DataSet("digest", r.Digest()).
				Text(fmt.Sprintf(uitext.Tr(l, "digest %s"), r.Digest())),
			app.Text(" · "+fmt.Sprintf(uitext.Tr(l, "cmp.failed"), r.Session.Failed())+" · "),
			app.If(len(viol) == 0, func() app.UI {
				return app.Span().DataSet("violations", "none").Text(uitext.Tr(l, "cmp.noviolation"))
			}).Else(func() app.UI {
				return app.Span().Class("cmp-violates").DataSet("violations", strings.Join(viol, " ")).Body(
					app.Text(uitext.Tr(l, "cmp.violates")+" "),
					app.Code().Text(strings.Join(viol, ", ")),
				)
			}),
			stopped,
		)
	}
	return app.Ul().Class("cmp-runs").Body(row(0), row(1))
}

// renderSummaries lists the statements that differ, each with what only
// A did and what only B did: core's summary, worded in the page's
// language around Kafka's identifiers.
func (c *comparePage) renderSummaries(cmp *comparison) app.UI {
	l := c.lang
	if cmp.differing == 0 {
		return app.P().Class("cmp-same").DataSet("same", "all").Text(uitext.Tr(l, "cmp.same"))
	}
	side := func(i int, labels []string) app.UI {
		id := "abcdefgh"[i : i+1]
		// The settings as the learner wrote them ("kafka=3.5"): the
		// facts above spell them out.
		name := strings.TrimSpace(cmp.texts[i])
		if name == "" {
			name = cmp.settings[i].String()
		}
		kids := []app.UI{app.Strong().Text(fmt.Sprintf(uitext.Tr(l, "cmp.only.side"), strings.ToUpper(id), name) + " ")}
		if len(labels) == 0 {
			kids = append(kids, app.Text(uitext.Tr(l, "cmp.nothing")))
		}
		for k, lb := range labels {
			if k == 4 {
				kids = append(kids, app.Text(fmt.Sprintf(uitext.Tr(l, "cmp.more"), len(labels)-4)))
				break
			}
			if k > 0 {
				kids = append(kids, app.Text(punct(l, ", ", "、")))
			}
			kids = append(kids, app.Code().Text(lb))
		}
		return app.Span().Class("cmp-only cmp-only-" + id).Body(kids...)
	}
	var items []app.UI
	for _, d := range cmp.diffs {
		if !d.Differs() {
			continue
		}
		items = append(items, app.Li().Class("cmp-summary").DataSet("line", d.Line).Body(
			app.Button().Type("button").Class("cmp-goto").OnClick(scrollTo(d.Line), app.EventScope(strconv.Itoa(d.Line))).
				Body(app.Span().Class("visually-hidden").Text(uitext.Tr(l, "cmp.differs.sr")+" "),
					app.Text(fmt.Sprintf(uitext.Tr(l, "line %d"), d.Line))),
			app.Text(" "),
			app.Code().Class("cmp-stmt-text").Text(d.Text),
			app.Div().Class("cmp-summary-line").DataSet("summary", d.Summary).Body(
				side(0, d.OnlyA), app.Text(punct(l, "; ", "；")), side(1, d.OnlyB)),
		))
	}
	return app.Ol().Class("cmp-summaries").ID("cmp-summaries").Aria("label", uitext.Tr(l, "cmp.summaries")).Body(items...)
}

// punct is a punctuation mark of lang: Chinese has its own.
func punct(lang doc.Lang, en, zh string) string {
	if lang == doc.Chinese {
		return zh
	}
	return en
}

// renderSide is run i's diagram, in a box that scrolls sideways.
func (c *comparePage) renderSide(cmp *comparison, i int) app.UI {
	l := c.lang
	id := "abcdefgh"[i : i+1]
	s := cmp.sides[i]
	return app.Figure().Class("cmp-side").DataSet("run", id).Body(
		app.FigCaption().Body(
			app.Strong().Text(fmt.Sprintf(uitext.Tr(l, "cmp.run.legend"), strings.ToUpper(id))+" "),
			app.Code().Text(cmp.settings[i].String()),
			app.Text(" · "+fmt.Sprintf(uitext.Tr(l, "cmp.marked"), len(s.differs))),
		),
		// Focusable, so a keyboard can scroll a diagram wider than the
		// page (WCAG 2.1.1).
		app.Div().Class("cmp-scroll").TabIndex(0).Aria("describedby", "cmp-summaries").Body(
			app.Raw(`<div class="cmp-svg">`+s.svg(l, i, cmp)+`</div>`),
		),
	)
}
