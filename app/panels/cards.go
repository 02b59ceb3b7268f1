package panels

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/cluster"
)

// The cluster panel: a card per node at the current step, each button a
// scenario statement (see act), so whatever the learner does is a line of
// the script that can be saved and replayed.

// Act is how a card reports a button: it writes stmt into the script at
// the current step and runs it (the playground's act). A card holds the
// function, never the playground.
type Act func(ctx app.Context, stmt string)

// button is a card's button: its statement is its title, so the learner
// sees which line it will write.
func (a Act) button(label, stmt string, inactive bool, class ...string) app.UI {
	c := "action"
	if len(class) > 0 {
		c += " " + strings.Join(class, " ")
	}
	return app.Button().Type("button").Class(c).
		Aria("disabled", inactive).
		Title(stmt).
		DataSet("stmt", stmt).
		OnClick(func(ctx app.Context, e app.Event) {
			if inactive {
				return
			}
			a(ctx, stmt)
		}, Scoped(stmt, inactive)).
		Text(label)
}

// NewCluster is the cluster panel of state *snap at position pos of
// history gen, its buttons reporting through act.
func NewCluster(lang string, gen, pos int, snap *Snapshot, act Act) *ClusterView {
	return &ClusterView{Lang: lang, Gen: gen, StatePos: pos, Snap: snap, act: act}
}

// ClusterView is the cluster panel of the state at StatePos: a component,
// so go-app redraws it only when that state changes. Snap points at the
// state the playground shows (the pointer compares equal, so Gen and
// StatePos alone decide a redraw); act is how its buttons report.
type ClusterView struct {
	app.Compo
	Lang     string
	Gen      int
	StatePos int
	Snap     *Snapshot
	act      Act
}

func (c *ClusterView) Render() app.UI {
	snap := *c.Snap
	// data-pos is the position whose state the cards show: in a long
	// history it follows the position a frame later (idle.go).
	l := c.Lang
	clusterName := labelledBy(l, "Cluster", "cluster-name")
	sec := app.Section().Class("cluster").Aria("label", "Cluster").Aria("labelledby", clusterName).DataSet("pos", c.StatePos)
	head := app.Div().Class("panel-head").Body(
		app.H2().ID(clusterName).Text(tr(l, "Cluster")),
		app.Span().Class("muted").Text(tr(l, "Buttons write a line into the script at this moment and run it.")),
	)
	if !snap.Valid {
		return sec.Body(head, app.P().Class("empty").Text(tr(l, "The cluster does not exist yet: press Step.")))
	}
	// Brokers and clients in rows of their own: a broker card is short,
	// a producer's tall, and one grid row would stretch to the tallest.
	// Each card is a component of the view it draws: a move changes a
	// card or two, and go-app redraws and compares only those.
	var brokers, clients []app.UI
	for _, b := range snap.Brokers {
		brokers = append(brokers, &brokerCardView{Lang: l, B: b, act: c.act})
	}
	var partitions []string
	for _, pv := range snap.Partitions {
		partitions = append(partitions, pv.Partition)
	}
	group, offsets := OffsetsGuess(snap)
	for _, pr := range snap.Producers {
		clients = append(clients, &producerCardView{Lang: l, P: pr, Partitions: partitions, Group: group, Offsets: offsets, act: c.act})
	}
	for _, cv := range snap.Consumers {
		clients = append(clients, &consumerCardView{Lang: l, C: cv, act: c.act})
	}
	return sec.Body(head,
		app.Ul().Class("node-cards brokers").Aria("label", tr(l, "Brokers")).Body(brokers...),
		app.If(len(clients) > 0, func() app.UI {
			return app.Ul().Class("node-cards clients").Aria("label", tr(l, "Clients")).Body(clients...)
		}),
	)
}

// brokerCardView is a broker's card: its fields are all it draws from.
type brokerCardView struct {
	app.Compo
	Lang string
	B    cluster.BrokerView
	act  Act
}

func (c *brokerCardView) Render() app.UI { return brokerCard(c.Lang, c.act, c.B) }

// producerCardView is a producer's card, with what its forms offer: the
// partitions and the send-offsets guess (offsetsGuess).
type producerCardView struct {
	app.Compo
	Lang           string
	P              cluster.ProducerView
	Partitions     []string
	Group, Offsets string
	act            Act
}

func (c *producerCardView) Render() app.UI {
	return ProducerCard(c.Lang, c.act, c.P, c.Partitions, c.Group, c.Offsets)
}

// consumerCardView is a consumer's card.
type consumerCardView struct {
	app.Compo
	Lang string
	C    cluster.ConsumerView
	act  Act
}

func (c *consumerCardView) Render() app.UI { return consumerCard(c.Lang, c.act, c.C) }

func statusBadge(lang, status string, fenced bool) app.UI {
	text := status
	if fenced && status == "up" {
		text = "fenced"
	}
	return app.Span().Class("badge status-"+text).DataSet("status", text).Text(tr(lang, "status."+text))
}

