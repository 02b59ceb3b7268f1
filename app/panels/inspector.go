package panels

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/check"
	"txnlab/core/cluster"
	"txnlab/core/protocol"
	"txnlab/core/safety"
	"txnlab/core/sim"
	"txnlab/diagram"
)

// The inspector shows the state behind the diagram at the current step:
// what the coordinator and the partitions hold, what each isolation level
// returns, and whether every invariant still holds.

const (
	TabTransactions = "transactions"
	TabPartitions   = "partitions"
	TabConsumers    = "consumers"
	TabGroups       = "groups"
	TabInvariants   = "invariants"
	TabBreak        = "break"
)

var Tabs = []struct{ ID, Label string }{
	{TabTransactions, "Transactions"},
	{TabPartitions, "Partitions"},
	{TabConsumers, "Consumers"},
	{TabGroups, "Groups"},
	{TabInvariants, "Invariants"},
	{TabBreak, "Break the protocol"},
}

// InspectorView is the inspector of the state at StatePos and the
// violations at ViolPos: a component, so go-app redraws it only when they
// or the tab change. Snap and Viol point at what the runner shows (the
// pointers compare equal, so the positions alone decide a redraw); it
// reports a tab, an event link and a switch through its hooks, never
// through its parent.
type InspectorView struct {
	app.Compo
	Lang     string
	Gen      int
	StatePos int
	ViolPos  int
	Current  bool // the violations are the position's
	Tab      string
	Snap     *Snapshot
	Viol     *[]check.Violation
	// Engine names the events the violations point at.
	Engine Engine

	h InspectorHooks
}

// InspectorHooks are how the inspector reports, and what it asks for
// only when it shows it.
type InspectorHooks struct {
	// Unexercised is Unexercised(Engine.History()), asked for only when
	// the break tab shows (a long history takes a while).
	Unexercised func() map[string]string
	// OnTab says a tab was chosen; Follow, that an event's link was.
	OnTab  func(id string)
	Follow func(ctx app.Context, idx int)
	// Act writes a switch's statement into the script.
	Act Act
}

// NewInspector is the inspector v, reporting through h. The hooks are
// kept from the first render: go-app copies only exported fields, and
// would find two funcs different at every render.
func NewInspector(v InspectorView, h InspectorHooks) *InspectorView {
	v.h = h
	return &v
}

func (v *InspectorView) Render() app.UI {
	snap, viol, current := *v.Snap, *v.Viol, v.Current
	l := v.Lang
	tabButtons := make([]app.UI, len(Tabs))
	for i, t := range Tabs {
		id := t.ID
		label := tr(l, t.Label)
		if id == TabInvariants && len(viol) > 0 {
			label += " (" + strconv.Itoa(len(viol)) + ")"
		}
		if id == TabBreak && len(snap.Broken) > 0 {
			label += fmt.Sprintf(tr(l, " (%d off)"), len(snap.Broken))
		}
		class := "tab"
		if id == TabInvariants && len(viol) > 0 {
			class += " alarm"
		}
		tab := app.Button().Type("button").Class(class).Role("tab").
			ID("tab-"+id).
			Aria("busy", id == TabInvariants && !current).
			Aria("selected", v.Tab == id).
			TabIndex(map[bool]int{true: 0, false: -1}[v.Tab == id]).
			OnClick(func(ctx app.Context, e app.Event) { v.setTab(id) }, Scoped(id)).
			OnKeyDown(v.onTabKey).
			Text(label)
		if v.Tab == id {
			// Only the selected tab's panel is drawn: another tab's
			// aria-controls would name an element the page lacks.
			tab = tab.Aria("controls", "panel-"+id)
		}
		tabButtons[i] = tab
	}
	var panel app.UI
	switch {
	case !snap.Valid:
		panel = app.P().Class("empty").Text(tr(l, "Step once to create the cluster."))
	case v.Tab == TabPartitions:
		panel = partitionsPanel(l, snap)
	case v.Tab == TabConsumers:
		panel = consumersPanel(l, snap)
	case v.Tab == TabGroups:
		panel = groupsPanel(l, snap)
	case v.Tab == TabInvariants:
		panel = v.invariantsPanel(viol)
	case v.Tab == TabBreak:
		panel = v.breakPanel(snap)
	default:
		panel = transactionsPanel(l, snap)
	}
	return app.Section().Class("inspector").Aria("label", tr(l, "Inspector")).Body(
		app.Div().Class("tabs").Role("tablist").Aria("label", tr(l, "Inspector")).Body(tabButtons...),
		app.Div().Class("tab-panel").ID("panel-"+v.Tab).Role("tabpanel").Aria("labelledby", "tab-"+v.Tab).Body(panel),
	)
}

