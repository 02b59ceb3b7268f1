package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/protocol"
	"txnlab/core/sim"
	"txnlab/diagram"
)

// transportNames are the transport buttons' names by data-action: the
// English aria-labels the playground's contract fixes (tests and outside
// checks select button[aria-label="Step"]).
var transportNames = map[string]string{
	"reset": "Reset", "back": "Step back", "play": "Play", "pause": "Pause", "step": "Step", "end": "Run to end",
}

// transportButton keeps a control focusable when it has nothing to do
// (aria-disabled, not disabled), so keyboard focus does not fall back to
// the page when, say, Step reaches the end. Handlers ignore such clicks
// because the engine clamps every move. action is the button's stable
// name (data-action); its text is in the page's language, and so is what
// a screen reader says (named, see contractName).
func transportButton(lang, idPrefix, action, glyph, key string, inactive bool, h app.EventHandler) app.UI {
	name := transportNames[action]
	label := tr(lang, name)
	title := label
	if key != "" {
		title += " (" + key + ")"
	}
	text := app.Span().Class("button-text").Text(label)
	b := app.Button().Type("button").Class("transport-button").
		DataSet("action", action).
		Aria("label", name).
		Aria("disabled", inactive).
		Title(title).
		OnClick(h)
	if label != name && idPrefix != "" {
		id := idPrefix + "-" + action
		text, b = text.ID(id), b.Aria("labelledby", id)
	}
	return b.Body(app.Span().Class("glyph").Aria("hidden", "true").Text(glyph), text)
}

// transportControls is what the transport's buttons draw from: a
// position in a history, whether it plays, and what each button does. Any
// page with an engine draws them (the full playground, a lesson's
// embedded playground); none needs the page itself.
type transportControls struct {
	Lang string // "en" or "zh": the buttons' labels
	// IDPrefix makes the ids of the buttons' labels unique on a page
	// with several transports.
	IDPrefix string
	Pos, Len int
	Playing  bool
	// Keys shows the keyboard shortcut in each title: only the full
	// playground listens to the keys.
	Keys bool

	// Stale makes every control inactive: the history is not the
	// script's (the editor holds a parse error).
	Stale bool

	// OnReset nil leaves Reset out: a lesson's playground has its own,
	// which also restores the lesson's script.
	OnReset, OnBack, OnPlay, OnPause, OnStep, OnEnd app.EventHandler
}

// buttons are reset, step back, play, pause, step and run to end, each
// with data-action reset|back|play|pause|step|end.
func (t transportControls) buttons() []app.UI {
	key := func(k string) string {
		if t.Keys {
			return k
		}
		return ""
	}
	pos, n, l := t.Pos, t.Len, t.Lang
	if t.Stale {
		pos, n = 0, 0 // every button inactive
	}
	var out []app.UI
	if t.OnReset != nil {
		out = append(out, transportButton(l, t.IDPrefix, "reset", "⇤", key("Home"), pos == 0, t.OnReset))
	}
	return append(out,
		transportButton(l, t.IDPrefix, "back", "◀", key("←"), pos == 0, t.OnBack),
		transportButton(l, t.IDPrefix, "play", "▶", key("space"), t.Playing || n == 0, t.OnPlay),
		transportButton(l, t.IDPrefix, "pause", "❚❚", key("space"), !t.Playing, t.OnPause),
		transportButton(l, t.IDPrefix, "step", "▶|", key("→"), pos >= n, t.OnStep),
		transportButton(l, t.IDPrefix, "end", "⇥", key("End"), pos >= n, t.OnEnd),
	)
}

// scrubber is the range input over the whole history (data-action
// "seek").
func (t transportControls) scrubber(onInput app.EventHandler) app.HTMLInput {
	return app.Input().Type("range").Class("scrub").DataSet("action", "seek").
		Aria("label", tr(t.Lang, "Position in the history")).
		Min(0).Max(t.Len).Step(1).Value(strconv.Itoa(t.Pos)).
		Aria("valuetext", fmt.Sprintf(tr(t.Lang, "step %d of %d"), t.Pos, t.Len)).
		Disabled(t.Stale).
		OnInput(onInput)
}

// controls are the playground's transport's inputs.
func (p *playground) controls() transportControls {
	return transportControls{Lang: p.lang, IDPrefix: "transport", Pos: p.engine.Pos(), Len: p.engine.Len(), Playing: p.playing, Keys: true, Stale: p.stale(),
		OnReset: p.onReset, OnBack: p.onStepBack, OnPlay: p.onPlay, OnPause: p.onPause, OnStep: p.onStep, OnEnd: p.onRunToEnd}
}