func brokerCard(l string, a Act, b cluster.BrokerView) app.UI {
	down := b.Status == "crashed"
	var roles []app.UI
	if len(b.CoordinatorOf) > 0 {
		roles = append(roles, app.Li().Body(app.Span().Class("role").Text(tr(l, "txn coordinator of")+" "), app.Code().Text(strings.Join(b.CoordinatorOf, ", "))))
	}
	if len(b.GroupCoordinatorOf) > 0 {
		roles = append(roles, app.Li().Body(app.Span().Class("role").Text(tr(l, "group coordinator of")+" "), app.Code().Text(strings.Join(b.GroupCoordinatorOf, ", "))))
	}
	if len(b.LeaderOf) > 0 {
		roles = append(roles, app.Li().Body(app.Span().Class("role").Text(tr(l, "leader of")+" "), app.Code().Text(strings.Join(b.LeaderOf, ", "))))
	}
	if len(roles) == 0 {
		roles = append(roles, app.Li().Class("muted").Text(tr(l, "no leadership")))
	}
	return app.Li().Class("node-card broker "+b.Status).DataSet("node", b.Name).DataSet("status", b.Status).Body(
		app.Div().Class("card-head").Body(app.H3().Text(b.Name), statusBadge(l, b.Status, b.Fenced)),
		app.Ul().Class("roles").Body(roles...),
		app.Div().Class("actions").Body(
			a.button(tr(l, "Crash"), "crash "+b.Name, down, "danger"),
			a.button(tr(l, "Restart"), "restart "+b.Name, !down),
		),
	)
}

func ProducerCard(l string, a Act, pr cluster.ProducerView, partitions []string, group, offsets string) app.UI {
	n := pr.Name
	down := pr.Status == "crashed"
	paused := pr.Status == "paused"
	txn := pr.TransactionalId != ""
	// A producer in FATAL_ERROR can only be closed: every call of the
	// Java client throws again, so its buttons would only fail.
	fatal := pr.State == "FATAL_ERROR"
	last := ""
	if pr.LastCall != "" {
		last = pr.LastCall
		switch {
		case pr.Pending:
			last += " … " + tr(l, "pending")
		case pr.LastResult != "":
			last += " → " + pr.LastResult
		}
	}
	tpOptions := make([]app.UI, len(partitions))
	for i, tp := range partitions {
		tpOptions[i] = app.Option().Value(tp).Text(tp)
	}
	id := cardID(n)
	return app.Li().Class("node-card producer "+pr.Status).DataSet("node", n).DataSet("status", pr.Status).Body(
		app.Div().Class("card-head").Body(app.H3().Text(n), statusBadge(l, pr.Status, false)),
		app.Dl().Class("facts").Body(
			app.If(txn, func() app.UI {
				return app.Div().Body(app.Dt().Text("transactional.id"), app.Dd().Body(app.Code().Text(pr.TransactionalId)))
			}),
			app.Div().Body(app.Dt().Text("pid / epoch"), app.Dd().Text(pidEpoch(l, pr.ProducerId, pr.ProducerEpoch))),
			app.Div().Body(app.Dt().Text(tr(l, "state")), app.Dd().Body(app.Span().Class("client-state").Text(pr.State))),
			app.If(last != "", func() app.UI {
				return app.Div().Body(app.Dt().Text(tr(l, "last call")), app.Dd().Body(app.Code().Text(last)))
			}),
			app.If(pr.LastError != "", func() app.UI {
				return app.Div().Class("fact-error").Body(app.Dt().Text(tr(l, "last error")), app.Dd().Body(app.Code().Text(pr.LastError)))
			}),
		),
		app.If(fatal, func() app.UI {
			return app.P().Class("card-note").Text(tr(l, "pg.fatal"))
		}),
		app.Div().Class("actions").Body(
			a.button("init", n+" init", down || !txn || fatal),
			a.button("begin", n+" begin", down || !txn || fatal),
			a.button("commit", n+" commit", down || !txn || fatal),
			a.button("abort", n+" abort", down || !txn || fatal),
			app.If(!paused, func() app.UI { return a.button("pause", "pause "+n, down) }),
			app.If(paused, func() app.UI { return a.button("resume", "resume "+n, down) }),
			a.button("crash", "crash "+n, down, "danger"),
		),
		// Not a <form>: go-app runs handlers after the event, too late to
		// stop a submit from reloading the page.
		app.Div().Class("mini-form").Role("group").Aria("label", fmt.Sprintf(tr(l, "Send from %s"), n)).Body(
			app.Select().ID(id+"-tp").Aria("label", fmt.Sprintf(tr(l, "Partition for %s"), n)).Body(tpOptions...),
			app.Input().Type("text").ID(id+"-kv").Aria("label", fmt.Sprintf(tr(l, "Records for %s (key=value …)"), n)).
				Value("k1=v1").Size(9).Spellcheck(false),
			app.Button().Type("button").Class("action").Title(n+" send PARTITION key=value").DataSet("stmt-form", "send").
				Aria("disabled", down || fatal).
				OnClick(func(ctx app.Context, e app.Event) {
					if down || fatal {
						return
					}
					tp := formValue(id+"-tp", "")
					kv := strings.TrimSpace(formValue(id+"-kv", ""))
					a(ctx, strings.TrimSpace(n+" send "+tp+" "+kv))
				}, Scoped(n, down, fatal)).Text("send"),
		),
		app.If(txn, func() app.UI {
			return app.Div().Class("mini-form").Role("group").Aria("label", fmt.Sprintf(tr(l, "Send offsets from %s"), n)).Body(
				app.Input().Type("text").ID(id+"-group").Aria("label", fmt.Sprintf(tr(l, "Group for %s"), n)).Value(group).Size(7).Spellcheck(false),
				app.Input().Type("text").ID(id+"-offsets").Aria("label", fmt.Sprintf(tr(l, "Offsets for %s (topic/partition=offset …)"), n)).Value(offsets).Size(9).Spellcheck(false),
				app.Button().Type("button").Class("action").Title(n+" send-offsets GROUP TOPIC/PARTITION=OFFSET").DataSet("stmt-form", "send-offsets").
					Aria("disabled", down || fatal).
					OnClick(func(ctx app.Context, e app.Event) {
						if down || fatal {
							return
						}
						g := strings.TrimSpace(formValue(id+"-group", group))
						o := strings.TrimSpace(formValue(id+"-offsets", offsets))
						a(ctx, strings.TrimSpace(n+" send-offsets "+g+" "+o))
					}, Scoped(n, group, offsets, down, fatal)).Text("send-offsets"),
			)
		}),
	)
}