// setTab shows tab id at once (go-app redraws the view whose element
// handled the event) and reports it, so the runner draws it so next time.
func (v *InspectorView) setTab(id string) {
	v.Tab = id
	v.h.OnTab(id)
}

// onTabKey moves between tabs with the arrow keys, as the ARIA tabs
// pattern asks.
func (v *InspectorView) onTabKey(ctx app.Context, e app.Event) {
	i := slices.IndexFunc(Tabs, func(t struct{ ID, Label string }) bool { return t.ID == v.Tab })
	switch e.Get("key").String() {
	case "ArrowRight":
		i = (i + 1) % len(Tabs)
	case "ArrowLeft":
		i = (i + len(Tabs) - 1) % len(Tabs)
	default:
		ctx.PreventUpdate()
		return
	}
	v.setTab(Tabs[i].ID)
	id := "tab-" + v.Tab
	ctx.Defer(func(ctx app.Context) {
		if b := app.Window().GetElementByID(id); b.Truthy() {
			b.Call("focus")
		}
	})
}

func transactionsPanel(l string, snap Snapshot) app.UI {
	if len(snap.Transactions) == 0 {
		return app.P().Class("empty").Text(tr(l, "No transactional producer at this step."))
	}
	down := map[string]bool{}
	for _, b := range snap.Brokers {
		down[b.Name] = b.Status != "up"
	}
	// Each transaction is a component of what it shows: a move changes
	// one transaction or none, and go-app redraws and compares only it.
	txns := make([]app.UI, len(snap.Transactions))
	for i, t := range snap.Transactions {
		n := len(t.Log)
		t.Log = lastRecords(t.Log)
		txns[i] = &txnView{Lang: l, T: t, LogLen: n, CoordDown: down[t.Coordinator]}
	}
	return app.Div().Class("txn-list").Body(txns...)
}

// txnView is one transactional id as its coordinator sees it, with the
// last txnLogShown of its LogLen __transaction_state records (T.Log).
type txnView struct {
	app.Compo
	Lang      string
	T         cluster.TransactionView
	LogLen    int
	CoordDown bool
}

func (v *txnView) Render() app.UI {
	l, t := v.Lang, v.T
	md := t.Metadata
	state := md.State
	if md.PendingState != "" {
		state += " → " + md.PendingState + " (" + tr(l, "pending") + ")"
	}
	coord := t.Coordinator
	if coord == "" {
		coord = tr(l, "none (partition offline)")
	}
	var parts []string
	for _, tp := range md.Partitions {
		parts = append(parts, tp.String())
	}
	return app.Article().Class("txn").DataSet("txn", t.TransactionalId).Body(
		app.H3().Body(app.Code().Text(t.TransactionalId)),
		app.Dl().Class("facts wide").Body(txnFacts(l, t, coord, state, parts, v.CoordDown)...),
		app.H4().Body(app.Code().Text("__transaction_state"), app.Text(" "+tr(l, "records"))),
		app.If(v.LogLen == 0, func() app.UI { return app.P().Class("muted").Text(tr(l, "none yet")) }),
		app.If(v.LogLen > txnLogShown, func() app.UI {
			return app.P().Class("muted").Text(fmt.Sprintf(tr(l, "the last %d of %d records"), txnLogShown, v.LogLen))
		}),
		app.Ol().Class("txn-log").Body(app.Range(t.Log).Slice(func(j int) app.UI {
			r := t.Log[j]
			return app.Li().Body(app.Span().Class("offset").Text("@"+strconv.FormatInt(r.Offset, 10)), app.Code().Text(r.Value))
		})),
	)
}

