package playground

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/panels"
	"txnlab/app/uitext"
	"txnlab/core/sim"
	"txnlab/diagram"
	"txnlab/internal/escape"
	"txnlab/lessons/doc"
)

func (p *playground) onCloseMessage(ctx app.Context, e app.Event) { p.run.selected = 0 }

func (p *playground) onFilterReplication(ctx app.Context, e app.Event) {
	p.run.filter.Replication = ctx.JSSrc().Get("checked").Bool()
	p.followNewest(ctx)
}

func (p *playground) onFilterFetch(ctx app.Context, e app.Event) {
	p.run.filter.HideFetch = ctx.JSSrc().Get("checked").Bool()
	p.followNewest(ctx)
}

func (p *playground) renderStage() app.UI {
	p.snapshot() // the lane heads show the nodes' states
	l := p.run.lang
	return app.Div().Class("stage-body").Body(
		app.Div().Class("diagram-panel").Body(
			app.Div().Class("diagram-tools").Body(
				app.Label().Class("check").Body(
					app.Input().Type("checkbox").Checked(p.run.filter.Replication).OnChange(p.onFilterReplication),
					app.Text(" "+uitext.Tr(l, "Show replication")),
				),
				app.Label().Class("check").Body(
					app.Input().Type("checkbox").Checked(p.run.filter.HideFetch).OnChange(p.onFilterFetch),
					app.Text(" "+uitext.Tr(l, "Hide Fetch polling")),
				),
				app.Span().Class("legend").Aria("hidden", "true").Body(
					app.Span().Class("key request").Text(uitext.Tr(l, "request")),
					app.Span().Class("key response").Text(uitext.Tr(l, "response")),
					app.Span().Class("key error").Text(uitext.Tr(l, "error")),
					app.Span().Class("key lost").Text("✕ "+uitext.Tr(l, "lost")),
				),
				p.renderExport(),
				p.presentButton(),
			),
			p.run.renderDiagram(p.run.playing && !p.run.reducedMotion, uitext.Tr(l, "Nothing has happened yet: press Step or Play.")),
		),
		p.renderMessagePanel(),
	)
}

func (p *playground) renderMessagePanel() app.UI {
	l := p.run.lang
	if p.run.selected == 0 {
		return app.Aside().Class("message-panel empty").Aria("label", uitext.Tr(l, "Message")).Body(
			app.H2().Text(uitext.Tr(l, "Message")),
			app.P().Text(uitext.Tr(l, "Click an arrow to see every field of that request or response.")),
		)
	}
	events := p.run.engine.Events()
	send, end := findMessage(events, p.run.selected)
	panel := app.Aside().Class("message-panel").Aria("label", uitext.Tr(l, "Message")).ID("message-panel")
	closeBtn := app.Button().Type("button").Class("tool close").Aria("label", uitext.Tr(l, "Close message")).OnClick(p.onCloseMessage).Text("✕")
	if send == nil {
		return panel.Body(
			app.Div().Class("panel-head").Body(app.H2().Text(uitext.Tr(l, "Message")), closeBtn),
			app.P().Text(uitext.Tr(l, "This message has not been sent yet at this step.")),
		)
	}
	kind := uitext.Tr(l, "request")
	if send.Resp {
		kind = uitext.Tr(l, "response")
	}
	fate := uitext.Tr(l, "in flight")
	switch {
	case end == nil:
	case end.Kind == sim.KindDeliver:
		fate = fmt.Sprintf(uitext.Tr(l, "delivered at %s"), end.At.String())
	default:
		fate = fmt.Sprintf(uitext.Tr(l, "lost at %s: %s"), end.At.String(), uitext.DropReasonIn(l, end.Text))
	}
	var related app.UI
	if send.Resp && send.ReplyTo != 0 {
		related = app.Button().Type("button").Class("link").OnClick(func(ctx app.Context, e app.Event) { p.run.selected = send.ReplyTo }, panels.Scoped(send.ReplyTo)).
			Text(fmt.Sprintf(uitext.Tr(l, "the request it answers (#%d)"), send.ReplyTo))
	} else {
		for i := range events {
			if r := &events[i]; r.Kind == sim.KindSend && r.Resp && r.ReplyTo == send.MsgID {
				id := r.MsgID
				related = app.Button().Type("button").Class("link").OnClick(func(ctx app.Context, e app.Event) { p.run.selected = id }, panels.Scoped(id)).
					Text(fmt.Sprintf(uitext.Tr(l, "its response (#%d)"), id))
				break
			}
		}
	}
	fields := diagram.MessageFields(send.Msg)
	raw, _ := json.MarshalIndent(send.Msg, "", "  ")
	return panel.DataSet("msg", send.MsgID).Body(
		app.Div().Class("panel-head").Body(
			app.H2().Body(app.Code().Text(send.API.String()), app.Text(" "+kind)),
			closeBtn,
		),
		app.Dl().Class("message-meta").Body(
			app.Dt().Text(uitext.Tr(l, "API key")), app.Dd().Text(strconv.Itoa(int(send.Msg.APIKey()))),
			app.Dt().Text(uitext.Tr(l, "from → to")), app.Dd().Text(p.run.engine.Names().Name(send.Node)+" → "+p.run.engine.Names().Name(send.Peer)),
			app.Dt().Text(uitext.Tr(l, "sent")), app.Dd().Text(send.At.String()),
			app.Dt().Text(uitext.Tr(l, "fate")), app.Dd().Text(fate),
			app.If(send.Failed(), func() app.UI {
				return app.Div().Class("meta-error").Body(app.Dt().Text(uitext.Tr(l, "error")), app.Dd().Body(app.Code().Text(send.ErrorName())))
			}),
			app.If(related != nil, func() app.UI {
				return app.Div().Body(app.Dt().Text(uitext.Tr(l, "see also")), app.Dd().Body(related))
			}),
		),
		app.Table().Class("fields").Body(
			app.Caption().Class("visually-hidden").Text(uitext.Tr(l, "Fields")),
			app.TBody().Body(app.Range(fields).Slice(func(i int) app.UI {
				f := fields[i]
				return app.Tr().Class("depth-"+strconv.Itoa(min(f.Depth, 5))).Body(
					app.Th().Scope("row").Text(f.Name),
					app.Td().Text(f.Value),
				)
			})),
		),
		app.Details().Class("raw").Body(
			app.Summary().Text("JSON"),
			app.Pre().Text(string(raw)),
		),
	)
}

