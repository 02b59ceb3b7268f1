package diagram

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"txnlab/core/protocol"
	"txnlab/core/sim"
)

// The sequence diagram is computed in two stages: a layout (lanes, one row
// per shown event, arrows from a send's row to its delivery's) that is
// plain data, then a drawing of some rows of it as a small SVG tree
// (shape) that the page renders with go-app and the export writes as
// text. Only the rows on screen are drawn, so a history of thousands of
// events keeps a DOM of a few hundred elements.

// Diagram geometry, in SVG user units (pixels at 100 %).
const (
	laneWidth  = 130 // between two lifelines
	groupGap   = 30  // between the clients and the brokers
	laneMargin = 60  // left of the first lifeline
	noteRoom   = 230 // right of the last lifeline: notes are written rightwards
	HeadHeight = 40  // the lane names, above the rows
	RowHeight  = 24  // one event
	charWidth  = 6.6 // of the 11 px monospace font, to size note pills
)

// Filter is what the learner chose to hide.
type Filter struct {
	// Replication shows replica fetches and partition bookkeeping of the
	// internal topics (hidden by default: they are most of the trace).
	Replication bool
	// HideFetch hides consumers' Fetch polling.
	HideFetch bool
}

// Shows reports whether e gets a row.
func (f Filter) Shows(e *sim.Event) bool {
	if !f.Replication && (e.Internal || bookkeeping(e)) {
		return false
	}
	if f.HideFetch && e.API == protocol.Fetch {
		return false
	}
	return true
}

// bookkeeping recognises the notes and elections of __consumer_offsets
// partitions (their loading after a restart, say): noise to a learner of
// transactions. The internal topics' replica bookkeeping (ISR changes) the
// core marks Internal itself. Loading __transaction_state is not
// bookkeeping: it is the coordinator failover the lessons show.
func bookkeeping(e *sim.Event) bool {
	return (e.Kind == sim.KindNote || e.Kind == sim.KindElection) && strings.HasPrefix(e.Subject, protocol.ConsumerOffsetsTopic)
}

// laneKind orders the lanes: clients left, brokers right, the controller
// last.
type laneKind int

const (
	laneClient laneKind = iota
	laneBroker
	laneController
)

// Lane is a node's lifeline: its kind (which orders the lanes) and its x.
// It holds the node's name, not a code: two runs side by side (a
// comparison) share their lanes, and each run's World coded its nodes in
// its own order.
type Lane struct {
	Node string
	Kind laneKind
	X    int
}

// Arrow is one message from its send to its delivery, loss, or (still in
// flight) the bottom of the diagram.
type Arrow struct {
	Send    int // index of the send event
	Drop    int // index of the drop event, or -1
	FromRow int
	ToRow   int
	// InFlight: neither delivered nor lost yet at this position.
	InFlight bool
	// endRow and dropAt are the arrow's end over the whole history: the
	// row of its delivery or loss (-1: never) and the loss's event (-1).
	endRow, dropAt int
}

// span is a stretch of a lifeline where its node is down or paused.
type span struct {
	Node     sim.NodeID
	From, To int // rows; To is the end of the diagram when it never came back
	Paused   bool
}

// Layout is the diagram of one position.
type Layout struct {
	Lanes []Lane
	// Names names the run's node codes (its World's table); X is the x
	// of each code that has a lane.
	Names  *sim.Names
	X      map[sim.NodeID]int
	Rows   []int // event index of each row
	Arrows []Arrow
	Spans  []span
	// NowRow is the last row: where messages still in flight point to.
	NowRow int
	Width  int
	Height int
	// Newest are the arrows whose send happened in the last step, for the
	// animation.
	Newest []int
	// Whole asks for every label in full (the exports); the page cuts
	// long ones, whose whole text is in the message panel and the title.
	Whole bool
	// Words are the words the diagram adds to an arrow's accessible name
	// in the page's language; nil writes English (the exports).
	Words *Words
	// Markers begins the ids of the arrowheads the arrows point to
	// (ArrowDefs): a page that shows several diagrams gives each its
	// own, since an id names one element of a page; "" in an export.
	Markers string
}