// txnLogShown is how many of an id's __transaction_state records the
// panel lists, the newest: a long history has thousands.
const txnLogShown = 12

func lastRecords[T any](log []T) []T { return log[max(0, len(log)-txnLogShown):] }

// txnFacts lists a transaction's facts as flat dt/dd pairs: the facts grid
// lays out its children two by two.
func txnFacts(l string, t cluster.TransactionView, coord, state string, parts []string, coordDown bool) []app.UI {
	md := t.Metadata
	out := []app.UI{Fact(tr(l, "coordinator"), fmt.Sprintf(tr(l, "%s — __transaction_state/%d, coordinator epoch %d"), coord, t.Partition, t.CoordinatorEpoch))}
	switch {
	case t.Loading:
		out = append(out, Fact(tr(l, "loading"), tr(l, "the coordinator is loading its partition")))
	case !t.Known && coordDown:
		out = append(out, Fact(tr(l, "metadata"), tr(l, "pg.txn.unreachable")))
	case !t.Known:
		out = append(out, Fact(tr(l, "metadata"), tr(l, "none (never initialised, or expired)")))
	default:
		out = append(out,
			factUI(tr(l, "state"), app.Span().Class("txn-state state-"+md.State).Text(state)),
			Fact(tr(l, "producer id / epoch"), fmt.Sprintf(tr(l, "%d / %d (last epoch %d)"), md.ProducerId, md.ProducerEpoch, md.LastProducerEpoch)),
			Fact(tr(l, "partitions"), orNone(l, strings.Join(parts, ", "))),
			Fact(tr(l, "timeout"), fmt.Sprintf("%d ms", md.TxnTimeoutMs)),
		)
	}
	return out
}

func Fact(term, value string) app.UI { return factUI(term, app.Text(value)) }

func factUI(term string, value app.UI) app.UI {
	return app.Div().Body(app.Dt().Text(term), app.Dd().Body(value))
}

func orNone(l, s string) string {
	if s == "" {
		return tr(l, "none")
	}
	return s
}

// producerColour gives each producer a stable colour class, by its order
// of first appearance in the partitions.
func producerColours(snap Snapshot) map[string]int {
	m := map[string]int{}
	for _, pv := range snap.Producers {
		if _, ok := m[pv.Name]; !ok {
			m[pv.Name] = len(m) % 6
		}
	}
	return m
}

func partitionsPanel(l string, snap Snapshot) app.UI {
	colours := producerColours(snap)
	return app.Div().Class("partition-list").Body(
		app.P().Class("legend-line").Body(
			app.Span().Class("cell-key committed").Text(tr(l, "committed")),
			app.Span().Class("cell-key pending").Text(tr(l, "pending")),
			app.Span().Class("cell-key aborted").Text(tr(l, "aborted")),
			app.Span().Class("cell-key marker").Text(tr(l, "marker")),
			app.Span().Class("cell-key plain").Text(tr(l, "non-transactional")),
		),
		app.Range(snap.Partitions).Slice(func(i int) app.UI { return partitionView(l, snap.Partitions[i], colours) }),
	)
}