// Scoped keys a handler that captures row data: go-app keeps an element's
// handler across renders unless its scope changes (it compares handlers by
// code, and every closure of one literal has the same code), so a button
// reused for another card would otherwise run the old card's statement.
func Scoped(key ...any) app.EventOption { return app.EventScope(key...) }

// OffsetsGuess fills the send-offsets form with what a consume-transform-
// produce loop would send: the first consumer group's positions.
func OffsetsGuess(snap Snapshot) (group, offsets string) {
	group = "group-1"
	for _, c := range snap.Consumers {
		if c.GroupId == "" {
			continue
		}
		var parts []string
		for _, pos := range c.Positions {
			parts = append(parts, pos.Partition+"="+strconv.FormatInt(pos.Position, 10))
		}
		if len(parts) > 0 {
			return c.GroupId, strings.Join(parts, " ")
		}
	}
	if len(snap.Partitions) > 0 {
		return group, snap.Partitions[0].Partition + "=0"
	}
	return group, ""
}

func pidEpoch(lang string, pid int64, epoch int16) string {
	if pid < 0 {
		return tr(lang, "none yet")
	}
	return fmt.Sprintf("%d / %d", pid, epoch)
}

// cardID makes a client's name usable in element ids.
func cardID(name string) string { return "card-" + name }

// formValue reads a form control the browser owns (the page does not
// re-render it on every keystroke), or def before the wasm runs.
func formValue(id, def string) string {
	if !app.IsClient {
		return def
	}
	if v := app.Window().GetElementByID(id); v.Truthy() {
		return v.Get("value").String()
	}
	return def
}

func consumerCard(l string, a Act, c cluster.ConsumerView) app.UI {
	down := c.Status == "crashed"
	return app.Li().Class("node-card consumer "+c.Status).DataSet("node", c.Name).DataSet("status", c.Status).Body(
		app.Div().Class("card-head").Body(app.H3().Text(c.Name), statusBadge(l, c.Status, false)),
		app.Dl().Class("facts").Body(
			app.Div().Body(app.Dt().Text(tr(l, "isolation")), app.Dd().Body(app.Span().Class("isolation "+c.IsolationLevel).Text(c.IsolationLevel))),
			app.If(c.GroupId != "", func() app.UI {
				return app.Div().Body(app.Dt().Text(tr(l, "group")), app.Dd().Body(app.Code().Text(c.GroupId)))
			}),
		),
		app.If(len(c.Positions) == 0, func() app.UI {
			return app.P().Class("muted").Text(tr(l, "No partition assigned."))
		}),
		app.Table().Class("positions").Body(
			app.Range(c.Positions).Slice(func(i int) app.UI {
				pos := c.Positions[i]
				received := "—"
				if len(pos.Received) > 0 {
					received = strings.Join(pos.Received, " ")
				}
				return app.Tr().Body(
					app.Th().Scope("row").Text(pos.Partition),
					app.Td().Class("num").Title(tr(l, "position")).Text("@"+strconv.FormatInt(pos.Position, 10)),
					app.Td().Class("received").Title(tr(l, "values received")).Text(received),
				)
			}),
		),
		app.Div().Class("actions").Body(
			a.button("poll", c.Name+" poll", down),
			app.If(c.GroupId != "", func() app.UI { return a.button("commit", c.Name+" commit", down) }),
			a.button("pause", "pause "+c.Name, down || c.Status == "paused"),
			app.If(c.Status == "paused", func() app.UI { return a.button("resume", "resume "+c.Name, false) }),
			a.button("crash", "crash "+c.Name, down, "danger"),
		),
	)
}