// Words are the words the diagram writes around Kafka's identifiers, in
// the page's language: what an arrow's accessible name says of a message
// that was lost or has not arrived, the core's notes (written from their
// codes), and the few words of the notes the diagram composes itself. A
// field left empty is written in English.
type Words struct {
	// Lost is the fate of a lost message, given the core's reason.
	Lost func(reason string) string
	// InFlight is the fate of a message still on its way.
	InFlight string
	// Note writes a core note (sim.Note) in the page's language.
	Note func(*sim.Note) string
	// Leads is an election's note: the partition, then the note of its
	// leader epoch (fmt verbs %[1]s, %[2]s).
	Leads string
	// Marker is a control batch's note: COMMIT or ABORT, then where.
	Marker string
	// TxnLog is a __transaction_state record's note: where, then what.
	TxnLog string
	// Append is a data batch's note: where, then what.
	Append string
	// Line is an expectation's script line ("line %s").
	Line string
	// Met and Unmet are an expectation's result in its tooltip ("ok",
	// "FAIL"); Actual writes what an unmet one found ("(actual: %s)").
	Met, Unmet, Actual string
	// Lifecycle names a crash, restart, pause or resume.
	Lifecycle func(sim.Kind) string
}

// english are the Words of an English page and of English exports.
var english = Words{
	Lost:      func(reason string) string { return "lost: " + reason },
	InFlight:  "in flight",
	Note:      func(n *sim.Note) string { return n.English() },
	Leads:     "leads %[1]s (%[2]s)",
	Marker:    "%[1]s marker → %[2]s",
	TxnLog:    "txn log %[1]s %[2]s",
	Append:    "append %[1]s %[2]s",
	Line:      "line %s",
	Met:       "ok",
	Unmet:     "FAIL",
	Actual:    "(actual: %s)",
	Lifecycle: sim.Kind.String,
}

// words are w with every empty field English.
func (w *Words) words() *Words {
	if w == nil {
		return &english
	}
	out := *w
	if out.Lost == nil {
		out.Lost = english.Lost
	}
	if out.InFlight == "" {
		out.InFlight = english.InFlight
	}
	if out.Note == nil {
		out.Note = english.Note
	}
	for _, f := range []struct {
		to   *string
		from string
	}{{&out.Leads, english.Leads}, {&out.Marker, english.Marker},
		{&out.TxnLog, english.TxnLog}, {&out.Append, english.Append}, {&out.Line, english.Line},
		{&out.Met, english.Met}, {&out.Unmet, english.Unmet}, {&out.Actual, english.Actual}} {
		if *f.to == "" {
			*f.to = f.from
		}
	}
	if out.Lifecycle == nil {
		out.Lifecycle = english.Lifecycle
	}
	return &out
}

// textMargin is the least room between a label and the diagram's edge.
const textMargin = 4

// placeText is where a text w wide, written off units to the right of x
// (to its left when left), starts so that it stays inside a diagram
// width wide: on the preferred side when it fits there, else on the other
// side, else as far inside as it goes.
func placeText(x, off, w, width int, left bool) int {
	right, leftStart := x+off, x-off-w
	fitsRight, fitsLeft := right+w <= width-textMargin, leftStart >= textMargin
	switch {
	case left && fitsLeft, !fitsRight && fitsLeft:
		return leftStart
	case fitsRight:
		return right
	}
	return max(textMargin, min(right, width-textMargin-w))
}

// side is where the notes of no lane are written: right of the last
// lifeline.
func (l *Layout) side() int {
	last := laneMargin
	if n := len(l.Lanes); n > 0 {
		last = l.Lanes[n-1].X
	}
	return last + 24
}

// label is text cut, on the page, to the diagram's width less room.
func (l *Layout) label(text string, room int) string {
	if l.Whole {
		return text
	}
	return fitText(text, l.Width-2*textMargin-room)
}

// wholeWidth widens the layout until every label of the rows drawn fits
// whole, written on its preferred side: the exports' diagram, which no
// one scrolls.
func (l *Layout) wholeWidth(events []sim.Event) {
	l.Whole = true
	need := l.Width
	for i := range l.Arrows {
		e := &events[l.Arrows[i].Send]
		x1, x2 := l.X[e.Node], l.X[e.Peer]
		w := TextWidth(MessageText(e))
		switch {
		case x2 > x1:
			need = max(need, x1+8+w+textMargin)
		case x2 == x1:
			need = max(need, x1+42+w+textMargin)
		case x1-8-w < textMargin:
			need = max(need, x2+8+w+textMargin)
		}
	}
	side := l.side()
	for _, r := range l.Rows {
		e := &events[r]
		switch e.Kind {
		case sim.KindSend, sim.KindDeliver, sim.KindDrop:
			continue
		case sim.KindExpect:
			need = max(need, side+TextWidth("✓ "+expectText(e))+textMargin)
			continue
		}
		x, ok := l.X[e.Node]
		if !ok {
			x = side - 14
		}
		text, _ := noteText(l.Names, e, l.Words.words())
		need = max(need, x+14+TextWidth(text)+6+textMargin)
	}
	l.Width = need
}

