package app

import (
	"errors"
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/core/sim"
)

// playInterval is the wall-clock time between two steps while playing. It
// changes only how fast the learner watches, never what happens: the
// history is fixed when the script loads.
const playInterval = 450 * time.Millisecond

// defaultScript greets a learner who opens the playground directly.
const defaultScript = `# Edit this script: the diagram follows.
producer -> broker-0: FindCoordinator(txn=order-txn-1)
broker-0 -> producer: → coordinator=broker-0
producer -> broker-0: InitProducerId(txn=order-txn-1)
broker-0 -> producer: → pid=0 epoch=1
note broker-0: txn order-txn-1 Empty
`

// playground is the full playground: the script, the transport, the
// sequence diagram, the cluster and the trace. It holds the engine and asks
// it for everything it shows, so what is on screen is always a function of
// (script, position).
type playground struct {
	app.Compo

	engine Engine

	// editorText is what the textarea was last given from outside (a
	// scenario, the default). Typing changes script only: re-rendering the
	// textarea's value on every keystroke would move the caret to the end.
	editorText string
	script     string
	scriptErr  *ScriptError
	loadErr    string
	notice     string

	playing bool
	// playGen invalidates ticks scheduled by an earlier Play, so Pause then
	// Play never runs two timers.
	playGen int
}

func (p *playground) OnNav(ctx app.Context) {
	setPage(ctx, "Playground", "Step through a simulated Kafka cluster running a transaction.")
	p.stop()
	p.notice = ""
	script := defaultScript
	if slug := ctx.Page().URL().Query().Get("scenario"); slug != "" {
		if sc, ok := scenarioBySlug(slug); ok {
			script = sc.Script
		} else {
			p.notice = fmt.Sprintf("There is no scenario named %q; here is the default script.", slug)
		}
	}
	p.editorText, p.script = script, script
	p.load()
}

// load gives the engine the current script and rewinds it.
func (p *playground) load() {
	p.scriptErr, p.loadErr = nil, ""
	if err := p.engine.Load(p.script); err != nil {
		var se *ScriptError
		if errors.As(err, &se) {
			p.scriptErr = se
		}
		p.loadErr = err.Error()
	}
}

func (p *playground) stop() {
	p.playing = false
	p.playGen++
}

func (p *playground) onInput(ctx app.Context, e app.Event) {
	p.script = ctx.JSSrc().Get("value").String()
	p.stop()
	p.load()
}

func (p *playground) onReset(ctx app.Context, e app.Event) {
	p.stop()
	p.load()
}

func (p *playground) onStepBack(ctx app.Context, e app.Event) {
	p.stop()
	p.engine.StepBack()
}

func (p *playground) onStep(ctx app.Context, e app.Event) {
	p.stop()
	p.engine.Step()
}

func (p *playground) onRunToEnd(ctx app.Context, e app.Event) {
	p.stop()
	p.engine.Seek(p.engine.Len())
}

func (p *playground) onPause(ctx app.Context, e app.Event) { p.stop() }

func (p *playground) onPlay(ctx app.Context, e app.Event) {
	if p.playing || p.engine.Len() == 0 {
		return
	}
	if p.engine.Pos() >= p.engine.Len() {
		p.engine.Seek(0) // Play at the end replays, as media players do.
	}
	p.stop()
	p.playing = true
	p.tick(ctx, p.playGen)
}

func (p *playground) tick(ctx app.Context, gen int) {
	ctx.After(playInterval, func(ctx app.Context) {
		if !p.playing || gen != p.playGen {
			return
		}
		if !p.engine.Step() || p.engine.Pos() >= p.engine.Len() {
			p.playing = false
			return
		}
		p.tick(ctx, gen)
	})
}