func partitionView(l string, pv cluster.PartitionView, colours map[string]int) app.UI {
	cells := make([]app.UI, 0, len(pv.Entries)+1)
	for _, e := range pv.Entries {
		class := "cell " + e.Status
		if c, ok := colours[e.Producer]; ok {
			class += " producer-" + strconv.Itoa(c)
		}
		var text, title string
		if e.Marker != "" {
			text = e.Marker
			title = fmt.Sprintf(tr(l, "offset %d: %s marker, pid %d epoch %d"), e.Offset, e.Marker, e.ProducerId, e.ProducerEpoch)
		} else {
			text = e.Value
			title = fmt.Sprintf(tr(l, "offset %d: %s=%s, %s, pid %d epoch %d seq %d"), e.Offset, e.Key, e.Value, tr(l, e.Status), e.ProducerId, e.ProducerEpoch, e.Sequence)
		}
		if e.Producer != "" {
			title += " (" + e.Producer + ")"
		}
		var marks []app.UI
		if e.Offset == pv.LSO {
			marks = append(marks, app.Span().Class("mark lso").Text("LSO"))
		}
		if e.Offset == pv.HighWatermark {
			marks = append(marks, app.Span().Class("mark hw").Text("HW"))
		}
		cells = append(cells, app.Li().Class(class).Title(title).Body(
			app.Span().Class("cell-offset").Text(e.Offset),
			app.Span().Class("cell-value").Text(diagram.Truncate(text, 10)),
			app.Span().Class("cell-marks").Body(marks...),
		))
	}
	// The log end: where the next record goes, with the marks that sit
	// there when every record is stable.
	var endMarks []app.UI
	if pv.LSO == pv.LogEndOffset {
		endMarks = append(endMarks, app.Span().Class("mark lso").Text("LSO"))
	}
	if pv.HighWatermark == pv.LogEndOffset {
		endMarks = append(endMarks, app.Span().Class("mark hw").Text("HW"))
	}
	cells = append(cells, app.Li().Class("cell end").Title(fmt.Sprintf(tr(l, "log end offset %d"), pv.LogEndOffset)).Body(
		app.Span().Class("cell-offset").Text(pv.LogEndOffset),
		app.Span().Class("cell-value").Text("LEO"),
		app.Span().Class("cell-marks").Body(endMarks...),
	))
	return app.Article().Class("partition").DataSet("partition", pv.Partition).Body(
		app.H3().Body(
			app.Code().Text(pv.Partition),
			app.Span().Class("muted meta").Text(fmt.Sprintf(tr(l, " leader %s (epoch %d) · replicas %s · ISR %s · HW %d · LSO %d · LEO %d"),
				pv.Leader, pv.LeaderEpoch, ints(pv.Replicas), ints(pv.ISR), pv.HighWatermark, pv.LSO, pv.LogEndOffset)),
		),
		app.Ol().Class("log-strip").Aria("label", fmt.Sprintf(tr(l, "Log of %s"), pv.Partition)).Body(cells...),
		app.Div().Class("partition-tables").Body(
			app.If(len(pv.Producers) > 0, func() app.UI {
				return app.Table().Class("mini").Body(
					app.Caption().Text(tr(l, "Producer state")),
					app.THead().Body(app.Tr().Body(app.Th().Text("pid"), app.Th().Text("epoch"), app.Th().Text(tr(l, "coord. epoch")), app.Th().Text(tr(l, "last seq")), app.Th().Text(tr(l, "open txn from")))),
					app.TBody().Body(app.Range(pv.Producers).Slice(func(j int) app.UI {
						r := pv.Producers[j]
						first := "—"
						if r.CurrentTxnFirstOffset >= 0 {
							first = strconv.FormatInt(r.CurrentTxnFirstOffset, 10)
						}
						return app.Tr().Body(app.Td().Text(r.ProducerId), app.Td().Text(r.ProducerEpoch), app.Td().Text(r.CoordinatorEpoch), app.Td().Text(r.LastSequence), app.Td().Text(first))
					})),
				)
			}),
			app.If(len(pv.Aborted) > 0, func() app.UI {
				return app.Table().Class("mini").Body(
					app.Caption().Text(tr(l, "Aborted-transaction index")),
					app.THead().Body(app.Tr().Body(app.Th().Text("pid"), app.Th().Text(tr(l, "first")), app.Th().Text(tr(l, "last")), app.Th().Text("LSO"))),
					app.TBody().Body(app.Range(pv.Aborted).Slice(func(j int) app.UI {
						a := pv.Aborted[j]
						return app.Tr().Body(app.Td().Text(a.ProducerId), app.Td().Text(a.FirstOffset), app.Td().Text(a.LastOffset), app.Td().Text(a.LastStableOffset))
					})),
				)
			}),
		),
	)
}

func ints(v []int32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(int(x))
	}
	return "[" + strings.Join(s, ",") + "]"
}

