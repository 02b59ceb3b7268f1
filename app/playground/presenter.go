package playground

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"txnlab/app/browser"
	"txnlab/app/engine"
	"txnlab/app/panels"
	"txnlab/app/uitext"
)

// The presenter view: what an instructor puts on a projector. The
// diagram takes the whole screen, the type is large (a size control the
// browser keeps), the current step is said in words under it as a
// caption, beside the script's line that caused it, and a clicker's keys
// step: PageDown/PageUp (what remote clickers send), →/←, space, Home and
// End; B blanks the screen; P or Esc leaves. Everything in it is drawn
// from the same engine and diagram as the page it covers, so leaving it
// finds the page where the presentation left it. It needs nothing from
// the network: a static export serves it as the playground is served.

// PresenterSizes are the presenter's type sizes, in percent of the
// page's: the view is zoomed as a whole, so the diagram's arrows and
// labels grow with its text.
var PresenterSizes = []int{100, 125, 150, 175, 200, 250, 300}

// defaultPresenterSize is the size a first presentation starts at
// (150 %): legible from the back of a classroom at 1280×800.
const defaultPresenterSize = 2

// presenterSizeKey is the browser storage key of the size last chosen:
// an instructor sets it once per room and projector.
const presenterSizeKey = "txnlab.presenter.size"

// Presenter is the presenter view's state, which a page that can be
// presented embeds.
type Presenter struct {
	Presenting bool // the page is presented
	Size       int  // index in PresenterSizes
	Blank      bool // B blanked the screen
}

// StartPresenting shows the view at the size the browser kept.
func (v *Presenter) StartPresenting() {
	v.Presenting, v.Blank = true, false
	v.Size = defaultPresenterSize
	if app.IsClient {
		if n, err := strconv.Atoi(browser.GetItem(presenterSizeKey)); err == nil && n >= 0 && n < len(PresenterSizes) {
			v.Size = n
		}
	}
}

// StopPresenting goes back to the page as it was.
func (v *Presenter) StopPresenting() { v.Presenting, v.Blank = false, false }

// Resize moves the type size by delta steps and keeps it.
func (v *Presenter) Resize(delta int) {
	v.Size = max(0, min(v.Size+delta, len(PresenterSizes)-1))
	if app.IsClient {
		browser.SetItem(presenterSizeKey, strconv.Itoa(v.Size))
	}
}

// presenterKey tells whether key is one of the presenter's own keys
// (beyond the playground's): they are taken only while presenting, but
// for P, which enters it.
func presenterKey(key string, presenting bool) bool {
	switch key {
	case "p", "P":
		return true
	case "PageDown", "PageUp", "b", "B", "Escape":
		return presenting
	}
	return false
}

// sizeLabel is the size as the control shows it.
func (v *Presenter) sizeLabel() string { return strconv.Itoa(PresenterSizes[v.Size]) + "%" }

// PresenterBar is the view's controls: its name, the type size, Blank
// and Exit. Each names its key, for the instructor who reads it off the
// screen once.
func PresenterBar(lang string, v *Presenter, extra []app.UI, onSize func(app.Context, int), onBlank, onExit func(app.Context)) app.UI {
	sizeBtn := func(delta int, glyph, key string) app.UI {
		inactive := (delta < 0 && v.Size == 0) || (delta > 0 && v.Size == len(PresenterSizes)-1)
		return app.Button().Type("button").Class("tool pres-size").DataSet("action", "pres-"+key).
			Aria("label", uitext.Tr(lang, "pres."+key)).Title(uitext.Tr(lang, "pres."+key)).Aria("disabled", inactive).
			OnClick(func(ctx app.Context, e app.Event) { onSize(ctx, delta) }).Text(glyph)
	}
	body := []app.UI{
		app.Span().Class("pres-name").Text(uitext.Tr(lang, "pres.name")),
	}
	body = append(body, extra...)
	body = append(body,
		app.Span().Class("pres-size-group").Role("group").Aria("label", uitext.Tr(lang, "pres.size")).Body(
			app.Span().Class("control-label").Text(uitext.Tr(lang, "pres.size")),
			sizeBtn(-1, "A−", "smaller"),
			app.Output().Class("pres-size-value").DataSet("size", PresenterSizes[v.Size]).Text(v.sizeLabel()),
			sizeBtn(1, "A+", "larger"),
		),
		app.Button().Type("button").Class("tool").DataSet("action", "pres-blank").Attr("aria-keyshortcuts", "B").
			OnClick(func(ctx app.Context, e app.Event) { onBlank(ctx) }).Text(uitext.Tr(lang, "pres.blank")),
		app.Button().Type("button").Class("tool").DataSet("action", "pres-exit").Attr("aria-keyshortcuts", "Escape").
			OnClick(func(ctx app.Context, e app.Event) { onExit(ctx) }).Text(uitext.Tr(lang, "pres.exit")),
	)
	return app.Div().Class("pres-bar").Role("toolbar").Aria("label", uitext.Tr(lang, "pres.name")).Body(body...)
}