// The trace lists the last traceShown events, from a multiple of
// traceAlign on, in lists of traceAlign events, each a component drawn as
// markup (app.Raw): while stepping only the last list changes, and a jump
// redraws a handful of lists rather than hundreds of items. The last
// list, which a step changes, is markup an item at a time (traceList's
// Newest), so a step has the browser parse the item it adds, not the
// list again. Items come from traceLines. Under wasm a step's trace took
// 139 µs of Go with lists of 50 drawn anew; it takes 9.5 µs now
// (BenchmarkTraceStep).
const (
	traceShown  = 200
	traceAlign  = 10
	traceRebase = 1000
)

func (p *playground) renderTrace() app.UI {
	n := len(p.run.layout().Rows) // the shown events up to this step
	// In a long history the trace, which is below the fold, follows a
	// move with the cluster state (idle.go), not in the move's own frame:
	// its lists are a few milliseconds to build and parse that the new
	// position need not wait for.
	key := traceKey{p.run.histGen, p.run.filter}
	if p.progressive() && p.run.engine.StateCost() > 0 && p.trace.traceKey == key && p.trace.traceRows <= len(p.run.full.Rows) {
		n = p.trace.traceRows
	}
	p.trace.traceKey, p.trace.traceRows = key, n
	skipped := max(0, n-traceShown) / traceAlign * traceAlign
	// go-app matches a box's children by position: dropping the oldest
	// list at the front, as a step past a multiple of traceAlign does,
	// moved every list one place and redrew all twenty (200 items for
	// the browser to parse in one step). The lists dropped since the
	// last multiple of traceRebase stay as empty boxes instead, so each
	// list keeps its place; they all move once every traceRebase events.
	var lists []app.UI
	for from := skipped / traceRebase * traceRebase; from < skipped; from += traceAlign {
		lists = append(lists, app.Div().Class("trace-dropped"))
	}
	for from := skipped; from < n; from += traceAlign {
		lists = append(lists, &traceList{Gen: p.run.histGen, Filter: p.run.filter, Lang: p.run.lang, From: from, To: min(from+traceAlign, n),
			Newest: from+traceAlign >= n, d: &p.run.diagramState, lines: &p.trace.lines})
	}
	return app.Section().Class("trace").Aria("labelledby", "trace-heading").Body(
		app.H2().ID("trace-heading").Text(uitext.Tr(p.run.lang, "Trace (the diagram as text)")),
		// Always there, hidden until events are left out: coming and
		// going, it moved the list's box after it one place, and go-app
		// drew the box and all its lists anew.
		app.P().Class("muted").Hidden(skipped == 0).Text(fmt.Sprintf(uitext.Tr(p.run.lang, "%d earlier events not listed; the export has them all."), skipped)),
		// The list keeps its newest events in view by itself: a
		// column-reverse box scrolls from its end, so no script reads its
		// height (which would lay out the panel, skipped while off
		// screen, after every move).
		app.Div().ID("trace").Class("trace-list").Body(app.Div().Class("trace-lists").Body(lists...)),
	)
}