// consumersPanel puts what each isolation level returns side by side: the
// records each consumer received, and what the log would give each level
// right now (read_committed stops at the LSO and drops aborted records).
func consumersPanel(l string, snap Snapshot) app.UI {
	return app.Div().Class("consumers-panel").Body(
		app.Table().Class("mini wide").Body(
			app.Caption().Text(tr(l, "What a fetch from offset 0 returns now")),
			app.THead().Body(app.Tr().Body(app.Th().Text(tr(l, "partition")), app.Th().Body(app.Code().Text("read_uncommitted")), app.Th().Body(app.Code().Text("read_committed")))),
			app.TBody().Body(app.Range(snap.Partitions).Slice(func(i int) app.UI {
				pv := snap.Partitions[i]
				var ru, rc []string
				for _, e := range pv.Entries {
					if e.Marker != "" {
						continue
					}
					if e.Offset < pv.HighWatermark {
						ru = append(ru, e.Value)
					}
					if e.Offset < pv.LSO && (e.Status == "committed" || e.Status == "plain") {
						rc = append(rc, e.Value)
					}
				}
				return app.Tr().Body(app.Th().Scope("row").Text(pv.Partition), app.Td().Text(orDash(ru)), app.Td().Text(orDash(rc)))
			})),
		),
		app.If(len(snap.Consumers) > 0, func() app.UI {
			var rows []app.UI
			for _, c := range snap.Consumers {
				for _, pos := range c.Positions {
					rows = append(rows, app.Tr().Body(app.Td().Text(c.Name), app.Td().Text(c.IsolationLevel), app.Td().Text(pos.Partition), app.Td().Text(pos.Position), app.Td().Text(orDash(pos.Received))))
				}
				if len(c.Positions) == 0 {
					rows = append(rows, app.Tr().Body(app.Td().Text(c.Name), app.Td().Text(c.IsolationLevel), app.Td().ColSpan(3).Text(tr(l, "nothing assigned"))))
				}
			}
			return app.Table().Class("mini wide").Body(
				app.Caption().Text(tr(l, "What each consumer received")),
				app.THead().Body(app.Tr().Body(app.Th().Text(tr(l, "consumer")), app.Th().Text(tr(l, "isolation")), app.Th().Text(tr(l, "partition")), app.Th().Text(tr(l, "position")), app.Th().Text(tr(l, "received")))),
				app.TBody().Body(rows...),
			)
		}),
	)
}

func orDash(v []string) string {
	if len(v) == 0 {
		return "—"
	}
	return strings.Join(v, " ")
}

func groupsPanel(l string, snap Snapshot) app.UI {
	if len(snap.Offsets) == 0 && len(snap.Groups) == 0 {
		return app.P().Class("empty").Text(tr(l, "No group has members or committed offsets yet."))
	}
	return app.Div().Body(
		app.If(len(snap.Groups) > 0, func() app.UI { return membershipTable(l, snap.Groups) }),
		app.If(len(snap.Offsets) > 0, func() app.UI { return offsetsTable(l, snap) }),
	)
}

// membershipTable shows each group as its coordinator holds it: the
// generation a zombie's TxnOffsetCommit is checked against (KIP-447), the
// members by client name and the leader that assigned the partitions.
func membershipTable(l string, groups []cluster.GroupView) app.UI {
	return app.Table().Class("mini wide membership").Body(
		app.Caption().Text(tr(l, "Membership, as each group's coordinator holds it")),
		app.THead().Body(app.Tr().Body(app.Th().Text(tr(l, "group")), app.Th().Text(tr(l, "state")),
			app.Th().Text(tr(l, "generation")), app.Th().Text(tr(l, "members")), app.Th().Text(tr(l, "leader")))),
		app.TBody().Body(app.Range(groups).Slice(func(i int) app.UI {
			g := groups[i]
			leader := []string{}
			if g.LeaderClient != "" {
				leader = append(leader, g.LeaderClient)
			}
			return app.Tr().DataSet("group", g.Group).Body(
				app.Td().Text(g.Group), app.Td().Body(app.Code().Text(g.State)), app.Td().Text(g.Generation),
				app.Td().Text(orDash(g.Clients)), app.Td().Text(orDash(leader)))
		})),
	)
}

