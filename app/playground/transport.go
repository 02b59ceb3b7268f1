package playground

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/engine"
	"txnlab/app/uitext"
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
	label := uitext.Tr(lang, name)
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
		Aria("label", uitext.Tr(t.Lang, "Position in the history")).
		Min(0).Max(t.Len).Step(1).Value(strconv.Itoa(t.Pos)).
		Aria("valuetext", fmt.Sprintf(uitext.Tr(t.Lang, "step %d of %d"), t.Pos, t.Len)).
		Disabled(t.Stale).
		OnInput(onInput)
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

// quietStep reports whether step pos (the events between positions pos-1
// and pos) shows nothing under the filter: a timer that only advances
// the clock, a replica fetch the diagram hides.
func quietStep(e engine.Engine, f diagram.Filter, pos int) bool {
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
func nextInteresting(e engine.Engine, f diagram.Filter) int {
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