func (p *playground) Render() app.UI {
	events := p.engine.Events()
	pos, n := p.engine.Pos(), p.engine.Len()
	clock := sim.Time(0)
	if len(events) > 0 {
		clock = events[len(events)-1].At
	}

	return shell(PathPlayground,
		app.H1().Class("visually-hidden").Text("Playground"),
		app.If(p.notice != "", func() app.UI {
			return app.P().Class("notice").Role("status").Text(p.notice)
		}),
		app.Div().Class("playground").Body(
			p.renderEditor(),
			app.Section().Class("stage").Aria("label", "Simulation").Body(
				app.Div().Class("transport").Role("toolbar").Aria("label", "Transport").Body(
					transportButton("Reset", false, p.onReset),
					transportButton("Step back", pos == 0, p.onStepBack),
					transportButton("Play", p.playing || n == 0, p.onPlay),
					transportButton("Pause", !p.playing, p.onPause),
					transportButton("Step", pos >= n, p.onStep),
					transportButton("Run to end", pos >= n, p.onRunToEnd),
				),
				app.P().Class("status").Body(
					app.Span().Class("position").Text(fmt.Sprintf("Step %d of %d", pos, n)),
					app.Span().Class("clock").Text("t = "+clock.String()),
					app.Output().Class("digest").DataSet("digest", p.engine.Digest()).
						Title("Trace digest: the same script gives the same digest here and in the CLI").
						Text("digest "+p.engine.Digest()),
				),
				app.Div().Class("diagram-scroll").Body(sequenceDiagram(events, "trace")),
			),
			clusterPanel(events),
			app.Section().Class("trace").Aria("label", "Trace").Body(
				app.H2().Text("Trace"),
				app.Ol().ID("trace").Body(
					app.Range(events).Slice(func(i int) app.UI {
						return app.Li().Text(events[i].Line())
					}),
				),
			),
		),
	)
}

func (p *playground) renderEditor() app.UI {
	area := app.Textarea().ID("script").
		Aria("label", "Scenario script").
		Spellcheck(false).
		Rows(18).
		Text(p.editorText).
		// The child text is what the pre-rendered page shows before the
		// wasm runs (a textarea ignores a value attribute in HTML).
		Body(app.Text(p.editorText)).
		OnInput(p.onInput)
	if p.loadErr != "" {
		area = area.Aria("invalid", "true").Aria("describedby", "script-error")
	}
	return app.Section().Class("editor").Aria("label", "Script").Body(
		app.H2().Text("Script"),
		area,
		app.If(p.loadErr != "", func() app.UI {
			if se := p.scriptErr; se != nil {
				return app.P().ID("script-error").Class("script-error").Role("alert").
					DataSet("line", se.Line).DataSet("col", se.Col).
					Text(fmt.Sprintf("Line %d, column %d: %s", se.Line, se.Col, se.Msg))
			}
			return app.P().ID("script-error").Class("script-error").Role("alert").Text(p.loadErr)
		}),
	)
}

// transportButton keeps a control focusable when it has nothing to do
// (aria-disabled, not disabled), so keyboard focus does not fall back to
// the page when, say, Step reaches the end. Handlers ignore such clicks
// because the engine clamps every move.
func transportButton(label string, inactive bool, h app.EventHandler) app.UI {
	return app.Button().Type("button").Class("transport-button").
		Aria("label", label).
		Aria("disabled", inactive).
		Text(label).
		OnClick(h)
}

// clusterPanel shows a card per node with what the trace last said about
// it. It is a placeholder for the core's snapshots (roles, pids, epochs),
// which the Engine will expose once the core has them.
func clusterPanel(events []sim.Event) app.UI {
	nodes := lanes(events)
	last := make(map[sim.NodeID]string, len(nodes))
	for i := range events {
		e := &events[i]
		switch e.Kind {
		case sim.KindSend:
			last[e.Node] = "sent " + e.API
		case sim.KindState:
			last[e.Node] = e.Subject + ": " + e.To
		case sim.KindCrash, sim.KindRestart, sim.KindPause, sim.KindResume:
			last[e.Node] = e.Kind.String()
		default:
			if e.Text != "" {
				last[e.Node] = e.Text
			}
		}
	}
	return app.Section().Class("cluster").Aria("label", "Cluster").Body(
		app.H2().Text("Cluster"),
		app.If(len(nodes) == 0, func() app.UI {
			return app.P().Class("empty").Text("No node has done anything yet: press Step.")
		}),
		app.Ul().Class("node-cards").Body(
			app.Range(nodes).Slice(func(i int) app.UI {
				n := nodes[i]
				return app.Li().Class("node-card").DataSet("node", string(n)).Body(
					app.H3().Text(string(n)),
					app.P().Text(last[n]),
				)
			}),
		),
	)
}