// nodeKind tells brokers and the controller from clients by name, as the
// core names them.
func nodeKind(n string) laneKind {
	switch {
	case n == "controller":
		return laneController
	case strings.HasPrefix(n, "broker-"):
		return laneBroker
	}
	return laneClient
}

// hasLane reports whether a node gets a lifeline: the script's own events
// (expectations) and notes of no node are drawn at the side.
func hasLane(n string) bool { return n != "" && n != "script" }

// Run is a history with the table its node codes come from (the Names of
// the World that recorded it).
type Run struct {
	Names  *sim.Names
	Events []sim.Event
}

// LanesOf lays out the lifelines from the whole history of one run or
// more (a comparison's two, whose diagrams share their lanes), so none
// moves while stepping: clients in order of appearance, every broker by
// number, the controller only if something it does is shown.
func LanesOf(f Filter, runs ...Run) []Lane {
	seen := map[string]bool{}
	var clients, brokers []string
	controller := false
	add := func(n string, shown bool) {
		if !hasLane(n) {
			return
		}
		switch nodeKind(n) {
		case laneController:
			controller = controller || shown
			return
		case laneClient:
			if !shown {
				return
			}
		}
		if !seen[n] {
			seen[n] = true
			if nodeKind(n) == laneBroker {
				brokers = append(brokers, n)
			} else {
				clients = append(clients, n)
			}
		}
	}
	for _, r := range runs {
		for i := range r.Events {
			e := &r.Events[i]
			shown := f.Shows(e)
			add(r.Names.Name(e.Node), shown)
			add(r.Names.Name(e.Peer), shown)
		}
	}
	sort.Slice(brokers, func(i, j int) bool { return brokerNum(brokers[i]) < brokerNum(brokers[j]) })
	var out []Lane
	x := laneMargin
	for _, n := range clients {
		out = append(out, Lane{Node: n, Kind: laneClient, X: x})
		x += laneWidth
	}
	if len(clients) > 0 {
		x += groupGap
	}
	for _, n := range brokers {
		out = append(out, Lane{Node: n, Kind: laneBroker, X: x})
		x += laneWidth
	}
	if controller {
		out = append(out, Lane{Node: "controller", Kind: laneController, X: x})
	}
	return out
}

func brokerNum(n string) int {
	v, _ := strconv.Atoi(strings.TrimPrefix(n, "broker-"))
	return v
}

// LayoutOf lays out the events up to a position (events, a prefix of
// history) on the lanes of the whole history. lastStep is where the newest
// step's events begin; names is the run's table.
func LayoutOf(names *sim.Names, history, events []sim.Event, lastStep int, f Filter) *Layout {
	return FullLayout(LanesOf(f, Run{names, history}), names, history, f).At(len(events), lastStep)
}

// FullLayout lays out a whole history once: a position's layout is then
// a prefix of it (At), so stepping through a long history does not lay it
// out again at every step.
// names is the run's table: a lane whose name the run never used has no
// code there and draws an empty lifeline.
func FullLayout(lanes []Lane, names *sim.Names, history []sim.Event, f Filter) *Layout {
	l := &Layout{Lanes: lanes, Names: names, X: map[sim.NodeID]int{}}
	for _, ln := range l.Lanes {
		if id, ok := names.Lookup(ln.Node); ok {
			l.X[id] = ln.X
		}
	}
	last := laneMargin
	if n := len(l.Lanes); n > 0 {
		last = l.Lanes[n-1].X
	}
	l.Width = last + noteRoom

	open := map[int64]int{} // message id → arrow
	down := map[sim.NodeID]int{}
	for i := range history {
		e := &history[i]
		if !f.Shows(e) {
			continue
		}
		row := len(l.Rows)
		l.Rows = append(l.Rows, i)
		switch e.Kind {
		case sim.KindSend:
			open[e.MsgID] = len(l.Arrows)
			l.Arrows = append(l.Arrows, Arrow{Send: i, Drop: -1, FromRow: row, endRow: -1, dropAt: -1})
		case sim.KindDeliver, sim.KindDrop:
			if a, ok := open[e.MsgID]; ok {
				l.Arrows[a].endRow = row
				if e.Kind == sim.KindDrop {
					l.Arrows[a].dropAt = i
				}
				delete(open, e.MsgID)
			}
		case sim.KindCrash, sim.KindPause:
			if _, ok := down[e.Node]; !ok {
				down[e.Node] = len(l.Spans)
				l.Spans = append(l.Spans, span{Node: e.Node, From: row, To: -1, Paused: e.Kind == sim.KindPause})
			}
		case sim.KindRestart, sim.KindResume:
			if s, ok := down[e.Node]; ok {
				l.Spans[s].To = row
				delete(down, e.Node)
			}
		}
	}
	return l
}

