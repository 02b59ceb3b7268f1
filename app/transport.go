package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/protocol"
)

// transportButton keeps a control focusable when it has nothing to do
// (aria-disabled, not disabled), so keyboard focus does not fall back to
// the page when, say, Step reaches the end. Handlers ignore such clicks
// because the engine clamps every move.
func transportButton(label, glyph, key string, inactive bool, h app.EventHandler) app.UI {
	title := label
	if key != "" {
		title += " (" + key + ")"
	}
	return app.Button().Type("button").Class("transport-button").
		Aria("label", label).
		Aria("disabled", inactive).
		Title(title).
		OnClick(h).
		Body(
			app.Span().Class("glyph").Aria("hidden", "true").Text(glyph),
			app.Span().Class("button-text").Text(label),
		)
}

func (p *playground) renderTransport() app.UI {
	pos, n := p.engine.Pos(), p.engine.Len()
	return app.Div().Class("transport-panel").Body(
		app.Div().Class("transport").Role("toolbar").Aria("label", "Transport").Body(
			transportButton("Reset", "⇤", "Home", pos == 0, p.onReset),
			transportButton("Step back", "◀", "←", pos == 0, p.onStepBack),
			transportButton("Play", "▶", "space", p.playing || n == 0, p.onPlay),
			transportButton("Pause", "❚❚", "space", !p.playing, p.onPause),
			transportButton("Step", "▶|", "→", pos >= n, p.onStep),
			transportButton("Run to end", "⇥", "End", pos >= n, p.onRunToEnd),
			app.Label().Class("speed").Body(
				app.Span().Class("control-label").Text("Speed"),
				&choice{Label: "Speed", Values: speedValues, Texts: speedTexts, Selected: strconv.Itoa(p.speed), onChange: p.onSpeed},
			),
		),
		app.Div().Class("scrubber").Body(
			app.Input().Type("range").ID("scrubber").Class("scrub").
				Aria("label", "Position in the history").
				Min(0).Max(n).Step(1).Value(strconv.Itoa(pos)).
				Aria("valuetext", fmt.Sprintf("step %d of %d", pos, n)).
				OnInput(p.onScrub),
			app.Span().Class("run-until").Body(
				&choice{Label: "API to run until", Values: apiNames, Texts: apiNames, Selected: p.untilAPI, onChange: p.onUntilAPI},
				app.Button().Type("button").Class("transport-button").Aria("label", "Run until").
					Title("Step until the next message of this API").
					Aria("disabled", pos >= n).
					OnClick(p.onRunUntil).Text("Run until"),
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
	Class    string
	Label    string
	Values   []string
	Texts    []string
	Selected string
	onChange app.EventHandler // kept from the first render: a method of the page
}

func (c *choice) Render() app.UI {
	opts := make([]app.UI, len(c.Values))
	for i, v := range c.Values {
		opts[i] = app.Option().Value(v).Selected(v == c.Selected).Text(c.Texts[i])
	}
	sel := app.Select().Aria("label", c.Label).OnChange(c.onChange).Body(opts...)
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
	line := "finished"
	if l := p.engine.Line(); l > 0 {
		line = "line " + strconv.Itoa(l)
	}
	busy, running := p.engine.Busy()
	return app.Div().Class("status").Body(
		app.Span().Class("position").Text(fmt.Sprintf("Step %d of %d", pos, n)),
		app.Span().Class("clock").Title("Virtual time: the simulation's own clock").Text("t = "+p.engine.Now().String()),
		app.Span().Class("line").Text(line),
		app.If(running, func() app.UI {
			return app.Span().Class("busy").Role("status").Text(fmt.Sprintf("running the script… %d steps", busy))
		}),
		app.Output().Class("digest").DataSet("digest", p.engine.Digest()).
			Title("Trace digest up to this step: at the end, `txnlab run` prints the same digest for the same script").
			Text("digest "+p.engine.Digest()),
		app.If(p.actionMsg != "", func() app.UI {
			c := "action-msg"
			if p.actionErr {
				c += " error"
			}
			return app.Span().Class(c).Role("status").Text(p.actionMsg)
		}),
	)
}