func (p *playground) renderTransport() app.UI {
	pos, n := p.engine.Pos(), p.engine.Len()
	t := p.controls()
	l := p.lang
	untilName := labelledBy(l, "Run until", "run-until-name")
	_, apiName := localName(l, "API to run until", "until-api-name")
	return app.Div().Class("transport-panel").Body(
		app.Div().Class("transport").Role("toolbar").Aria("label", tr(l, "Transport")).Body(
			append(t.buttons(),
				app.Label().Class("speed").Body(
					app.Span().Class("control-label").ID("speed-name").Text(tr(l, "Speed")),
					&choice{Label: "Speed", LabelledBy: labelledBy(l, "Speed", "speed-name"), Values: speedValues, Texts: speedTexts, Selected: strconv.Itoa(p.speed), onChange: p.onSpeed},
				),
				app.Label().Class("check skip-quiet").Title(tr(t.Lang, "play.skipquiet.title")).Body(
					app.Input().Type("checkbox").DataSet("action", "skip-quiet").Checked(p.player.quiet != nil).OnChange(p.onSkipQuiet),
					app.Text(" "+tr(t.Lang, "play.skipquiet")),
				),
				app.Button().Type("button").Class("transport-button").DataSet("action", "next-interesting").
					Title(tr(t.Lang, "play.next.title")).
					Aria("disabled", t.Stale || pos >= n).
					OnClick(p.onNextInteresting).Text(tr(t.Lang, "play.next")),
			)...,
		),
		app.Div().Class("scrubber").Body(
			t.scrubber(p.onScrub).ID("scrubber"),
			app.Span().Class("run-until").Body(
				app.If(apiName != nil, func() app.UI { return apiName }),
				&choice{Label: "API to run until", LabelledBy: labelledBy(l, "API to run until", "until-api-name"), Values: apiNames, Texts: apiNames, Selected: p.untilAPI, onChange: p.onUntilAPI},
				app.Button().Type("button").Class("transport-button").Aria("label", "Run until").
					Aria("labelledby", untilName).
					Title(tr(l, "Step until the next message of this API")).
					Aria("disabled", pos >= n).
					OnClick(p.onRunUntil).Body(app.Span().ID(untilName).Text(tr(l, "Run until"))),
			),
		),
		p.renderStatus(),
	)
}

// The options of the transport's selects.
var speedValues, speedTexts, apiNames = func() (v, t, a []string) {
	for i, s := range speeds {
		v, t = append(v, strconv.Itoa(i)), append(t, formatSpeed(s))
	}
	for _, k := range protocol.APIs {
		a = append(a, k.String())
	}
	return v, t, a
}()

// choice is a select whose options never change: a component, so go-app
// does not rebuild and compare its options at every step.
type choice struct {
	app.Compo
	Class string
	Label string
	// LabelledBy is the id of the select's name in the page's language,
	// when Label (its English aria-label, which tests select by) is not.
	LabelledBy string
	Values     []string
	Texts      []string
	Selected   string
	onChange   app.EventHandler // kept from the first render: a method of the page
}

func (c *choice) Render() app.UI {
	opts := make([]app.UI, len(c.Values))
	for i, v := range c.Values {
		opts[i] = app.Option().Value(v).Selected(v == c.Selected).Text(c.Texts[i])
	}
	sel := app.Select().Aria("label", c.Label).OnChange(c.onChange).Body(opts...)
	if c.LabelledBy != "" {
		sel = sel.Aria("labelledby", c.LabelledBy)
	}
	if c.Class != "" {
		sel = sel.Class(c.Class)
	}
	return sel
}

func formatSpeed(s float64) string {
	return strconv.FormatFloat(s, 'f', -1, 64) + "×"
}