// At is the layout of the first n events of a full layout, lastStep the
// first event of the newest step: the rows before the first row At or
// past n, the arrows sent in them, in flight when their end is not among
// them, and the spans begun in them, still open when they end later.
func (full *Layout) At(n, lastStep int) *Layout { return full.AtInto(nil, n, lastStep) }

// AtInto is At written over old, a layout At or AtInto returned that
// nobody reads any more, whose arrays it reuses: on a long history a
// position's arrows are half a megabyte, which each move of the page
// allocated anew for the collector that runs on the page's only thread.
// old may be nil.
func (full *Layout) AtInto(old *Layout, n, lastStep int) *Layout {
	l := old
	if l == nil {
		l = &Layout{}
	}
	*l = Layout{Lanes: full.Lanes, Names: full.Names, X: full.X, Width: full.Width, Words: full.Words, Markers: full.Markers,
		Arrows: l.Arrows[:0], Newest: l.Newest[:0], Spans: l.Spans[:0]}
	rows := sort.Search(len(full.Rows), func(r int) bool { return full.Rows[r] >= n })
	l.Rows = full.Rows[:rows:rows]
	l.NowRow = rows
	arrows := sort.Search(len(full.Arrows), func(a int) bool { return full.Arrows[a].FromRow >= rows })
	l.Arrows = append(l.Arrows, full.Arrows[:arrows]...)
	for i := range l.Arrows {
		a := &l.Arrows[i]
		if a.endRow >= 0 && a.endRow < rows {
			a.ToRow, a.Drop, a.InFlight = a.endRow, a.dropAt, false
		} else {
			a.ToRow, a.Drop, a.InFlight = rows, -1, true
		}
		if a.Send >= lastStep {
			l.Newest = append(l.Newest, i)
		}
	}
	for _, s := range full.Spans {
		if s.From >= rows {
			break
		}
		if s.To < 0 || s.To >= rows {
			s.To = rows
		}
		l.Spans = append(l.Spans, s)
	}
	l.Height = (l.NowRow + 1) * RowHeight
	return l
}

// RowY is the middle of a row.
func RowY(row int) int { return row*RowHeight + RowHeight/2 }

// Shape is a tiny SVG tree: the drawing both the page (as go-app elements)
// and the export (as text) render.
type Shape struct {
	Tag   string
	Attrs []Attr
	Text  string
	Kids  []Shape
	// Msg, when set, makes the shape a clickable arrow for that message.
	Msg int64
}

// Attr is one attribute of a Shape, in the order written.
type Attr struct{ K, V string }

// El is an element of tag with attributes given as name, value pairs.
func El(tag string, attrs ...string) Shape {
	// Room for the attribute or two a drawing adds after (an arrow's
	// data-error and aria-label, its shaft's marker): appending to a
	// slice grown from nothing allocated at each doubling, for each of a
	// chunk's shapes.
	s := Shape{Tag: tag, Attrs: make([]Attr, 0, len(attrs)/2+2)}
	for i := 0; i+1 < len(attrs); i += 2 {
		s.Attrs = append(s.Attrs, Attr{attrs[i], attrs[i+1]})
	}
	return s
}

// With is s with kids appended to its children.
func (s Shape) With(kids ...Shape) Shape { s.Kids = append(s.Kids, kids...); return s }

// WithText is s holding text t.
func (s Shape) WithText(t string) Shape { s.Text = t; return s }
func (s Shape) attr(k, v string) Shape  { s.Attrs = append(s.Attrs, Attr{k, v}); return s }