func offsetsTable(l string, snap Snapshot) app.UI {
	return app.Table().Class("mini wide").Body(
		app.Caption().Body(app.Code().Text("__consumer_offsets"), app.Text(tr(l, ": committed and pending transactional offsets"))),
		app.THead().Body(app.Tr().Body(app.Th().Text(tr(l, "group")), app.Th().Text(tr(l, "partition")), app.Th().Text(tr(l, "offset")), app.Th().Text(tr(l, "status")))),
		app.TBody().Body(app.Range(snap.Offsets).Slice(func(i int) app.UI {
			o := snap.Offsets[i]
			status := tr(l, "committed")
			if o.Pending {
				status = fmt.Sprintf(tr(l, "pending (transaction of pid %d)"), o.ProducerId)
			}
			return app.Tr().Class(map[bool]string{true: "pending", false: "committed"}[o.Pending]).Body(
				app.Td().Text(o.Group), app.Td().Text(o.Partition), app.Td().Text(o.Offset), app.Td().Text(status))
		})),
	)
}

// invariantsPanel shows each of core/safety's invariants green or red,
// in the language's order; its description is the catalogue's
// "invariant.NAME".
func (v *InspectorView) invariantsPanel(viol []check.Violation) app.UI {
	byName := map[string][]check.Violation{}
	for _, vi := range viol {
		byName[vi.Invariant] = append(byName[vi.Invariant], vi)
	}
	items := make([]app.UI, 0, len(safety.Invariants))
	for _, inv := range safety.Invariants {
		vs := byName[inv.Name]
		delete(byName, inv.Name)
		items = append(items, v.invariantItem(inv.Name, "invariant."+inv.Name, vs))
	}
	for name, vs := range byName { // an invariant this page does not know yet
		items = append(items, v.invariantItem(name, "", vs))
	}
	return app.Div().Body(
		app.P().Class("muted").Text(tr(v.Lang, "The checker reads the history up to this step. Each invariant is green while it holds.")),
		app.Ul().Class("invariants").Body(items...),
	)
}

func (v *InspectorView) invariantItem(name, what string, vs []check.Violation) app.UI {
	class, mark, status := "invariant ok", "✓", "ok"
	if len(vs) > 0 {
		class, mark, status = "invariant broken", "✗", "violated"
	}
	// The mark is for the eye; the status is also said in words, for a
	// screen reader and for anyone who does not tell red from green.
	return app.Li().Class(class).DataSet("invariant", name).DataSet("status", status).Body(
		app.Span().Class("inv-mark").Aria("hidden", "true").Text(mark),
		app.Code().Text(name),
		app.Span().Class("inv-status visually-hidden").Text(" ("+tr(v.Lang, "inv."+status)+")"),
		app.If(what != "", func() app.UI { return app.Span().Class("muted").Text(" — " + tr(v.Lang, what)) }),
		app.If(len(vs) > 0, func() app.UI {
			return app.Ul().Class("violations").Body(app.Range(vs).Slice(func(i int) app.UI {
				vi := vs[i]
				var links []app.UI
				for _, idx := range vi.Events {
					links = append(links, v.eventLink(idx))
				}
				if len(links) > 0 {
					links = append([]app.UI{app.Text(tr(v.Lang, "inv.evidence") + " ")}, links...)
				}
				return app.Li().Body(violationText(v.Lang, vi.Message), app.Text(" "), app.Span().Class("event-links").Body(links...))
			}))
		}),
	)
}

// eventLink moves to the step where an event happened and, for a message,
// opens it in the message panel. It is named by what happened (the API
// and its two ends, or the append), so a learner knows where it leads.
func (v *InspectorView) eventLink(idx int) app.UI {
	hist := v.Engine.History()
	if idx < 0 || idx >= len(hist) {
		return nil
	}
	e := &hist[idx]
	return app.Button().Type("button").Class("link event-link").DataSet("event", idx).DataSet("msg", e.MsgID).
		Title(fmt.Sprintf(tr(v.Lang, "inv.goto"), idx, StepOfEvent(v.Engine, idx))).
		OnClick(func(ctx app.Context, ev app.Event) { v.h.Follow(ctx, idx) }, Scoped(idx)).
		Text(EventName(v.Lang, v.Engine.Names(), e) + " (#" + strconv.Itoa(idx) + ")")
}