// PresenterBlank is the blanked screen: black, with nothing on it but a
// line for a screen reader; B (or a click) brings the view back.
func PresenterBlank(lang string, onBlank func(app.Context)) app.UI {
	return app.Div().Class("pres-blank").DataSet("blank", true).
		OnClick(func(ctx app.Context, e app.Event) { onBlank(ctx) }).
		Body(app.P().Class("visually-hidden").Role("status").Text(uitext.Tr(lang, "pres.blanked")))
}

// presenterCaption is the caption under the diagram: what the step did,
// in words, beside the script's line that did it.
func presenterCaption(lang string, e engine.Engine, said string) app.UI {
	n := e.Line()
	lineLabel, lineText := uitext.Tr(lang, "finished"), ""
	if n > 0 {
		lineLabel = fmt.Sprintf(uitext.Tr(lang, "line %d"), n)
		if lines := strings.Split(e.Script(), "\n"); n <= len(lines) {
			lineText = strings.TrimSpace(lines[n-1])
		}
	}
	if e.Pos() == 0 {
		lineLabel, lineText = "", ""
	}
	return app.Div().Class("pres-caption").Body(
		app.Div().Class("pres-line").DataSet("line", n).Body(
			app.Span().Class("pres-line-number").Text(lineLabel),
			app.Code().Class("pres-line-text").Text(lineText),
		),
		app.P().Class("pres-said").Text(said),
	)
}

// ---- The full playground's presenter view ----

// presentButton enters the presenter view.
func (p *playground) presentButton() app.UI {
	return app.Button().Type("button").Class("tool present-button").DataSet("action", "present").
		Attr("aria-keyshortcuts", "P").Title(uitext.Tr(p.run.lang, "pres.enter.title")).
		OnClick(func(ctx app.Context, e app.Event) { p.togglePresenting(ctx) }).
		Text(uitext.Tr(p.run.lang, "pres.enter"))
}

// togglePresenting enters or leaves the view; the diagram's box changes
// size, so it is measured again and the newest row kept in view.
func (p *playground) togglePresenting(ctx app.Context) {
	if p.view.Presenting {
		p.view.StopPresenting()
	} else {
		p.view.StartPresenting()
	}
	p.remeasure(ctx)
}

// remeasure measures the diagram's box after the next layout and
// scrolls its newest row into view (through the page's own context,
// from the frame's callback).
func (p *playground) remeasure(app.Context) {
	if !app.IsClient {
		return
	}
	p.beforePaint(func() {
		p.run.measureDiagram()
		if p.page.hasCtx {
			p.page.ctx.Dispatch(func(ctx app.Context) { p.run.follow(ctx) })
		}
	})
}

// onPresenterKey carries out a presenter's key; it reports false for a
// key the playground's own handling takes.
func (p *playground) onPresenterKey(ctx app.Context, key string) bool {
	if key == "p" || key == "P" {
		p.togglePresenting(ctx)
		return true
	}
	if !p.view.Presenting {
		return false
	}
	if key == "b" || key == "B" {
		p.view.Blank = !p.view.Blank
		return true
	}
	p.view.Blank = false
	switch key {
	case "Escape":
		p.togglePresenting(ctx)
	case "PageDown", " ":
		p.onStep(ctx, app.Event{})
	case "PageUp":
		p.onStepBack(ctx, app.Event{})
	default:
		return false
	}
	return true
}

// presenterClass is the playground's class while presented: CSS hides
// everything but the stage, which fills the screen at the chosen size.
func (p *playground) presenterClass() string {
	if p.view.Presenting {
		return "playground presenting"
	}
	return "playground"
}

// renderPresenterBar is the bar the stage has above it while presented.
func (p *playground) renderPresenterBar() app.UI {
	if !p.view.Presenting {
		return app.Text("")
	}
	return PresenterBar(p.run.lang, &p.view.Presenter, nil,
		func(ctx app.Context, d int) { p.view.Resize(d); p.remeasure(ctx) },
		func(ctx app.Context) { p.view.Blank = !p.view.Blank },
		func(ctx app.Context) { p.togglePresenting(ctx) })
}

// renderPresenterCaption is what the stage has under it while
// presented: the caption, and the blank screen over everything when B
// blanked it.
func (p *playground) renderPresenterCaption() app.UI {
	if !p.view.Presenting {
		return app.Text("")
	}
	return app.Div().Body(
		presenterCaption(p.run.lang, p.run.engine, panels.Narration(p.run.lang, p.run.engine, p.run.filter)),
		app.If(p.view.Blank, func() app.UI { return PresenterBlank(p.run.lang, func(app.Context) { p.view.Blank = false }) }),
	)
}