func (p *playground) renderStatus() app.UI {
	pos, n := p.engine.Pos(), p.engine.Len()
	lang := p.lang
	line := tr(lang, "finished")
	if l := p.engine.Line(); l > 0 {
		line = fmt.Sprintf(tr(lang, "line %d"), l)
	}
	busy, running := p.engine.Busy()
	// data-running: a run is in progress, from its first moment (the
	// busy note shows only once it lasts): the engine's worker answers a
	// run a message later, and the tests wait for it.
	return app.Div().Class("status").DataSet("running", running).Body(
		app.If(p.stale(), func() app.UI {
			se := p.scriptErr
			return app.P().Class("stale-note").Role("alert").DataSet("stale", se.Line).Text(fmt.Sprintf(
				tr(lang, "pg.stale.note"), se.Line, se.Col))
		}),
		app.Span().Class("position").DataSet("pos", pos).DataSet("len", n).Text(fmt.Sprintf(tr(lang, "Step %d of %d"), pos, n)),
		app.Span().Class("clock").Title(tr(lang, "pg.clock")).Text("t = "+p.engine.Now().String()),
		app.Span().Class("line").Text(line),
		app.If(running, func() app.UI {
			return app.Span().Class("busy").Role("status").Text(fmt.Sprintf(tr(lang, "running the script… %d steps"), busy))
		}),
		app.Output().Class("digest").DataSet("digest", p.engine.Digest()).
			Title(tr(lang, "pg.digest")).
			Text(fmt.Sprintf(tr(lang, "digest %s"), p.engine.Digest())),
		app.If(p.actionMsg != "", func() app.UI {
			c := "action-msg"
			if p.actionErr {
				c += " error"
			}
			return app.Span().Class(c).Role("status").Text(p.actionMsg)
		}),
		p.helpButton(),
	)
}

// onSkipQuiet turns on or off the passing of quiet steps while playing.
func (p *playground) onSkipQuiet(ctx app.Context, e app.Event) {
	if ctx.JSSrc().Get("checked").Bool() {
		f := &p.filter // the filter at each step, not the one of this moment
		p.player.quiet = func(e Engine, pos int) bool { return quietStep(e, *f, pos) }
	} else {
		p.player.quiet = nil
	}
}

// onNextInteresting moves to the next step where something new happens
// (nextInteresting), passing waits and the repeats of a retry loop.
func (p *playground) onNextInteresting(ctx app.Context, e app.Event) {
	if p.refuseStale() {
		return
	}
	p.stop()
	p.seekFound(ctx, nextInteresting(p.engine, p.filter), tr(p.controls().Lang, "play.next.none"))
}

// seekFound moves to step i, found by a search forward, and shows it
// newest first; i ≤ 0 means the search found nothing, which none says.
func (p *playground) seekFound(ctx app.Context, i int, none string) {
	if i <= 0 {
		p.say(true, none)
		return
	}
	p.engine.Seek(i)
	p.say(false, "")
	p.followNewest(ctx)
}

// quietStep reports whether step pos (the events between positions pos-1
// and pos) shows nothing under the filter: a timer that only advances
// the clock, a replica fetch the diagram hides.
func quietStep(e Engine, f diagram.Filter, pos int) bool {
	evs := e.History()
	for j := e.EventsAt(pos - 1); j < e.EventsAt(pos); j++ {
		if f.Shows(&evs[j]) {
			return false
		}
	}
	return true
}

// repeatWindow is how many steps back a message counts as the same one
// again: a retry every 100 ms for two minutes is one thing happening.
const repeatWindow = 64

// nextInteresting is the first step after Pos that shows, under the
// filter, something other than a routine message: a state change, an
// append, a crash, a loss, an expectation, a note, or a message whose
// API, ends and error did not already go by in the repeatWindow steps
// before it. It is -1 when nothing of the kind is left.
func nextInteresting(e Engine, f diagram.Filter) int {
	evs := e.History()
	type sig struct {
		from, to      sim.NodeID
		api           protocol.APIKey
		err           protocol.ErrorCode
		resp, deliver bool
	}
	seen := map[sig]int{} // the step a message last went by at
	for i := max(1, e.Pos()-repeatWindow); i <= e.Len(); i++ {
		found := false
		for j := e.EventsAt(i - 1); j < e.EventsAt(i); j++ {
			ev := &evs[j]
			if !f.Shows(ev) {
				continue
			}
			switch ev.Kind {
			case sim.KindSend, sim.KindDeliver:
				k := sig{ev.Node, ev.Peer, ev.API, ev.Error, ev.Resp, ev.Kind == sim.KindDeliver}
				last, ok := seen[k]
				seen[k] = i
				if !ok || i-last > repeatWindow {
					found = true
				}
			default:
				found = true
			}
		}
		if found && i > e.Pos() {
			return i
		}
	}
	return -1
}