// EventName names an event in a link: "Produce p1 → broker-0",
// "Fetch response broker-0 → c1", "append orders/0@3 on broker-2".
func EventName(lang string, names *sim.Names, e *sim.Event) string {
	node := names.Name(e.Node)
	switch e.Kind {
	case sim.KindSend, sim.KindDeliver, sim.KindDrop:
		api := e.API.String()
		if e.Resp {
			api += " " + tr(lang, "inv.response")
		}
		return api + " " + node + " → " + names.Name(e.Peer)
	case sim.KindAppend:
		return fmt.Sprintf(tr(lang, "inv.append"), e.Subject, e.Offset, node)
	}
	return tr(lang, "event."+e.Kind.String()) + " " + node
}

// StepOfEvent is the first step whose trace includes event idx.
func StepOfEvent(e Engine, idx int) int {
	lo, hi := 0, e.Len()
	for lo < hi {
		mid := (lo + hi) / 2
		if e.EventsAt(mid) > idx {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// breakPanel offers a switch per safety mechanism. Turning one off writes
// `break NAME` into the script at this moment (`restore NAME` turns it
// back on), so the anomaly it lets through replays like everything else.
func (v *InspectorView) breakPanel(snap Snapshot) app.UI {
	broken := map[string]bool{}
	for _, m := range snap.Broken {
		broken[m] = true
	}
	idle := v.h.Unexercised()
	var items []app.UI
	for _, m := range safety.Mechanisms {
		on := !broken[m.Name]
		stmt := "break " + m.Name
		if !on {
			stmt = "restore " + m.Name
		}
		unused, never := idle[m.Name]
		items = append(items, app.Li().Class("switch-row").DataSet("mechanism", m.Name).DataSet("exercised", !never).Body(
			app.Button().Type("button").Class("switch").Role("switch").
				Aria("checked", on).
				Aria("label", m.Name).
				Title(stmt).
				OnClick(func(ctx app.Context, e app.Event) { v.h.Act(ctx, stmt) }, Scoped(stmt)).
				Body(app.Span().Class("knob")),
			app.Div().Body(
				app.Code().Text(m.Name),
				app.Span().Class(map[bool]string{true: "state-on", false: "state-off"}[on]).Text(" "+tr(v.Lang, map[bool]string{true: "on", false: "OFF"}[on])),
				app.P().Class("muted").Text(tr(v.Lang, "mechanism."+m.Name)),
				app.If(never, func() app.UI {
					return app.P().Class("unexercised").Text(fmt.Sprintf(tr(v.Lang, "break.never"), m.Name, tr(v.Lang, unused)))
				}),
			),
		))
	}
	return app.Div().Body(
		app.P().Class("muted").Text(tr(v.Lang, "pg.break.help")),
		app.Ul().Class("switches").Body(items...),
	)
}

// seen is what the break tab's scan found in a history, one field per
// precondition of core/safety's table.
type seen struct {
	bumped, moved, txnProduce, committedFetch, offsets, retried, endTV2, preparedOnLoad bool
}

// met says which of core/safety's preconditions the history met; each
// mechanism's entry names the one it needs (Needs).
func (s *seen) met() map[*safety.Precondition]bool {
	return map[*safety.Precondition]bool{
		safety.SecondEpoch: s.bumped, safety.CoordinatorMoved: s.moved, safety.TxnProduce: s.txnProduce,
		safety.ReadCommittedFetch: s.committedFetch, safety.TxnOffsetCommit: s.offsets,
		safety.RetriedBatch: s.retried, safety.EndTxnTV2: s.endTV2, safety.PreparedOnLoad: s.preparedOnLoad,
	}
}

// unexercisedMemo is the last unexercised answer: the break tab redraws
// at every step, and the answer depends on the whole history only.
var unexercisedMemo struct {
	engine Engine
	gen    int
	out    map[string]string
}

// UnexercisedOf is Unexercised(e.History()), once per history gen.
func UnexercisedOf(e Engine, gen int) map[string]string {
	m := &unexercisedMemo
	if m.out == nil || m.engine != e || m.gen != gen {
		m.engine, m.gen, m.out = e, gen, Unexercised(e.History())
	}
	return m.out
}

// Unexercised names the mechanisms a history never puts to work, each
// with the key of the reason: switching one of them off cannot change
// anything in this scenario, and the break tab says so rather than let a
// learner wait for an anomaly that cannot come. The tests are the
// mechanisms' preconditions, true whether the mechanism is on or off:
// epoch fencing needs a producer id with a second epoch; the
// coordinator-epoch check, a coordinator that moved (a marker of
// coordinator epoch above 0); AddPartitionsToTxn, a transactional
// Produce; the LSO bound and the aborted filter, a read_committed fetch;
// AddOffsetsToTxn, a TxnOffsetCommit; the sequence check, a retried
// idempotent batch; partition verification, a transactional Produce; the
// epoch bump, an EndTxn of transaction version 2; marker recovery, a
// coordinator that finds a prepared transaction while loading (its note
// says so whether it then sends the markers or not). An empty history (not
// run yet) proves nothing. Each mechanism's entry names its
// precondition (safety.Mechanism.Needs); TestEveryMechanismHasAPrecondition
// fails on a precondition of core/safety's table this scan does not judge.
func Unexercised(history []sim.Event) map[string]string {
	out := map[string]string{}
	if len(history) == 0 {
		return out
	}
	type batchKey struct {
		tp    string
		pid   int64
		epoch int16
		seq   int32
	}
	// sent is a message's API and direction, what the scan reads by.
	type sent struct {
		api  protocol.APIKey
		resp bool
	}
	epochs := map[int64]int16{}
	var got seen
	batches := map[batchKey]bool{}
	epoch := func(pid int64, e int16) {
		if pid < 0 || e < 0 {
			return
		}
		if old, ok := epochs[pid]; ok && old != e {
			got.bumped = true
		}
		epochs[pid] = e
	}
	for i := range history {
		e := &history[i]
		if e.Note != nil && (e.Note.Code == sim.NoteTxnFoundWhileLoading || e.Note.Code == sim.NoteTxnLeftPrepared) {
			got.preparedOnLoad = true
		}
		if e.Kind != sim.KindSend || e.Internal {
			continue
		}
		// By API and direction first: the page keeps a history's
		// messages encoded, and decoding the thousands this scan does
		// not read took tens of ms under wasm.
		switch (sent{e.API, e.Resp}) {
		case sent{protocol.InitProducerId, true}:
			if m, ok := protocol.Decoded(e.Msg).(*protocol.InitProducerIdResponse); ok {
				epoch(m.ProducerId, m.ProducerEpoch)
			}
		case sent{protocol.EndTxn, false}:
			if m, ok := protocol.Decoded(e.Msg).(*protocol.EndTxnRequest); ok {
				epoch(m.ProducerId, m.ProducerEpoch)
				got.endTV2 = got.endTV2 || protocol.VersionOf(m) >= protocol.EndTxnTV2Version
			}
		case sent{protocol.WriteTxnMarkers, false}:
			if m, ok := protocol.Decoded(e.Msg).(*protocol.WriteTxnMarkersRequest); ok {
				for _, mk := range m.Markers {
					epoch(mk.ProducerId, mk.ProducerEpoch)
					got.moved = got.moved || mk.CoordinatorEpoch > 0
				}
			}
		case sent{protocol.Produce, false}:
			if m, ok := protocol.Decoded(e.Msg).(*protocol.ProduceRequest); ok {
				got.txnProduce = got.txnProduce || m.TransactionalId != ""
				for _, pd := range m.Partitions {
					b := &pd.Records
					epoch(b.ProducerId, b.ProducerEpoch)
					if b.BaseSequence >= 0 {
						k := batchKey{pd.TopicPartition.String(), b.ProducerId, b.ProducerEpoch, b.BaseSequence}
						got.retried = got.retried || batches[k]
						batches[k] = true
					}
				}
			}
		case sent{protocol.Fetch, false}:
			if m, ok := protocol.Decoded(e.Msg).(*protocol.FetchRequest); ok {
				got.committedFetch = got.committedFetch || (m.ReplicaId == protocol.ConsumerReplicaId && m.IsolationLevel == protocol.ReadCommitted)
			}
		case sent{protocol.TxnOffsetCommit, false}:
			got.offsets = true
		}
	}
	met := got.met()
	for _, m := range safety.Mechanisms {
		if !met[m.Needs] {
			out[m.Name] = "break.never." + m.Needs.Name
		}
	}
	return out
}