// traceList is the shown events From to To (numbered from 1) of the
// history Gen, in language Lang. The newest list is drawn an item at a
// time: a step adds or takes one of its items.
type traceList struct {
	app.Compo
	Gen      int
	Filter   diagram.Filter
	Lang     string
	From, To int
	Newest   bool
	d        *diagramState
	lines    *traceLines
}

// traceKey identifies the history and filter the trace drew its rows
// from.
type traceKey struct {
	gen    int
	filter diagram.Filter
}

func (t *traceList) Render() app.UI {
	// The whole history's rows: the position's are a prefix of them, and
	// the trace may show an earlier position's (renderTrace).
	t.d.layout()
	rows := t.d.full.Rows
	if t.lines == nil {
		t.lines = new(traceLines) // a list drawn alone (warm.go)
	}
	t.lines.use(t.Gen, t.Lang)
	if t.Newest {
		items := make([]app.UI, 0, t.To-t.From)
		for _, i := range rows[t.From:min(t.To, len(rows))] {
			items = append(items, app.Raw(t.lines.item(i, t.drawItem)))
		}
		return app.Ol().Start(t.From + 1).Body(items...)
	}
	var b strings.Builder
	b.WriteString(`<ol start="` + strconv.Itoa(t.From+1) + `">`)
	for _, i := range rows[t.From:min(t.To, len(rows))] {
		b.WriteString(t.lines.item(i, t.drawItem))
	}
	b.WriteString("</ol>")
	return app.Raw(b.String())
}

// drawItem is event i's item in the list, as markup.
func (t *traceList) drawItem(i int) string {
	e := &t.d.engine.History()[i]
	var b strings.Builder
	b.WriteString(`<li class="ev-` + e.Kind.String())
	if e.Failed() {
		b.WriteString(" error")
	}
	// The trace's canonical lines (those the digest is computed over, as
	// `txnlab run` prints them): data, in monospace, the same in every
	// language, but for the core's sentences in them (a note, why a
	// message was lost), which a Chinese page says in Chinese after the
	// line's data.
	line := strings.TrimSpace(e.Line(t.d.engine.Names()))
	data, said := line, ""
	if t.Lang == string(doc.Chinese) {
		data, said = sayInTrace(t.Lang, e, line)
	}
	b.WriteString(`"><code>` + escape.HTML(data) + "</code>")
	if said != "" {
		b.WriteString(" " + said)
	}
	b.WriteString("</li>")
	return b.String()
}

// traceLines keeps the trace's items as markup, each drawn once per
// history and language: while stepping, the newest list is drawn again
// at every move, and an event's line (its message's summary, a sentence
// in Chinese) was most of a list's time.
type traceLines struct {
	gen   int
	lang  string
	items map[int]string
}

// traceLinesKept bounds the items kept: the trace shows traceShown, and
// a learner stepping through a long history leaves the rest behind.
const traceLinesKept = 4 * traceShown

// use empties the cache unless it holds history gen's items in lang, or
// when it has grown past traceLinesKept.
func (c *traceLines) use(gen int, lang string) {
	if c.items == nil || c.gen != gen || c.lang != lang || len(c.items) > traceLinesKept {
		c.gen, c.lang, c.items = gen, lang, make(map[int]string, traceShown)
	}
}

// item is event i's item, drawn by draw the first time.
func (c *traceLines) item(i int, draw func(int) string) string {
	s, ok := c.items[i]
	if !ok {
		s = draw(i)
		c.items[i] = s
	}
	return s
}

// sayInTrace splits an event's canonical line into its data and the
// core's sentence at its end, said in language l as HTML: a note's
// text, why a message was lost, what a failed expectation found. said
// is "" when the line has no such sentence.
func sayInTrace(l string, e *sim.Event, line string) (data, said string) {
	switch {
	case e.Kind == sim.KindDrop:
		if d, ok := strings.CutSuffix(line, " ("+e.Text+")"); ok {
			return d, escape.HTML("（" + uitext.DropReasonIn(l, e.Text) + "）")
		}
	case e.Kind == sim.KindExpect && e.Unmet:
		if d, actual, ok := strings.Cut(line, " (actual: "); ok && strings.HasSuffix(actual, ")") {
			found := uitext.PiecesHTML(uitext.ExpectationValue(l, strings.TrimSuffix(actual, ")")))
			return d, escape.HTML("（"+uitext.Tr(l, "trace.actual")) + found + "）"
		}
	case e.Note != nil && e.Text != "":
		if d, ok := strings.CutSuffix(line, " "+e.Text); ok {
			return d, escape.HTML(uitext.EventText(l, e))
		}
	}
	return line, ""
}