func itoa(v int) string { return strconv.Itoa(v) }

// DrawRows draws rows [from, to) of the layout: the lifelines over the
// whole height (they are a handful of elements), every note in range and
// every arrow crossing it.
func DrawRows(l *Layout, events []sim.Event, from, to int, selected int64) []Shape {
	from, to = max(0, from), min(to, l.NowRow+1)
	out := DrawLanes(l, false)
	if from < to && l.NowRow >= from && l.NowRow < to {
		y := RowY(l.NowRow) - RowHeight/2
		out = append(out, El("line", "class", "now-line", "x1", "0", "y1", itoa(y), "x2", itoa(l.Width), "y2", itoa(y)))
	}
	for r := from; r < to && r < len(l.Rows); r++ {
		if s, ok := DrawNote(l, &events[l.Rows[r]], r); ok {
			out = append(out, s)
		}
	}
	for i := range l.Arrows {
		a := &l.Arrows[i]
		if a.ToRow < from || a.FromRow >= to {
			continue
		}
		out = append(out, DrawArrow(l, events, a, selected))
	}
	return out
}

// DrawLanes draws the lifelines and the spans of lanes down or paused on
// them. relative draws what reaches the bottom (the lifelines, a span
// still open at the position) to "100%" of a viewport as tall as the
// diagram, so that its markup stays the same while the diagram grows; an
// open span is then a thick line (class open), as a rect's height cannot
// be measured from the bottom.
func DrawLanes(l *Layout, relative bool) []Shape {
	bottom := itoa(l.Height)
	if relative {
		bottom = "100%"
	}
	var out []Shape
	for _, ln := range l.Lanes {
		out = append(out, El("line", "class", "lifeline lifeline-"+kindClass(ln.Kind),
			"x1", itoa(ln.X), "y1", "0", "x2", itoa(ln.X), "y2", bottom))
	}
	for _, s := range l.Spans {
		x, ok := l.X[s.Node]
		if !ok {
			continue
		}
		class := "lifeline-down"
		if s.Paused {
			class = "lifeline-paused"
		}
		if relative && s.To >= l.NowRow {
			out = append(out, El("line", "class", class+" open", "x1", itoa(x), "y1", itoa(RowY(s.From)), "x2", itoa(x), "y2", bottom))
			continue
		}
		out = append(out, El("rect", "class", class, "x", itoa(x-4), "y", itoa(RowY(s.From)),
			"width", "8", "height", itoa(max(RowY(s.To)-RowY(s.From), 4)), "rx", "3"))
	}
	return out
}

func kindClass(k laneKind) string {
	switch k {
	case laneBroker:
		return "broker"
	case laneController:
		return "controller"
	}
	return "client"
}

// ArrowPath is the arrow's line: straight from the send to the delivery,
// or a loop for a message a broker sends itself (a coordinator writing a
// marker to a partition it leads).
func ArrowPath(l *Layout, e *sim.Event, a *Arrow) (d string, endX, endY int) {
	x1, x2 := l.X[e.Node], l.X[e.Peer]
	y1, y2 := RowY(a.FromRow), RowY(a.ToRow)
	if a.Drop >= 0 {
		x2 = x1 + (x2-x1)*2/3
	}
	if x1 == x2 && a.Drop < 0 {
		return "M" + itoa(x1) + "," + itoa(y1) + " h36 V" + itoa(y2) + " h-34", x1 + 2, y2
	}
	if x1 == x2 {
		return "M" + itoa(x1) + "," + itoa(y1) + " h36 V" + itoa(y2), x1 + 36, y2
	}
	// Shorten the line a little so the arrowhead stops at the lifeline.
	if a.Drop < 0 {
		if x2 > x1 {
			x2 -= 2
		} else {
			x2 += 2
		}
	}
	return "M" + itoa(x1) + "," + itoa(y1) + " L" + itoa(x2) + "," + itoa(y2), x2, y2
}

// DrawArrow draws one arrow: its line, head, label, title and the data
// attributes the page and the tests find it by; selected is the message
// shown in the message panel (0: none).
func DrawArrow(l *Layout, events []sim.Event, a *Arrow, selected int64) Shape {
	e := &events[a.Send]
	kind := "request"
	if e.Resp {
		kind = "response"
	}
	class := "arrow " + kind
	if e.Failed() {
		class += " error"
	}
	if a.Drop >= 0 {
		class += " dropped"
	}
	if a.InFlight {
		class += " in-flight"
	}
	if e.Internal {
		class += " internal"
	}
	if selected != 0 && e.MsgID == selected {
		class += " selected"
	}
	whole := MessageText(e)
	label := whole
	if !l.Whole {
		label = l.label(MessageLabel(e), 0)
	}
	d, ex, ey := ArrowPath(l, e, a)
	x1, x2 := l.X[e.Node], l.X[e.Peer]
	// Requests and responses alike are written from their sender, along
	// the arrow, and kept inside the diagram: a response to the first
	// lane is written from its receiver when it would pass the left edge.
	w := TextWidth(label)
	var lx int
	switch {
	case x2 > x1:
		lx = placeText(x1, 8, w, l.Width, false)
	case x2 == x1:
		lx = placeText(x1, 42, w, l.Width, false)
	case x1-8-w >= textMargin:
		lx = x1 - 8 - w
	default:
		lx = max(textMargin, min(x2+8, l.Width-textMargin-w))
	}
	g := El("g", "class", class, "data-api", e.API.String(), "data-kind", kind,
		"data-from", l.Names.Name(e.Node), "data-to", l.Names.Name(e.Peer), "data-msg", strconv.FormatInt(e.MsgID, 10))
	if e.Failed() {
		g = g.attr("data-error", e.ErrorName())
	}
	g.Msg = e.MsgID
	desc := whole
	words := l.Words.words()
	if a.Drop >= 0 {
		desc += " — " + words.Lost(events[a.Drop].Text)
	} else if a.InFlight {
		desc += " — " + words.InFlight
	}
	// "→", not " to ": the name is read on Chinese pages too.
	g = g.attr("aria-label", l.Names.Name(e.Node)+" → "+l.Names.Name(e.Peer)+": "+desc)
	marker := "url(#" + l.Markers + "head-" + kind + ")"
	if e.Failed() {
		marker = "url(#" + l.Markers + "head-error)"
	}
	shaft := El("path", "class", "shaft", "d", d, "fill", "none")
	if a.Drop < 0 {
		shaft = shaft.attr("marker-end", marker)
	}
	g = g.With(
		El("title").WithText(l.Names.Name(e.Node)+" → "+l.Names.Name(e.Peer)+"  "+desc),
		El("path", "class", "hit", "d", d, "fill", "none"),
		shaft,
		El("text", "class", "message-label", "x", itoa(lx), "y", itoa(RowY(a.FromRow)-4)).WithText(label),
	)
	if a.Drop >= 0 {
		g = g.With(El("text", "class", "drop-mark", "x", itoa(ex), "y", itoa(ey+5), "text-anchor", "middle").WithText("✕"))
	}
	return g
}

// DrawNote draws what happens on one node at a row: a state change, an
// append, a lifecycle mark, a client call, an expectation.
func DrawNote(l *Layout, e *sim.Event, row int) (Shape, bool) {
	y := RowY(row)
	x, onLane := l.X[e.Node]
	side := l.side()
	words := l.Words.words()
	switch e.Kind {
	case sim.KindSend, sim.KindDeliver, sim.KindDrop:
		return Shape{}, false
	case sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume:
		if !onLane {
			return Shape{}, false
		}
		mark := map[sim.Kind]string{sim.KindCrash: "✕", sim.KindRestart: "↻", sim.KindPause: "❚❚", sim.KindResume: "▶"}[e.Kind]
		word := words.Lifecycle(e.Kind)
		return El("g", "class", "note lifecycle "+e.Kind.String(), "data-kind", e.Kind.String(), "data-node", l.Names.Name(e.Node)).With(
			El("circle", "class", "lifecycle-dot", "cx", itoa(x), "cy", itoa(y), "r", "8"),
			El("text", "class", "lifecycle-mark", "x", itoa(x), "y", itoa(y+4), "text-anchor", "middle").WithText(mark),
			El("text", "class", "note-label lifecycle-label", "x", itoa(placeText(x, 14, TextWidth(word), l.Width, false)), "y", itoa(y+4)).WithText(word),
		), true
	case sim.KindExpect:
		class, mark := "note expect ok", "✓"
		if e.Unmet {
			class, mark = "note expect failed", "✗"
		}
		text := mark + " " + expectText(e)
		if !l.Whole {
			text = fitText(mark+" "+Truncate(expectText(e), 30), l.Width-textMargin-side)
		}
		return El("g", "class", class).With(
			El("title").WithText(fmt.Sprintf(words.Line, strings.TrimPrefix(e.Subject, "line "))+": "+expectTitle(e, words)),
			El("text", "class", "note-label", "x", itoa(placeText(side, 0, TextWidth(text), l.Width, false)), "y", itoa(y+4)).WithText(text),
		), true
	}
	text, class := noteText(l.Names, e, words)
	if !onLane {
		x = side - 14
	}
	full := text
	if !l.Whole {
		text = l.label(Truncate(text, 52), 20)
	}
	// A note is written right of its lifeline, or left of it when the
	// diagram ends first (the last lane's notes).
	w := TextWidth(text)
	g := El("g", "class", "note "+class, "data-kind", e.Kind.String(), "data-node", l.Names.Name(e.Node)).With(El("title").WithText(full))
	if class == "state" || strings.HasPrefix(class, "append") {
		tx := placeText(x, 14, w+6, l.Width, false)
		g = g.With(El("rect", "class", "pill", "x", itoa(tx-6), "y", itoa(y-8), "width", itoa(w+12), "height", "16", "rx", "8"))
		g = g.With(El("text", "class", "note-label", "x", itoa(tx), "y", itoa(y+4)).WithText(text))
	} else {
		g = g.With(
			El("circle", "class", "note-dot", "cx", itoa(x), "cy", itoa(y), "r", "3"),
			El("text", "class", "note-label", "x", itoa(placeText(x, 10, w, l.Width, false)), "y", itoa(y+4)).WithText(text),
		)
	}
	return g, true
}

// expectTitle is an expectation's whole text in words' language: its
// result, the statement, and what an unmet one found (the core writes
// "FAIL <statement> (actual: <found>)").
func expectTitle(e *sim.Event, words *Words) string {
	if !e.Unmet {
		return words.Met + " " + expectText(e)
	}
	stmt, actual, ok := strings.Cut(expectText(e), " (actual: ")
	if !ok {
		return words.Unmet + " " + stmt
	}
	return words.Unmet + " " + stmt + " " + fmt.Sprintf(words.Actual, strings.TrimSuffix(actual, ")"))
}

// expectText is an expectation's note: its result without the ok/FAIL.
func expectText(e *sim.Event) string {
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(e.Text, "ok"), "FAIL"))
}

// noteText is the text and class of a note: Kafka's words, shortened,
// and the rest in words' language; names is the run's table.
func noteText(names *sim.Names, e *sim.Event, words *Words) (string, string) {
	switch e.Kind {
	case sim.KindState:
		subj := e.Subject
		if subj == "producer "+names.Name(e.Node) {
			subj = ""
		}
		t := names.Label(e.From) + " → " + names.Label(e.To)
		if subj != "" {
			t = subj + ": " + t
		}
		return t, "state"
	case sim.KindAppend:
		text := e.Text
		switch e.Contents {
		case sim.CommitMarker, sim.AbortMarker:
			marker := map[sim.Contents]string{sim.CommitMarker: "COMMIT", sim.AbortMarker: "ABORT"}[e.Contents]
			return fmt.Sprintf(words.Marker, marker, e.Subject+"@"+strconv.FormatInt(e.Offset, 10)), "append marker"
		case sim.TransactionRecord:
			return fmt.Sprintf(words.TxnLog, "@"+strconv.FormatInt(e.Offset, 10), strings.Trim(text, "[]")), "append txnlog"
		}
		return fmt.Sprintf(words.Append, e.Subject+"@"+strconv.FormatInt(e.Offset, 10), text), "append record"
	case sim.KindElection:
		return fmt.Sprintf(words.Leads, e.Subject, e.TextIn(words.Note)), "election"
	case sim.KindCallStart:
		t := e.Subject + "(" + e.Text + ")"
		return "▸ " + strings.Replace(t, " )", ")", 1), "call"
	case sim.KindCallEnd:
		if e.Failed() {
			return "◂ " + e.Subject + " → " + e.TextIn(words.Note), "return error"
		}
		return "◂ " + e.Subject + " → " + e.TextIn(words.Note), "return"
	}
	t := e.TextIn(words.Note)
	if e.Subject != "" {
		t = e.Subject + ": " + t
	}
	return t, "plain"
}
